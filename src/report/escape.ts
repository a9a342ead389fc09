/**
 * Escaping of untrusted text (tool names, titles, descriptions, `_meta` text from MCP servers and
 * OpenAPI documents) for every medium toolgate writes to (docs/design.md §2, §6).
 *
 * Every escaper here is a pure function and runs the same three steps:
 *
 * 1. {@link sanitizeText}: control characters, ANSI sequences, bidi controls, invisible
 *    characters and lone surrogates become visible, inert text.
 * 2. Truncation: bounded length with a visible mark (limits count code points of the
 *    sanitized text, so they measure what a reader sees).
 * 3. The medium's own rules (Markdown, workflow commands, terminal, JSON).
 *
 * Nothing here throws on any string input (a negative or NaN limit is the only error).
 *
 * Why the GitHub-specific parts look the way they do (no offline GFM renderer, so the reasoning
 * is written down here and checked by tests as structural invariants):
 *
 * - CommonMark §2.4: any ASCII punctuation character may be backslash-escaped and then stands
 *   for itself, in every context except code spans/blocks, autolinks and raw HTML. So escaping
 *   *every* ASCII punctuation character is always correct and kills all inline and block
 *   syntax: emphasis, links, images, code spans, headings, lists, quotes, thematic breaks,
 *   setext underlines, link reference definitions, strikethrough, and GFM table pipes (GFM
 *   §4.10: "include a pipe in a cell's content by escaping it").
 * - CommonMark §2.5 / §6.2: entity references are literal text and "cannot be used in place of
 *   symbols indicating structure", so `&lt;` etc. are safe in Markdown and in HTML.
 * - GFM autolinks extension (§6.9): `www.` and `http(s)://` autolinks are recognised by the
 *   inline parser on raw `w` / `:` characters; once every `.` and `:` is escaped, `www\.` and
 *   `https\:` can never match. Emails need an `@` followed by a domain, which
 *   {@link neutralizeMentions} breaks.
 * - @mentions, team mentions, `#123` / `GH-123` references and `:emoji:` are NOT Markdown: GitHub
 *   applies them *after* parsing, on the decoded text nodes (github/markup#1168: `\@user` still
 *   pings). So backslashes and entities such as `&#64;` do not stop them: the decoded text still
 *   reads `@user`. What does stop them is a character that is still there after decoding; we
 *   insert U+200B ZERO WIDTH SPACE after the trigger character, the method GitHub's own issue
 *   thread, Renovate and Dependabot use, and the only one that also holds in raw HTML blocks,
 *   attributes and plain-text e-mail. The link/bold styling of a real mention is then absent,
 *   which is the visible difference. In Markdown/HTML output it is written as `&#8203;` so the
 *   raw source shows it.
 *
 * @module
 */

/** Default limit, in code points, for names and titles shown inline (table cells, headings). */
export const MAX_INLINE = 200;

/** Default limit, in code points, for descriptions, messages and other block text. */
export const MAX_BLOCK = 2000;

/**
 * Upper bound, in code points, of the truncation mark (`… [truncated, N chars]` with N up to
 * 2^53).
 * @internal exported for the tests that hold the escapers' length bounds to it
 */
export const TRUNCATION_MARK_MAX = 40;

const ZWSP = '\u200B';

// ---------------------------------------------------------------------------------------------
// Code point helpers

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Number of code points in `text` (a lone surrogate counts as one). */
function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    n++;
  }
  return n;
}

/**
 * UTF-16 index just after the first `count` code points of `text` (never inside a pair), or
 * -1 when the text has no more than `count` code points.
 */
function indexAfterCodePoints(text: string, count: number): number {
  let n = 0;
  let i = 0;
  while (i < text.length) {
    if (n === count) return i;
    const c = text.charCodeAt(i);
    i += isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
    n++;
  }
  return -1;
}

function hex(cp: number, width: number): string {
  return cp.toString(16).toUpperCase().padStart(width, '0');
}

function checkLimit(maxChars: number): number {
  if (Number.isNaN(maxChars) || maxChars < 0) {
    throw new RangeError(`escape: limit must be a non-negative number of characters, got ${maxChars}`);
  }
  return maxChars === Infinity ? Infinity : Math.floor(maxChars);
}

// ---------------------------------------------------------------------------------------------
// Truncation

