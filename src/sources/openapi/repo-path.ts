/**
 * Where a path of the repository really leads, found without touching anything outside it: the
 * walk of steps 1-3 of repo-files.ts (lexical resolution, then one component at a time from the
 * root's real path, symbolic links read and never opened), and what a non-regular file is.
 * repo-files.ts reads what this module locates; config.ts checks an integration's `spec` with it.
 * @module
 */
import { lstat, readlink, realpath } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { dirname, isAbsolute, join, parse as parsePath, relative, resolve, sep } from 'node:path';
import { within } from '../../util/repository-root.js';

/** Symbolic links followed for one path before it is refused as a loop (Linux's limit). */
export const MAX_LINKS = 40;

/** A path as messages show it: relative to the working directory when under it. */
export function shown(p: string): string {
  const rel = relative(process.cwd(), p);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** How a path resolved against the repository root. */
export type Located = { kind: 'inside'; real: string } | { kind: 'missing' } | { kind: 'outside'; viaLink: boolean } | { kind: 'loop' };

/** `lstat` as {@link locate} calls it: the real one, or one that remembers its answers for one load. */
type Lstat = (path: string) => Promise<Stats>;

/**
 * Resolves `path` inside the repository whose real path is `rootReal` (`rootGiven`: the root as
 * configured, possibly through a symbolic link), following symbolic links component by component
 * without ever touching anything outside the root. See the module comment, steps 1-2. `look` is
 * called only on paths inside the root.
 */
export async function locate(path: string, rootGiven: string, rootReal: string, look: Lstat = lstat): Promise<Located> {
  const lexical = resolve(path);
  let rel: string;
  if (within(lexical, rootReal)) rel = relative(rootReal, lexical);
  else if (within(lexical, rootGiven)) rel = relative(rootGiven, lexical);
  else return { kind: 'outside', viaLink: false };
  const queue = rel === '' ? [] : rel.split(sep);
  let cur = rootReal;
  let links = 0;
  while (queue.length > 0) {
    const seg = queue.shift()!;
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, seg);
    if (!within(next, rootReal)) {
      // On the way down from `/` (an absolute link target) through the root's ancestors (real
      // directories, no need to look at them); anywhere else is outside.
      if (within(rootReal, next)) {
        cur = next;
        continue;
      }
      return { kind: 'outside', viaLink: links > 0 };
    }
    let st: Stats;
    try {
      st = await look(next);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        // The rest does not exist; where it would be must still be inside.
        return within(resolve(next, ...queue), rootReal) ? { kind: 'missing' } : { kind: 'outside', viaLink: links > 0 };
      }
      throw e;
    }
    if (st.isSymbolicLink()) {
      if (++links > MAX_LINKS) return { kind: 'loop' };
      const target = await readlink(next);
      queue.unshift(...target.split(/[\\/]/));
      if (isAbsolute(target)) cur = parsePath(resolve(target)).root;
      continue;
    }
    cur = next;
  }
  if (!within(cur, rootReal)) return { kind: 'outside', viaLink: links > 0 };
  return { kind: 'inside', real: cur };
}

/**
 * {@link locate} for one load of a document: it remembers where each path leads and the `lstat` of
 * each component walked. A document of thousands of files in a few hundred directories walks the
 * same directories for every file, and the parser asks again for every file while bundling. The
 * checkout is taken as unchanging during one load (repo-files.ts); the file read is `lstat`ed
 * afresh there and checked against what is opened.
 */
export function locateForOneLoad(): typeof locate {
  const located = new Map<string, Promise<Located>>();
  const lstats = new Map<string, Promise<Stats>>();
  const look: Lstat = (p) => remembered(lstats, p, () => lstat(p));
  return (path, rootGiven, rootReal) => remembered(located, `${rootGiven}\0${rootReal}\0${path}`, () => locate(path, rootGiven, rootReal, look));
}

/** The promise `map` holds for `key`, made by `make` the first time; its rejection is left to whoever awaits it. */
function remembered<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let p = map.get(key);
  if (!p) {
    p = make();
    p.catch(() => undefined);
    map.set(key, p);
  }
  return p;
}

/**
 * Why a configured path (the integration's `spec`) may not be read, or undefined when it resolves
 * to a regular file inside the repository, or to nothing (the load reports a missing file).
 * Looks at nothing outside the root (see {@link locate}).
 */
export async function confinementProblem(path: string, root: string): Promise<string | undefined> {
  const rootGiven = resolve(root);
  let rootReal: string;
  try {
    rootReal = await realpath(rootGiven);
  } catch (e) {
    return `cannot be checked: the repository root ${rootGiven} cannot be read (${(e as NodeJS.ErrnoException).code ?? message(e)})`;
  }
  let where: Located;
  try {
    where = await locate(path, rootGiven, rootReal);
  } catch (e) {
    return `cannot be checked (${(e as NodeJS.ErrnoException).code ?? message(e)})`;
  }
  if (where.kind === 'missing') return undefined;
  if (where.kind === 'loop') return `follows more than ${MAX_LINKS} symbolic links (a loop)`;
  if (where.kind === 'outside') {
    return where.viaLink
      ? `goes through a symbolic link that points outside the repository (${shown(rootReal)}); toolgate reads no file outside it`
      : `names a path outside the repository (${shown(rootReal)}); toolgate reads no file outside it`;
  }
  const st = await lstat(where.real).catch(() => undefined);
  if (!st) return undefined; // gone since: the load reports it
  return st.isFile() ? undefined : `is ${fileKind(st)}, not a regular file`;
}

/** What a non-regular file is, for messages. */
export function fileKind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}
