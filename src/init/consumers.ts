/**
 * `toolgate init` for repositories that use published MCP servers (pure): which npm
 * dependencies are servers, which exact version the lockfile installs, and how toolgate starts
 * that copy. The installed copy runs from `node_modules` (`node node_modules/<pkg>/<bin>`: the
 * lockfile pins it and everything below it, nothing is downloaded at start) when the lockfile or
 * the installed `package.json` says where its bin is; else `npx -y <pkg>@<version>`.
 */
import { posix } from 'node:path';
import { quoted } from '../export/literals.js';
import { installedManifest, isExactVersion, isNpmName, LOCKFILES, parseLockfile, type Lockfile } from './lockfile.js';
import type { Candidate } from './types.js';
import { copyable, inDir, isObject, ownObject } from './values.js';

/** npm packages whose presence in `dependencies` marks an MCP server. */
export const NODE_MCP_DEPENDENCIES = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/server', 'fastmcp', 'mcp'] as const;

/**
 * Packages that have a bin and depend on an MCP SDK but are no server to pin: the SDKs, the
 * Inspector (a client), and `mcp-remote` (a bridge whose client config entry names the URL).
 */
const NOT_SERVERS = new Set<string>([...NODE_MCP_DEPENDENCIES, '@modelcontextprotocol/client', '@modelcontextprotocol/core', 'mcp-remote']);
/** Dependencies read per package.json: more are not looked at. */
const MAX_DEPENDENCIES = 500;

/** One directory with a package.json (or the root with only a lockfile): its dependencies and lockfile. */
export interface NodeProject {
  dir: string;
  /** Its package.json, when there is one. */
  file?: string;
  /** Dependency name → the range package.json asks for (dependencies, devDependencies, optionalDependencies). */
  deps: ReadonlyMap<string, string>;
  /** The names only in devDependencies. */
  dev: ReadonlySet<string>;
  lock?: Lockfile;
}

/** True for a path inside a `node_modules` folder (installed packages are no project of the repository). */
export const inNodeModules = (p: string) => /(^|\/)node_modules\//.test(p);

/** Dependencies of a parsed package.json, name → range, valid names and string ranges only; and which are only in devDependencies. */
function dependenciesOf(pkg: Record<string, unknown>): { deps: Map<string, string>; dev: Set<string> } {
  const deps = new Map<string, string>();
  const dev = new Set<string>();
  for (const section of ['dependencies', 'optionalDependencies', 'devDependencies'])
    for (const [name, range] of Object.entries(ownObject(pkg, section))) {
      if (!isNpmName(name) || typeof range !== 'string' || deps.size >= MAX_DEPENDENCIES || deps.has(name)) continue;
      deps.set(name, range);
      if (section === 'devDependencies') dev.add(name);
    }
  return { deps, dev };
}

/**
 * The nearest lockfile of `dir` (in it, else in the closest folder above it), parsed for the
 * package.json in `dir`; a lockfile that does not parse is noted, and none is used.
 */
function lockfileOf(dir: string, paths: ReadonlySet<string>, textOf: (p: string) => string | undefined, notes: string[]): Lockfile | undefined {
  for (let d = dir; ; d = posix.dirname(d)) {
    for (const [name] of LOCKFILES) {
      const file = inDir(d, name);
      const text = paths.has(file) ? textOf(file) : undefined;
      if (text === undefined) continue;
      const lock = parseLockfile(file, text, d === dir ? '' : posix.relative(d, dir));
      if ('error' in lock) {
        const note = `${file}: ${lock.error}; versions are not read from it`;
        if (!notes.includes(note)) notes.push(note);
        return undefined;
      }
      return lock;
    }
    if (d === '.') return undefined;
  }
}

/**
 * Every package.json of the repository (outside node_modules) with its dependencies and
 * lockfile, by directory; the root is there whenever it has a package.json or a lockfile (client
 * configs at the root start what it installs).
 */
export function nodeProjects(paths: readonly string[], textOf: (p: string) => string | undefined): { projects: Map<string, NodeProject>; notes: string[] } {
  const notes: string[] = [];
  const set = new Set(paths);
  const projects = new Map<string, NodeProject>();
  for (const file of [...paths].sort().filter((p) => posix.basename(p) === 'package.json' && !inNodeModules(p))) {
    const text = textOf(file);
    let pkg: unknown;
    try {
      pkg = text === undefined ? undefined : JSON.parse(text);
    } catch {
      continue; // detect notes a package.json that is not JSON
    }
    if (!isObject(pkg)) continue;
    const dir = posix.dirname(file);
    const lock = lockfileOf(dir, set, textOf, notes);
    projects.set(dir, { dir, file, ...dependenciesOf(pkg), ...(lock ? { lock } : {}) });
  }
  if (!projects.has('.')) {
    const lock = lockfileOf('.', set, textOf, notes);
    if (lock) projects.set('.', { dir: '.', deps: new Map(), dev: new Set(), lock });
  }
  return { projects, notes };
}

