/**
 * scripts/file-lengths.mjs: how lines are counted, which files fail (over the limit and not
 * allowed, or allowed and no longer over), and that src/ passes.
 */
import { describe, expect, it } from 'vitest';
import { fileLengthProblems, fileLengths, lineCount } from '../scripts/file-lengths.mjs';

describe('file lengths', () => {
  it('counts lines, a final newline ending the last one', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });

  it('fails a file over the limit unless allowed, and an allowed file that is within it', () => {
    const lengths = [
      { file: 'src/a.ts', lines: 601 },
      { file: 'src/b.ts', lines: 600 },
      { file: 'src/c.ts', lines: 700 },
      { file: 'src/d.ts', lines: 10 },
    ];
    const allowed = new Map([
      ['src/c.ts', 'waits'],
      ['src/d.ts', 'split already'],
    ]);
    const problems = fileLengthProblems(lengths, 600, allowed);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^src\/a\.ts: 601 lines, more than 600/);
    expect(problems[1]).toMatch(/^src\/d\.ts: 10 lines, within 600: remove it from ALLOWED/);
  });

  it('src/ has no file over the limit outside the allowlist', () => {
    expect(fileLengthProblems(fileLengths())).toEqual([]);
  });
});
