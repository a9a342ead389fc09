/**
 * `toolgate init`: reading values out of a repository's files, every one hostile input (a pull
 * request may have written them). Pure.
 */
import { posix } from 'node:path';

/** Longest value copied from the repository. */
export const MAX_VALUE = 1000;

/**
 * True when `s` can be copied into toolgate.yml as it is: non-empty, at most 1,000 characters,
 * no control, format (bidi, zero-width), private-use, unassigned or surrogate code points, no
 * line or paragraph separator and no white space but the plain space. Such characters would
 * hide in a reviewed diff or end a line in some YAML reader.
 */
export function copyable(s: unknown): s is string {
  // `${{` would be evaluated by GitHub Actions where the value reaches the workflow, quoted or not.
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_VALUE && !/[\p{C}\p{Zl}\p{Zp}]/u.test(s) && !/[^\S ]/u.test(s) && !s.includes('${{');
}

export const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
/** `o[k]` when `k` is o's own key (never an inherited `__proto__` or `constructor`). */
export const own = (o: Record<string, unknown>, k: string): unknown => (Object.hasOwn(o, k) ? o[k] : undefined);
/** `o[k]` when it is an object of o's own, else `{}`. */
export const ownObject = (o: Record<string, unknown>, k: string): Record<string, unknown> => {
  const v = own(o, k);
  return isObject(v) ? v : {};
};

/** A path inside the repository as written in a file: relative, no `..`, `/` separators. */
export function repoRelative(p: unknown): string | undefined {
  if (!copyable(p) || p.includes('\\')) return undefined;
  const n = posix.normalize(p.replace(/^\.\//, ''));
  return n.startsWith('/') || n === '..' || n.startsWith('../') || n === '.' ? undefined : n;
}

/** `dir/name`, or `name` at the root (`.`). */
export const inDir = (dir: string, name: string) => (dir === '.' ? name : `${dir}/${name}`);
