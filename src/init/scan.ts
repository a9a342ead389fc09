/**
 * `toolgate init`, the reading half: lists a repository and reads the few files {@link detect}
 * looks at, bounded in every way a hostile repository could make it expensive. Symbolic links
 * are neither followed nor read (a link could lead out of the repository); special files are
 * never opened; each file and the whole scan have a size limit; the walk has a depth and an
 * entry limit. Nothing is executed.
 */
import { lstat, opendir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { ConfigError } from '../util/errors.js';
import { readBounded, resolveInside } from '../util/safe-path.js';
import { CLIENT_CONFIGS } from './client-config.js';
import { installedManifestPaths } from './consumers.js';
import { LOCKFILES } from './lockfile.js';
import { specCandidate } from './detect.js';
import type { ScannedRepo } from './types.js';
import { copyable } from './values.js';

/** Limits of one scan. */
export const SCAN_LIMITS = {
  /** Directory levels below the root that are listed (`a/b/c/d/file` is at depth 4). */
  maxDepth: 4,
  /** Directory entries listed in all. */
  maxEntries: 20_000,
  /** Files read in all, and bytes read in all. */
  maxReads: 400,
  maxTotalBytes: 64 * 1024 * 1024,
  /** A manifest or client config (package.json, pyproject.toml...): people write them, a few KB. */
  maxManifestBytes: 1024 * 1024,
  /** A candidate OpenAPI document. */
  maxSpecBytes: 16 * 1024 * 1024,
  /** A lockfile (package-lock.json, pnpm-lock.yaml, yarn.lock): a large monorepo's runs to megabytes. */
  maxLockfileBytes: 32 * 1024 * 1024,
  /** Installed packages' package.json read (`node_modules/<name>/package.json`, one per dependency), and the size of each. */
  maxInstalledManifests: 500,
  maxInstalledManifestBytes: 256 * 1024,
} as const;

/** Directories never listed: dependencies, build caches, virtual environments, VCS data, test fixtures. */
const SKIP_DIRS = new Set([
  'node_modules',
  'bower_components',
  'vendor',
  'venv',
  '__pycache__',
  'site-packages',
  'target',
  'coverage',
  'fixtures',
  '__fixtures__',
]);

/** How a listed file is read, in priority order (lower first), or undefined when it is not read. */
export function readPriority(path: string, depth: number): { rank: number; max: number } | undefined {
  const base = posix.basename(path);
  if (['package.json', 'pyproject.toml', 'requirements.txt'].includes(base)) return { rank: 0, max: SCAN_LIMITS.maxManifestBytes };
  if (LOCKFILES.some(([name]) => name === base)) return { rank: 1, max: SCAN_LIMITS.maxLockfileBytes };
  const spec = specCandidate(path);
  if (spec) return { rank: spec === 'name' ? 2 : 3, max: SCAN_LIMITS.maxSpecBytes };
  // Integration configs may sit at the root (small JSON files; lockfiles are left out).
  if (depth === 0 && /\.json$/i.test(base) && !/lock|shrinkwrap/i.test(base)) return { rank: 4, max: SCAN_LIMITS.maxManifestBytes };
  return undefined;
}

/** What a scan found: the files for {@link detect}, and what it could not read (one line each). */
export interface Scan {
  repo: ScannedRepo;
  notes: string[];
}

/**
 * Lists `root` (breadth first, within {@link SCAN_LIMITS}) and reads the files detection needs,
 * plus the MCP client configs at their fixed paths, the package.json of each dependency
 * installed in node_modules, and git's default branch.
 * @param root absolute path of the repository (the working directory).
 */
export async function scanRepository(root: string): Promise<Scan> {
  const notes: string[] = [];
  const files = await listFiles(root, notes);
  const texts = new Map<string, string>();
  let budget: number = SCAN_LIMITS.maxTotalBytes;
  const read = async (path: string, max: number, most: number = SCAN_LIMITS.maxReads): Promise<void> => {
    if (texts.size >= most || budget <= 0) {
      notes.push(`${path}: not read (the scan reads at most ${most} files, ${SCAN_LIMITS.maxTotalBytes / 1024 / 1024} MiB)`);
      return;
    }
    try {
      const bytes = await readBounded(join(root, path), Math.min(max, budget), 'the file', { display: path });
      budget -= bytes.length;
      texts.set(path, bytes.toString('utf8'));
    } catch (e) {
      if (e instanceof ConfigError) notes.push(`${path}: not read (${e.message.replace(/^cannot read the file: /, '')})`);
    }
  };
  const wanted = files
    .map((f) => ({ ...f, how: readPriority(f.path, f.depth) }))
    .filter((f): f is typeof f & { how: NonNullable<typeof f.how> } => f.how !== undefined)
    .sort((a, b) => a.how.rank - b.how.rank || a.depth - b.depth || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const f of wanted) await read(f.path, f.how.max);

  // Client configs live in hidden folders the walk skips, installed packages in node_modules,
  // which it skips too: each is read only if it really is a regular file inside the repository
  // (no link out of it on the way, none at the file).
  const paths = files.map((f) => f.path);
  const listed = new Set(paths);
  const readInside = async (file: string, what: string, max: number, most?: number): Promise<void> => {
    const st = await lstat(join(root, file)).catch(() => undefined);
    if (!st) return;
    try {
      await resolveInside(root, file, { what, lead: `cannot read ${file}`, display: file });
    } catch (e) {
      if (e instanceof ConfigError) notes.push(`${file}: not read (${e.message.replace(`cannot read ${file}: `, '')})`);
      return;
    }
    if (!listed.has(file)) {
      listed.add(file);
      paths.push(file);
    }
    if (!texts.has(file)) await read(file, max, most);
  };
  for (const file of CLIENT_CONFIGS) await readInside(file, 'the client config', SCAN_LIMITS.maxManifestBytes);
  const installed = installedManifestPaths({ paths, texts }, SCAN_LIMITS.maxInstalledManifests);
  // A count of their own: a project with many dependencies must not crowd out the files above.
  const most = texts.size + installed.length;
  for (const file of installed) await readInside(file, 'an installed package', SCAN_LIMITS.maxInstalledManifestBytes, most);
  const defaultBranch = await gitDefaultBranch(root);
  return { repo: { paths, texts, ...(defaultBranch !== undefined ? { defaultBranch } : {}) }, notes };
}

/** Regular files below `root`, breadth first, within the depth and entry limits; hidden and skipped folders and links are not entered. */
async function listFiles(root: string, notes: string[]): Promise<{ path: string; depth: number }[]> {
  const files: { path: string; depth: number }[] = [];
  let entries = 0;
  let queue: string[] = [''];
  for (let depth = 0; depth <= SCAN_LIMITS.maxDepth && queue.length; depth++) {
    const next: string[] = [];
    for (const dir of queue) {
      if (entries > SCAN_LIMITS.maxEntries) break;
      // Read entry by entry (opendir), so a directory of a million names costs only the limit.
      const handle = await opendir(join(root, dir)).catch(() => undefined);
      if (!handle) continue;
      try {
        for await (const e of handle) {
          if (++entries > SCAN_LIMITS.maxEntries) break;
          // Names with control or invisible characters are nobody's server; links are not followed.
          if (!copyable(e.name) || e.isSymbolicLink()) continue;
          const rel = dir ? `${dir}/${e.name}` : e.name;
          if (e.isDirectory() && !e.name.startsWith('.') && !SKIP_DIRS.has(e.name)) next.push(rel);
          else if (e.isFile()) files.push({ path: rel, depth });
        }
      } catch {
        // A directory that cannot be read is skipped.
      }
    }
    if (entries > SCAN_LIMITS.maxEntries) {
      notes.push(`the repository has more than ${SCAN_LIMITS.maxEntries} entries: only part of it was looked at`);
      break;
    }
    queue = next;
  }
  return files;
}

/**
 * The default branch as git knows it: `origin/HEAD`, else the checked-out branch when it is
 * `main` or `master`. Read from `.git` (a directory, not through a link), never by running git.
 */
async function gitDefaultBranch(root: string): Promise<string | undefined> {
  const git = join(root, '.git');
  const st = await lstat(git).catch(() => undefined);
  if (!st?.isDirectory()) return undefined;
  const ref = async (p: string) => {
    const f = join(git, p);
    if (!(await lstat(f).catch(() => undefined))?.isFile()) return undefined;
    const text = (await readBounded(f, 4096, 'a git ref').catch(() => undefined))?.toString('utf8');
    return /^ref: refs\/(?:remotes\/origin|heads)\/(\S+)\s*$/.exec(text ?? '')?.[1];
  };
  const origin = await ref('refs/remotes/origin/HEAD');
  if (origin) return origin;
  const head = await ref('HEAD');
  return head === 'main' || head === 'master' ? head : undefined;
}
