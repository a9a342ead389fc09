/**
 * `toolgate init`: the servers an MCP client config in the repository starts, as sources
 * (pure). The files and their documented shapes: `.mcp.json` (Claude Code, Copilot),
 * `.cursor/mcp.json` (Cursor) and `claude_desktop_config.json` (Claude Desktop) with
 * `mcpServers`; `.vscode/mcp.json` (VS Code) with `servers` and `inputs`. A server fetched at
 * start (`npx pkg`, `uvx pkg`, `docker run image`) is pinned to the version the repository's
 * lockfile installs when it has one, and flagged with a TODO when nothing pins it.
 *
 * Every value is hostile input: copied only when {@link copyable}, environment variables by
 * NAME only (never their values), a URL without credentials or query string.
 */
import { isRunnerSecretName } from '../config/policy-diff.js';
import { quoted } from '../export/literals.js';
import { parseSettings } from '../export/settings-json.js';
import { fetchAtStartComment, installedCommand, type Installed } from './consumers.js';
import { npmPinned, parseLaunch, type Launch } from './launchers.js';
import type { Candidate, Pin } from './types.js';
import { copyable, isObject, MAX_VALUE, own, ownObject } from './values.js';

/** MCP client configuration files, relative to the repository root. */
export const CLIENT_CONFIGS = ['.mcp.json', '.cursor/mcp.json', '.vscode/mcp.json', 'claude_desktop_config.json'] as const;

/** More arguments or servers than these are not copied. */
const MAX_ARGS = 64;
const MAX_SERVERS = 50;

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/**
 * Names a client config may set that toolgate.yml must not pass on: the sandbox sets PATH, HOME
 * and the like itself (a copy would be overridden, or break the run when set from a secret), and
 * loader variables change what code the server runs.
 */
const NOT_COPIED_ENV = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'TMPDIR',
  'PWD',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'BASH_ENV',
  'ENV',
]);

/** A package as the repository's root installs it (see `resolveInstalled`). */
export type InstalledLookup = (name: string, bin?: string) => Installed | undefined;

/** What {@link clientConfig} found in one file. */
export interface ClientServers {
  found: Candidate[];
  /** npm packages its servers start (a dependency on one is not listed again on its own). */
  started: string[];
}

/**
 * The server map of an MCP client config: `mcpServers` (Claude, Cursor, Copilot) or `servers`
 * (VS Code), one source each (a source already found in another config is not repeated).
 * @param seen sources found so far, as JSON (shared across the configs of one run).
 */
export function clientConfig(file: string, text: string, seen: Set<string>, notes: string[], lookup: InstalledLookup): ClientServers {
  let doc: unknown;
  try {
    doc = parseSettings(text, file);
  } catch (e) {
    notes.push(`${file}: ${(e as Error).message}; not read`);
    return { found: [], started: [] };
  }
  if (!isObject(doc)) return { found: [], started: [] };
  const servers = { ...ownObject(doc, 'servers'), ...ownObject(doc, 'mcpServers') };
  const entries = Object.entries(servers);
  if (entries.length > MAX_SERVERS) notes.push(`${file}: names ${entries.length} servers; only the first ${MAX_SERVERS} are copied`);
  const found: Candidate[] = [];
  const started: string[] = [];
  for (const [name, server] of entries.slice(0, MAX_SERVERS)) {
    const label = `${file}: server ${quoted(name.slice(0, 100))}`;
    if (!isObject(server)) continue;
    const f = clientServer(file, name, server, label, notes, lookup);
    if (!f) continue;
    if (f.started) started.push(f.started);
    const key = JSON.stringify(f.found.source);
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(f.found);
  }
  return { found, started };
}

