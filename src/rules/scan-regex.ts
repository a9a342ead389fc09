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
  return ascii ? text.toLowerCase() : text.replace(UPPER_LATIN, (m) => m.toLowerCase());
}

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
  const source = insensitive ? lowerCased(re.source) : re.source;
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
