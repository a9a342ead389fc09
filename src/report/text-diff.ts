/**
 * Word diffs of changed text (a tool's description or title, a description inside its
 * inputSchema) for reviewers: what the `description-changed` finding is about, shown in the
 * terminal audit and in the job summary / PR comment.
 *
 * The text is attacker-controlled (it is what a server sends), so:
 * - the work is bounded: the common prefix and suffix are found in linear time, the part that
 *   differs is cut to `maxChars` code points on each side before diffing, and the diff itself is
 *   bounded by jsdiff's `maxEditLength` (deterministic, unlike its `timeout`); past the bound the
 *   changed part is shown as "all removed, all added";
 * - the output is bounded: long unchanged runs are elided to their first and last
 *   {@link CONTEXT_CHARS} code points;
 * - every piece of text goes through the medium's escaper in `escape.ts`, and the renderers
 *   also guard what could form across two pieces (a `##[` runner command, an `@` mention).
 *
 * @module
 */
import { diffWords, diffWordsWithSpace, type ChangeObject } from 'diff';
import type { Finding } from '../rules/types.js';
import { breakRunnerCommands, escapeMarkdownInline, escapeTerminalInline } from './escape.js';

/** One run of a word diff: text both versions share, text only the old one had, or only the new one. */
export interface DiffSegment {
  op: 'same' | 'removed' | 'added';
  /** Raw (unescaped) text; renderers escape it. */
  text: string;
}

/** Options of {@link wordDiff}. */
export interface WordDiffOptions {
  /**
   * The part of each text that differs (after the common prefix and suffix) is cut to this many
   * code points before diffing; a `same` segment after it says how many were cut. Default
   * {@link DEFAULT_MAX_CHARS}. `Infinity` disables the cut (the diff is still bounded by
   * {@link MAX_EDIT_LENGTH}).
   */
  maxChars?: number;
  /**
   * False: no word-level diff of the part that differs; it is shown as removed and added whole
   * (the common prefix and suffix are still found). Linear; for reports past {@link EXACT_DIFFS}.
   * Default true.
   */
  exact?: boolean;
}

/** Word diffs a report computes exactly; the rest are shown prefix, removed, added, suffix. */
export const EXACT_DIFFS = 300;

/**
 * The word differ of one report: exact for its first {@link EXACT_DIFFS} texts, then linear
 * (`exact: false`), so 20,000 changed descriptions cost seconds, not minutes (jsdiff is bounded
 * at tens of milliseconds per text, which adds up).
 */
export function reportDiffer(exactDiffs = EXACT_DIFFS): (before: string | undefined, after: string | undefined) => DiffSegment[] {
  let n = 0;
  return (before, after) => wordDiff(before, after, { exact: n++ < exactDiffs });
}

/** Default cut, in code points, of the differing part of each text in {@link wordDiff}. */
export const DEFAULT_MAX_CHARS = 4000;

/** Code points kept at each end of a long unchanged run (snapped back to a word boundary). */
export const CONTEXT_CHARS = 60;

/** Unchanged runs longer than this many code points are elided to their two ends. */
const ELIDE_OVER = 2 * CONTEXT_CHARS + 30;

/** How far (code points) a context end may move back to end on a word boundary. */
const SNAP_CHARS = 20;

/**
 * jsdiff's `maxEditLength`: the most token insertions + deletions the word diff looks for
 * before giving up. Myers' algorithm costs O((N + M) × D), so this bounds the time on
 * adversarial input: 2 × 4000 code points of unrelated text (punctuation, one token per
 * character, or prose from a tiny vocabulary, the slowest kind) give up after ~10-25 ms warm
 * (400: up to ~80 ms; unbounded: seconds). Deterministic, unlike jsdiff's `timeout`, so a report
 * does not depend on the machine's load. Ordinary edits stay far below it: a common prefix and
 * suffix are taken off first, so an appended or prepended paragraph of any length costs nothing,
 * and past ~150 replaced words a word-by-word view no longer helps a reader anyway.
 */
export const MAX_EDIT_LENGTH = 300;