/** One entry of a client config's server map, or undefined (with a note) when it cannot be copied. */
function clientServer(
  file: string,
  name: string,
  s: Record<string, unknown>,
  label: string,
  notes: string[],
  lookup: InstalledLookup,
): { found: Candidate; started?: string } | undefined {
  const command = own(s, 'command');
  const url = own(s, 'url');
  if (typeof command === 'string') return stdioServer(file, name, s, command, label, notes, lookup);
  if (typeof url === 'string') {
    const found = httpServer(file, name, s, url, label, notes);
    return found && { found };
  }
  notes.push(`${label}: has neither command nor url: not copied`);
  return undefined;
}

/** VS Code's `${workspaceFolder}` at the start of an argument, written as the repository root (where toolgate starts servers). */
function workspaceRelative(args: readonly string[]): [args: string[], replaced: boolean] {
  let replaced = false;
  const out = args.map((a) => {
    const m = /^\$\{workspaceFolder\}(?:\/(.*))?$/.exec(a);
    if (!m) return a;
    replaced = true;
    return m[1] || '.';
  });
  return [out, replaced];
}

/** A stdio server: its command and args as written, or pinned to the installed version; env names only. */
function stdioServer(
  file: string,
  name: string,
  s: Record<string, unknown>,
  written: string,
  label: string,
  notes: string[],
  lookup: InstalledLookup,
): { found: Candidate; started?: string } | undefined {
  const rawArgs = own(s, 'args') ?? [];
  if (!Array.isArray(rawArgs) || rawArgs.length > MAX_ARGS || !copyable(written) || !rawArgs.every((a) => copyable(a) || a === '')) {
    notes.push(
      `${label}: its command or args are not plain strings (control or invisible characters, or over ${MAX_ARGS} args of ${MAX_VALUE} characters): not copied`,
    );
    return undefined;
  }
  // Windows' wrapper (`cmd /c npx …`, as the MCP servers' README shows it): toolgate runs on Linux.
  const [first, second, ...others] = rawArgs as string[];
  const windows = /^cmd(\.exe)?$/i.test(written) && /^\/c$/i.test(first ?? '') && second !== undefined && second !== '';
  const command = windows ? second : written;
  const [args, replaced] = workspaceRelative(windows ? others : (rawArgs as string[]));
  if (args.includes('proxy') && [command, ...args].some((a) => /(^|\/)toolgate(@|$)/.test(a))) {
    notes.push(`${label}: already runs through \`toolgate proxy\`; not copied`);
    return undefined;
  }
  const comments = [`${quoted(name)} in ${file}`];
  if (windows) comments.push("written without Windows' `cmd /c` in front: toolgate starts servers on Linux and macOS");
  if (replaced) comments.push('${workspaceFolder} is written as the repository root, where toolgate starts servers');
  if ([command, ...args].some((a) => a.includes('${')))
    comments.push('TODO: toolgate does not expand ${...} variables as the client does: write the value out');
  if (own(s, 'envFile') !== undefined)
    comments.push('TODO: the client also loads variables from its envFile, which toolgate does not read: list the names the server needs in env');
  const launch = parseLaunch(command, args);
  const pinned = pinLaunch(launch, file, command, args, lookup);
  const env = envNames(own(s, 'env'), label, notes);
  const envComment = env.length ? [`the client sets ${env.join(', ')} (values not copied): set them in CI too`] : [];
  const found: Candidate = {
    name,
    what: 'stdio server in an MCP client config',
    file,
    source: { mcp: { command: pinned.command, args: pinned.args, env } },
    comments: [...comments, ...pinned.comments, ...envComment],
    ...(pinned.pin ? { pin: pinned.pin } : {}),
  };
  return { found, ...(launch.kind === 'npm' || launch.kind === 'installed' ? { started: launch.name } : {}) };
}

/** How a stdio start becomes a source: the command and args to write, comments, and how it is pinned. */
interface Pinned {
  command: string;
  args: string[];
  comments: string[];
  pin?: Pin;
}