/** A package as the repository installs it: its exact version from the lockfile, and how to start that copy. */
export interface Installed {
  name: string;
  version: string;
  lockfile: string;
  /** `node <path>` when the copy's place and bin are known: the bin run, and all the package has. */
  start?: { path: string; bin: string; bins: string[] };
  /** From a registry (so `npx name@version` fetches this very package). */
  registry: boolean;
  hasBin: boolean;
  /** The MCP SDK it depends on, if any. */
  sdk?: string;
}

/** The bin to run: `wanted` (`npx -p pkg <bin>`), else the one named after the package, the only one, or the first naming `mcp`. */
function chooseBin(name: string, bins: Record<string, string>, at: string, wanted?: string): Installed['start'] {
  const inside = Object.entries(bins).flatMap(([bin, path]) => {
    const full = copyable(path) && !path.includes('\\') ? posix.normalize(posix.join(at, path)) : '';
    return copyable(bin) && full.startsWith(`${at}/`) && copyable(full) ? [[bin, full] as const] : [];
  });
  const unscoped = name.replace(/^@[^/]*\//, '');
  const chosen =
    inside.find(([b]) => b === wanted) ??
    (wanted === undefined ? (inside.find(([b]) => b === unscoped) ?? (inside.length === 1 ? inside[0] : inside.find(([b]) => b.includes('mcp')))) : undefined);
  return chosen ? { path: chosen[1], bin: chosen[0], bins: inside.map(([b]) => b) } : undefined;
}

/**
 * `name` as `project` installs it, or undefined when its lockfile does not pin it.
 * @param wantedBin the bin a client config names (`npx -p pkg <bin>`).
 */
export function resolveInstalled(
  project: NodeProject | undefined,
  name: string,
  textOf: (p: string) => string | undefined,
  wantedBin?: string,
): Installed | undefined {
  const locked = project?.lock?.lookup(name, project.deps.get(name));
  if (!project || !locked) return undefined;
  // The copy on this machine tells the bin when the lockfile does not (pnpm, Yarn classic); only the version the lockfile pins counts.
  const manifest = installedManifest(project.dir, name, textOf);
  const copy = manifest?.version === locked.version ? manifest : undefined;
  const bins =
    isObject(locked.bin) && locked.installPath
      ? { map: locked.bin, at: locked.installPath }
      : copy && Object.keys(copy.bin).length
        ? { map: copy.bin, at: copy.installPath }
        : undefined;
  const start = bins ? chooseBin(name, bins.map, bins.at, wantedBin) : undefined;
  const deps = locked.dependencies ?? copy?.dependencies ?? [];
  const sdk = NODE_MCP_DEPENDENCIES.find((d) => deps.includes(d));
  return {
    name,
    version: locked.version,
    lockfile: locked.lockfile,
    ...(start ? { start } : {}),
    registry: locked.registry,
    hasBin: locked.bin !== undefined || Object.keys(copy?.bin ?? {}).length > 0,
    ...(sdk ? { sdk } : {}),
  };
}

/**
 * Why a dependency is an MCP server, or undefined when nothing says so: its metadata (a bin, and
 * a dependency on an MCP SDK), or its name (`@modelcontextprotocol/server-*`, `*mcp-server*`).
 */
export function serverEvidence(name: string, installed: Installed | undefined): string | undefined {
  if (NOT_SERVERS.has(name) || name.startsWith('@modelcontextprotocol/inspector')) return undefined;
  if (installed?.hasBin && installed.sdk) return `it has a bin and depends on ${installed.sdk}`;
  if (name.startsWith('@modelcontextprotocol/server-')) return 'an MCP reference server (@modelcontextprotocol/server-*)';
  if (name.includes('mcp-server')) return 'its name says mcp-server';
  return undefined;
}

/** What a source fetched by a runner at start (`npx`, `uvx`...) meets in the sandbox, and where README says what to do. */
export const fetchAtStartComment = (command: string) =>
  `${command} installs the server when it starts, with an empty HOME and no network in the sandbox: see README "A server published on npm" (an npm cache in the repository through \`env\` and \`writable\`, or \`network: open\`)`;

/**
 * The command that starts the installed copy: `node <bin>` when its place and bin are known,
 * else `npx -y <name>@<version>` for a registry package; undefined for another source (git, a
 * path) whose bin is not known.
 * @param rest the server's own arguments.
 */
export function installedCommand(i: Installed, rest: readonly string[], bin?: string): { command: string; args: string[]; comments: string[] } | undefined {
  if (i.start) {
    const comments = [`runs the copy ${i.lockfile} installs: nothing is downloaded when it starts`];
    if (i.start.bins.length > 1)
      comments.push(`it has ${i.start.bins.length} bins; this runs ${quoted(i.start.bin)}: change args if another one is the server`);
    return { command: 'node', args: [i.start.path, ...rest], comments };
  }
  if (!i.registry) return undefined;
  const spec = `${i.name}@${i.version}`;
  return {
    command: 'npx',
    args: bin !== undefined ? ['-y', '-p', spec, bin, ...rest] : ['-y', spec, ...rest],
    comments: [
      `node_modules/${i.name} is not installed here to say where its bin is: install the dependencies, then run \`toolgate init --force\` to start that copy (npx pins this package, not what it depends on)`,
      fetchAtStartComment('npx'),
    ],
  };
}

/** A dependency that is an MCP server, as a source: the copy the lockfile pins, else a pinned or flagged npx start. */
function dependencySource(
  project: NodeProject & { file: string },
  name: string,
  range: string,
  why: string,
  installed: Installed | undefined,
  textOf: (p: string) => string | undefined,
): Candidate {
  const file = project.file;
  const setupDir = project.lock ? posix.dirname(project.lock.file) : project.dir;
  const setup = {
    kind: 'node' as const,
    dir: setupDir,
    manager: project.lock?.manager ?? ('npm' as const),
    lockfile: project.lock !== undefined,
    build: false,
  };
  const found = { name, what: 'npm MCP server dependency', file, setup };
  const listed = project.dev.has(name) ? `${file} lists it in devDependencies` : `${file} depends on it`;
  const mcp = (command: string, args: string[]) => ({ mcp: { command, args, env: [] } });
  const todoArgs = `TODO: add the arguments the server needs, if any (package.json does not say how it is started)${project.dev.has(name) ? '; remove this source if only tests use the server' : ''}`;
  const run = installed && installedCommand(installed, []);
  if (installed && run) {
    const comments = [`${name} ${installed.version} (${listed}: ${why}), pinned by ${installed.lockfile}`, ...run.comments, todoArgs];
    return {
      ...found,
      source: mcp(run.command, run.args),
      comments,
      pin: { state: 'locked', text: `${name} ${installed.version} from ${installed.lockfile}` },
    };
  }
  if (installed) {
    const comments = [
      `${name} ${installed.version} (${listed}: ${why}), installed by ${installed.lockfile} from outside the npm registry`,
      `TODO: start that copy: command: node, args: [<where it is installed>/<its bin>] (npx would fetch another package of that name)`,
      todoArgs,
    ];
    return {
      ...found,
      source: mcp('npx', ['-y', name]),
      comments,
      pin: { state: 'unpinned', text: `${name}: installed from outside the npm registry, its bin not known` },
    };
  }
  const noLock =
    'no lockfile pins it and what it depends on: commit the lockfile your package manager writes, then run `toolgate init --force` to start the installed copy';
  const version = isExactVersion(range) ? range : installedManifest(project.dir, name, textOf)?.version;
  if (version !== undefined)
    return {
      ...found,
      source: mcp('npx', ['-y', `${name}@${version}`]),
      comments: [`${name} ${version} (${listed}: ${why})`, noLock, fetchAtStartComment('npx'), todoArgs],
    };
  const comments = [
    `${name} (${listed}: ${why})`,
    `TODO: not pinned: ${file} asks for ${quoted(range.slice(0, 100))}, and npx fetches whatever version is newest when it starts. ${noLock}`,
    todoArgs,
  ];
  return {
    ...found,
    source: mcp('npx', ['-y', name]),
    comments,
    pin: { state: 'unpinned', text: `${name}: ${file} asks for ${quoted(range.slice(0, 100))} and no lockfile pins it` },
  };
}

/**
 * Sources for every npm dependency that is an MCP server ({@link serverEvidence}), except those
 * a root client config already starts (`started`: they carry its arguments and environment).
 */
export function dependencyServers(
  projects: ReadonlyMap<string, NodeProject>,
  started: ReadonlySet<string>,
  textOf: (p: string) => string | undefined,
): Candidate[] {
  const out: Candidate[] = [];
  for (const project of [...projects.values()].sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0))) {
    if (project.file === undefined) continue;
    for (const [name, range] of project.deps) {
      // A workspace or local package is the repository's own: found as a server package, if it is one.
      if ((project.dir === '.' && started.has(name)) || /^(workspace|file|link|portal):/.test(range)) continue;
      const installed = resolveInstalled(project, name, textOf);
      const why = serverEvidence(name, installed);
      if (why) out.push(dependencySource({ ...project, file: project.file }, name, range, why, installed, textOf));
    }
  }
  return out;
}

/**
 * Where the scan should read installed copies' package.json: `<dir>/node_modules/<name>/package.json`
 * for every dependency of every package.json it read (pnpm and Yarn lockfiles do not say where a
 * bin is). Pure: from the texts read so far.
 * @param max the most paths returned.
 */
export function installedManifestPaths(repo: { paths: readonly string[]; texts: ReadonlyMap<string, string> }, max: number): string[] {
  const out: string[] = [];
  for (const file of repo.paths.filter((p) => posix.basename(p) === 'package.json' && !inNodeModules(p))) {
    let pkg: unknown;
    try {
      pkg = JSON.parse(repo.texts.get(file) ?? 'null');
    } catch {
      continue;
    }
    if (!isObject(pkg)) continue;
    for (const name of dependenciesOf(pkg).deps.keys()) {
      if (out.length >= max) return out;
      out.push(inDir(posix.dirname(file), `node_modules/${name}/package.json`));
    }
  }
  return out;
}
