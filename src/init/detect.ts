/**
 * `toolgate init`, the detection half: what in a repository is an MCP server or an OpenAPI
 * document, and which toolgate.yml source each becomes. Pure: it works on the files the scan
 * read ({@link ScannedRepo}, see `scan.ts`) and never touches the file system or runs anything.
 *
 * Every name and value read here is hostile input (a repository under review wrote it): a value
 * is copied into toolgate.yml only when {@link copyable} (no control, format, bidi or separator
 * characters) and within length limits; environment variables are copied by NAME only, never
 * their values; a URL loses its credentials and query string.
 */
import { posix } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { SOURCE_ID_PATTERN } from '../config/source-config.js';
import { quoted } from '../export/literals.js';
import { CLIENT_CONFIGS, clientConfig } from './client-config.js';
import { dependencyServers, inNodeModules, NODE_MCP_DEPENDENCIES, nodeProjects, resolveInstalled } from './consumers.js';
import { LOCKFILES, type Manager } from './lockfile.js';
import type { Candidate, Detection, ScannedRepo } from './types.js';
import { copyable, inDir, isObject, own, ownObject, repoRelative } from './values.js';

/** What init looks for, in words (for the "nothing found" message and `--help`). */
export const LOOKED_FOR = [
  'package.json with a dependency on an MCP SDK (@modelcontextprotocol/sdk, @modelcontextprotocol/server, fastmcp, mcp)',
  'pyproject.toml or requirements.txt depending on mcp or fastmcp',
  'OpenAPI documents (openapi.*, swagger.*, *.json/*.yaml with a top-level openapi/swagger key in api/, spec/, docs/... folders)',
  'OpenAPI integration configs ({"type": "openapi", ...})',
  'MCP client configs (.mcp.json, .cursor/mcp.json, .vscode/mcp.json, claude_desktop_config.json)',
  'package.json dependencies on published MCP servers (@modelcontextprotocol/server-*, *mcp-server*, or a package with a bin that depends on an MCP SDK), pinned to the version the lockfile installs',
];

/** Python distributions (normalized names) whose presence marks an MCP server. */
export const PYTHON_MCP_DEPENDENCIES = ['mcp', 'fastmcp'] as const;
/** Folders where an OpenAPI document is looked for by content (besides files named after it). */
export const SPEC_FOLDERS = ['api', 'apis', 'openapi', 'spec', 'specs', 'swagger', 'docs', 'doc', 'schema', 'schemas', 'contracts', 'integrations'] as const;

/** OpenAPI operations named in a comment. */
const MAX_OPERATIONS_SHOWN = 12;

/**
 * Looks at the files of a repository and proposes one toolgate.yml source per MCP server
 * package, MCP client config entry, OpenAPI document and integration config found.
 * @param repo the files the scan listed and read (`scan.ts`).
 * @returns the findings (ids unique, in a stable order), notes on what was skipped and why, and
 *   the branch pushes are checked on.
 */
export function detect(repo: ScannedRepo): Detection {
  const notes: string[] = [];
  const paths = new Set(repo.paths);
  const found: Candidate[] = [];
  const sorted = [...repo.paths].sort();
  const textOf = (p: string) => repo.texts.get(p);

  for (const file of sorted.filter((p) => posix.basename(p) === 'package.json' && !inNodeModules(p))) {
    const f = nodePackage(file, textOf(file), paths, notes);
    if (f) found.push(f);
  }
  const pythonDirs = new Set(sorted.filter((p) => /(^|\/)(pyproject\.toml|requirements\.txt)$/.test(p) && !inNodeModules(p)).map((p) => posix.dirname(p)));
  for (const dir of [...pythonDirs].sort()) {
    const f = pythonProject(dir, textOf, notes);
    if (f) found.push(f);
  }
  const node = nodeProjects(sorted, textOf);
  notes.push(...node.notes);
  // Client configs sit at the root: what they start is looked up in the root's lockfile.
  const lookup = (name: string, bin?: string) => resolveInstalled(node.projects.get('.'), name, textOf, bin);
  const seenServers = new Set<string>();
  const started = new Set<string>();
  for (const file of CLIENT_CONFIGS) {
    const text = textOf(file);
    if (text === undefined) continue;
    const config = clientConfig(file, text, seenServers, notes, lookup);
    found.push(...config.found);
    for (const name of config.started) started.add(name);
  }
  found.push(...dependencyServers(node.projects, started, textOf));
  found.push(...openApi(sorted, textOf));

  const ids = new Set<string>();
  const findings = found.map(({ name, ...f }) => {
    const id = uniqueId(name, ids, (candidate) => paths.has(`integrations/${candidate}.json`) && f.integration !== undefined);
    const integration = f.integration ? { path: `integrations/${id}.json`, spec: posix.relative('integrations', f.integration.spec) } : undefined;
    return { ...f, id, ...(integration ? { integration, source: { openapi: integration.path } } : {}) };
  });
  const setup = [...new Map(findings.flatMap((f) => (f.setup ? [[`${f.setup.kind}:${f.setup.dir}`, f.setup] as const] : []))).values()];
  // Servers from client configs and specs may still need the root package's dependencies.
  if (!setup.some((s) => s.kind === 'node' && s.dir === '.') && paths.has('package.json'))
    setup.unshift({ kind: 'node', dir: '.', ...nodeManager('.', paths), build: false });
  const branch = repo.defaultBranch;
  return { findings, notes, defaultBranch: branch !== undefined && /^[A-Za-z0-9._/-]{1,100}$/.test(branch) ? branch : 'main', setup };
}

