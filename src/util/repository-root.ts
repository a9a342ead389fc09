/**
 * Where the repository a file belongs to starts: used by the sandbox (which hides the
 * repository's `.git`) and by the OpenAPI loader (which confines `$ref`s to the repository). Kept
 * apart from the loader so that starting a server loads no OpenAPI code.
 * @module
 */
import { lstatSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';

/** True when `p` is `dir` or below it (both absolute and normalized). */
export function within(p: string, dir: string): boolean {
  if (p === dir) return true;
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  return p.startsWith(prefix);
}

/**
 * The default repository root for a file in `dir` (an integration config, or the document when
 * loaded alone), when the caller gives none:
 * 1. the nearest directory at or above `dir` that contains `.git` (a directory, or the file of a
 *    worktree or submodule): a pull request cannot add a `.git` entry (git refuses the path), so
 *    it cannot move this root;
 * 2. else (no git checkout, e.g. an Action checkout made through the REST API, or a plain
 *    directory) the working directory, when `dir` or `target` (the document) is inside it: the
 *    CLI's workspace root, and the Action's default working directory (GITHUB_WORKSPACE);
 * 3. else `dir` itself.
 */
export function findRepositoryRoot(dir: string, target?: string): string {
  const start = resolve(dir);
  const checkout = nearestCheckout(start);
  if (checkout !== undefined) return checkout;
  const cwd = process.cwd();
  if (within(start, cwd) || (target !== undefined && within(resolve(target), cwd))) return cwd;
  return start;
}

/**
 * The nearest directory at or above `dir` (absolute) that contains `.git` (a directory, or the
 * file of a worktree or submodule), or undefined outside any git checkout.
 */
function nearestCheckout(dir: string): string | undefined {
  for (let cur = dir; ;) {
    try {
      lstatSync(join(cur, '.git'));
      return cur;
    } catch {
      // not here
    }
    const up = dirname(cur);
    if (up === cur) return undefined;
    cur = up;
  }
}
