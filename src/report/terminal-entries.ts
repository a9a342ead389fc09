/**
 * The entries of the terminal report's sections (review.ts, grouping.ts), laid out for a terminal
 * of {@link DEFAULT_WIDTH} columns: a title line, the class and hints where they are the point,
 * the tools of a shared change wrapped in full, then per rule one line of what changed, the
 * texts (each on one line, the changed words first), the contract line and the rule's fix once.
 *
 * In "Needs your attention" a long text is cut to its line and said whole under "Texts in full"
 * below it ({@link CutText}); elsewhere texts are never cut.
 */
import type { Finding, Level } from '../rules/types.js';
import { escapeTerminalInline } from './escape.js';
import { CLASS_RULES, fixKey, runMessage, runsOf, type ChangePart, type ReviewEntry } from './grouping.js';
import { clipSegments, focusDiff, FOCUS_CHARS, renderWordDiffTerminal, type ChangedText, type DiffSegment } from './text-diff.js';

/** Columns the report is laid out for when the output is not a terminal (or says no width). */
export const DEFAULT_WIDTH = 100;

/** Where the lines after a finding's first one start. */
const INDENT = ' '.repeat(12);

const LEVEL_CODE: Record<Level, string> = { error: '31', warning: '33', notice: '36' };

function paint(on: boolean, code: string, text: string): string {
  return on ? `\x1b[${code}m${text}\x1b[0m` : text;
}

/** Columns a line takes: its code points, colour codes left out. */
export function columnsOf(line: string): number {
  let n = 0;
  // eslint-disable-next-line no-control-regex
  for (const _ of line.replace(/\x1b\[[0-9;]*m/g, '')) n++;
  return n;
}

/** Terminal lines `text` takes at `width` columns: each line at least one. @internal for the golden test's bound */
export function terminalLines(text: string, width = DEFAULT_WIDTH): number {
  return text.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(columnsOf(line) / width)), 0);
}

