/**
 * The quote a `suspicious-text` hit shows a reviewer: the sentence it hit in, not the word that
 * triggered it. "before" occurs three times in a server's instructions; the sentence around the
 * one that fired is what a person can judge.
 */

/** How long a quote may be (characters, `…` marks included): about two lines of a report. */
export const MAX_QUOTE = 160;

/**
 * `sentence` clipped to at most `max` characters around `[from, to)` (what the row matched, from
 * its verb to its anchor), at word boundaries, with `…` where it was cut. The whole sentence when
 * it fits; the start of the match when the match alone is longer than `max`.
 * @param sentence one sentence, blanks already collapsed.
 * @param from start of the match in `sentence` (UTF-16 index).
 * @param to end of the match in `sentence`, exclusive.
 */
export function quoteAround(sentence: string, from: number, to: number, max: number = MAX_QUOTE): string {
  if (sentence.length <= max) return sentence;
  const room = max - 2;
  if (to - from >= room) return `${cutEnd(sentence.slice(from, from + room))}…`;
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
