/**
 * The form in which the scan runs the pattern table's regexes (src/rules/scan-regex.ts) matches
 * exactly where the table's own regex does: every match, its place and its length, on the texts of
 * bench/poison's development material (real servers and the attack cases), on the same texts in
 * upper case, and with letters that case-insensitive matching and `toLowerCase` treat apart.
 */
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { surfaces } from '../../bench/poison/surfaces.mjs';
import { SUSPICIOUS_PATTERNS } from '../../src/rules/suspicious-patterns.js';
import { lowerCased, lowerLatin, sameText, scanForm } from '../../src/rules/scan-regex.js';

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

/**
 * Letters that case-insensitive matching without the `u` flag and `toLowerCase` treat differently,
 * and Latin-1's capitals; then characters past Latin-1 that the scan reads as a stand-in (dashes,
 * arrows, symbols, emoji whole and their halves alone, the apostrophe `’`) or keeps (blanks and line
 * ends, invisible characters and selectors, a tag character, CJK, full-width forms), and the
 * stand-ins themselves (`´`, `¶`). One is put in after each space of a text.
 */
const TRICKY = [
  ...'K\u212AİıſẞßµΜÿŸÅ\u212BΣσςÀÉÞ×',
  ...'\u2014\u2013\u2190\u2192\u23F1\u26A0\u2705\u2019\u2018\u201C\u00B4\u00B6',
  ...[
    '\u{1F3AF}',
    '\u{1F9ED}\uFE0F',
    '\uD83C',
    '\uDFAF',
    '\uFE0F\uFE0F',
    '\u{E0041}\u{E0042}',
    '\u200B',
    '\u202E',
    '\u00A0',
    '\u2028',
    '\u3000',
    '调用',
    '之前',
    '\uFF1C',
  ],
];

describe('the scan form of each table regex', () => {
  const texts: string[] = [];
  for (const s of surfaces()) strings(s, texts);
  const unique = [...new Set(texts)].filter((t) => t.length > 0);
  // The same texts in upper case, and with the tricky letters put in after each space.
  const variants = [
    ...unique,
    ...unique.map((t) => t.toUpperCase()),
    ...unique.map((t, i) => t.replace(/ /g, ` ${TRICKY[i % TRICKY.length]}`)),
    ...unique.filter((t) => t.includes("'")).map((t) => t.replace(/'/g, '’')),
  ];
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
    expect(lowerLatin('READ K\u212AİẞΣ', false)).toBe('read k¶¶¶¶');
    expect(lowerLatin('READ Files', true)).toBe('read files');
  });
  it('reads what no table regex tells apart as ¶, and the apostrophe as ´, one code unit for one', () => {
    expect(lowerLatin('Find files — fast ✅ \u{1F3AF}', false)).toBe('find files ¶ fast ¶ ¶¶');
    expect(lowerLatin('Don’t use X´s', false)).toBe('don´t use x¶s');
  });
  it('keeps blanks, invisible characters, tag characters and CJK, which the table names', () => {
    const kept = '\u2028\u3000\u200B\uFE0F\u{E0041}调用\uFF1C';
    expect(lowerLatin(`A${kept}—`, false)).toBe(`a${kept}¶`);
  });
  // V8 writes a string of one byte a character with tag '"' and one of two with 'c'.
  const oneByte = (s: string) => serialize(s)[2] === 0x22;
  it('gives a string of one byte a character where nothing kept is left', () => {
    expect(oneByte(lowerLatin('Find files — fast ✅', false))).toBe(true);
    expect(oneByte(lowerLatin('Don’t', false))).toBe(true);
    // Cut from a two-byte string: the same characters, still two bytes each, until read.
    const cut = 'a café of many more words — x'.slice(0, 20);
    expect(oneByte(cut)).toBe(false);
    expect(oneByte(lowerLatin(cut, false))).toBe(true);
    expect(oneByte(lowerLatin('调用 tool', false))).toBe(false);
  });
  it('sameText keeps the characters and gives one byte a character where they all fit', () => {
    const cut = 'a café of many more words — x'.slice(0, 20);
    expect(sameText(cut)).toBe(cut);
    expect(oneByte(sameText(cut))).toBe(true);
    expect(sameText('a — b')).toBe('a — b');
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

/**
 * The characters a regex source names, as ranges [first, last] of code points: each character or
 * escape (`\u2014`, `\u{E0041}`, `\x60`, escaped punctuation) and each range of a class. Class
 * escapes (`\s`, `\w`, `\b`) name none: theirs are ASCII or the blanks the scan keeps.
 */
function namedRanges(source: string): [number, number][] {
  const out: [number, number][] = [];
  let inClass = false;
  let range = false;
  for (const m of source.matchAll(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([\s\S])|([\s\S])/gu)) {
    const hex = m[1] ?? m[2] ?? m[3];
    let code: number | undefined = hex !== undefined ? parseInt(hex, 16) : undefined;
    if (m[4] !== undefined && !/[A-Za-z0-9]/.test(m[4])) code = m[4].codePointAt(0);
    if (m[5] !== undefined) {
      if (!inClass && m[5] === '[') inClass = true;
      else if (inClass && m[5] === ']') {
        // A `-` just before the end of a class is itself (`[\\w.-]`).
        if (range) out.push([45, 45]);
        inClass = range = false;
      } else if (inClass && m[5] === '-' && out.length && !range) range = true;
      else code = m[5].codePointAt(0);
      if (code === undefined) continue;
    }
    if (code === undefined) range = false;
    else if (range) {
      (out[out.length - 1] as [number, number])[1] = code;
      range = false;
    } else out.push([code, code]);
  }
  return out;
}

describe('the characters the scan reads as stand-ins', () => {
  const regexes = new Set(SUSPICIOUS_PATTERNS.flatMap((p) => [...p.all, ...(p.verb ? [p.verb.re] : []), ...(p.gate ? [p.gate] : [])]));
  it('are named by no table regex: every character past Latin-1 one names is kept, or is the apostrophe', () => {
    const wrong: string[] = [];
    for (const re of regexes)
      for (const [a, b] of namedRanges(re.source))
        for (let c = a; c <= b; c++) {
          if (c === 0xb4 || c === 0xb6) wrong.push(`${re.source.slice(0, 40)}… names U+${c.toString(16)}`);
          if (c < 0x100 || c === 0x2019 || (c >= 0xd800 && c <= 0xdfff)) continue;
          const ch = String.fromCodePoint(c);
          if (lowerLatin(ch, false) !== ch) wrong.push(`${re.source.slice(0, 40)}… names U+${c.toString(16)}, which the scan does not keep`);
        }
    expect(wrong).toEqual([]);
  });
  it('are found by this reading of a source: a character, an escape, a range', () => {
    expect(namedRanges(String.raw`a[\u2010-\u2015x][\w.-]\u{E0041}—’`)).toEqual([
      [97, 97],
      [0x2010, 0x2015],
      [120, 120],
      [46, 46],
      [45, 45],
      [0xe0041, 0xe0041],
      [0x2014, 0x2014],
      [0x2019, 0x2019],
    ]);
  });
});