/** A name quoted when it is empty or has a comma, a colon, a quote or a blank (raw: escape it after). */
function quoted(name: string): string {
  return name === '' || /[\s,:"]/.test(name) ? `"${name.replace(/"/g, '\\"')}"` : name;
}

/**
 * A tool's name in a list or at the start of its line, escaped and, where it could pass for
 * several names or hide in the separators (`a, b`, `a: b`), quoted.
 */
export function listName(name: string): string {
  return escapeTerminalInline(quoted(name), 122);
}

/** `label a, b, c`, wrapped at `width` columns between names, the next lines at `indent`; every name listed. */
export function wrapNames(label: string, names: readonly string[], width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = label;
  let fresh = true;
  names.forEach((name, i) => {
    const piece = `${listName(name)}${i < names.length - 1 ? ',' : ''}`;
    if (!fresh && columnsOf(line) + 1 + columnsOf(piece) > width) {
      lines.push(line);
      line = `${indent}${piece}`;
    } else line = `${line} ${piece}`;
    fresh = false;
  });
  lines.push(line);
  return lines;
}

/** A text an entry showed cut, said whole under "Texts in full". */
export interface CutText {
  source: string;
  tools: string[];
  label: string;
  text: ChangedText;
}

/** What laying out one section needs. */
export interface EntryLayout {
  color: boolean;
  width: number;
  /** The review clause the verdict says once (left out of each message). */
  clause: string | undefined;
  diff: (before: string | undefined, after: string | undefined) => DiffSegment[];
  /** Where cut texts go; undefined: texts are not cut. */
  cut?: CutText[];
  /** The tools the entry before listed (a list close to it is said as a difference). */
  previous: { tools?: readonly string[] };
}

const where = (f: Finding) => (f.location ? `${f.location.file}${f.location.line ? `:${f.location.line}` : ''}` : '');
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The text-change line: `text (field pointer): ` and the word diff; with `room` columns, the
 * changed words first ({@link focusDiff}) and cut to them (the caller says it whole elsewhere).
 */
export function renderTextChange(t: ChangedText, label: string, layout: Pick<EntryLayout, 'color' | 'diff'>, room?: number): { line: string; cut: boolean } {
  const head = `${escapeTerminalInline(label, 200)}: `;
  const whole = layout.diff(t.base, t.head);
  // A preview starts at the first word: leading blanks (often a line break) only push it right.
  // A short line keeps less context around each change, so that a change shows on it.
  const context = room === undefined ? undefined : Math.max(12, Math.min(FOCUS_CHARS, Math.floor(room / 5)));
  const segs =
    room === undefined
      ? whole
      : focusDiff(whole, context, room)
          .map((g, i) => (i === 0 ? { ...g, text: g.text.trimStart() } : g))
          .filter((g) => g.text !== '');
  const full = head + renderWordDiffTerminal(segs, layout.color);
  if (room === undefined || columnsOf(full) <= room) return { line: full, cut: false };
  // Markers and escapes make the line longer than its text: cut again by what is over.
  let max = room - columnsOf(head) - 6;
  for (let tries = 0; tries < 4; tries++) {
    const line = head + renderWordDiffTerminal(clipSegments(segs, max).segs, layout.color);
    const over = columnsOf(line) - room;
    if (over <= 0) return { line, cut: true };
    max -= over;
  }
  return { line: head + renderWordDiffTerminal(clipSegments(segs, Math.max(1, max)).segs, layout.color), cut: true };
}

/** Columns a text's label may take on a cut line: the rest is for the text. */
const LABEL_ROOM = 48;

/**
 * A text's label: `text (description)`, `text (inputSchema /properties/q/description)`; with
 * `short` (a cut line), only the field and pointer, a long pointer by its last tokens
 * (`inputSchema …/q/description`).
 */
function textLabel(t: ChangedText, short: boolean): string {
  const field = t.field ?? 'text';
  if (t.pointer === undefined) return short ? field : `text (${field})`;
  let pointer = t.pointer;
  if (short && columnsOf(field) + columnsOf(pointer) > LABEL_ROOM - 8) {
    const tokens = pointer.split('/');
    let tail = tokens.pop() ?? '';
    while (tokens.length > 1 && columnsOf(field) + columnsOf(tail) + columnsOf(tokens.at(-1) ?? '') < LABEL_ROOM - 10) tail = `${tokens.pop()}/${tail}`;
    pointer = `…/${tail}`;
  }
  return short ? `${field} ${pointer}` : `text (${field} ${pointer})`;
}

/** A cut text, for "Texts in full". */
function cutText(e: ReviewEntry, p: ChangePart, label: string): CutText {
  // A new tool's description and a tool's own change are that tool's; a shared text is its entry's.
  const tools = (p.kind === 'new-tool' || e.own) && p.finding.tool !== undefined ? [p.finding.tool] : e.tools;
  return { source: e.source, tools, label: p.kind === 'new-tool' ? 'description' : label, text: p.text as ChangedText };
}

/**
 * One rule's lines in an entry. Outside attention: the rule's line with what its parts say, then
 * every text whole on its own line. In "Needs your attention" one terminal line each: a new tool's
 * description per tool (two for a new tool of its own entry); a changed text on the rule's line
 * itself, the changed words first (two lines, one on a tool's own line); a schema change's
 * deltas, the texts of the arguments it adds counted (two lines for a finding said whole). Every
 * text not shown whole goes to `layout.cut`.
 */
function runLines(run: readonly ChangePart[], e: ReviewEntry, layout: EntryLayout, own?: { lead: string; painted: string }): string[] {
  const f = (run[0] as ChangePart).finding;
  const lead = own?.lead ?? `    ${f.level.padEnd(7)} ${f.ruleId}  `;
  const painted = own?.painted ?? `    ${paint(layout.color, LEVEL_CODE[f.level], f.level.padEnd(7))} ${f.ruleId}  `;
  const texts = run.filter((p) => p.text !== undefined && (p.kind === 'text' || p.kind === 'new-tool' || p.kind === 'whole'));
  // On a tool's own line the entry's title already says "accepts new inputs".
  const message = escapeTerminalInline(runMessage(run, own ? 1 : e.tools.length, layout.clause), 600).replace(own ? /^accepts new inputs: / : /^$/, '');
  const label = (p: ChangePart, short: boolean) =>
    p.kind === 'new-tool' ? (e.tools.length > 1 ? quoted(p.finding.tool ?? '') : 'description') : textLabel(p.text as ChangedText, short);
  const under = own ? `${INDENT}  ` : INDENT;
  if (!layout.cut) return [painted + message, ...texts.map((p) => under + renderTextChange(p.text as ChangedText, label(p, false), layout).line)];
  const cut = layout.cut;
  const room = (prefix: string, lines = 1) => lines * layout.width - columnsOf(prefix);
  const shown = (p: ChangePart, prefix: string, note = '', lines = 1) => {
    const r = renderTextChange(p.text as ChangedText, label(p, true), layout, room(prefix, lines) - columnsOf(note));
    if (r.cut) cut.push(cutText(e, p, label(p, false)));
    return `${prefix === lead ? painted : prefix}${r.line}${note}`;
  };
  if (run.every((p) => p.kind === 'new-tool')) {
    if (e.tools.length === 1 && texts[0]) return [shown(texts[0], lead, '', 2)];
    return [painted + message, ...texts.map((p) => shown(p, INDENT))];
  }
  const [first, ...others] = texts;
  const note = (n: number) => (n > 0 ? ` (+${plural(n, 'text')} below)` : '');
  if (first && run.every((p) => p.kind === 'text')) {
    for (const p of others) cut.push(cutText(e, p, label(p, false)));
    return [shown(first, lead, note(others.length), own ? 1 : 2)];
  }
  for (const p of texts) cut.push(cutText(e, p, label(p, false)));
  const whole = run.some((p) => p.kind === 'whole');
  return [painted + fit(message, room(lead, whole ? 2 : 1) - columnsOf(note(texts.length))) + note(texts.length)];
}

/**
 * An entry of changes of their own: the rule's line, then a line per tool (two for a changed
 * text), each with the tool's class and contract line.
 */
function ownLines(e: ReviewEntry, layout: EntryLayout): string[] {
  const f = (e.parts[0] as ChangePart).finding;
  const out = [
    `    ${paint(layout.color, LEVEL_CODE[f.level], f.level.padEnd(7))} ${f.ruleId}  ${e.tools.length} tools, each its own ${e.ownKind ?? 'change'}:`,
  ];
  for (const o of e.own ?? []) {
    const cls = o.safetyClass ? ` (${o.safetyClass})` : '';
    const at = o.location?.line ? (layout.cut ? ` :${o.location.line}` : ` ${where({ location: o.location } as Finding)}`) : '';
    const lead = `${INDENT}${listName(o.tool)}${cls}${at}  `;
    out.push(...runLines(o.parts, e, layout, { lead, painted: lead }));
  }
  return out;
}

/** The title of an entry: its tool (or how many share it), what it is about, its contract line. */
function entryTitle(e: ReviewEntry, showHints: boolean, names: string | undefined, short: boolean): string {
  const src = `[${escapeTerminalInline(e.source, 80)}] `;
  if (e.tools.length === 0) return `${src}${e.headline}`;
  const cls = !showHints && e.hints ? ` (${e.hints.slice(0, e.hints.indexOf(' · '))})` : '';
  const who = names ?? (e.tools.length === 1 ? escapeTerminalInline(e.tools[0] as string, 120) : `${e.tools.length} tools`);
  // In attention the section's heading names each source's contract file once.
  const at = !e.location ? '' : short && e.location.line ? ` · contract :${e.location.line}` : ` · contract ${where({ location: e.location } as Finding)}`;
  return `${src}${who}${cls}: ${escapeTerminalInline(e.headline, 200)}${at}`;
}

/** `text` cut to `room` columns, ending in `…` when cut. */
function fit(text: string, room: number): string {
  if (columnsOf(text) <= room) return text;
  return `${[...text].slice(0, Math.max(1, room - 1)).join('')}…`;
}

/** Names a list may differ by from the one before it and still be said as the difference. */
const MAX_DIFFERENCE = 3;

/**
 * The tools of an entry below its title, every one: wrapped, or, when the entry before listed
 * nearly the same tools, as the difference (`as above, without a, b`).
 */
function toolsLines(tools: readonly string[], layout: EntryLayout): string[] {
  const before = layout.previous.tools;
  if (before) {
    const had = new Set(before);
    const has = new Set(tools);
    const without = before.filter((t) => !has.has(t));
    const plus = tools.filter((t) => !had.has(t));
    const n = without.length + plus.length;
    if (n > 0 && n <= MAX_DIFFERENCE && n < tools.length / 2) {
      const parts = [without.length ? `without ${without.map(listName).join(', ')}` : '', plus.length ? `with ${plus.map(listName).join(', ')}` : ''];
      return [`    tools: the ${tools.length} of the entry above, ${parts.filter(Boolean).join(' and ')}`];
    }
  }
  return wrapNames('    tools:', tools, layout.width, '      ');
}

/** One entry's lines. */
export function renderEntry(e: ReviewEntry, layout: EntryLayout): string[] {
  const first = e.parts[0] as ChangePart;
  const showHints = e.hints !== undefined && CLASS_RULES.has(first.finding.ruleId);
  const newTools = e.parts.every((p) => p.kind === 'new-tool');
  // A few names fit the title; more are listed below it, every one.
  const listedNames = e.tools.length > 1 && !newTools && !e.own ? e.tools.map(listName).join(', ') : undefined;
  const inTitle =
    listedNames !== undefined && columnsOf(entryTitle(e, showHints, listedNames, layout.cut !== undefined)) + 2 <= layout.width ? listedNames : undefined;
  const out = [`  ${paint(layout.color, '1', entryTitle(e, showHints, inTitle, layout.cut !== undefined))}`];
  if (showHints) out.push(`    ${e.hints}`);
  if (listedNames !== undefined && inTitle === undefined) out.push(...toolsLines(e.tools, layout));
  layout.previous.tools = e.tools.length > 1 ? e.tools : undefined;
  for (const run of e.own ? [e.parts] : runsOf(e.parts)) {
    const f = (run[0] as ChangePart).finding;
    out.push(...(e.own ? ownLines(e, layout) : runLines(run, e, layout)));
    // Outside attention a finding's own line is said; in it, the entry's contract line stands for
    // its tool. Each rule's fix is said once, after the attention entries (renderFixes).
    const at = !layout.cut && e.tools.length === 1 && where(f) !== where({ location: e.location } as Finding) ? where(f) : '';
    if (at) out.push(`${INDENT}${at}`);
  }
  return out;
}

/** "Texts in full": each text an entry above showed cut, whole. */
export function renderCutTexts(cut: readonly CutText[], layout: Pick<EntryLayout, 'color' | 'diff'>): string[] {
  return cut.map((c) => {
    // A text of no tool (the server's instructions) is the server's.
    const who =
      c.tools.length === 0
        ? 'the server'
        : c.tools.length === 1
          ? listName(c.tools[0] as string)
          : `${c.tools.length} tools (${listName(c.tools[0] as string)}, …)`;
    const t = renderTextChange(c.text, c.label, layout);
    return `  [${escapeTerminalInline(c.source, 80)}] ${who} · ${t.line}`;
  });
}

/**
 * "What to do": each fix of the entries' findings once (a rule whose fix depends on where the
 * finding is, such as suspicious-text on a tool or on the server's instructions, has several), in
 * the order the entries show them. `which` picks the findings (outside attention: the warnings);
 * `shown` holds the fixes said already, and takes these.
 */
export function renderFixes(entries: readonly ReviewEntry[], which: (f: Finding) => boolean = () => true, shown = new Set<string>()): string[] {
  const out: string[] = [];
  for (const e of entries)
    for (const f of e.findings) {
      const key = fixKey(f);
      if (!which(f) || !f.fix || shown.has(key)) continue;
      shown.add(key);
      out.push(`  ${f.ruleId}: ${f.fix}`);
    }
  return out;
}
