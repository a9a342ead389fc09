/**
 * The proxy's stdio side toward the client (src/runtime/client-stdio.ts): every line that is no
 * single JSON-RPC message object is answered (under its id when it can be read, else `id: null`)
 * and reported for the log; messages split anywhere, even inside a UTF-8 sequence, arrive whole.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ClientStdio, usableId, type Message } from '../../src/runtime/client-stdio.js';

function side(maxMessageBytes = 1024) {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: string[] = [];
  output.on('data', (c: Buffer) => written.push(...c.toString().split('\n').filter(Boolean)));
  const received: Message[] = [];
  const refused: string[] = [];
  const stdio = new ClientStdio(input, output, { maxMessageBytes, onRefused: (reason) => refused.push(reason) });
  stdio.onmessage = (m) => received.push(m);
  stdio.start();
  const feed = async (...chunks: (string | Buffer)[]) => {
    for (const c of chunks) input.write(c);
    await new Promise((r) => setImmediate(r));
  };
  return { feed, received, refused, answers: () => written.map((l) => JSON.parse(l) as unknown) };
}

describe('ClientStdio', () => {
  it('delivers messages split across chunks, inside a multi-byte character too, and ignores CR and blank lines', async () => {
    const s = side();
    const bytes = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"t":"é😀"}}\r\n\n');
    await s.feed(bytes.subarray(0, 50), bytes.subarray(50, 51), bytes.subarray(51));
    expect(s.received).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping', params: { t: 'é😀' } }]);
    expect(s.answers()).toEqual([]);
  });

  it('ignores a byte order mark before a message (RFC 8259 §8.1)', async () => {
    const s = side();
    await s.feed('\ufeff{"jsonrpc":"2.0","id":"b","method":"ping"}\n');
    expect(s.received).toEqual([{ jsonrpc: '2.0', id: 'b', method: 'ping' }]);
  });

  it('answers a line that is not valid UTF-8 under its id when the rest can be read, else with id null', async () => {
    const s = side();
    const bad = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}}\n'),
    ]);
    await s.feed(bad, Buffer.from([0xc3, 0x0a]));
    expect(s.received).toEqual([]);
    expect(s.answers()).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32700, message: 'toolgate proxy: the message is not valid UTF-8' } },
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'toolgate proxy: the message is not valid UTF-8' } },
    ]);
    expect(s.refused).toEqual(['invalid-utf8', 'invalid-utf8']);
  });

  it('answers a parse error and a value that is no object with id null', async () => {
    const s = side();
    await s.feed('{"id":1,\n', '42\n', 'null\n', '"tools/call"\n');
    expect(s.answers()).toMatchObject([
      { id: null, error: { code: -32700 } },
      { id: null, error: { code: -32600, message: expect.stringContaining('not number') as unknown } },
      { id: null, error: { code: -32600, message: expect.stringContaining('not null') as unknown } },
      { id: null, error: { code: -32600, message: expect.stringContaining('not string') as unknown } },
    ]);
    expect(s.refused).toEqual(['parse-error', 'not-an-object', 'not-an-object', 'not-an-object']);
  });

  it('answers a batch with one error per request in it (a batch answer), or one id-null error when none has an id', async () => {
    const s = side();
    await s.feed(
      `${JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x' } },
        { jsonrpc: '2.0', method: 'notifications/cancelled' },
        { jsonrpc: '2.0', id: 'two', method: 'ping' },
      ])}\n`,
      '[]\n',
      '[{"jsonrpc":"2.0","method":"notifications/initialized"}]\n',
    );
    const [batch, empty, notes] = s.answers() as [Message[], Message, Message];
    expect(batch.map((a) => a.id)).toEqual([1, 'two']);
    expect(batch[0]).toMatchObject({ error: { code: -32600, message: expect.stringContaining('batches are not supported') as unknown } });
    expect(empty).toMatchObject({ id: null, error: { code: -32600 } });
    expect(notes).toMatchObject({ id: null, error: { code: -32600 } });
    expect(s.received).toEqual([]);
    expect(s.refused).toEqual(['batch', 'batch', 'batch']);
  });

  it('refuses a line over max-message-bytes, whether it arrives whole or in pieces, and reads the next line', async () => {
    const s = side(1024);
    await s.feed(`${'x'.repeat(2000)}\n`);
    await s.feed('y'.repeat(800), 'y'.repeat(800), 'y'.repeat(800), '\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n');
    expect(s.answers()).toMatchObject([
      { id: null, error: { code: -32600, message: expect.stringContaining('larger than 1024 bytes') as unknown } },
      { id: null, error: { code: -32600 } },
    ]);
    expect(s.received).toEqual([{ jsonrpc: '2.0', id: 2, method: 'ping' }]);
    expect(s.refused).toEqual(['too-large', 'too-large']);
  });
});

describe('usableId', () => {
  it('is a string, or a number that JSON writes back unchanged', () => {
    expect(usableId('x'.repeat(100_000))).toHaveLength(100_000);
    expect(usableId(-42)).toBe(-42);
    for (const id of [JSON.parse('1e400') as number, JSON.parse('12345678901234567890') as number, -0, 1.5, Number.NaN, null, true, {}, []])
      expect(usableId(id)).toBeUndefined();
  });
});