/** The visible truncation mark; `total` is the input's length in code points. */
function truncationMark(total: number): string {
  return `\u2026 [truncated, ${total} chars]`;
}

// ---------------------------------------------------------------------------------------------
// Sanitizing

/**
 * One pass over everything that is not plain, visible text:
 * - CR LF and lone CR → LF (a bare CR lets text overwrite the start of a terminal line);
 * - C0 controls except TAB and LF, DEL, C1 controls (U+0080–U+009F; includes the 8-bit CSI
 *   U+009B, OSC U+009D and NEL U+0085);
 * - lone surrogates;
 * - `Default_Ignorable_Code_Point` and format (`Cf`) characters: bidi embeddings, overrides
 *   and isolates, zero-width characters, BOM, soft hyphen, word joiner, invisible operators,
 *   tag characters, variation selectors, Hangul fillers; plus U+2028/U+2029 (line and paragraph
 *   separators: line breaks in some readers) and U+2800 (blank braille pattern, a "visible"
 *   blank used for invisible names).
 */
const SANITIZE_RE =
  // Matching control characters is the point of this expression.
  // eslint-disable-next-line no-control-regex
  /\r\n?|[\x00-\x08\x0B-\x1F\x7F-\x9F]|[\uD800-\uDFFF]|[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029\u2800]/gu;

/** Variation selectors kept when they directly follow an ordinary character (emoji style). */
const VS_TEXT_OR_EMOJI = new Set([0xfe0e, 0xfe0f]);

function sanitizeMatch(m: string, offset: number, whole: string): string {
  if (m === '\r' || m === '\r\n') return '\n';
  const cp = m.codePointAt(0) ?? 0;
  if (cp <= 0x9f) return `\\x${hex(cp, 2)}`;
  if (cp >= 0xd800 && cp <= 0xdfff) return '\uFFFD';
  if (VS_TEXT_OR_EMOJI.has(cp) && offset > 0) {
    // Keep one VS15/VS16 after a visible character ("⚠️"), so emoji render as intended. A VS
    // after another ignorable character (a run of selectors is how data gets smuggled into
    // text a model reads) is shown like any other invisible character.
    const prev = whole.codePointAt(offset - 1) ?? 0;
    const prevCp = isLowSurrogate(prev) && offset >= 2 ? (whole.codePointAt(offset - 2) ?? 0) : prev;
    const visible = prevCp > 0x20 && !(prevCp >= 0x7f && prevCp <= 0x9f) && !isIgnorable(prevCp);
    if (visible) return m;
  }
  return `<U+${hex(cp, 4)}>`;
}

const IGNORABLE_RE = /^[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029\u2800]$/u;

function isIgnorable(cp: number): boolean {
  return IGNORABLE_RE.test(String.fromCodePoint(cp));
}

/**
 * The shared first pass for every medium: makes text that could act on a reader or a parser
 * visible and inert, and leaves all other printable Unicode (letters, emoji, CJK, symbols)
 * untouched. Idempotent: `sanitizeText(sanitizeText(x)) === sanitizeText(x)`.
 *
 * | input | output |
 * |---|---|
 * | CR LF, lone CR | LF |
 * | TAB, LF | kept |
 * | other C0, DEL, C1 (U+0000–U+001F, U+007F–U+009F) | `\xNN` (e.g. ESC → `\x1B`) |
 * | lone surrogate | U+FFFD |
 * | invisible / format character (U+200B–U+200F, U+202A–U+202E, U+2060–U+206F, U+FEFF, U+00AD, U+E0000–U+E0FFF, …, U+2028, U+2029) | `<U+XXXX>` |
 * | U+FE0E / U+FE0F directly after a visible character | kept (emoji presentation) |
 *
 * ANSI escape sequences (CSI `ESC [ … m`, OSC `ESC ] … BEL`, 8-bit CSI U+009B) are neutralized
 * by making their introducers visible: `\x1B[31mred` is shown as the literal text
 * `\x1B[31mred`, so a reviewer sees what the server sent instead of a silently cleaned string,
 * and no terminal, log viewer or Markdown renderer can act on it.
 *
 * The `\xNN` / `<U+XXXX>` forms were chosen because they are ASCII, self-describing and distinct
 * per character (U+FFFD would hide which character it was). A server can of course write the
 * same text literally; that is harmless, it is inert either way.
 *
 * Does not truncate; does not escape anything for a particular medium.
 */