/** The package manager of a Node package in `dir` (by lockfile, there or at the root) and whether it has a lockfile. */
function nodeManager(dir: string, paths: ReadonlySet<string>): { manager: Manager; lockfile: boolean } {
  const found = LOCKFILES.find(([f]) => paths.has(inDir(dir, f))) ?? LOCKFILES.find(([f]) => paths.has(f));
  return { manager: found?.[1] ?? 'npm', lockfile: found !== undefined };
}

/** A source id from a name: lower case, `[a-z0-9._-]`, unique (`-2`, `-3`... when taken). */
function uniqueId(name: string, taken: Set<string>, alsoTaken: (id: string) => boolean): string {
  const base =
    name
      .toLowerCase()
      .replace(/^@[^/]*\//, '')
      .replace(/[^a-z0-9._-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '')
      .replace(/[-.]+$/, '')
      .slice(0, 48) || 'server';
  let id = base;
  for (let n = 2; taken.has(id) || alsoTaken(id) || !SOURCE_ID_PATTERN.test(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** A package.json whose dependencies include an MCP SDK: a stdio source running its bin or main. */
function nodePackage(file: string, text: string | undefined, paths: ReadonlySet<string>, notes: string[]): Candidate | undefined {
  if (text === undefined) return undefined;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    notes.push(`${file}: not valid JSON, not read`);
    return undefined;
  }
  if (!isObject(pkg)) return undefined;
  const deps = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((k) => Object.keys(ownObject(pkg, k)));
  const sdk = NODE_MCP_DEPENDENCIES.find((d) => deps.includes(d));
  if (!sdk) return undefined;
  const dir = posix.dirname(file);
  const name = own(pkg, 'name');
  const pkgName = copyable(name) ? name : dir === '.' ? 'server' : posix.basename(dir);
  const bin = own(pkg, 'bin');
  const bins = typeof bin === 'string' ? [[pkgName, bin] as const] : isObject(bin) ? Object.entries(bin) : [];
  const unscoped = pkgName.replace(/^@[^/]*\//, '');
  const chosen = bins.find(([k]) => k === unscoped) ?? bins[0];
  const main = own(pkg, 'main');
  const [field, value] = chosen ? ['bin', chosen[1]] : typeof main === 'string' ? ['main', main] : ['default', 'index.js'];
  const entry = repoRelative(value);
  if (entry === undefined) {
    notes.push(`${file}: its ${field} ${quoted(String(value).slice(0, 200))} is not a path inside the package; no source written for it`);
    return undefined;
  }
  const comments = [`${pkgName} (${file}: depends on ${sdk}; runs its ${field === 'default' ? 'default entry' : field} ${entry})`];
  if (bins.length > 1) comments.push(`it has ${bins.length} bins; this runs ${quoted(chosen?.[0] ?? '')}: change args if another one is the server`);
  const scripts = ownObject(pkg, 'scripts');
  const build = typeof own(scripts, 'build') === 'string';
  const missing = !paths.has(inDir(dir, entry));
  if (missing)
    comments.push(
      `${entry} is not in the repository: it is built${build ? ' (the workflow runs `npm run build` first)' : ''}; build it before \`toolgate update\``,
    );
  if (field === 'default') comments.push('TODO: package.json names no bin or main: check that this starts the server');
  return {
    name: pkgName,
    what: 'Node MCP server package',
    file,
    source: { mcp: { command: 'node', args: [entry], ...(dir !== '.' ? { cwd: dir } : {}), env: [] } },
    comments,
    setup: { kind: 'node', dir, ...nodeManager(dir, paths), build: build && missing },
  };
}

/** A PEP 508 requirement's distribution name, normalized (PEP 503), or undefined. */
function requirementName(req: unknown): string | undefined {
  if (typeof req !== 'string') return undefined;
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(req);
  return m?.[1]?.toLowerCase().replace(/[-_.]+/g, '-');
}

/** A Python project (pyproject.toml and/or requirements.txt in `dir`) depending on mcp or fastmcp. */
function pythonProject(dir: string, textOf: (p: string) => string | undefined, notes: string[]): Candidate | undefined {
  const pyFile = inDir(dir, 'pyproject.toml');
  const reqFile = inDir(dir, 'requirements.txt');
  const deps: string[] = [];
  let project: Record<string, unknown> = {};
  let poetry: Record<string, unknown> = {};
  const pyText = textOf(pyFile);
  if (pyText !== undefined) {
    try {
      const toml = parseToml(pyText) as Record<string, unknown>;
      project = ownObject(toml, 'project');
      poetry = ownObject(ownObject(toml, 'tool'), 'poetry');
      const lists = [
        own(project, 'dependencies'),
        ...Object.values(ownObject(project, 'optional-dependencies')),
        ...Object.values(ownObject(toml, 'dependency-groups')),
      ];
      for (const l of lists) if (Array.isArray(l)) deps.push(...l.map(requirementName).filter((n): n is string => n !== undefined));
      deps.push(...Object.keys(ownObject(poetry, 'dependencies')).map((k) => k.toLowerCase()));
    } catch {
      notes.push(`${pyFile}: not valid TOML, not read`);
    }
  }
  const reqText = textOf(reqFile);
  if (reqText !== undefined) {
    for (const line of reqText.split(/\r?\n/)) if (!/^\s*(#|-)/.test(line)) deps.push(...[requirementName(line)].filter((n): n is string => n !== undefined));
  }
  const sdk = PYTHON_MCP_DEPENDENCIES.find((d) => deps.includes(d));
  if (!sdk) return undefined;
  const file = pyText !== undefined ? pyFile : reqFile;
  const rawName = own(project, 'name') ?? own(poetry, 'name');
  const name = copyable(rawName) && /^[A-Za-z0-9._-]+$/.test(rawName) ? rawName : dir === '.' ? 'server' : posix.basename(dir);
  const scripts = { ...ownObject(poetry, 'scripts'), ...ownObject(project, 'scripts') };
  const script = Object.keys(scripts).find((s) => /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(s));
  const module = name.replace(/[-.]/g, '_').toLowerCase();
  const [command, args] = script ? [script, []] : ['python', ['-m', module]];
  return {
    name,
    what: 'Python MCP server project',
    file,
    source: { mcp: { command, args, ...(dir !== '.' ? { cwd: dir } : {}), env: [] } },
    comments: [
      `${name} (${file}: depends on ${sdk})`,
      `TODO: a guess: ${script ? `the script ${script} of [project.scripts]` : `python -m ${module}`}. Put the command that starts the server over stdio,`,
      `e.g. \`python -m <module>\`, \`python server.py\` or \`uv run --frozen <script>\` (uv writes .venv: run \`uv sync\` in the workflow first)`,
    ],
    setup: { kind: 'python', dir, install: pyText !== undefined ? 'project' : 'requirements' },
  };
}

/** One operation of an OpenAPI document, for the comment that helps fill `include`. */
interface Operation {
  method: string;
  path: string;
  operationId?: string;
}

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

/**
 * Whether a path may be an OpenAPI document: `name` when its name says so (openapi.yaml,
 * petstore.swagger.json), `folder` when it is JSON or YAML in one of {@link SPEC_FOLDERS}.
 */
export function specCandidate(p: string): 'name' | 'folder' | undefined {
  if (!/\.(json|ya?ml)$/i.test(p)) return undefined;
  if (/^(openapi|swagger)|[._-](openapi|swagger)\./i.test(posix.basename(p))) return 'name';
  return posix
    .dirname(p)
    .split('/')
    .some((seg) => (SPEC_FOLDERS as readonly string[]).includes(seg.toLowerCase()))
    ? 'folder'
    : undefined;
}

/**
 * Integration configs already in the repository become sources as they are; every other OpenAPI
 * document gets a starter integration config with an empty `include` (agents reach nothing until
 * someone lists operations), and a comment naming some of its operations.
 */
function openApi(paths: readonly string[], textOf: (p: string) => string | undefined): Candidate[] {
  const out: Candidate[] = [];
  const covered = new Set<string>();
  const docs: { file: string; version: string; operations: Operation[] | undefined }[] = [];
  for (const file of paths) {
    const text = textOf(file);
    // Lockfiles and installed packages are read for versions only (and may be large).
    if (text === undefined || !/\.(json|ya?ml)$/i.test(file) || inNodeModules(file) || LOCKFILES.some(([n]) => posix.basename(file) === n)) continue;
    const value = parseData(file, text);
    if (!isObject(value)) continue;
    if (own(value, 'type') === 'openapi' && typeof own(value, 'spec') === 'string' && Array.isArray(own(value, 'include'))) {
      const spec = repoRelative(posix.join(posix.dirname(file), own(value, 'spec') as string));
      if (spec) covered.add(spec);
      out.push({
        name: posix.basename(file).replace(/\.json$/i, ''),
        what: 'OpenAPI integration config',
        file,
        source: { openapi: file },
        comments: [`${file}: an existing integration config`],
      });
      continue;
    }
    if (!specCandidate(file)) continue;
    const version = own(value, 'openapi') ?? own(value, 'swagger');
    if (typeof version !== 'string' || !/^[23]\.\d/.test(version)) continue;
    docs.push({ file, version, operations: operationsOf(value) });
  }
  for (const doc of docs) {
    if (covered.has(doc.file)) continue;
    if (!copyable(doc.file)) continue;
    const ops = doc.operations ?? [];
    const shown = [...ops.filter((o) => o.method === 'get'), ...ops.filter((o) => o.method !== 'get')].slice(0, MAX_OPERATIONS_SHOWN);
    const comments = [
      `${doc.file} (OpenAPI ${doc.version.slice(0, 10)}): a starter integration config with an empty \`include\`: agents reach no operation until you list some`,
      'TODO: add the operationIds (or "METHOD /path") agents may call to `include` in the integration config; docs/openapi.md',
    ];
    if (shown.length)
      comments.push(
        `its operations include: ${shown.map((o) => (o.operationId ? o.operationId : `${o.method.toUpperCase()} ${o.path}`)).join(', ')}${ops.length > shown.length ? `, ... (${ops.length} in all)` : ''}`,
      );
    const stem = posix.basename(doc.file).replace(/\.(json|ya?ml)$/i, '');
    const name = /^(openapi|swagger)$/i.test(stem) ? (posix.dirname(doc.file) === '.' ? 'api' : posix.basename(posix.dirname(doc.file))) : stem;
    out.push({ name, what: 'OpenAPI document', file: doc.file, source: { openapi: '' }, comments, integration: { path: '', spec: doc.file } });
  }
  return out;
}

/** A JSON or YAML document's value, or undefined when it is neither (no error: most candidates are not specs). */
function parseData(file: string, text: string): unknown {
  try {
    if (/\.json$/i.test(file)) return JSON.parse(text);
    // YAML aliases are expanded by toJS: cap them (a "billion laughs" document is refused).
    return parseYaml(text, { maxAliasCount: 100, uniqueKeys: false, prettyErrors: false, logLevel: 'silent' });
  } catch {
    return undefined;
  }
}

/** Operations of an OpenAPI document's `paths`, each with a copyable path and operationId (others are left out). */
function operationsOf(doc: Record<string, unknown>): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(ownObject(doc, 'paths')).slice(0, 2000)) {
    if (!isObject(item) || !/^\/[\x21-\x7e]{0,120}$/.test(path)) continue;
    for (const method of METHODS) {
      const op = own(item, method);
      if (!isObject(op)) continue;
      const id = own(op, 'operationId');
      out.push({ method, path, ...(typeof id === 'string' && /^[A-Za-z0-9_.\-/]{1,100}$/.test(id) ? { operationId: id } : {}) });
    }
  }
  return out;
}
