/**
 * The form in which `suspicious-scan.ts` compiles and runs a regex of the pattern table: the same
 * matches, at the same places and of the same length, in a form that V8's regex compiler
 * (irregexp) turns into machine code faster. The table keeps the spelling a reviewer reads. Pure,
 * apart from the cache of compiled forms.
 *
 * Case: a case-insensitive regex costs irregexp about 2.5 times as much to compile as the same
 * regex in lower case (each letter's case variants are looked up in Unicode's tables, through ICU),
 * and the table's regexes are compiled in every fresh process, once for text of one byte a character
 * and once for text of two. So the scan compiles each case-insensitive regex in lower case, without
 * the flag, and runs it on the text with its letters lowered ({@link lowerLatin}); it quotes the
 * text as written, at the places the lowered text matched.
 */

/** Upper-case letters of Latin-1, the ones {@link lowerLatin} lowers. */
const UPPER_LATIN = /[A-Z\u00C0-\u00D6\u00D8-\u00DE]+/g;

/**
 * `text` with the upper-case letters of Latin-1 (A–Z, À–Þ) in lower case and every other character
 * as it is, so of the same length: where a case-insensitive regex ({@link scanForm}) matches
 * `text`, its form matches the result. Other letters stay: JavaScript's case-insensitive matching
 * (without the `u` flag) does not equate them with any letter of the table (the Kelvin sign `K`
 * is no `k`, `İ` no `i`), while `toLowerCase` would.
 * @param ascii whether `text` is all ASCII (then `toLowerCase` is the same, and faster).
 */
export function lowerLatin(text: string, ascii: boolean): string {
  return ascii ? text.toLowerCase() : oneByte(text.replace(UPPER_LATIN, (m) => m.toLowerCase()));
}

/**
 * What the scan reads in place of a character that no table regex tells from another: `¶`, which
 * none names either. Like the em dash, the arrows and the halves of emoji it stands for, it is no
 * letter, digit, blank or line end to any regex (test/rules/scan-regex.test.ts checks each source).
 */
export const STAND_IN = '\u00B6';
/**
 * The table's one named character past Latin-1 that real descriptions use: the typographic
 * apostrophe (`don’t`, `user’s`). The scan reads it as {@link APOSTROPHE_STAND_IN} and compiles the
 * table with that character in its place ({@link scanForm}).
 */
const APOSTROPHE = '\u2019';
/** `´`: named by no table regex; in a text it is read as {@link STAND_IN}, so that only `’` reads as it. */
const APOSTROPHE_STAND_IN = '\u00B4';
/**
 * Characters past Latin-1 that the table's regexes tell apart and the scan keeps as they are:
 * blanks and line ends past Latin-1 (`\s`, and `.` stops at U+2028/U+2029), the bullet `•` that
 * starts a list item, the invisible and direction characters and the selectors the
 * `invisible-character` row names (with the tag characters of plane 14, as whole surrogate pairs),
 * `＜`, and the scripts whose words the table holds (CJK, full-width forms). A text with one stays
 * of two bytes a character.
 */
// Single code units on purpose: the scan reads a text one code unit at a time.
/* eslint-disable no-misleading-character-class */
const KEPT =
  /\uDB40[\uDC00-\uDFFF]|[\u00AD\u034F\u061C\u115F\u1160\u1680\u17B4\u17B5\u180E\u2000-\u200F\u2022\u2028-\u202F\u205F-\u206F\u2E80-\u9FFF\uF900-\uFAFF\uFE00-\uFE0F\uFE30-\uFE4F\uFEFF\uFF00-\uFFEF]/;
/** A character past Latin-1 (a whole pair where it is a tag character, kept), the apostrophe, or `´`. */
const WIDE = new RegExp(`${KEPT.source}|[\\u0100-\\uFFFF]|\u00B4`, 'g');
/* eslint-enable no-misleading-character-class */
const BEYOND_LATIN = /[\u0100-\uFFFF]/;

/**
 * `text` as the table's regexes read it, of one byte a character where they can: `’` as
 * {@link APOSTROPHE_STAND_IN}, characters they do not tell apart (and `´`) as {@link STAND_IN},
 * each one code unit for one, so places stay. V8 compiles a regex once for each of its two
 * representations of strings: a description with one em dash or emoji would otherwise make every
 * table regex it reaches compile a second time. A string built from a two-byte one keeps that
 * form even when every character fits in one byte; decoding it as Latin-1 makes a one-byte string.
 */
function oneByte(text: string): string {
  if (!BEYOND_LATIN.test(text) && !text.includes(APOSTROPHE_STAND_IN)) return latin1(text);
  const mapped = text.replace(WIDE, (c) => (c === APOSTROPHE ? APOSTROPHE_STAND_IN : c.length === 1 && !KEPT.test(c) ? STAND_IN : c));
  return BEYOND_LATIN.test(mapped) ? mapped : latin1(mapped);
}

/** A string of one byte a character holding `text`, all of whose characters are Latin-1. */
const latin1 = (text: string): string => Buffer.from(text, 'latin1').toString('latin1');