/** A start as written, pinned or flagged: see {@link parseLaunch} for what each kind is. */
function pinLaunch(launch: Launch, file: string, command: string, args: string[], lookup: InstalledLookup): Pinned {
  const asIs = (comments: string[], pin?: Pin): Pinned => ({ command, args, comments, ...(pin ? { pin } : {}) });
  switch (launch.kind) {
    case 'npm':
      return pinNpm(launch, file, asIs, lookup);
    case 'installed': {
      const i = lookup(launch.name);
      if (i) return asIs([`${i.name} ${i.version}, as ${i.lockfile} installs it`], { state: 'locked', text: `${i.name} ${i.version} from ${i.lockfile}` });
      return asIs([`TODO: not pinned: no lockfile lists ${launch.name}, so the install step may put another version in node_modules: commit your lockfile`], {
        state: 'unpinned',
        text: `node_modules/${launch.name}: no lockfile pins it`,
      });
    }
    case 'python':
      if (launch.pinned) return asIs([fetchAtStartComment(launch.runner)]);
      return asIs(
        [
          `TODO: not pinned: \`${launch.runner} ${launch.spec}\` runs the newest release each time it starts. Pin an exact version: \`name==1.2.3\` (uvx also takes \`name@1.2.3\`)`,
          fetchAtStartComment(launch.runner),
        ],
        { state: 'unpinned', text: `${launch.runner} ${launch.spec}: no version pinned` },
      );
    case 'image':
      if (launch.pin === 'digest') return asIs([]);
      if (launch.pin === 'tag') return asIs([`the tag of ${launch.image} can be moved to another image: pin its digest too (image:tag@sha256:<digest>)`]);
      return asIs(
        [
          `TODO: not pinned: the image ${launch.image} has no tag or digest (or :latest), so each pull may bring another image. Pin its digest: image@sha256:<digest> (\`docker image inspect --format '{{index .RepoDigests 0}}' <image>\` after a pull)`,
        ],
        { state: 'unpinned', text: `${launch.runner} ${launch.image}: no tag or digest` },
      );
    case 'npm-other':
      return asIs(
        [
          `TODO: not pinned: \`${launch.runner} ${launch.spec}\` is no registry package with an exact version: make it one (name@1.2.3), or a git URL with a commit`,
          fetchAtStartComment(launch.runner.split(' ')[0] as string),
        ],
        { state: 'unpinned', text: `${launch.runner} ${launch.spec}: not a pinned package` },
      );
    default:
      return asIs([]);
  }
}

/**
 * An npm package fetched at start: the copy the lockfile pins (whatever version the config asks
 * for, unless it asks for another exact one); else as written, flagged when it names no exact
 * version.
 */
function pinNpm(l: Extract<Launch, { kind: 'npm' }>, file: string, asIs: (comments: string[], pin?: Pin) => Pinned, lookup: InstalledLookup): Pinned {
  const written = `${l.runner} ${l.name}${l.version !== undefined ? `@${l.version}` : ''}`;
  const i = lookup(l.name, l.bin);
  const run = i && (!npmPinned(l) || l.version === i.version) ? installedCommand(i, l.rest, l.bin) : undefined;
  if (i && run) {
    const comments = [`pinned to ${i.name} ${i.version}, the version ${i.lockfile} installs (${file} starts \`${written}\`)`, ...run.comments];
    if (!npmPinned(l)) comments.push(`${file} asks for no exact version: write ${i.name}@${i.version} there too, so the agent runs the version checked here`);
    return { command: run.command, args: run.args, comments, pin: { state: 'locked', text: `${i.name} ${i.version} from ${i.lockfile}` } };
  }
  const fetch = fetchAtStartComment(l.runner.split(' ')[0] as string);
  if (npmPinned(l))
    return asIs(i ? [`${file} asks for ${l.version}; ${i.lockfile} installs ${i.version}: this checks ${l.version}, what the client starts`, fetch] : [fetch]);
  return asIs(
    [
      `TODO: not pinned: \`${written}\` fetches whatever version of ${l.name} is ${l.version === undefined ? 'newest' : /^[A-Za-z]/.test(l.version) ? `tagged ${quoted(l.version)}` : `newest in the range ${quoted(l.version)}`} when it starts. Pin it: add it to package.json (\`npm install --save-exact ${l.name}\`) and run \`toolgate init --force\` to start the installed copy, or write ${l.name}@<version> here and in ${file} (\`npm view ${l.name} version\`)`,
      fetch,
    ],
    { state: 'unpinned', text: `${written}: no version pinned` },
  );
}

