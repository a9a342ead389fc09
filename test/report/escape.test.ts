import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_BLOCK,
  breakRunnerCommands,
  guardLogOutput,
  MAX_INLINE,
  TRUNCATION_MARK_MAX,
  escapeMarkdownCode,
  escapeMarkdownInline,
  escapeTerminal,
  escapeTerminalInline,
  escapeWorkflowCommandData,
  escapeWorkflowCommandProperty,
  jsonSafe,
  neutralizeMentions,
  sanitizeText,
} from '../../src/report/escape.js';
import { HOSTILE_STRINGS } from '../fixtures/hostile-strings.js';

// ---------------------------------------------------------------------------------------------
// Helpers: decoders and structural checks. They model the parts of the consumers that matter
// (CommonMark backslash escapes and entities, HTML entities, the Actions runner's command parser)
// so the tests check structure, not snapshots.

const RUNS = 500;
const ZWSP = '\u200B';

/**
 * The only shapes escapeMarkdownInline may emit: a backslash escape of ASCII punctuation, one of
 * our entities, or a character that is neither ASCII punctuation nor a line break.
 */
const MD_INLINE_SHAPE = /^(?:\\[!-/:-@[-`{-~]|&(?:amp|lt|gt|quot|#39|#32|#8203);|[^!-/:-@[-`{-~\r\n])*$/;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"' };

function decodeEntity(_m: string, body: string): string {
  if (body.startsWith('#')) return String.fromCodePoint(Number(body.slice(1)));
  const c = NAMED[body];
  if (c === undefined) throw new Error(`unexpected entity &${body};`);
  return c;
}

/** What a CommonMark renderer shows for text made only of MD_INLINE_SHAPE tokens. */
function decodeMarkdownInline(md: string): string {
  return md.replace(/\\([!-/:-@[-`{-~])|&(#?\w+);/g, (m, esc: string | undefined, ent: string | undefined) =>
    esc !== undefined ? esc : decodeEntity(m, ent ?? ''),
  );
}

/**
 * Patterns GitHub applies to decoded text after Markdown parsing (mentions, team mentions,
 * e-mail autolinks, issue references, GH- references, emoji). None may survive our escaping.
 */
const GITHUB_TEXT_TRIGGERS: ReadonlyArray<[string, RegExp]> = [
  ['mention', /@[\p{L}\p{N}_]/u],
  ['issue ref', /#\p{N}/u],
  ['GH ref', /gh-\p{N}/iu],
  ['emoji shortcode', /:[a-z0-9_+-]+:/i],
];

/** Raw-text patterns the GFM autolink extension reacts to. */
const AUTOLINK_TRIGGERS: ReadonlyArray<RegExp> = [/https?:\/\//i, /ftp:\/\//i, /www\./i, /<[a-z][a-z0-9+.-]*:/i];

/** C0/C1 controls other than TAB and LF, DEL. */
const CONTROL = /[\x00-\x08\x0B-\x1F\x7F-\x9F]/;
/** Bidi controls, zero-width and other invisible characters, tags, variation selector runs. */
// Unicode's own classes (default-ignorable, format controls), line/paragraph separators and the
// blank braille pattern: the set sanitizeText documents as made visible.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029\u2800]/u;
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Parses one log line the way the runner does (ActionCommand v2), or returns undefined. */
function parseWorkflowCommand(line: string): { command: string; properties: Record<string, string>; data: string } | undefined {
  const msg = line.trimStart();
  if (!msg.startsWith('::')) return undefined;
  const end = msg.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = msg.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const pair of info.slice(space + 1).split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      properties[pair.slice(0, eq)] = unescapeProperty(pair.slice(eq + 1));
    }
  }
  return { command, properties, data: unescapeData(msg.slice(end + 2)) };
}

// The runner unescapes with sequential replacements, `%25` last.
function unescapeData(s: string): string {
  return s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%25', '%');
}

function unescapeProperty(s: string): string {
  return s.replaceAll('%0D', '\r').replaceAll('%0A', '\n').replaceAll('%3A', ':').replaceAll('%2C', ',').replaceAll('%25', '%');
}

/** What escapeMarkdownInline should render as: the cleaned text on one line, mentions broken. */
function expectedInlineText(text: string, max: number): string {
  return neutralizeMentions(jsonSafe(text, max).replace(/\n/g, ' \u21B5 ').replace(/\t/g, ' '));
}

// ---------------------------------------------------------------------------------------------
// Arbitrary strings biased toward trouble: any code point, lone surrogates, Latin-1 controls and
// fragments that matter to one medium or another.

const PIECES = [
  '@',
  '#',
  'GH-',
  'gh-',
  '-',
  'www.',
  'WWW.',
  'http://',
  'https://',
  'ftp://',
  ':',
  '::',
  ',',
  '=',
  '`',
  '```',
  '````',
  '~~~',
  '|',
  '[',
  ']',
  '(',
  ')',
  '![',
  '](',
  '<',
  '>',
  '</',
  '<!--',
  '&',
  '&lt;',
  '&#64;',
  '&#x40;',
  '\\',
  '*',
  '_',
  '~',
  '!',
  '.',
  '+',
  '{',
  '}',
  '"',
  "'",
  ' ',
  '    ',
  '\t',
  '\n',
  '\r',
  '\r\n',
  '\n\n',
  '\x1b',
  '\x1b[',
  '\x1b]0;',
  '\x07',
  '\x9b',
  '\x00',
  '\u202E',
  '\u2066',
  '\u200B',
  '\u200D',
  '\uFEFF',
  '\uFE0F',
  '\u{E0041}',
  '\u{1F600}',
  '\uD800',
  '\uDC00',
  '%',
  '%0A',
  '%0D',
  '%25',
  '%3A',
  '::error::',
  '::add-mask::',
  'octocat',
  'smile',
  '1',
  '42',
  'a',
  'é',
];

const unit = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xff }).map((c) => String.fromCharCode(c)) },
);
const hostile = fc.array(unit, { maxLength: 40 }).map((a) => a.join(''));
const limit = fc.oneof(fc.constant(Infinity), fc.integer({ min: 0, max: 60 }));

const CORPUS = HOSTILE_STRINGS;

// ---------------------------------------------------------------------------------------------

describe('hostile-strings corpus', () => {
  it('has at least 25 uniquely named entries, including a 1 MiB one', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(CORPUS.map((h) => h.name)).size).toBe(CORPUS.length);
    expect(CORPUS.some((h) => h.text.length >= 1024 * 1024)).toBe(true);
  });
});