/**
 * `text` itself, as a string of one byte a character when all its characters fit: a sentence cut
 * from a description with an em dash elsewhere, which the scan's own regexes (the names of tools it
 * mentions) then read without compiling a second time.
 */
export const sameText = (text: string): string => (BEYOND_LATIN.test(text) ? text : latin1(text));

/**
 * What {@link lowerCased} looks at: an escaped backslash (kept, so the letter after it is one), an
 * escape whose letter's case is its meaning (`\S` is not `\s`: kept), an upper-case letter of
 * Latin-1 (lowered). Other escapes hold no letter whose case matters (`\u00DF` is `\u00df`).
 */
const CASED = /\\\\|\\[SWDB]|[A-Z\u00C0-\u00D6\u00D8-\u00DE]+/g;
/** Letters whose case a lowered regex cannot keep: Latin-1's `µ` and `ÿ` (their upper case lies outside it), and every cased letter past Latin-1. */
const UNLOWERABLE = /[\u00B5\u00FF\u0100-\uFFFF]/g;
/** A character class of a regex source, escapes and all, or an escape outside one (`\[` opens none). */
const CLASS = /\\[\s\S]|\[(?:\\[\s\S]|[^\]\\])*\]/g;
/** An escape of a regex source (`\u00DF`, `\x60`, `\s`). */
const ESCAPE = /\\(?:u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[\s\S])/g;
/** A range between an upper-case letter and another character, in a class whose escapes are blanked: `[0-Z]` lowered would take `[`, `_`, …. */
const MIXED_RANGE = /[^A-Za-z]-[A-Z]|[A-Z]-[^A-Z]/;

/**
 * A case-insensitive regex source in lower case, for text lowered by {@link lowerLatin}: every
 * letter outside escapes lowered (`\S`, `\W`, `\B`, `\D` stay as written). Native string work
 * only: the scan lowers each table regex in the process's first pass, where JavaScript that walks
 * the 33,000 characters of the table runs in V8's interpreter and costs more than it saves.
 * @throws Error when the source holds a letter whose case cannot be lowered ({@link UNLOWERABLE})
 *   or a class range between an upper-case letter and another character ({@link MIXED_RANGE}).
 */
export function lowerCased(source: string): string {
  for (const c of source.match(UNLOWERABLE) ?? [])
    if (c.charCodeAt(0) < 0x100 || c.toLowerCase() !== c || c.toUpperCase() !== c)
      throw new Error(`${source.slice(0, 60)}: "${c}" has a case this scan cannot lower`);
  for (const cls of source.match(CLASS) ?? [])
    if (cls[0] === '[' && MIXED_RANGE.test(cls.replace(ESCAPE, '\u0001')))
      throw new Error(`${source.slice(0, 60)}: ${cls} ranges from an upper-case letter to another character`);
  return source.replace(CASED, (m) => (m[0] === '\\' ? m : m.toLowerCase()));
}

/** Whether a regex source has a letter outside escapes. */
function hasLetter(source: string): boolean {
  return /[A-Za-z\u00C0-\u024F]/.test(source.replace(ESCAPE, ''));
}

/**
 * The global regex the scan runs for the table regex `re`, on text lowered by {@link lowerLatin}:
 * a case-insensitive one in lower case without the flag ({@link lowerCased}); one without letters
 * as it is (lowering the text changes nothing it matches).
 * @throws Error for a regex this form cannot keep equal: case-insensitive with the `u` flag
 *   (Unicode case folding), case-sensitive with letters, or {@link lowerCased}'s.
 */
export function scanForm(re: RegExp): RegExp {
  const insensitive = re.flags.includes('i');
  if (insensitive && (re.flags.includes('u') || re.flags.includes('v')))
    throw new Error(`${re.source.slice(0, 60)}: case-insensitive with Unicode case folding`);
  if (!insensitive && hasLetter(re.source)) throw new Error(`${re.source.slice(0, 60)}: a table regex with letters must be case-insensitive`);
  const source = (insensitive ? lowerCased(re.source) : re.source).replaceAll(APOSTROPHE, APOSTROPHE_STAND_IN);
  return new RegExp(source, `${re.flags.replace('i', '')}g`);
}

const FORMS = new WeakMap<RegExp, RegExp>();
/**
 * A subject long enough that V8 compiles a regex it runs on straight to machine code
 * (`JSRegExp::kTierUpForSubjectLengthValue`, 1,000 characters). On a shorter one V8 first
 * compiles the regex to bytecode and interprets it, then compiles it again to machine code on its
 * next run: for the table's large alternations the bytecode step costs three to five times the
 * machine code (about 16 ms for the conversation's, against 5). Every regex of the table fails
 * or matches at once on a control character, so the run itself costs next to nothing.
 */
const NATIVE_FIRST = '\u0001'.repeat(1000);

/**
 * {@link scanForm} of `re`, made once a process and compiled to machine code at once
 * ({@link NATIVE_FIRST}), with `lastIndex` 0: only this copy of a table regex is ever run.
 */
export function globalOf(re: RegExp): RegExp {
  let g = FORMS.get(re);
  if (!g) {
    FORMS.set(re, (g = scanForm(re)));
    g.test(NATIVE_FIRST);
  }
  g.lastIndex = 0;
  return g;
}
