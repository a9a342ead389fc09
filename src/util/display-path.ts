import { isAbsolute, relative } from 'node:path';

/** Path shown to users: relative to `root` with `/` separators when inside it. */
export function displayPath(root: string, abs: string): string {
  if (!isAbsolute(abs)) return abs;
  const rel = relative(root, abs);
  return rel.startsWith('..') || isAbsolute(rel) ? abs : rel.split('\\').join('/');
}