export function sanitizeText(text: string): string {
  return text.replace(SANITIZE_RE, sanitizeMatch);
}

/**
 * sanitizeText, then truncation to `maxChars` code points with a visible mark (a surrogate pair
 * is never split; a negative or NaN limit is a RangeError), without sanitizing more of a huge
 * input than can survive the cut:
 * sanitizing never shortens text except CR LF → LF (2 code points → 1), so the first
 * `2 × max + 2` raw code points always yield more than `max` sanitized ones. N in the mark is the
 * raw input's length in code points.
 */
function clean(text: string, maxChars: number): string {
  const max = checkLimit(maxChars);
  if (max === Infinity) return sanitizeText(text);
  const rawCut = text.length > 2 * max + 2 ? indexAfterCodePoints(text, 2 * max + 2) : -1;
  if (rawCut < 0) {
    const s = sanitizeText(text);
    const cut = indexAfterCodePoints(s, max);
    return cut < 0 ? s : s.slice(0, cut) + truncationMark(codePointLength(text));
  }
  const s = sanitizeText(text.slice(0, rawCut));
  const cut = indexAfterCodePoints(s, max);
  // cut >= 0 by the argument above.
  return s.slice(0, cut < 0 ? s.length : cut) + truncationMark(codePointLength(text));
}

// ---------------------------------------------------------------------------------------------
// GitHub mentions and references

/**
 * Triggers of GitHub's post-Markdown text filters:
 * - `@` + alphanumeric: user and team mentions (`@octocat`, `@org/team`) and e-mail autolinks;
 * - `#` + digit: issue/PR/discussion references (`#1`, `owner/repo#1`);
 * - `GH-` + digit: the other built-in issue reference form (`GH-1`, any case);
 * - `:` + shortcode + `:`: emoji shortcodes (`:white_check_mark:`), which could fake badges.
 *
 * Not covered, on purpose: repository-configured autolink prefixes (`JIRA-12`) and bare commit
 * SHAs only link to URLs the repository owner set up, and neutralizing every `word-123` would
 * put invisible characters into tool names people copy (`sha-256`).
 */
const MENTION_RE = /@(?=[\p{L}\p{N}_])|#(?=\p{N})|(?<=gh)-(?=\p{N})|:(?=[a-z0-9_+-]+:)/giu;

/**
 * Inserts U+200B ZERO WIDTH SPACE right after every character that would start a GitHub
 * @mention, team mention, e-mail autolink, `#123` / `GH-123` / custom-prefix reference or
 * `:emoji:` shortcode, so none of them pings, links or renders. Everything else is unchanged
 * (no escaping: use the medium escapers, which call this).
 *
 * Why not `&#64;` or `\@`: GitHub finds mentions in the decoded text after Markdown parsing,
 * where both have become a plain `@` again (github/markup#1168). The inserted character
 * survives decoding, raw HTML blocks, attributes and plain-text e-mail renderings of a comment.
 *
 * Guarantees on the result: no `@` followed by a letter/digit/underscore, no `#` followed by a
 * digit, no `GH-` + digit, no `:shortcode:`. Intended for sanitized text, in which
 * every U+200B is one of ours (sanitizeText shows incoming ones as `<U+200B>`).
 */
export function neutralizeMentions(text: string): string {
  return text.replace(MENTION_RE, (m) => m + ZWSP);
}

