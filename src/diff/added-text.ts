/**
 * What a change adds to a text: the ranges of the new text that the old one lacks, word by word.
 * `suspicious-text` judges a changed description by these (a sentence a reviewer already approved
 * is not raised again; a sentence the change writes or extends is) and quotes them first.
 *
 * The text is attacker-controlled, so the work is bounded like the report's word diff
 * (`src/report/text-diff.ts`): the common prefix and suffix are found in linear time, and
 * jsdiff's `maxEditLength` bounds the diff of what lies between; past that bound, or past
 * {@link MAX_DIFFED} characters, everything between is added. That fails safe: more text is
 * judged, never less.
 */
import { diffWordsWithSpace } from 'diff';

/** jsdiff's bound on insertions + deletions (the report's word diff uses the same). */
const MAX_EDIT_LENGTH = 300;
/** Longer middles are not diffed: all of the new one counts as added. */
const MAX_DIFFED = 20_000;

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);

/** `[start, end)` widened to whole words of `text` where an end falls inside a word, without blanks at its ends. */
function toWords(text: string, start: number, end: number): [number, number] {
  let s = start;
  let e = end;
  if (!isSpace(text[s])) while (s > 0 && !isSpace(text[s - 1])) s--;
  if (e > s && !isSpace(text[e - 1])) while (e < text.length && !isSpace(text[e])) e++;
  // No blanks at either end: the range is the words.
  while (s < e && isSpace(text[s])) s++;
  while (e > s && isSpace(text[e - 1])) e--;
  return [s, e];
}

/**
 * The ranges `[start, end)` of `after` (UTF-16 indices, whole words) that `before` does not have,
 * in order, not overlapping. Equal texts give `[]`; an empty `before` gives all of `after` (when
 * it is not empty). Removed text gives no range (nothing new to read). Pure; linear in the texts
 * plus O(MAX_DIFFED × MAX_EDIT_LENGTH) at worst.
 */
export function addedRanges(before: string, after: string): Array<[number, number]> {
  if (before === after) return [];
  const max = Math.min(before.length, after.length);
  let p = 0;
  while (p < max && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && before.charCodeAt(before.length - 1 - s) === after.charCodeAt(after.length - 1 - s)) s++;
  const oldMid = before.slice(p, before.length - s);
  const newMid = after.slice(p, after.length - s);
  if (newMid === '') return [];
  const whole = () => {
    const r = toWords(after, p, after.length - s);
    return r[1] > r[0] ? [r] : [];
  };
  if (oldMid === '' || oldMid.length > MAX_DIFFED || newMid.length > MAX_DIFFED) return whole();
  const changes = diffWordsWithSpace(oldMid, newMid, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return whole();
  const out: Array<[number, number]> = [];
  let at = p;
  for (const c of changes) {
    if (c.removed) continue;
    if (c.added && c.value.trim() !== '') {
      const [a, b] = toWords(after, at, at + c.value.length);
      if (b <= a) {
        at += c.value.length;
        continue;
      }
      const last = out.at(-1);
      if (last && a <= last[1]) last[1] = Math.max(last[1], b);
      else out.push([a, b]);
    }
    at += c.value.length;
  }
  return out;
}
