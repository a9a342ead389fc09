/**
 * The quote a `suspicious-text` hit shows a reviewer: the sentence it hit in, not the word that
 * triggered it. "before" occurs three times in a server's instructions; the sentence around the
 * one that fired is what a person can judge.
 */

/** How long a quote may be (characters, `…` marks included): about two lines of a report. */
export const MAX_QUOTE = 160;

/**
 * `whole` clipped to at most `max` characters around `[at, until)` (what the row matched, from
 * its verb to its anchor), at word boundaries, with `…` where it was cut. The whole sentence when
 * it fits; the match's start and end when the match alone is longer than `max` ({@link longMatch}).
 * A list item's marker is left out.
 * @param whole one sentence, blanks already collapsed.
 * @param at start of the match in `whole` (UTF-16 index).
 * @param until end of the match in `whole`, exclusive.
 */
function quoteAround(whole: string, at: number, until: number, max: number = MAX_QUOTE): string {
  // A list item's marker ("- ", "2. ") is not quoted, unless the match starts in it.
  const marker = LIST_MARKER.exec(whole)?.[0].length ?? 0;
  const lead = at >= marker ? marker : 0;
  const [sentence, from, to] = [whole.slice(lead), at - lead, until - lead];
  if (sentence.length <= max) return sentence;
  const room = max - 2;
  if (to - from >= room) return longMatch(sentence, from, to, room);
  // The match in the middle, what is left shared on both sides; a side that ends early gives its share to the other.
  const spare = room - (to - from);
  let start = Math.max(0, from - Math.ceil(spare / 2));
  const end = Math.min(sentence.length, start + room);
  start = Math.max(0, end - room);
  let out = sentence.slice(start, end);
  if (end < sentence.length) out = `${cutEnd(out, to - start)}…`;
  if (start > 0) out = `…${cutStart(out, from - start)}`;
  return out;
}

const LIST_MARKER = /^(?:[-*•>#]+|\d{1,3}[.)])\s+/;

/** Characters of a match too long to quote whole that its start (the verb) keeps; its end (the anchor: the URL, path or secret) keeps the rest. */
const VERB_ROOM = 40;

/**
 * A match longer than `room` (a verb far before its object): its start and its end, `…` between and
 * after. The end is the row's anchor (the URL, the path, the secret), which a reviewer must see; a
 * quote of the start alone would show "send…" and hide where.
 */
function longMatch(sentence: string, from: number, to: number, room: number): string {
  const head = cutEnd(sentence.slice(from, from + VERB_ROOM));
  const tail = cutStart(sentence.slice(to - (room - head.length - 3), to), Infinity);
  return `${head} … ${tail}${to < sentence.length ? '…' : ''}`;
}

/** `text` without a word cut at its end (never before `keep`). */
function cutEnd(text: string, keep = 0): string {
  const at = text.lastIndexOf(' ');
  return (at > keep ? text.slice(0, at) : text).trimEnd();
}

/** `text` without a word cut at its start (never after `keep`). */
function cutStart(text: string, keep: number): string {
  const at = text.indexOf(' ');
  return (at >= 0 && at < keep ? text.slice(at + 1) : text).trimStart();
}

/**
 * What a `sentence` row's hit quotes: its sentence around the match `m` (from `from`, where the
 * row's verb stands), with the other tool it names inside the quote when both fit; the words
 * matched as `match` when the quote says more.
 * @param s the sentence (`text` with blanks collapsed; `start`, its place in the text).
 */
export function quoted(
  s: { text: string; start: number },
  from: number,
  m: RegExpExecArray,
  other: { name: string; index: number } | undefined,
): { index: number; span: string; match?: string; otherTool?: string } {
  const to = m.index + m[0].length;
  const match = s.text.slice(m.index, to).trim();
  const [a, z] = other ? [Math.min(from, other.index), Math.max(to, other.index + other.name.length)] : [from, to];
  const span = z - a <= MAX_QUOTE - 10 ? quoteAround(s.text, a, z) : quoteAround(s.text, from, to);
  return { index: s.start + m.index, span, ...(span !== match ? { match } : {}), ...(other ? { otherTool: other.name } : {}) };
}
