/**
 * The form in which the scan runs the pattern table's regexes (src/rules/scan-regex.ts) matches
 * exactly where the table's own regex does: every match, its place and its length, on the texts of
 * bench/poison's development material (real servers and the attack cases), on the same texts in
 * upper case, and with letters that case-insensitive matching and `toLowerCase` treat apart.
 */
import { describe, expect, it } from 'vitest';
import { surfaces } from '../../bench/poison/surfaces.mjs';
import { SUSPICIOUS_PATTERNS } from '../../src/rules/suspicious-patterns.js';
import { lowerCased, lowerLatin, scanForm } from '../../src/rules/scan-regex.js';

/** Every string in a JSON value (descriptions, titles, enum values, names of keys too). */
function strings(v: unknown, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (v && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      strings(x, out);
    }
}

/** Where a global regex matches a text: `index:length` of each match. */
function matches(re: RegExp, text: string): string[] {
  const out: string[] = [];
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    out.push(`${m.index}:${m[0].length}`);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/** Letters that case-insensitive matching without the `u` flag and `toLowerCase` treat differently, and Latin-1's capitals. */
const TRICKY = 'K\u212AİıſẞßµΜÿŸÅ\u212BΣσςÀÉÞ×';

describe('the scan form of each table regex', () => {
  const texts: string[] = [];
  for (const s of surfaces()) strings(s, texts);
  const unique = [...new Set(texts)].filter((t) => t.length > 0);
  // The same texts in upper case, and with the tricky letters put in after each space.
  const variants = [...unique, ...unique.map((t) => t.toUpperCase()), ...unique.map((t, i) => t.replace(/ /g, ` ${TRICKY[i % TRICKY.length]}`))];
  const regexes = new Set(SUSPICIOUS_PATTERNS.flatMap((p) => [...p.all, ...(p.verb ? [p.verb.re] : [])]));
  const matched = new Set<RegExp>();

  it(`reads ${unique.length} texts of the development material`, () => expect(unique.length).toBeGreaterThan(1000));

  for (const re of regexes)
    it(`matches where ${re.source.slice(0, 50)}… does`, () => {
      const table = new RegExp(re.source, `${re.flags}g`);
      const form = scanForm(re);
      const differ: string[] = [];
      for (const t of variants) {
        const want = matches(table, t);
        if (want.length) matched.add(re);
        const got = matches(form, lowerLatin(t, !/[^\x20-\x7E\t\n\r]/.test(t)));
        if (got.join() !== want.join()) differ.push(`${t.slice(0, 120)}: ${want.join()} != ${got.join()}`);
      }
      expect(differ).toEqual([]);
    });

  // The comparison is not of empty lists: the texts hold matches of nearly every regex.
  it('compares matches of nearly every regex', () => expect(matched.size).toBeGreaterThan(regexes.size * 0.9));
});

describe('lowerLatin', () => {
  it('lowers Latin-1 capitals only, so the text keeps its length', () => {
    expect(lowerLatin('Send ÉTÉ Data', false)).toBe('send été data');
    expect(lowerLatin('READ K\u212AİẞΣ', false)).toBe('read k\u212AİẞΣ');
    expect(lowerLatin('READ Files', true)).toBe('read files');
  });
});

describe('lowerCased', () => {
  it('lowers letters outside escapes', () => {
    expect(lowerCased(String.raw`\bFoo\S\W\B\D\\S\u00DF\x4A[A-Z0-9]Ü`)).toBe(String.raw`\bfoo\S\W\B\D\\s\u00df\x4a[a-z0-9]ü`);
  });
  it('refuses what it cannot lower', () => {
    expect(() => lowerCased('[0-Z]')).toThrow(/ranges/);
    expect(() => lowerCased(String.raw`[\x30-Z]`)).toThrow(/ranges/);
    expect(lowerCased(String.raw`[\u00C0-\u00DE]\[0-Z\]`)).toBe(String.raw`[\u00c0-\u00de]\[0-z\]`);
    expect(() => lowerCased('µs')).toThrow(/case/);
    expect(() => lowerCased('Σ')).toThrow(/case/);
  });
});

describe('scanForm', () => {
  it('keeps a regex without letters, and drops the case-insensitive flag of one with letters', () => {
    expect(scanForm(/[\u0000-\u001F]/).source).toBe(String.raw`[\u0000-\u001F]`);
    expect(scanForm(/Read\s+Files/i).flags).toBe('g');
    expect(scanForm(/Read\s+Files/i).source).toBe(String.raw`read\s+files`);
  });
  it('refuses a case-sensitive regex with letters and Unicode case folding', () => {
    expect(() => scanForm(/[A-Z]/)).toThrow(/case-insensitive/);
    expect(() => scanForm(/a/iu)).toThrow(/Unicode/);
  });
});