describe('truncation (shared by every escaper; tested through jsonSafe, which is sanitizing plus truncation)', () => {
  it('returns text within the limit unchanged', () => {
    expect(jsonSafe('abc', 3)).toBe('abc');
    expect(jsonSafe('', 0)).toBe('');
    expect(jsonSafe('abc', Infinity)).toBe('abc');
  });

  it('cuts by code points and appends a visible mark with the original length', () => {
    expect(jsonSafe('abcdef', 2)).toBe('ab\u2026 [truncated, 6 chars]');
    expect(jsonSafe('abc', 0)).toBe('\u2026 [truncated, 3 chars]');
    expect(jsonSafe('\u{1F600}\u{1F600}\u{1F600}', 2)).toBe('\u{1F600}\u{1F600}\u2026 [truncated, 3 chars]');
    expect(jsonSafe('a\u{1F600}b', 1)).toBe('a\u2026 [truncated, 3 chars]');
  });

  it('rejects a negative or NaN limit', () => {
    expect(() => jsonSafe('x', -1)).toThrow(RangeError);
    expect(() => jsonSafe('x', Number.NaN)).toThrow(RangeError);
  });

  it('never splits a surrogate pair and stays within max + mark (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 80 }), fc.integer({ min: 0, max: 90 }), (s, max) => {
        const out = jsonSafe(s, max);
        const whole = sanitizeText(s);
        expect(LONE_SURROGATE.test(out)).toBe(false);
        expect(codePoints(out)).toBeLessThanOrEqual(max + TRUNCATION_MARK_MAX);
        if (codePoints(whole) <= max) expect(out).toBe(whole);
        else {
          expect(out.endsWith(`\u2026 [truncated, ${codePoints(s)} chars]`)).toBe(true);
          expect(whole.startsWith(out.slice(0, out.lastIndexOf('\u2026')))).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('documents a mark that fits TRUNCATION_MARK_MAX', () => {
    expect(codePoints(jsonSafe('xx', 1).slice(1).replace('2', String(Number.MAX_SAFE_INTEGER)))).toBeLessThanOrEqual(TRUNCATION_MARK_MAX);
  });
});

describe('sanitizeText', () => {
  it.each([
    ['plain text', 'hello, wörld 日本 \u{1F600}', 'hello, wörld 日本 \u{1F600}'],
    ['keeps TAB and LF', 'a\tb\nc', 'a\tb\nc'],
    ['CR LF and CR become LF', 'a\r\nb\rc', 'a\nb\nc'],
    ['NUL', 'a\u0000b', 'a\\x00b'],
    ['ANSI colour', '\x1b[31mred\x1b[0m', '\\x1B[31mred\\x1B[0m'],
    ['OSC title', '\x1b]0;title\x07', '\\x1B]0;title\\x07'],
    ['clear screen', '\x1b[2J', '\\x1B[2J'],
    ['8-bit CSI and NEL', '\u009b31m\u0085', '\\x9B31m\\x85'],
    ['DEL and backspace', '\u007f\b', '\\x7F\\x08'],
    ['RTL override', '\u202Eexe.txt', '<U+202E>exe.txt'],
    ['isolates', '\u2066\u2067\u2068\u2069', '<U+2066><U+2067><U+2068><U+2069>'],
    ['zero width', 're\u200Bad\u200C\u200D\u200E\u200F', 're<U+200B>ad<U+200C><U+200D><U+200E><U+200F>'],
    ['word joiner, invisible operators', '\u2060\u2061\u2062\u2063\u2064', '<U+2060><U+2061><U+2062><U+2063><U+2064>'],
    ['BOM', '\uFEFFx', '<U+FEFF>x'],
    ['soft hyphen', 'de\u00ADlete', 'de<U+00AD>lete'],
    ['tag characters', '\u{E0001}\u{E0041}\u{E007F}', '<U+E0001><U+E0041><U+E007F>'],
    ['line/paragraph separators', 'a\u2028b\u2029c', 'a<U+2028>b<U+2029>c'],
    ['Hangul filler, blank braille', '\u3164\u2800', '<U+3164><U+2800>'],
    ['lone surrogates', 'a\uD800b\uDC00', 'a\uFFFDb\uFFFD'],
    ['VS16 after an emoji is kept', '\u26A0\uFE0F', '\u26A0\uFE0F'],
    ['a run of selectors is shown', '\u{1F600}\uFE0F\uFE0F\u{E0100}', '\u{1F600}\uFE0F<U+FE0F><U+E0100>'],
    ['VS16 at the start is shown', '\uFE0Fx', '<U+FE0F>x'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });

  it('is idempotent and leaves no control, invisible or lone surrogate (property)', () => {
    fc.assert(
      fc.property(hostile, (s) => {
        const once = sanitizeText(s);
        expect(sanitizeText(once)).toBe(once);
        expect(CONTROL.test(once)).toBe(false);
        expect(once).not.toContain('\r');
        expect(LONE_SURROGATE.test(once)).toBe(false);
        // Invisible characters are gone, except one VS15/VS16 right after a visible character.
        expect(INVISIBLE.test(once.replace(/(?<=[^\s\uFE0E\uFE0F])[\uFE0E\uFE0F]/gu, ''))).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it('changes no printable single-code-point text (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-composite', maxLength: 40 }), (s) => {
        fc.pre(!INVISIBLE.test(s) && !CONTROL.test(s) && !s.includes('\r'));
        expect(sanitizeText(s)).toBe(s);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('neutralizeMentions', () => {
  it.each([
    ['@octocat', `@${ZWSP}octocat`],
    ['cc @github/security-team', `cc @${ZWSP}github/security-team`],
    ['a@b.example', `a@${ZWSP}b.example`],
    ['#1 and o/r#22', `#${ZWSP}1 and o/r#${ZWSP}22`],
    ['GH-1 gh-2', `GH-${ZWSP}1 gh-${ZWSP}2`],
    [':rocket: :+1:', `:${ZWSP}rocket: :${ZWSP}+1:`],
    // Untouched: not a trigger, and no invisible characters in ordinary tool names.
    ['sha-256 utf-8 get_v2 # heading @ alone', 'sha-256 utf-8 get_v2 # heading @ alone'],
  ])('%j', (input, expected) => {
    expect(neutralizeMentions(input)).toBe(expected);
  });
});

describe('escapeMarkdownInline', () => {
  it.each([
    ['[click](https://evil)', '\\[click\\]\\(https\\:\\/\\/evil\\)'],
    ['![x](https://evil/p.png)', '\\!\\[x\\]\\(https\\:\\/\\/evil\\/p\\.png\\)'],
    ['<img src=x onerror=alert(1)>', '&lt;img src\\=x onerror\\=alert\\(1\\)&gt;'],
    ['a|b', 'a\\|b'],
    ['@octocat', '\\@&#8203;octocat'],
    ['#1', '\\#&#8203;1'],
    ['www.evil.com', 'www\\.evil\\.com'],
    ['&lt;script&gt;', '&amp;lt\\;script&amp;gt\\;'],
    ['a\nb\tc', 'a \u21B5 b c'],
    ['    code', '&#32;   code'],
    ['\u202Eexe', '&lt;U\\+202E&gt;exe'],
    ['plain_name', 'plain\\_name'],
  ])('%j', (input, expected) => {
    expect(escapeMarkdownInline(input)).toBe(expected);
  });

  function checkInline(text: string, max: number): void {
    const out = escapeMarkdownInline(text, max);
    // Structure: every ASCII punctuation character is escaped; nothing else but our entities.
    expect(out).toMatch(MD_INLINE_SHAPE);
    expect(out).not.toMatch(/[\r\n]/);
    expect(out.startsWith(' ')).toBe(false);
    for (const re of AUTOLINK_TRIGGERS) expect(out).not.toMatch(re);
    // Rendering: the reader sees the cleaned text (plus our zero-width spaces) ...
    const shown = decodeMarkdownInline(out);
    expect(shown).toBe(expectedInlineText(text, max));
    expect(shown.replaceAll(ZWSP, '')).toBe(jsonSafe(text, max).replace(/\n/g, ' \u21B5 ').replace(/\t/g, ' '));
    // ... and GitHub's text filters find nothing to ping, link or render.
    for (const [what, re] of GITHUB_TEXT_TRIGGERS) expect(re.test(shown), what).toBe(false);
    expect(out.length).toBeLessThanOrEqual(9 * ((max === Infinity ? codePoints(sanitizeText(text)) : max) + TRUNCATION_MARK_MAX) + 5);
  }

  it.each(CORPUS.map((h) => [h.name, h.text] as const))('keeps structure: %s', (_name, text) => {
    checkInline(text, MAX_INLINE);
  });

  it('keeps structure for arbitrary text (property)', () => {
    fc.assert(
      fc.property(hostile, limit, (s, max) => checkInline(s, max)),
      { numRuns: RUNS },
    );
  });

  it('neutralizes fake approvals: no mention, no image, no live emoji', () => {
    const out = escapeMarkdownInline('![approved](https://img.shields.io/badge/review-approved-green) ✅ Approved by @octocat :shipit:');
    expect(out).not.toContain('![');
    expect(out).not.toContain('](');
    expect(out).toContain('✅');
    expect(decodeMarkdownInline(out)).toContain(`@${ZWSP}octocat`);
    expect(decodeMarkdownInline(out)).toContain(`:${ZWSP}shipit:`);
  });
});

describe('escapeMarkdownCode', () => {
  function checkCode(text: string, max: number): void {
    const out = escapeMarkdownCode(text, max);
    const lines = out.split('\n');
    const open = lines[0] ?? '';
    const close = lines[lines.length - 1] ?? '';
    expect(open).toMatch(/^`{3,}$/);
    expect(close).toBe(open);
    const body = lines.slice(1, -1).join('\n');
    // Verbatim: the cleaned text, unescaped.
    expect(body).toBe(jsonSafe(text, max));
    // No body line can close the fence (CommonMark §4.5: up to 3 spaces, >= as many backticks).
    const closer = new RegExp(`^ {0,3}\`{${open.length},}[ \\t]*$`);
    for (const line of lines.slice(1, -1)) expect(line).not.toMatch(closer);
    for (const run of body.match(/`+/g) ?? []) expect(run.length).toBeLessThan(open.length);
    expect(CONTROL.test(out)).toBe(false);
  }

  it('uses a fence longer than any backtick run', () => {
    expect(escapeMarkdownCode('x')).toBe('```\nx\n```');
    expect(escapeMarkdownCode('a ```` b')).toBe('`````\na ```` b\n`````');
    expect(escapeMarkdownCode('```\nrm -rf /\n```')).toBe('````\n```\nrm -rf /\n```\n````');
  });

  it.each(CORPUS.map((h) => [h.name, h.text] as const))('keeps structure: %s', (_name, text) => {
    checkCode(text, MAX_BLOCK);
  });

  it('keeps structure for arbitrary text (property)', () => {
    fc.assert(
      fc.property(hostile, limit, (s, max) => checkCode(s, max)),
      { numRuns: RUNS },
    );
  });
});

describe('workflow commands', () => {
  it('encodes like @actions/core, after sanitizing', () => {
    expect(escapeWorkflowCommandData('100% a\nb')).toBe('100%25 a%0Ab');
    expect(escapeWorkflowCommandData('a\r\n::warning::b')).toBe('a%0A::warning::b');
    expect(escapeWorkflowCommandData('%0A::error::x')).toBe('%250A::error::x');
    expect(escapeWorkflowCommandData('\x1b[31mred')).toBe('\\x1B[31mred');
    expect(escapeWorkflowCommandProperty('a:b,c%d\ne')).toBe('a%3Ab%2Cc%25d%0Ae');
    expect(escapeWorkflowCommandProperty('x,line=1::title')).toBe('x%2Cline=1%3A%3Atitle');
  });

  function checkCommand(text: string): void {
    const data = escapeWorkflowCommandData(text);
    const title = escapeWorkflowCommandProperty(text, MAX_INLINE);
    for (const part of [data, title]) expect(part).not.toMatch(/[\r\n]/);
    expect(title).not.toMatch(/[:,]/);

    const line = `::error file=${escapeWorkflowCommandProperty('.toolgate/a,b:c.json')},line=3,title=${title}::${data}`;
    // Exactly one line, hence exactly one command, whatever the text says.
    const lines = line.split(/\r\n|\r|\n/);
    expect(lines).toHaveLength(1);
    // Nor the legacy `##[command]` form, which the runner finds anywhere in a line.
    expect(line).not.toContain('##[');
    const cmd = parseWorkflowCommand(line);
    expect(cmd?.command).toBe('error');
    // Decoded: the sanitized text, with `##[` shown as `##［`.
    const legacy = (s: string) => s.replace(/##\[/g, '##\uFF3B');
    expect(cmd?.properties).toEqual({
      file: '.toolgate/a,b:c.json',
      line: '3',
      title: legacy(jsonSafe(text, MAX_INLINE)),
    });
    expect(cmd?.data).toBe(legacy(jsonSafe(text, MAX_BLOCK)));
    // The runner's own decoding cannot produce a line break that was not a real one in the
    // input, and our sanitizing has already turned real ones into LF inside the data.
    expect(cmd?.properties['title']).not.toMatch(/[\r]/);
  }

  it.each(CORPUS.map((h) => [h.name, h.text] as const))('one command line: %s', (_name, text) => {
    checkCommand(text);
  });

  it.each([
    '::error::pwned',
    '::set-output name=x::y',
    '::add-mask::secret',
    '::stop-commands::token',
    '%0A::error::x',
    'a\r\n::warning::b',
    '  ::error::indented',
  ])('cannot start a command: %j', (text) => {
    for (const escaped of [escapeWorkflowCommandData(text), escapeWorkflowCommandProperty(text)]) {
      const line = `::notice::${escaped}`;
      expect(line.split(/\r\n|\r|\n/)).toHaveLength(1);
      expect(parseWorkflowCommand(line)?.command).toBe('notice');
    }
  });

  it('one command line for arbitrary text (property)', () => {
    fc.assert(
      fc.property(hostile, (s) => checkCommand(s)),
      { numRuns: RUNS },
    );
  });
});

describe('escapeTerminal', () => {
  function checkTerminal(out: string): void {
    expect(out).not.toContain('\x1b');
    expect(CONTROL.test(out)).toBe(false);
    expect(out).not.toContain('\r');
    expect(LONE_SURROGATE.test(out)).toBe(false);
    expect(INVISIBLE.test(out.replace(/(?<=[^\s\uFE0E\uFE0F])[\uFE0E\uFE0F]/gu, ''))).toBe(false);
  }

  it('keeps printable Unicode and makes escapes visible', () => {
    expect(escapeTerminal('✅ 日本 \u{1F600}\tok\n')).toBe('✅ 日本 \u{1F600}\tok\n');
    expect(escapeTerminal('\x1b]0;title\x07\x1b[2J')).toBe('\\x1B]0;title\\x07\\x1B[2J');
    expect(escapeTerminal('rm -rf /\rsafe')).toBe('rm -rf /\nsafe');
    expect(escapeTerminalInline('a\nb\tc')).toBe('a \u21B5 b c');
  });

  it.each(CORPUS.map((h) => [h.name, h.text] as const))('no control or invisible: %s', (_name, text) => {
    checkTerminal(escapeTerminal(text));
    const inline = escapeTerminalInline(text);
    checkTerminal(inline);
    expect(inline).not.toMatch(/[\n\t]/);
  });

  it('no control or invisible for arbitrary text (property)', () => {
    fc.assert(
      fc.property(hostile, limit, (s, max) => {
        checkTerminal(escapeTerminal(s, max));
        checkTerminal(escapeTerminalInline(s, max));
      }),
      { numRuns: RUNS },
    );
  });
});

describe('jsonSafe', () => {
  it('round-trips through JSON as well-formed text', () => {
    fc.assert(
      fc.property(hostile, limit, (s, max) => {
        const out = jsonSafe(s, max);
        expect(LONE_SURROGATE.test(out)).toBe(false);
        expect(CONTROL.test(out)).toBe(false);
        const json = JSON.stringify({ text: out });
        expect(json).not.toMatch(/\\ud[89a-f]/i);
        expect((JSON.parse(json) as { text: string }).text).toBe(out);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('length bounds on a 1 MiB input', () => {
  const big = CORPUS.find((h) => h.name === 'one-mib')?.text ?? '';
  const astral = CORPUS.find((h) => h.name === 'one-mib-astral')?.text ?? '';
  const mark = `\u2026 [truncated, ${1024 * 1024} chars]`;

  it('every escaper truncates with the visible mark', () => {
    expect(decodeMarkdownInline(escapeMarkdownInline(big))).toBe('A'.repeat(MAX_INLINE) + mark);
    expect(escapeMarkdownCode(big)).toBe('```\n' + 'A'.repeat(MAX_BLOCK) + mark + '\n```');
    expect(escapeTerminal(big)).toBe('A'.repeat(MAX_BLOCK) + mark);
    expect(jsonSafe(big)).toBe('A'.repeat(MAX_BLOCK) + mark);
    expect(unescapeData(escapeWorkflowCommandData(big))).toBe('A'.repeat(MAX_BLOCK) + mark);
    expect(jsonSafe(big, 10)).toBe('A'.repeat(10) + mark);
  });

  it('counts code points, not UTF-16 units', () => {
    expect(jsonSafe(astral, 3)).toBe(`\u{1F600}\u{1F600}\u{1F600}\u2026 [truncated, ${(1024 * 1024) / 4} chars]`);
  });

  it('does not sanitize what is cut away (same result as sanitizing everything)', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 0, max: 30 }), (s, max) => {
        const whole = sanitizeText(s);
        const out = jsonSafe(s, max);
        if (codePoints(whole) <= max) expect(out).toBe(whole);
        else {
          const kept = Array.from(whole).slice(0, max).join('');
          expect(out).toBe(`${kept}\u2026 [truncated, ${codePoints(s)} chars]`);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('keeps exactly max characters when CR LF shrinks the text', () => {
    expect(jsonSafe('\r\n'.repeat(100), 10)).toBe(`${'\n'.repeat(10)}\u2026 [truncated, 200 chars]`);
    expect(jsonSafe(`${'\r\n'.repeat(100)}x`, 100)).toBe(`${'\n'.repeat(100)}\u2026 [truncated, 201 chars]`);
    expect(jsonSafe(`${'\r\n'.repeat(50)}x`, 50)).toBe(`${'\n'.repeat(50)}\u2026 [truncated, 101 chars]`);
  });
});

describe('breakRunnerCommands: what the Actions runner would read as a command', () => {
  it('breaks `::` after any white space the runner trims (.NET TrimStart: NBSP, U+3000, NEL, U+2028…), not only spaces and tabs', () => {
    for (const ws of [' ', '\t', '\u00A0', '\u3000', '\u2003', '\u0085', '\u2028', '\u202F', '\u1680', '\v\f']) {
      const out = guardLogOutput(`ok\n${ws}::error title=pwned::x\n`, 'text');
      const line = out.split('\n')[1]!;
      // What the runner sees after trimming: no `::` command.
      expect(line.replace(/^[\s\u0085]+/, '').startsWith('::'), JSON.stringify(ws)).toBe(false);
      expect(line.startsWith(`${ws}\uFF1A:`), JSON.stringify(ws)).toBe(true);
    }
    // A `::` inside a line is no command and stays as it is.
    expect(breakRunnerCommands('a ::b')).toBe('a ::b');
  });
});
