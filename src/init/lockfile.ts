/**
 * `toolgate init`: which exact version of an npm package a repository installs, read from its
 * lockfile (pure: texts in, facts out). Supported: npm's `package-lock.json` and
 * `npm-shrinkwrap.json` (lockfileVersion 1, 2 and 3), pnpm's `pnpm-lock.yaml` (lockfileVersion
 * 5 to 9) and Yarn's `yarn.lock` (classic v1 and Berry). Every value is hostile input: a version
 * is taken only when it is an exact semver version, a name only when it is a valid npm name.
 *
 * The YAML lockfiles are read with js-yaml, which reads a large pnpm-lock.yaml several times
 * faster than the `yaml` library (a monorepo's runs to megabytes); package managers write them
 * without aliases, so an alias is refused (no alias bomb).
 */
import { posix } from 'node:path';
import { load } from 'js-yaml';
import { isObject, own, ownObject } from './values.js';

/** Lockfile names, by the package manager that writes them (the first found wins, in this order). */
export const LOCKFILES = [
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
] as const;

/** A package manager init writes install steps for. */
export type Manager = (typeof LOCKFILES)[number][1];

/** An npm package name (lower case, optionally scoped; validate-npm-package-name's rules for new packages). */
const NPM_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*$/;
/** An exact semver version (no range, no tag, no `v`). */
const EXACT = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** True for a valid npm package name of at most 214 characters. */
export const isNpmName = (s: unknown): s is string => typeof s === 'string' && s.length <= 214 && NPM_NAME.test(s);
/** True for an exact semver version of at most 64 characters (`1.2.3`, `2026.8.31`, `1.0.0-rc.1`). */
export const isExactVersion = (s: unknown): s is string => typeof s === 'string' && s.length <= 64 && EXACT.test(s);

/** What a lockfile says of one package. */
export interface LockedPackage {
  /** The exact version it installs. */
  version: string;
  /** The lockfile, relative to the repository root. */
  lockfile: string;
  /** Where the package manager installs it, relative to the repository root, when the lockfile says (npm). */
  installPath?: string;
  /** Its bins (name → path inside the package) when the lockfile lists them (npm, Yarn Berry); `true` when it only says there is one (pnpm). */
  bin?: Record<string, string> | true;
  /** Names of its dependencies, when the lockfile lists them. */
  dependencies?: string[];
  /** False when it comes from elsewhere than a registry (git, a local path, a link): `npx name@version` would fetch something else. */
  registry: boolean;
}

/** A parsed lockfile: looks up a package a `package.json` in `importer` depends on. */
export interface Lockfile {
  file: string;
  manager: Manager;
  /**
   * @param name the package name.
   * @param range the range `package.json` gives (Yarn files entries by range; others ignore it).
   */
  lookup(name: string, range?: string): LockedPackage | undefined;
}