/** The ellipsis placed where an unchanged run was elided. */
const ELISION = ' \u2026 ';

/** Renderers cut a single segment's text at this many code points (wordDiff's never are). */
const MAX_SEGMENT_CHARS = 20_000;

// ---------------------------------------------------------------------------------------------
// Code points

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Width in UTF-16 units of the code point at `i` (a lone surrogate counts as one). */
function cpWidth(text: string, i: number): number {
  return isHigh(text.charCodeAt(i)) && i + 1 < text.length && isLow(text.charCodeAt(i + 1)) ? 2 : 1;
}

/** Number of code points in `text[from, to)`. */
function cpCount(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = from; i < to; i += cpWidth(text, i)) n++;
  return n;
}

/** UTF-16 index after the first `count` code points of `text` (text.length when it is shorter). */
function indexAfter(text: string, count: number): number {
  let i = 0;
  for (let n = 0; n < count && i < text.length; n++) i += cpWidth(text, i);
  return i;
}

/** `text` cut to `max` code points, and how many code points were cut. Linear in `text`. */
function cap(text: string, max: number): { kept: string; cut: number } {
  if (max === Infinity || text.length <= max) return { kept: text, cut: 0 };
  const end = indexAfter(text, max);
  return { kept: text.slice(0, end), cut: cpCount(text, end) };
}

// ---------------------------------------------------------------------------------------------
// Diff

/** Letters, marks, digits, `_`: a boundary between two of them would split a word. */
const WORD = /^[\p{L}\p{M}\p{N}_]$/u;

/** How far (UTF-16 units) a common prefix or suffix may move back to avoid splitting a word. */
const BOUNDARY_BACKOFF = 40;

/** Whether the code point ending just before `i` is a word character (false at 0). */
function wordBefore(text: string, i: number): boolean {
  if (i <= 0) return false;
  const start = i >= 2 && isLow(text.charCodeAt(i - 1)) && isHigh(text.charCodeAt(i - 2)) ? i - 2 : i - 1;
  return WORD.test(String.fromCodePoint(text.codePointAt(start)!));
}

/** Whether the code point starting at `i` is a word character (false at the end). */
function wordAt(text: string, i: number): boolean {
  return i < text.length && WORD.test(String.fromCodePoint(text.codePointAt(i)!));
}

/**
 * Length of the common prefix of `a` and `b`, never inside a surrogate pair, and moved back
 * (by at most {@link BOUNDARY_BACKOFF} units, which only a long run without blanks exceeds) so
 * that it does not end inside a word of either text: a changed word is diffed whole.
 */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  if (p === a.length && p === b.length) return p;
  if (p > 0 && isHigh(a.charCodeAt(p - 1))) p--;
  let q = p;
  while (q > 0 && p - q < BOUNDARY_BACKOFF && wordBefore(a, q) && (wordAt(a, q) || wordAt(b, q)))
    q -= q >= 2 && isLow(a.charCodeAt(q - 1)) && isHigh(a.charCodeAt(q - 2)) ? 2 : 1;
  return wordBefore(a, q) && (wordAt(a, q) || wordAt(b, q)) ? p : q;
}

