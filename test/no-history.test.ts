/**
 * scripts/no-history.mjs: which lines cite the project's tracker or a review session, which uses
 * of `#` and digits are not such a citation, and that src/, docs/ and the README cite none.
 */
import { describe, expect, it } from 'vitest';
import { historyIn, historyUnder } from '../scripts/no-history.mjs';

describe('no history in code and docs', () => {
  it.each([
    ['// the server starts first (issue 18).', 'a tracker issue'],
    [' * Schema change classification (project issue 4): how', 'a tracker issue'],
    ['see Issues 11 and 12', 'a tracker issue'],
    ['fixed in #12, see there', 'a tracker number'],
    ['(#7)', 'a tracker number'],
    ['found in round 3', 'a review round'],
    ["it('refuses it (attacker review)', () => {", 'a review session'],
    ['the second attack review', 'a review session'],
  ])('flags %j', (line, what) => {
    expect(historyIn(`const a = 1;\n${line}\n`)).toEqual([{ line: 2, what, text: line.trim() }]);
  });

  it.each([
    "return out.endsWith('\\\\@') ? `${out}&#8203;` : out;",
    ' * pings (github/markup#1168: `\\@user` still pings).',
    ' * - `#` + digit: references (`#1`, `owner/repo#1`);',
    "source: 'Unicode Technical Report #36, Unicode Security Considerations'",
    'see https://github.com/o/r/issues/12#issuecomment-1 and [§3](#section-3)',
    'const re = /^#\\d+$/; // a reference such as `#2`',
    'message: `tools/list entry #${i + 1} is malformed`,',
    'an issue comment holds 65,536 characters; a round trip per page',
  ])('does not flag %j', (line) => {
    expect(historyIn(line)).toEqual([]);
  });

  it('finds none in src/, docs/ and the README', () => {
    expect(historyUnder()).toEqual([]);
  });
});
