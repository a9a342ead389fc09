/**
 * Tokens per turn on published servers: the recorded listings of test/fixtures,
 * counted with o200k_base. The totals are facts about those versions, measured here.
 */
import { describe, expect, it } from 'vitest';
import { readRecorded } from '../../src/sources/recorded.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import { boundedCount, modelFacingJson, mostExpensive, tokenCost, tokenCounter } from '../../src/surface/tokens.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/esm/encodingParams/constants';
import { latestListings } from '../support/recorded-listings.js';

const latest = latestListings();

describe('tokens per turn', () => {
  it('counts what a client sends the model for a tool, with o200k_base', async () => {
    const count = await tokenCounter();
    expect(count('hello world')).toBe(2);
    expect(modelFacingJson({ name: 'a', description: 'b', inputSchema: { type: 'object' } })).toBe(
      '{"name":"a","description":"b","inputSchema":{"type":"object"}}',
    );
  });

  it('measures the published servers: a total per server, the five most expensive tools', async () => {
    const count = await tokenCounter();
    const totals: Record<string, number> = {};
    for (const { pkg, file } of latest) {
      const cost = tokenCost(normalizeSnapshot(await readRecorded('x', file)).surface.tools, count);
      totals[pkg] = cost.perTurn;
      expect(cost.perTurn).toBe(cost.perTool.reduce((n, t) => n + t.tokens, 0));
      expect(mostExpensive(cost).length).toBe(Math.min(5, cost.perTool.length));
    }
    // Printed for the record (the closing note quotes them); the assertions are on shape only.
    console.log(JSON.stringify(totals));
    expect(Object.keys(totals)).toHaveLength(22);
  });

  it('counts every real tool exactly as the whole text would be counted (no real text has a run the bound cuts)', async () => {
    let tools = 0;
    for (const { file } of latest) {
      for (const t of normalizeSnapshot(await readRecorded('x', file)).surface.tools) {
        const text = modelFacingJson(t);
        expect(boundedCount(text, countTokens), `${file}: ${t.name}`).toBe(countTokens(text));
        tools++;
      }
    }
    expect(tools).toBe(379);
  });

  it('stays linear on hostile text: a 1 MiB word, 512 Ki CJK characters, 1 MiB of punctuation or spaces, punctuation with combining marks', async () => {
    const count = await tokenCounter();
    let seed = 1;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    // Also punctuation alternating with combining marks: one o200k piece, though neither a run of
    // letters nor of marks-free punctuation (found by a review: 220 KB took 31 s).
    const marks = '\u{1F600}\u{1F600}' + '\u20dd\u{1F600}\u{1F600}'.repeat(30_000);
    const texts = [
      'a'.repeat(1 << 20),
      Array.from({ length: 1 << 19 }, () => String.fromCodePoint(0x4e00 + Math.floor(rnd() * 20000))).join(''),
      '!'.repeat(1 << 20),
      ' '.repeat(1 << 20),
      marks,
      '!!\u0301'.repeat(100_000),
    ];
    // Unbounded, the first alone would take hours (40,000 CJK characters in one piece: 6.8 s).
    for (const t of texts) expect(count(t)).toBeGreaterThan(0);
    // Cut runs count close to the whole: 'a' × 512 is 64 tokens whole, 2 × 32 cut.
    expect(count('a'.repeat(512))).toBe(countTokens('a'.repeat(512)));
  }, 60_000);

  it('never hands the tokenizer a piece longer than about 256 code points, whatever two or three kinds of character repeat', () => {
    // Deterministic: the pieces are o200k's own pre-tokenizer split (the quadratic step works on
    // one piece). Kinds: letters of each case, marks, digits, punctuation, "/", CR, LF, space, tab,
    // CJK, apostrophes, emoji, enclosing marks, underscore.
    const kinds = ['a', 'A', '\u0301', '1', '!', '/', '\n', '\r', ' ', '\t', '\u6f22', "'", '\u{1F600}', '\u20dd', '\u02bc', '_'];
    let worst = 0;
    for (const x of kinds) {
      for (const y of kinds) {
        for (const z of ['', ...kinds]) {
          const unit = x + y + z;
          const segments: string[] = [];
          boundedCount(unit.repeat(Math.ceil(3000 / unit.length)), (t) => (segments.push(t), 0));
          for (const seg of segments) for (const [piece] of seg.matchAll(O200K_TOKEN_SPLIT_REGEX)) worst = Math.max(worst, [...piece].length);
        }
      }
    }
    expect(worst).toBeLessThanOrEqual(260);
  });
});
