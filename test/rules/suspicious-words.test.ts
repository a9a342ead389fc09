/**
 * The words suspicious-text's rows need (src/rules/suspicious-words.ts): read from the regexes'
 * sources, and never missing from a text a regex matches, on the development material of
 * bench/poison (real published servers' tools and the poisoned sets).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { surfaces } from '../../bench/poison/surfaces.mjs';
import { toolTexts } from '../../src/rules/checks/suspicious.js';
import { SUSPICIOUS_PATTERNS } from '../../src/rules/suspicious-patterns.js';
import { neededWords, neededWordsModule, type NeededWords } from '../../src/rules/suspicious-words.js';
import type { SurfaceTool } from '../../src/surface/model.js';
import { ROOT } from '../support/mcp-fixtures.js';

/** A text's words as the scan indexes them: lower case, the first four letters of each. */
const wordsOf = (text: string) => new Set((text.toLowerCase().match(/[a-z\u00DF-\u024F]+/g) ?? []).map((w) => w.slice(0, 4)));
const passes = (needed: NeededWords, words: ReadonlySet<string>) => needed.some((alt) => alt.every((clause) => clause.some((w) => words.has(w))));
/** Clauses as sorted strings, for comparing without caring for order. */
const clauses = (needed: NeededWords | undefined) => needed?.map((alt) => alt.map((c) => c.join(' ')).sort());

describe('neededWords', () => {
  it('needs every word of a literal run, and one word of a group', () => {
    expect(clauses(neededWords(/\bwhat the user (?:said|asked)\b/i))).toEqual([['aske said', 'the', 'user', 'what']]);
  });

  it('reads past an optional group that ends with a blank, and needs nothing of it', () => {
    expect(clauses(neededWords(/\bfiles?\s+(?:that\s+)?(?:the user|they)\s+shared\b/i))).toEqual([['file', 'shar', 'the they', 'they user']]);
  });

  it('has no gate when an alternative needs no word, or a word may run on', () => {
    expect(neededWords(/\binstead\b|\w+ing\b/i)).toBeUndefined();
    expect(neededWords(/\bcat/i)).toBeUndefined();
    expect(clauses(neededWords(/\bcats?\b/i))).toEqual([['cat cats']]);
  });

  it('leaves out an alternative only text in another script matches (such text runs every row)', () => {
    expect(clauses(neededWords(/\bclipboard\b|对话历史/i))).toEqual([['clip']]);
    expect(neededWords(/对话历史|聊天记录/)).toEqual([]);
  });

  it('is what src/rules/suspicious-words-table.ts holds (npm run docs writes it)', () => {
    expect(readFileSync(join(ROOT, 'src/rules/suspicious-words-table.ts'), 'utf8')).toBe(neededWordsModule());
  });
});

describe('the words a row needs, on real text', () => {
  const regexes = SUSPICIOUS_PATTERNS.filter((p) => p.scope === 'sentence').flatMap((p) =>
    [...p.all, ...(p.verb ? [p.verb.re] : [])].map((re) => ({ id: p.id, re, needed: neededWords(re) })),
  );
  const texts = surfaces().flatMap((s) => [
    ...(s.instructions !== undefined ? [s.instructions] : []),
    ...s.tools.flatMap((t) => [...toolTexts(t as unknown as SurfaceTool).values()]),
  ]);

  it('are in every text of the development material where the row’s regex matches', () => {
    const missed: string[] = [];
    let matched = 0;
    for (const text of new Set(texts.flatMap((t) => [t, t.normalize('NFKC')]))) {
      if (/[\u0370-\u1DBF\u2C00-\u2DFF\u2E80-\uFFEF]/.test(text)) continue;
      const words = wordsOf(text);
      for (const { id, re, needed } of regexes)
        if (needed && re.test(text)) {
          matched++;
          if (!passes(needed, words)) missed.push(`${id} /${re.source.slice(0, 40)}…/ on ${JSON.stringify(text.slice(0, 120))}`);
        }
    }
    expect(missed).toEqual([]);
    // The material exercises the gates: thousands of matches, not a handful.
    expect(matched).toBeGreaterThan(1000);
  });
});
