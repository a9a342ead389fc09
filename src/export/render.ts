/**
 * One export, rendered: header (or sibling note) and body. Pure: same contract, same runtime
 * block, same bytes, so a committed export diffs cleanly.
 */
import { ConfigError } from '../util/errors.js';
import { headerComment } from './header.js';
import { quoted } from './literals.js';
import type { ExportInput, ExportTarget } from './model.js';

/** The whole document a target gets: header comment, then the body, one trailing newline. */
export function renderExport(target: ExportTarget, input: ExportInput): string {
  // A name with a lone UTF-16 surrogate is no Unicode string: every target's reader (Go, Rust,
  // Cedar, TOML) would reject or replace it, so no export can name that tool exactly.
  const broken = [...input.admitted, ...input.refused.map((r) => r.tool)].filter((t) => /\p{Cs}/u.test(t.name));
  if (broken.length) {
    throw new ConfigError(
      `cannot export to ${target.id}: ${broken.length === 1 ? 'a tool name is' : `${broken.length} tool names are`} not valid Unicode (${broken
        .slice(0, 3)
        .map((t) => quoted(t.name))
        .join(', ')}: a lone UTF-16 surrogate), which no gateway or client can name exactly`,
      undefined,
      'Serve this server through toolgate proxy, which compares names as served; or fix the server.',
    );
  }
  const body = target.render(input);
  return headerComment(target, input) + (body.endsWith('\n') ? body : `${body}\n`);
}

/**
 * Where the committed file first differs from the expected text: the 1-based line in each, or
 * undefined when they are equal. A missing final newline counts as a difference (on the last
 * line). With `comment`, the leading comment lines of both are skipped first (a header's counts
 * change with the body, so the body's line is the one to show); only when the bodies agree is a
 * header line given.
 */
export function firstDifference(committed: string, expected: string, comment?: string): { line: number; expectedLine: number } | undefined {
  if (committed === expected) return undefined;
  const a = committed.split('\n');
  const b = expected.split('\n');
  const skip = (xs: string[]) =>
    comment === undefined
      ? 0
      : Math.max(
          0,
          xs.findIndex((l) => !l.startsWith(comment)),
        );
  const [i, j] = [skip(a), skip(b)];
  for (let k = 0; i + k < a.length || j + k < b.length; k++) {
    // Past the end of the committed file (cut short, or no final newline): its last line.
    if (a[i + k] !== b[j + k]) return { line: Math.min(i + k + 1, a.length), expectedLine: j + k + 1 };
  }
  return comment === undefined ? { line: a.length, expectedLine: b.length } : firstDifference(committed, expected);
}
