/**
 * The JSON text of a relayed message, kept by message object (WeakMaps: a text lives as long as
 * its message, and messages are never changed after they are made). A reader keeps the line it
 * parsed ({@link keepReadText}); the relay may pass an answer on as that text
 * ({@link relayAsRead}) when every JSON parser reads the same id from it; any other message is
 * serialized once ({@link wireText}), however many times it is measured or written.
 */

/** Texts messages were parsed from, by message. */
const readTexts = new WeakMap<object, string>();
/** Texts messages are written as, by message. */
const wireTexts = new WeakMap<object, string>();

/** A `\u` escape of `i` or `d`: a key spelled so reads as "id" without containing `"id"`. */
const ESCAPED_I_OR_D = /\\u00(?:69|64)/;

/** Keeps `text` as the line `m` was parsed from (`JSON.parse(text)` made `m`). */
export function keepReadText(m: object, text: string): void {
  readTexts.set(m, text);
}

/**
 * Makes the line an answer was parsed from the text it is written as, when any JSON parser reads
 * the same id from it as `JSON.parse` did: `"id"` occurs once in it, with no escaped `i` or `d`
 * anywhere (so no second key reads as "id"), followed by the id exactly as `JSON.stringify`
 * writes it. A text with a repeated key reads differently in parsers that keep the first one
 * (`JSON.parse` keeps the last), and an answer whose id a client read otherwise could pose as the
 * answer to another request (the `tools/list` the proxy answers itself). Everything else in the
 * line is relayed as the server wrote it, as re-serializing it would relay its value.
 * @param maxBytes the longest text (UTF-8 bytes) relayed as read.
 * @returns the text, or undefined when `m` was not read from a kept line, the line is longer than
 *   `maxBytes` or not safe to relay as it is ({@link wireText} then serializes `m`).
 */
export function relayAsRead(m: { id?: unknown }, maxBytes: number): string | undefined {
  const text = readTexts.get(m);
  if (text === undefined || Buffer.byteLength(text) > maxBytes) return undefined;
  const at = text.indexOf('"id"');
  if (at < 0 || text.includes('"id"', at + 4) || ESCAPED_I_OR_D.test(text)) return undefined;
  const token = `"id":${JSON.stringify(m.id)}`;
  const next = text.charCodeAt(at + token.length);
  // The id token ends there: a comma or the object's end (0x2c ',', 0x7d '}').
  if (!text.startsWith(token, at) || (next !== 0x2c && next !== 0x7d)) return undefined;
  wireTexts.set(m, text);
  return text;
}

/**
 * The JSON text `m` is written as (without its newline): the one {@link relayAsRead} chose, else
 * `JSON.stringify(m)`, made once per message, so that a result measured and then written is
 * serialized once.
 * @throws what `JSON.stringify` throws (a value nested too deep).
 */
export function wireText(m: object): string {
  let text = wireTexts.get(m);
  if (text === undefined) {
    text = JSON.stringify(m);
    wireTexts.set(m, text);
  }
  return text;
}