// ---------------------------------------------------------------------------------------------
// Markdown

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Every ASCII punctuation character (CommonMark §2.1), plus our U+200B. */
const MD_INLINE_RE = /[!-/:-@[-`{-~\u200B]/g;

function mdInlineChar(c: string): string {
  if (c === ZWSP) return '&#8203;';
  // Entities for the five HTML-significant characters, so the text stays inert even if a caller
  // puts it inside a raw HTML block by mistake (where a backslash would not protect a `<`).
  return HTML_ENTITIES[c] ?? `\\${c}`;
}

/**
 * Escapes untrusted text for inline use in GitHub-flavoured Markdown: a table cell, a list
 * item, a heading, link text, or running text.
 *
 * Guarantees (for any input string):
 * - one line: LF becomes ` ↵ ` and TAB a space; no CR or LF in the output;
 * - every ASCII punctuation character is escaped: `& < > " '` as HTML entities, all others with
 *   a backslash; so the output opens no link, image, emphasis, code span, strikethrough, HTML
 *   tag, entity, autolink or table cell, and starts no block (heading, list, quote, fence,
 *   table row) even at the start of a line; the only raw `&`/`#`/`;` are in our entities;
 * - a leading space is written `&#32;`, so text placed after a list marker or at a line start
 *   can never become an indented code block;
 * - no GitHub mention, reference or emoji shortcode (see {@link neutralizeMentions});
 * - no `http://`, `https://` or `www.` in the raw output (`:` and `.` are escaped), so the GFM
 *   autolink extension cannot fire;
 * - length: at most `max` code points of sanitized text, plus the truncation mark, before
 *   escaping; escaping turns one code point into at most 9 UTF-16 units (`@` → `\@&#8203;`), so
 *   the output has at most `9 × (max + TRUNCATION_MARK_MAX) + 5` UTF-16 units.
 *
 * Rendered, the text reads as the sanitized original (plus ` ↵ ` for line breaks).
 *
 * @param max - limit in code points before escaping; default {@link MAX_INLINE}.
 */
export function escapeMarkdownInline(text: string, max: number = MAX_INLINE): string {
  const oneLine = clean(text, max).replace(/\n/g, ' \u21B5 ').replace(/\t/g, ' ');
  const out = neutralizeMentions(oneLine).replace(MD_INLINE_RE, mdInlineChar);
  return out.startsWith(' ') ? `&#32;${out.slice(1)}` : out;
}

/**
 * Shows untrusted text verbatim in a fenced code block and returns the whole block:
 * opening fence, the sanitized and truncated text, closing fence (no trailing newline).
 *
 * The fence is a run of backticks longer than both 3 and the longest backtick run in the text,
 * so no line of the text can close it (CommonMark §4.5: the closing fence must be at least as
 * long as the opening one). Nothing inside a code block is parsed: no Markdown, entities, HTML,
 * autolinks or GitHub mentions (GitHub skips `pre`/`code`), so the text is not otherwise
 * escaped and copies exactly. CR is already gone (sanitizeText), so the only line break is LF.
 *
 * The caller must put the block at the start of a line, outside a list item or quote, and
 * separated by blank lines when it sits inside `<details>` (so it is not part of an HTML block).
 *
 * @param max - limit in code points; default {@link MAX_BLOCK}.
 */
export function escapeMarkdownCode(text: string, max: number = MAX_BLOCK): string {
  const body = clean(text, max);
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}\n${body}\n${fence}`;
}

// ---------------------------------------------------------------------------------------------
// GitHub Actions workflow commands

/**
 * Escapes the data part of a workflow command (`::error file=…::DATA`), with the same mapping
 * as `@actions/core` and the runner's unescaping: `%` → `%25`, CR → `%0D`, LF → `%0A`; after
 * {@link sanitizeText}, so ANSI colour codes and bidi controls (the Actions log viewer renders
 * ANSI) are shown as text.
 *
 * Guarantees: no CR or LF in the output, so after a command prefix it stays one line and text
 * such as `::error::`, `::set-output name=x::`, `::add-mask::` or `::stop-commands::` inside it
 * is data, never a command; `%0A` in the input becomes `%250A`, which the runner decodes to the
 * literal `%0A`, never to a line break. The runner decodes the result back to the sanitized text.
 *
 * Use it only when writing the `::command::` line yourself: `@actions/core`'s `error()` /
 * `warning()` / `notice()` encode again (pass them {@link jsonSafe} text instead). The output is
 * only safe after a command prefix on the same line, never at the start of a line.
 *
 * @param max - limit in code points before encoding; default {@link MAX_BLOCK}.
 */
export function escapeWorkflowCommandData(text: string, max: number = MAX_BLOCK): string {
  // `##[` too: a line the runner fails to parse as `::command::` is tried as `##[command]`.
  return breakLegacyCommands(clean(text, max)).replace(/[%\r\n]/g, (c) => `%${hex(c.charCodeAt(0), 2)}`);
}

/**
 * Escapes a property value of a workflow command (`file=`, `title=`, `line=`, …): the data
 * mapping plus `:` → `%3A` and `,` → `%2C` (as `@actions/core` does), after
 * {@link sanitizeText}.
 *
 * Guarantees: no CR, LF, `:` or `,` in the output, so a value can neither end the property list
 * (`::`), start another property (`,name=`) nor start a new line; the runner decodes it back to
 * the sanitized text. Same caveats as {@link escapeWorkflowCommandData}.
 *
 * @param max - limit in code points before encoding; default {@link MAX_BLOCK} (truncating a
 *   `file=` path would break the annotation; pass {@link MAX_INLINE} for titles).
 */
export function escapeWorkflowCommandProperty(text: string, max: number = MAX_BLOCK): string {
  return breakLegacyCommands(clean(text, max)).replace(/[%\r\n:,]/g, (c) => `%${hex(c.charCodeAt(0), 2)}`);
}

// ---------------------------------------------------------------------------------------------
// Terminal and JSON

/**
 * Makes untrusted text safe to print to a terminal: {@link sanitizeText}, then truncation.
 *
 * Guarantees: no ESC, no C0/C1 control character other than TAB and LF (so no cursor movement,
 * screen clearing, colour, hyperlink or window-title (OSC) sequence, and no CR overwriting the
 * line), no bidi control and no invisible character; all other printable Unicode is kept.
 * Line breaks are kept: when one line is required (a table row), use
 * {@link escapeTerminalInline}.
 *
 * @param max - limit in code points; default {@link MAX_BLOCK}.
 */
export function escapeTerminal(text: string, max: number = MAX_BLOCK): string {
  return breakRunnerCommands(clean(text, max));
}

/**
 * {@link escapeTerminal} on one line: LF becomes ` ↵ ` and TAB a space, so server text cannot
 * start a line of its own that looks like toolgate output (`✔ no findings`).
 *
 * @param max - limit in code points; default {@link MAX_INLINE}.
 */
export function escapeTerminalInline(text: string, max: number = MAX_INLINE): string {
  return breakRunnerCommands(clean(text, max).replace(/\n/g, ' \u21B5 ').replace(/\t/g, ' '));
}

/**
 * Breaks what the GitHub Actions runner reads as a command in a log line: `##[` anywhere in the
 * line (the older command form, e.g. `##[add-mask]`: actions/runner's `ActionCommand.TryParse`
 * looks for it at any position) and `::` at the start of a line after whitespace (`TryParseV2`
 * calls .NET `TrimStart()`, which trims every Unicode white space: NBSP, U+3000, U+2028, NEL…).
 * The bracket or the first colon becomes its fullwidth form (`##［`, `：:`): still readable,
 * visibly altered, and no invisible character is added. Pure.
 */
export function breakRunnerCommands(text: string): string {
  return breakLegacyCommands(text).replace(LINE_COMMAND, '$1\uFF1A');
}

/** `::` after any white space .NET's `char.IsWhiteSpace` accepts (JS `\s` without the line feed, and NEL). */
const LINE_COMMAND = /^((?:[^\S\n]|\u0085)*):(?=:)/gm;

/** The `##[` half of {@link breakRunnerCommands}, for text that will not start a line. */
function breakLegacyCommands(text: string): string {
  return text.replace(/##\[/g, '##\uFF3B');
}

/**
 * The last guard on a whole report printed to stdout or stderr (the job log, in Actions):
 * {@link breakRunnerCommands} for text and Markdown; for JSON (and SARIF), where `##[` can only
 * occur inside a string, `[` there becomes the JSON escape `\u005b`, so the document parses to
 * exactly the same values. Pretty-printed JSON has no line that starts with `::`.
 */
export function guardLogOutput(text: string, kind: 'json' | 'text'): string {
  return kind === 'json' ? text.replace(/##\[/g, '##\\u005b') : breakRunnerCommands(text);
}

/**
 * Prepares untrusted text for a JSON string value (SARIF `message.text`, the JSON report) or
 * for an API that encodes by itself (`@actions/core`, the Checks API): {@link sanitizeText}, then
 * truncation. `JSON.stringify` does the JSON escaping.
 *
 * Guarantees: well-formed UTF-16 (no lone surrogate, which `JSON.stringify` would emit as a
 * `\udXXX` escape that strict UTF-8 consumers reject), no control or invisible characters
 * (SARIF viewers and the Actions log render them), at most `max` code points plus the mark.
 * Not escaped for Markdown: do not put it in SARIF `message.markdown`.
 *
 * @param max - limit in code points; default {@link MAX_BLOCK}.
 */
export function jsonSafe(text: string, max: number = MAX_BLOCK): string {
  return clean(text, max);
}