const names = (o: unknown): string[] | undefined => (isObject(o) ? Object.keys(o).filter(isNpmName) : undefined);
const binMap = (o: unknown): Record<string, string> | undefined => {
  if (!isObject(o)) return undefined;
  const out = Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
  return Object.keys(out).length ? out : undefined;
};
/** A YAML lockfile's value: no aliases (package managers write none), nesting as js-yaml bounds it. */
const readYaml = (text: string): unknown => load(text, { maxAliases: 0 });
/** A registry tarball URL ends in `/<name>/-/<file>.tgz` on every npm registry. */
const fromRegistry = (resolved: unknown) => resolved === undefined || (typeof resolved === 'string' && /\/-\/[^/]+\.tgz(#.*)?$/.test(resolved));

/**
 * Parses the lockfile `file` for the package.json in `importer`.
 * @param file the lockfile's path relative to the repository root (its name says its format).
 * @param text its text.
 * @param importer the directory of the package.json, relative to the lockfile's directory (`''` for the same).
 * @returns the lockfile, or an error message (not valid JSON or YAML, an unknown shape).
 */
export function parseLockfile(file: string, text: string, importer: string): Lockfile | { error: string } {
  const base = posix.basename(file);
  const manager = LOCKFILES.find(([n]) => n === base)?.[1];
  try {
    if (manager === 'npm') return npmLockfile(file, JSON.parse(text), importer);
    if (manager === 'pnpm') return pnpmLockfile(file, readYaml(text), importer);
    if (manager === 'yarn') return /^__metadata:/m.test(text) ? berryLockfile(file, text) : classicYarnLockfile(file, text);
  } catch (e) {
    return { error: `not valid ${manager === 'npm' ? 'JSON' : 'YAML'} (${(e as Error).message.split('\n')[0]?.slice(0, 200)})` };
  }
  return { error: 'not a lockfile' };
}

/** npm: `packages["<importer>/node_modules/<name>"]` then `packages["node_modules/<name>"]` (v2, v3), or `dependencies[<name>]` (v1). */
function npmLockfile(file: string, doc: unknown, importer: string): Lockfile | { error: string } {
  if (!isObject(doc)) return { error: 'not a JSON object' };
  const dir = posix.dirname(file);
  const packages = ownObject(doc, 'packages');
  const v1 = ownObject(doc, 'dependencies');
  const lookup = (name: string): LockedPackage | undefined => {
    if (!isNpmName(name)) return undefined;
    if (Object.keys(packages).length) {
      for (const key of [...(importer ? [`${importer}/node_modules/${name}`] : []), `node_modules/${name}`]) {
        const e = own(packages, key);
        if (!isObject(e) || own(e, 'link') === true || !isExactVersion(own(e, 'version'))) continue;
        const bin = binMap(own(e, 'bin'));
        const deps = [...(names(own(e, 'dependencies')) ?? []), ...(names(own(e, 'optionalDependencies')) ?? [])];
        return {
          version: own(e, 'version') as string,
          lockfile: file,
          installPath: posix.join(dir, key),
          ...(bin ? { bin } : {}),
          dependencies: deps,
          registry: fromRegistry(own(e, 'resolved')),
        };
      }
      return undefined;
    }
    const e = own(v1, name);
    if (importer || !isObject(e) || !isExactVersion(own(e, 'version'))) return undefined;
    const deps = names(own(e, 'requires'));
    return { version: own(e, 'version') as string, lockfile: file, ...(deps ? { dependencies: deps } : {}), registry: fromRegistry(own(e, 'resolved')) };
  };
  return { file, manager: 'npm', lookup };
}

const DEP_SECTIONS = ['dependencies', 'devDependencies', 'optionalDependencies'];

/**
 * pnpm: the importer's entry (`importers[<dir>]` from v6 on, the top level for a single project
 * before), its version without the peer suffix (`1.2.3(zod@3.25.76)`, `1.2.3_zod@3.25.76` in v5); `hasBin` and the
 * dependencies from `packages` / `snapshots` (keys `name@v` in v9, `/name@v` in v6, `/name/v` in v5).
 */
function pnpmLockfile(file: string, doc: unknown, importer: string): Lockfile | { error: string } {
  if (!isObject(doc)) return { error: 'not a YAML mapping' };
  const importers = ownObject(doc, 'importers');
  const project = Object.keys(importers).length ? ownObject(importers, importer || '.') : importer ? {} : doc;
  const packages = ownObject(doc, 'packages');
  const snapshots = ownObject(doc, 'snapshots');
  const lookup = (name: string): LockedPackage | undefined => {
    if (!isNpmName(name)) return undefined;
    const entry = DEP_SECTIONS.map((s) => own(ownObject(project, s), name)).find((e) => e !== undefined);
    const raw = typeof entry === 'string' ? entry : isObject(entry) ? own(entry, 'version') : undefined;
    if (typeof raw !== 'string') return undefined;
    const version = raw.replace(/[(_].*$/s, '');
    if (!isExactVersion(version)) return undefined;
    const keys = [`${name}@${raw}`, `${name}@${version}`, `/${name}@${raw}`, `/${name}@${version}`, `/${name}/${raw}`, `/${name}/${version}`];
    const meta = keys.map((k) => own(packages, k)).find(isObject) ?? {};
    const snap = keys.map((k) => own(snapshots, k)).find(isObject) ?? meta;
    const deps = [...(names(own(snap, 'dependencies')) ?? []), ...(names(own(snap, 'optionalDependencies')) ?? [])];
    // A tarball or git source has `resolution.tarball` / `resolution.repo` instead of an integrity alone.
    const resolution = ownObject(meta, 'resolution');
    const registry = own(resolution, 'tarball') === undefined && own(resolution, 'repo') === undefined;
    return { version, lockfile: file, ...(own(meta, 'hasBin') === true ? { bin: true as const } : {}), dependencies: deps, registry };
  };
  return { file, manager: 'pnpm', lookup };
}

/** One entry of a Yarn lockfile, filed under each of its descriptors (`name@range`). */
interface YarnEntry {
  version?: string;
  bin?: Record<string, string>;
  dependencies: string[];
  registry: boolean;
}

/** The lookup shared by both Yarn formats: the entry for `name@range` (`name@npm:range` in Berry), else the one version every entry of `name` agrees on. */
function yarnLookup(file: string, entries: Map<string, YarnEntry>): Lockfile {
  const lookup = (name: string, range?: string): LockedPackage | undefined => {
    if (!isNpmName(name)) return undefined;
    let entry = range !== undefined ? (entries.get(`${name}@${range}`) ?? entries.get(`${name}@npm:${range}`)) : undefined;
    if (!entry) {
      const all = [...new Set([...entries].filter(([d]) => d.startsWith(`${name}@`)).map(([, e]) => e))];
      if (new Set(all.map((e) => e.version)).size === 1) entry = all[0];
    }
    if (!entry || !isExactVersion(entry.version)) return undefined;
    return { version: entry.version, lockfile: file, ...(entry.bin ? { bin: entry.bin } : {}), dependencies: entry.dependencies, registry: entry.registry };
  };
  return { file, manager: 'yarn', lookup };
}

const unquote = (s: string) => s.trim().replace(/^"(.*)"$/s, '$1');

/** Yarn classic (`# yarn lockfile v1`): `"name@range", name@range2:` then indented `version "1.2.3"`, `resolved "…"`, `dependencies:`. */
function classicYarnLockfile(file: string, text: string): Lockfile {
  const entries = new Map<string, YarnEntry>();
  let current: YarnEntry | undefined;
  let section = '';
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || /^\s*#/.test(line)) continue;
    const indent = /^ */.exec(line)?.[0].length ?? 0;
    if (indent === 0) {
      current = line.endsWith(':') ? { dependencies: [], registry: true } : undefined;
      if (current) for (const d of line.slice(0, -1).split(/,\s*/)) entries.set(unquote(d), current);
      continue;
    }
    if (!current) continue;
    const m = /^(\S+|"[^"]*")\s+(.*)$/.exec(line.trim());
    if (indent === 2) {
      section = line.trim().endsWith(':') ? line.trim().slice(0, -1) : '';
      if (m?.[1] === 'version') current.version = unquote(m[2] as string);
      if (m?.[1] === 'resolved') current.registry = fromRegistry(unquote(m[2] as string));
    } else if (m && (section === 'dependencies' || section === 'optionalDependencies')) {
      const dep = unquote(m[1] as string);
      if (isNpmName(dep)) current.dependencies.push(dep);
    }
  }
  return yarnLookup(file, entries);
}

/** Yarn Berry (`__metadata:`): YAML whose keys list descriptors (`"name@npm:^1.0.0, name@npm:^1.2.0"`), with `version`, `resolution`, `bin`, `dependencies`. */
function berryLockfile(file: string, text: string): Lockfile {
  const doc = readYaml(text);
  const entries = new Map<string, YarnEntry>();
  for (const [key, value] of Object.entries(isObject(doc) ? doc : {})) {
    if (key === '__metadata' || !isObject(value)) continue;
    const version = own(value, 'version');
    const resolution = own(value, 'resolution');
    const bin = binMap(own(value, 'bin'));
    const entry: YarnEntry = {
      ...(typeof version === 'string' ? { version } : {}),
      ...(bin ? { bin } : {}),
      dependencies: names(own(value, 'dependencies')) ?? [],
      registry: typeof resolution === 'string' && /@npm:[^@]+$/.test(resolution),
    };
    for (const d of key.split(/,\s*/)) entries.set(d.trim(), entry);
  }
  return yarnLookup(file, entries);
}

/** What the package's own `package.json` in `node_modules` says (the copy installed on this machine). */
export interface InstalledManifest {
  version: string;
  /** Its bins, name → path inside the package. */
  bin: Record<string, string>;
  /** Names in its `dependencies`. */
  dependencies: string[];
  /** Where it is, relative to the repository root (`node_modules/<name>`). */
  installPath: string;
}

/**
 * The installed copy of `name` below `dir` (`<dir>/node_modules/<name>/package.json`), when the
 * scan read it and it is that package at an exact version.
 * @param textOf the scanned text of a repository-relative path.
 */
export function installedManifest(dir: string, name: string, textOf: (p: string) => string | undefined): InstalledManifest | undefined {
  const installPath = posix.join(dir, 'node_modules', name);
  const text = isNpmName(name) ? textOf(`${installPath}/package.json`) : undefined;
  if (text === undefined) return undefined;
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(pkg) || own(pkg, 'name') !== name || !isExactVersion(own(pkg, 'version'))) return undefined;
  const bin = own(pkg, 'bin');
  return {
    version: own(pkg, 'version') as string,
    bin: typeof bin === 'string' ? { [name.replace(/^@[^/]*\//, '')]: bin } : (binMap(bin) ?? {}),
    dependencies: [...(names(own(pkg, 'dependencies')) ?? []), ...(names(own(pkg, 'optionalDependencies')) ?? [])],
    installPath,
  };
}
