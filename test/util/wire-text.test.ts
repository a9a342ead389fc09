/**
 * The text a relayed message is written as (src/util/wire-text.ts): an answer read from a line is
 * written on as that line only when every JSON parser reads the same id from it as `JSON.parse`
 * did (a parser that keeps the first of two keys reads the first id); anything else is serialized,
 * once.
 */
import { describe, expect, it } from 'vitest';
import { keepReadText, relayAsRead, wireText } from '../../src/util/wire-text.js';

/** A message parsed from `line`, its line kept as a relay's reader keeps it. */
function read(line: string): { id?: unknown } {
  const m = JSON.parse(line) as { id?: unknown };
  keepReadText(m, line);
  return m;
}

describe('relayAsRead', () => {
  it('passes on the line as the server wrote it (key order, spacing, number spelling), and wireText then writes that line', () => {
    for (const line of [
      '{"result":{"content":[{"type":"text","text":"a \\"quoted\\" id"}],"n":1e2},"jsonrpc":"2.0","id":7}',
      '{"jsonrpc":"2.0","id":"call-1","result":{ "content" : [] , "x":"é\\u00e9"}}',
      '{"jsonrpc":"2.0","result":{},"id":-3}',
    ]) {
      const m = read(line);
      expect(relayAsRead(m, 1 << 20)).toBe(line);
      expect(wireText(m)).toBe(line);
    }
  });

  it('serializes an answer whose text another parser could read another id from', () => {
    for (const line of [
      // A second "id" key: JSON.parse keeps the last, other parsers the first.
      '{"jsonrpc":"2.0","id":"tools-list-1","result":{},"id":7}',
      // The same key written with an escape.
      '{"jsonrpc":"2.0","\\u0069d":"tools-list-1","result":{},"id":7}',
      '{"jsonrpc":"2.0","i\\u0064":"tools-list-1","result":{},"id":7}',
      // "id" elsewhere (a nested key), so the first "id" may not be the answer's.
      '{"jsonrpc":"2.0","id":7,"result":{"structuredContent":{"id":1}}}',
      // The id not spelled as JSON.stringify spells it, or not followed by the end of its value.
      '{"jsonrpc":"2.0","id" :7,"result":{}}',
      '{"jsonrpc":"2.0","id":7.0,"result":{}}',
      '{"jsonrpc":"2.0","id":7e0,"result":{}}',
      '{"jsonrpc":"2.0","id":"\\u0061","result":{}}',
      '{"jsonrpc":"2.0","id":7 ,"result":{}}',
    ]) {
      const m = read(line);
      expect(relayAsRead(m, 1 << 20), line).toBeUndefined();
      expect(wireText(m)).toBe(JSON.stringify(m));
    }
  });

  it('serializes an answer longer than the bound in UTF-8 bytes, and one not read from a line', () => {
    const line = `{"jsonrpc":"2.0","id":1,"result":{"t":"${'é'.repeat(10)}"}}`;
    const bytes = Buffer.byteLength(line);
    expect(relayAsRead(read(line), bytes)).toBe(line);
    expect(relayAsRead(read(line), bytes - 1)).toBeUndefined();
    const made = { jsonrpc: '2.0', id: 1, result: {} };
    expect(relayAsRead(made, 1 << 20)).toBeUndefined();
    expect(wireText(made)).toBe('{"jsonrpc":"2.0","id":1,"result":{}}');
  });
});