/** Like {@link commonPrefix} for the common suffix, within the units after the first `skip`. */
function commonSuffix(a: string, b: string, skip: number): number {
  const max = Math.min(a.length, b.length) - skip;
  let s = 0;
  while (s < max && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  if (s > 0 && isLow(a.charCodeAt(a.length - s))) s--;
  const splits = (q: number) => wordAt(a, a.length - q) && (wordBefore(a, a.length - q) || wordBefore(b, b.length - q));
  let q = s;
  while (q > 0 && s - q < BOUNDARY_BACKOFF && splits(q)) q -= cpWidth(a, a.length - q);
  return splits(q) ? s : q;
}

function toSegments(changes: ChangeObject<string>[]): DiffSegment[] {
  return changes.map((c) => ({ op: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
}

/**
 * The word diff of the parts that differ. `diffWords` gives the most readable result (it keeps
 * whitespace with the words, so a rewritten sentence is one removal and one insertion instead
 * of word/space confetti), but it treats whitespace as insignificant: when the texts differ only
 * in whitespace it sees no change, and `diffWordsWithSpace` (whitespace runs and each newline
 * are tokens) shows it. Either gives up past {@link MAX_EDIT_LENGTH}.
 */
function diffMiddle(a: string, b: string): DiffSegment[] {
  if (a === '' || b === '') return [...(a ? [{ op: 'removed' as const, text: a }] : []), ...(b ? [{ op: 'added' as const, text: b }] : [])];
  const opts = { maxEditLength: MAX_EDIT_LENGTH };
  let changes = diffWords(a, b, opts);
  if (changes && changes.every((c) => !c.added && !c.removed)) changes = diffWordsWithSpace(a, b, opts);
  return changes
    ? toSegments(changes)
    : [
        { op: 'removed', text: a },
        { op: 'added', text: b },
      ];
}

/** Joins neighbours with the same op and drops empty segments. */
function merge(segs: DiffSegment[]): DiffSegment[] {
  const out: DiffSegment[] = [];
  for (const s of segs) {
    if (s.text === '') continue;
    const last = out.at(-1);
    if (last && last.op === s.op) last.text += s.text;
    else out.push({ ...s });
  }
  return out;
}

/**
 * A long unchanged run → its first and last {@link CONTEXT_CHARS} code points around ` … `, each
 * end moved back by up to {@link SNAP_CHARS} to a word boundary.
 */
function elide(text: string): string {
  const total = cpCount(text);
  if (total <= ELIDE_OVER) return text;
  let head = text.slice(0, indexAfter(text, CONTEXT_CHARS));
  let tail = text.slice(indexAfter(text, total - CONTEXT_CHARS));
  const headCut = head.search(/\s\S*$/);
  if (headCut > 0 && head.length - headCut <= SNAP_CHARS) head = head.slice(0, headCut);
  const tailCut = tail.search(/\s/);
  if (tailCut >= 0 && tailCut < SNAP_CHARS && tailCut < tail.length - 1) tail = tail.slice(tailCut + 1);
  return head + ELISION + tail;
}

function cutNote(oldCut: number, newCut: number): string {
  const parts = [oldCut > 0 ? `${oldCut} more characters of the old text` : '', newCut > 0 ? `${newCut} more characters of the new text` : ''].filter(Boolean);
  return `${ELISION}(not compared: ${parts.join(', ')})`;
}

/**
 * Word diff of two versions of a text, bounded in time and size, for display.
 *
 * - `before` / `after` undefined (or empty) means the text was added / removed: the result is
 *   one `added` / `removed` segment (plus the cut note below); both undefined gives `[]`.
 * - The common prefix and suffix of the whole texts (on word boundaries) are found first, in
 *   linear time, so a change deep inside a long text is always shown, with its context.
 * - What lies between them is cut to `maxChars` code points on each side (default
 *   {@link DEFAULT_MAX_CHARS}; never inside a surrogate pair) and diffed word by word with
 *   jsdiff (`diffWords`, or `diffWordsWithSpace` when only whitespace differs) with
 *   `maxEditLength` {@link MAX_EDIT_LENGTH}; past that bound it is one `removed` and one `added`
 *   segment. When anything was cut, a `same` segment right after the diffed part says so:
 *   ` … (not compared: N more characters of the old text, M more characters of the new text)`
 *   (the common suffix, if any, follows in the same segment).
 * - `same` runs longer than ~150 code points are elided to their first and last
 *   ~{@link CONTEXT_CHARS} code points joined by ` … `.
 * - Deterministic (same input, same output on any machine); neighbouring segments never share
 *   an op; no segment is empty. Segment text is raw (not escaped): pass the result to
 *   {@link renderWordDiffTerminal} or {@link renderWordDiffMarkdown}.
 *
 * Cost: linear in the inputs' length, plus O(maxChars × MAX_EDIT_LENGTH) for the diff at worst
 * (tens of milliseconds for 2 × 4000 code points of unrelated text). Output: at most
 * 2 × maxChars code points of changed text, plus at most ~125 per unchanged run and the note.
 *
 * @throws RangeError when `maxChars` is negative or NaN.
 */
export function wordDiff(before: string | undefined, after: string | undefined, opts: WordDiffOptions = {}): DiffSegment[] {
  const maxChars = opts.maxChars ?? DEFAULT_MAX_CHARS;
  if (Number.isNaN(maxChars) || maxChars < 0) throw new RangeError(`wordDiff: maxChars must be a non-negative number, got ${maxChars}`);
  const max = maxChars === Infinity ? Infinity : Math.floor(maxChars);
  const a = before ?? '';
  const b = after ?? '';
  const p = commonPrefix(a, b);
  const s = commonSuffix(a, b, p);
  const oldMid = cap(a.slice(p, a.length - s), max);
  const newMid = cap(b.slice(p, b.length - s), max);
  const cut = oldMid.cut > 0 || newMid.cut > 0;
  // Without a cut the suffix joins the diff (it may merge with a `same` run the diff ends with);
  // with one, it follows the note: it is not adjacent to the part that was compared.
  const middle = opts.exact === false ? diffMiddle(oldMid.kept, '').concat(diffMiddle('', newMid.kept)) : diffMiddle(oldMid.kept, newMid.kept);
  const segs = merge([{ op: 'same', text: a.slice(0, p) }, ...middle, ...(cut ? [] : [{ op: 'same' as const, text: a.slice(a.length - s) }])]);
  for (const seg of segs) if (seg.op === 'same') seg.text = elide(seg.text);
  if (cut) {
    const note = cutNote(oldMid.cut, newMid.cut) + (s > 0 ? elide(a.slice(a.length - s)) : '');
    const last = segs.at(-1);
    if (last?.op === 'same') last.text += note;
    else segs.push({ op: 'same', text: note });
  }
  return segs;
}

/** Code points of context a focused diff keeps around each change ({@link focusDiff}). */
export const FOCUS_CHARS = 40;

/** A text up to this many code points is shown whole, not focused, where the room allows. */
export const FOCUS_OVER = 200;

/** `text` without its start, kept to about its last `n` code points, from a word boundary. */
function lastChars(text: string, n: number): string {
  const total = cpCount(text);
  if (total <= n) return text;
  const tail = text.slice(indexAfter(text, total - n));
  const cut = tail.search(/\s/);
  return ELLIPSIS + (cut >= 0 && cut < SNAP_CHARS && cut < tail.length - 1 ? tail.slice(cut + 1) : tail);
}

/** `text` kept to about its first `n` code points, ending on a word boundary. */
function firstChars(text: string, n: number): string {
  if (cpCount(text) <= n) return text;
  const head = text.slice(0, indexAfter(text, n));
  const cut = head.search(/\s\S*$/);
  return (cut > 0 && head.length - cut <= SNAP_CHARS ? head.slice(0, cut) : head) + ELLIPSIS;
}

const ELLIPSIS = '\u2026';

/**
 * The changed words first: a word diff ({@link wordDiff}) with the unchanged text around each
 * change kept to about `context` code points (word-snapped, `…` where cut), so that a change deep
 * in a long description starts its line; a diff of at most `over` code points stays whole.
 * Segments stay raw; nothing changed is dropped.
 */
export function focusDiff(segs: readonly DiffSegment[], context = FOCUS_CHARS, over = 0): DiffSegment[] {
  const changed = segs.some((s) => s.op !== 'same');
  if (!changed || segs.reduce((n, s) => n + cpCount(s.text), 0) <= over) return [...segs];
  return segs.map((s, i) => {
    if (s.op !== 'same') return s;
    if (i === 0) return { op: 'same', text: lastChars(s.text, context) };
    if (i === segs.length - 1) return { op: 'same', text: firstChars(s.text, context) };
    if (cpCount(s.text) <= 2 * context + 10) return s;
    return { op: 'same', text: `${firstChars(s.text, context)} ${lastChars(s.text, context)}` };
  });
}

/**
 * The first `max` code points of a diff's text (changed and unchanged alike), the segment where
 * the bound falls cut and ended with `…`; `cut` is how many code points were left out.
 */
export function clipSegments(segs: readonly DiffSegment[], max: number): { segs: DiffSegment[]; cut: number } {
  const out: DiffSegment[] = [];
  let left = Math.max(0, Math.floor(max));
  let cut = 0;
  for (const s of segs) {
    const n = cpCount(s.text);
    if (cut > 0 || left <= 0) {
      cut += n;
      continue;
    }
    if (n <= left) {
      out.push(s);
      left -= n;
      continue;
    }
    out.push({ op: s.op, text: s.text.slice(0, indexAfter(s.text, Math.max(0, left - 1))) + ELLIPSIS });
    cut += n - Math.max(0, left - 1);
    left = 0;
  }
  return { segs: out, cut };
}

// ---------------------------------------------------------------------------------------------
// Rendering

function paint(on: boolean, code: string, text: string): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}

/**
 * One line in git's `--word-diff=plain` style: unchanged text as is, `[-removed-]`,
 * `{+added+}`; with `color`, removed runs are also red and added runs green (ANSI SGR 31/32,
 * the markers stay, so the line reads the same without colour).
 *
 * Every segment goes through `escapeTerminalInline` (escape.ts): no ESC or other control
 * character, no CR, no bidi or invisible character; a line break is shown as ` ↵ ` and a tab as
 * a space, so the result is a single line. What could form across two segments is guarded too:
 * a `##[` (the runner's legacy command form, when unchanged text ends in `##` just before a
 * `[-` marker) has its bracket replaced by `［`. The only ESC sequences in the output are the
 * colour codes added here. Each segment is cut at 20,000 code points with a visible mark
 * (segments from {@link wordDiff} are shorter).
 *
 * @returns the line, without a line break; `''` for no segments.
 */
export function renderWordDiffTerminal(segs: readonly DiffSegment[], color: boolean): string {
  let plain = '';
  let out = '';
  for (const seg of segs) {
    const text = escapeTerminalInline(seg.text, MAX_SEGMENT_CHARS);
    if (seg.op === 'same') {
      plain += text;
      out += text;
      continue;
    }
    const open = seg.op === 'removed' ? `${plain.endsWith('##') ? '\uFF3B' : '['}-` : '{+';
    const marked = seg.op === 'removed' ? `${open}${text}-]` : `${open}${text}+}`;
    plain += marked;
    out += paint(color, seg.op === 'removed' ? '31' : '32', marked);
  }
  // The `plain` check above covers the coloured form, where an SGR code separates `##` and `[`.
  return breakRunnerCommands(out);
}

/** Options of {@link renderWordDiffMarkdown}. */
export interface MarkdownDiffOptions {
  /**
   * `true` (default): removed text in `<del>…</del>`, added text in `<ins>…</ins>`.
   * `false`: no HTML at all, git's markers with Markdown emphasis: `[-~~removed~~-]`,
   * `{+**added**+}` (GitHub renders `~~` as `<del>`; the markers also survive plain-text
   * renderings such as e-mail notifications). The job summary uses this form: it is checked to
   * contain no raw `<` (test/hostile/reports.test.ts).
   */
  html?: boolean;
}

/** escapeMarkdownInline, plus a zero-width space after a final `@` (a mention could not form
 * across pieces, but keep the invariant that every `@` in our Markdown is followed by one). */
function mdText(text: string): string {
  const out = escapeMarkdownInline(text, MAX_SEGMENT_CHARS);
  return out.endsWith('\\@') ? `${out}&#8203;` : out;
}

/** `~~`/`**` around the non-blank core of the text, so the delimiters always open and close. */
function emphasized(text: string, delim: string): string {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (end <= start) return mdText(text);
  const [lead, core, trail] = [text.slice(0, start), text.slice(start, end), text.slice(end)];
  // The parts are escaped separately: a leading blank becomes `&#32;` or ` ↵ `, and the core
  // never starts or ends with whitespace, so with the escaped marker punctuation around them the
  // delimiters are always left- and right-flanking (CommonMark §6.2).
  return `${lead ? mdText(lead) : ''}${delim}${mdText(core)}${delim}${trail ? mdText(trail) : ''}`;
}

/**
 * The word diff for GitHub-flavoured Markdown, on one line, for a table cell, a list item or a
 * paragraph. By default removed text is in `<del>…</del>` and added text in `<ins>…</ins>`; with
 * `{ html: false }` no HTML is used (see {@link MarkdownDiffOptions}).
 *
 * Every segment goes through `escapeMarkdownInline` (escape.ts), so server text can open no tag
 * (no raw `<`; the only tags are the `<del>`/`<ins>` pairs added here, always balanced), link,
 * image, autolink, emphasis or table cell (every ASCII punctuation character, `|` included, is
 * escaped), cannot @mention or reference (a zero-width space, written `&#8203;`, follows every
 * `@` that could start a mention, also at the end of a segment), and has no raw line break (a
 * line break is shown as ` ↵ `). Each segment is cut at 20,000 code points with a visible mark
 * (segments from {@link wordDiff} are shorter).
 *
 * @returns the Markdown, without a line break; `''` for no segments.
 */
export function renderWordDiffMarkdown(segs: readonly DiffSegment[], opts: MarkdownDiffOptions = {}): string {
  const html = opts.html ?? true;
  return segs
    .map((seg) => {
      if (seg.op === 'same') return mdText(seg.text);
      if (html) return seg.op === 'removed' ? `<del>${mdText(seg.text)}</del>` : `<ins>${mdText(seg.text)}</ins>`;
      return seg.op === 'removed' ? `\\[\\-${emphasized(seg.text, '~~')}\\-\\]` : `\\{\\+${emphasized(seg.text, '**')}\\+\\}`;
    })
    .join('');
}

// ---------------------------------------------------------------------------------------------
// Findings

/** The text a `description-changed` finding is about (its `data`), as the renderers use it. */
export interface ChangedText {
  /** `description`, `title`, `annotations.title` or `inputSchema`. */
  field?: string;
  /** JSON pointer inside the inputSchema, when `field` is `inputSchema`. */
  pointer?: string;
  /** Old text; undefined when the text was added. */
  base?: string;
  /** New text; undefined when the text was removed. */
  head?: string;
}

/**
 * The old and new texts of a `description-changed` finding (every text of the tool, `data.texts`),
 * the description of a new tool (`tool-added`, `unlisted-tool`), or the server's instructions
 * (`instructions-changed`), read defensively from its
 * `data` (non-string values are ignored); empty for other findings and when no text is there.
 */
export function changedTextsOf(f: Finding): ChangedText[] {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  // A new tool's description is all new text: the reviewer reads it whole.
  if (f.ruleId === 'tool-added' || f.ruleId === 'unlisted-tool') {
    const head = str(f.data?.description);
    return head === undefined ? [] : [{ field: 'description of the new tool', head }];
  }
  // The server's instructions: the text every turn of the model reads, shown like a description.
  if (f.ruleId === 'instructions-changed') {
    const [base, head] = [str(f.data?.base), str(f.data?.head)];
    if (base === undefined && head === undefined) return [];
    return [{ field: "the server's instructions", ...(base !== undefined ? { base } : {}), ...(head !== undefined ? { head } : {}) }];
  }
  // schema-widened carries the texts of the arguments it adds (judge/fold.ts).
  if ((f.ruleId !== 'description-changed' && f.ruleId !== 'schema-widened') || !f.data) return [];
  if (f.ruleId === 'schema-widened' && !Array.isArray(f.data.texts)) return [];
  const texts = Array.isArray(f.data.texts) ? (f.data.texts as unknown[]) : [f.data];
  return texts.flatMap((t) => {
    if (t === null || typeof t !== 'object') return [];
    const d = t as Record<string, unknown>;
    const [field, pointer, base, head] = [str(d.field), str(d.pointer), str(d.base), str(d.head)];
    if (base === undefined && head === undefined) return [];
    return [
      {
        ...(field !== undefined ? { field } : {}),
        ...(pointer !== undefined ? { pointer } : {}),
        ...(base !== undefined ? { base } : {}),
        ...(head !== undefined ? { head } : {}),
      },
    ];
  });
}