/** An HTTP server: its URL without secrets; headers whose value is `${VAR}`, `${env:VAR}` or VS Code's `${input:id}`, by variable name. */
function httpServer(file: string, name: string, s: Record<string, unknown>, url: string, label: string, notes: string[]): Candidate | undefined {
  const comments = [`${quoted(name)} in ${file}`];
  const clean = cleanUrl(url);
  if (!clean) {
    notes.push(`${label}: its url is not an http(s) URL toolgate can copy: not copied`);
    return undefined;
  }
  if (clean !== url) comments.push('TODO: credentials and the query string of the URL were not copied: add back what is not secret');
  const headers: Record<string, { env: string; prefix?: string }> = {};
  for (const [h, v] of Object.entries(ownObject(s, 'headers'))) {
    // After an optional scheme word: `${VAR}` (Claude Code), `${env:VAR}` (VS Code, Cursor), `${input:id}` (VS Code's prompted inputs).
    const m = typeof v === 'string' ? /^([A-Za-z]+ )?\$\{(env:|input:)?([A-Za-z0-9_.-]{1,100})\}$/.exec(v) : null;
    const variable =
      m?.[2] === 'input:'
        ? (m[3] as string)
            .toUpperCase()
            .replace(/[^A-Z0-9]+/g, '_')
            .replace(/^_+|_+$/g, '')
        : m?.[3];
    if (m && variable !== undefined && ENV_NAME.test(variable) && /^[A-Za-z0-9_-]{1,100}$/.test(h) && !isRunnerSecretName(variable)) {
      headers[h] = { env: variable, ...(m[1] ? { prefix: m[1] } : {}) };
      if (m[2] === 'input:')
        comments.push(`header ${quoted(h)} is VS Code's input ${quoted(m[3] as string)}, which it prompts for: toolgate reads it from ${variable}`);
    } else
      comments.push(
        `TODO: header ${quoted(h.slice(0, 100))} not copied: toolgate takes a header's value from an environment variable (headers: {Name: {env: VAR, prefix: "Bearer "}})`,
      );
  }
  return { name, what: 'HTTP server in an MCP client config', file, source: { mcp: { url: clean, headers } }, comments };
}

/** The NAMES of a server's `env` map (never its values); runner secrets and odd names are left out (with a note). */
function envNames(env: unknown, label: string, notes: string[]): string[] {
  if (!isObject(env)) return [];
  const names = Object.keys(env);
  const kept = names.filter((n) => ENV_NAME.test(n) && n.length <= 200 && !isRunnerSecretName(n) && !NOT_COPIED_ENV.has(n.toUpperCase())).slice(0, 100);
  const dropped = names.filter((n) => !kept.includes(n));
  if (dropped.length)
    notes.push(
      `${label}: env ${dropped.map((n) => quoted(n.slice(0, 100))).join(', ')} not copied (not a variable name, the runner's own secret, one the sandbox sets itself, or one that changes how programs load)`,
    );
  return kept;
}

/** An http(s) URL without user info and query string (either may hold a credential), or undefined. */
function cleanUrl(url: string): string | undefined {
  if (!copyable(url) || !/^https?:\/\//i.test(url)) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const hadSecrets = u.username !== '' || u.password !== '' || u.search !== '' || u.hash !== '';
  if (!hadSecrets) return url;
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  const out = u.toString();
  return copyable(out) ? out : undefined;
}
