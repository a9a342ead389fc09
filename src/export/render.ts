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
    throw new ConfigError(`cannot export to ${target.id}: ${broken.length === 1 ? 'a tool name is' : `${broken.length} tool names are`} not valid Unicode (${broken.slice(0, 3).map((t) => quoted(t.name)).join(', ')}: a lone UTF-16 surrogate), which no gateway or client can name exactly`, undefined, 'Serve this server through toolgate proxy, which compares names as served; or fix the server.');
  }
  const body = target.render(input);
  return headerComment(target, input) + (body.endsWith('\n') ? body : `${body}\n`);
}

/**
 * Where the committed file first differs from the expected text: the 1-based line, or undefined
 * when they are equal. A missing final newline counts as a difference (on the last line).
 */
export function firstDifferentLine(committed: string, expected: string): number | undefined {
  if (committed === expected) return undefined;
  const a = committed.split('\n');
  const b = expected.split('\n');
  // Past the end of the committed file (cut short, or no final newline): its last line.
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return Math.min(i + 1, a.length);
  return a.length;
}
