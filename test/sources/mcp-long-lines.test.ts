/**
 * Issue 11 §9-10: long stdout lines are parsed in slices (an interrupt is handled while a 45 MB
 * page of 100,000 tools is parsed), a byte-order mark is named, and a server that floods toolgate
 * with requests is stopped. Units: the sliced parser against `JSON.parse`, the stdio transport
 * over a fake process, the flood guard over a fake transport; then one real 100,000-tool listing.
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { withoutSandboxForThisFile } from '../support/sandbox-mode.js';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { snapshotMcp } from '../../src/sources/mcp.js';
import { PieceText, ProcessStdioTransport, SLICED_PARSE_BYTES, parseJsonSliced } from '../../src/sources/mcp-process.js';
import type { ServerProcess } from '../../src/sources/launch/process.js';
import { captureToolsList, guardFlood } from '../../src/sources/tools-list-capture.js';
import { FIXTURES, NODE, ROOT, livePidsInGroup, readPids, tempDir } from '../support/mcp-fixtures.js';

withoutSandboxForThisFile();

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** `text` in pieces cut at `cuts` (positions), merged only where asked. */
function pieces(text: string, cuts: number[]): PieceText {
  const t = new PieceText(undefined, 0);
  let at = 0;
  for (const cut of [...new Set(cuts)].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b)) {
    t.push(text.slice(at, cut));
    at = cut;
  }
  t.push(text.slice(at));
  return t;
}

/** JSON.parse's verdict: the value, or 'refused'. */
function native(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return 'refused';
  }
}

async function sliced(text: string | PieceText, pieceChars: number): Promise<unknown> {
  try {
    return await parseJsonSliced(text, { pieceChars, due: () => true });
  } catch (e) {
    expect(e).toBeInstanceOf(SyntaxError);
    return 'refused';
  }
}

describe('parseJsonSliced', () => {
  it('gives what JSON.parse gives for any JSON value, however it is cut into pieces and slices', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue(),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 40 }),
        async (value, indent, cuts, pieceChars) => {
          const text = JSON.stringify(value, null, indent);
          expect(
            await sliced(
              pieces(
                text,
                cuts.map((c) => c % (text.length + 1)),
              ),
              pieceChars,
            ),
          ).toStrictEqual(JSON.parse(text));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('refuses exactly what JSON.parse refuses (texts damaged at random)', async () => {
    const damage = fc.tuple(fc.nat(), fc.constantFrom('', ',', ':', '{', '}', '[', ']', '"', '\\', ' ', '1', 'e', '-', 'n', '\uFEFF', '\r'), fc.boolean());
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.array(damage, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 20 }), async (value, edits, pieceChars) => {
        let text = JSON.stringify(value);
        for (const [pos, ch, replace] of edits) {
          const at = pos % (text.length + 1);
          text = text.slice(0, at) + ch + text.slice(replace ? at + 1 : at);
        }
        expect(await sliced(text, pieceChars)).toStrictEqual(native(text));
      }),
      { numRuns: 500 },
    );
  });

  it('cases JSON.parse decides in a particular way: duplicate keys, __proto__, escapes, depth', async () => {
    const cases = [
      '{"a":1,"a":2}',
      '{"__proto__":{"polluted":true},"x":[1,2]}',
      '{"s":"\\"]}\\\\","t":"\\u0041\\ud83d\\ude00"}',
      '[1,]',
      '{"a":1,}',
      '[1 2]',
      '{"a" 1}',
      '[1}',
      '{,}',
      '[,1]',
      '  [ -0 , 1e5 , true , null ]  ',
      '\uFEFF{}',
      `${'['.repeat(2000)}${']'.repeat(2000)}`,
      `${'['.repeat(2000)}${']'.repeat(1999)}`,
    ];
    for (const text of cases) {
      const v = await sliced(text, 2);
      expect(v, text.slice(0, 40)).toStrictEqual(native(text));
    }
    const proto = (await sliced('{"__proto__":{"polluted":true}}', 2)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
    expect(Object.keys(proto)).toEqual(['__proto__']);
  });

  it('parses a range of the text (without a BOM in front and a CR behind)', async () => {
    const text = pieces('\uFEFF{"a":[1,2,{"b":"c"}]}\r', [3, 9, 15]);
    expect(await parseJsonSliced(text, { from: 1, to: text.length - 1, pieceChars: 2 })).toEqual({ a: [1, 2, { b: 'c' }] });
  });

  it('yields to the event loop between the members of a long container', async () => {
    const page = { tools: Array.from({ length: 2000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })) };
    let yields = 0;
    let immediates = 0;
    const ticker = setInterval(() => immediates++, 0);
    try {
      const v = await parseJsonSliced(JSON.stringify(page), { pieceChars: 1024, due: () => (yields++, true) });
      expect(v).toEqual(page);
    } finally {
      clearInterval(ticker);
    }
    // A chance between any two tools, and the loop really turned (timers ran while it parsed).
    expect(yields).toBeGreaterThanOrEqual(1999);
    expect(immediates).toBeGreaterThan(0);
  });
});

/** A stand-in for a spawned server: the transport reads `stdout`, writes `stdin`, watches 'exit'. */
function fakeServer(maxLineBytes = 64 * 1024 * 1024) {
  const stdout = new PassThrough();
  const stdin = new PassThrough();
  const child = Object.assign(new EventEmitter(), { stdout, stdin, stderr: null });
  const transport = new ProcessStdioTransport({ pid: 0, child } as unknown as ServerProcess, maxLineBytes);
  const messages: unknown[] = [];
  const events: string[] = [];
  transport.onmessage = (m) => {
    messages.push(m);
    events.push(`message ${String((m as { method?: string }).method ?? (m as { id?: unknown }).id)}`);
  };
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => {
      events.push('close');
      resolve();
    };
  });
  return { stdout, child, transport, messages, events, closed };
}

/** Writes `text` in 64 KiB chunks, as a pipe delivers it. */
function writeChunked(stream: PassThrough, text: string): void {
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += 65536) stream.write(buf.subarray(i, i + 65536));
}

/** A JSON-RPC notification longer than {@link SLICED_PARSE_BYTES}, named `method`. */
function longNotification(method: string, extra = ''): string {
  const items = Array.from({ length: Math.ceil((SLICED_PARSE_BYTES * 2) / 30) }, (_, i) => ({ i, text: `item ${i} \u00e9\u{1F600} ${extra}` }));
  const line = JSON.stringify({ jsonrpc: '2.0', method, params: { items } });
  expect(Buffer.byteLength(line)).toBeGreaterThan(SLICED_PARSE_BYTES * 2);
  return line;
}

describe('ProcessStdioTransport with long lines', () => {
  it('delivers a long line and what follows it in order, and closes only after both', async () => {
    const s = fakeServer();
    await s.transport.start();
    const long = longNotification('notifications/long');
    writeChunked(s.stdout, `${long}\n{"jsonrpc":"2.0","method":"notifications/short"}\n`);
    s.stdout.end();
    await s.closed;
    expect(s.events).toEqual(['message notifications/long', 'message notifications/short', 'close']);
    expect(s.messages[0]).toEqual(JSON.parse(long));
    expect(s.transport.noiseLines).toBe(0);
  });

  it('the server exits right after a long line: the line is still delivered before the close', async () => {
    const s = fakeServer();
    await s.transport.start();
    writeChunked(s.stdout, `${longNotification('notifications/last')}\r\n`);
    s.child.emit('exit', 0, null);
    await s.closed;
    expect(s.events).toEqual(['message notifications/last', 'close']);
  });

  it('a long line that is not JSON counts as one noise line, with its start as the sample', async () => {
    const s = fakeServer();
    await s.transport.start();
    writeChunked(s.stdout, `${'log line '.repeat(SLICED_PARSE_BYTES / 4)}\n${' '.repeat(SLICED_PARSE_BYTES + 10)}\n`);
    s.stdout.end();
    await s.closed;
    expect(s.transport.noiseLines).toBe(1);
    expect(s.transport.firstNoiseLine).toBe(`${'log line '.repeat(13).slice(0, 117)}...`);
  });

  it('a byte-order mark before a long message fails the connection, saying what came', async () => {
    const s = fakeServer();
    await s.transport.start();
    writeChunked(s.stdout, `\uFEFF${longNotification('notifications/bom')}\n`);
    await s.closed;
    expect(s.messages).toEqual([]);
    expect(s.transport.failure).toEqual({
      reason: 'protocol-error',
      message: expect.stringContaining('wrote a byte-order mark (U+FEFF) before its notifications/bom notification on stdout'),
    });
  });

  it('the line cap still holds for long lines', async () => {
    const s = fakeServer(SLICED_PARSE_BYTES * 2);
    await s.transport.start();
    writeChunked(s.stdout, `${longNotification('notifications/too-long')}\n`);
    await s.closed;
    expect(s.transport.failure?.reason).toBe('byte-cap');
    expect(s.messages).toEqual([]);
  });
});

/** A transport whose sends are never delivered (a server that does not read), or always are. */
function fakeTransport(delivers: boolean) {
  const sent: JSONRPCMessage[] = [];
  const t: Transport = {
    start: () => Promise.resolve(),
    close: () => Promise.resolve(),
    send: (m) => {
      sent.push(m);
      return delivers ? Promise.resolve() : new Promise<void>(() => undefined);
    },
  };
  return { t, sent };
}

/** Connects like the SDK: sets onmessage after the taps, answers every request. */
function connect(t: Transport): void {
  t.onmessage = (m) => {
    const msg = m as { id?: string | number; method?: string };
    if (msg.method !== undefined && msg.id !== undefined) void t.send({ jsonrpc: '2.0', id: msg.id, result: {} }).catch(() => undefined);
  };
}

describe('guardFlood', () => {
  it('stops a server whose requests wait for answers it does not read: once, naming the flood', () => {
    const { t } = fakeTransport(false);
    const floods: string[] = [];
    guardFlood(t, (m) => floods.push(m), { unanswered: 100, messages: 1_000_000 });
    connect(t);
    for (let i = 0; i < 500; i++) t.onmessage!({ jsonrpc: '2.0', id: i, method: 'ping' });
    expect(floods).toHaveLength(1);
    expect(floods[0]).toBe(
      "flooded toolgate with requests: it sent 101, and more than 100 of toolgate's answers are waiting because the server does not read them as fast as it sends (at most 100 may wait)",
    );
  });

  it('answers that are delivered free their place; the total per connection is still bounded', async () => {
    const { t } = fakeTransport(true);
    const floods: string[] = [];
    guardFlood(t, (m) => floods.push(m), { unanswered: 10, messages: 200 });
    connect(t);
    for (let i = 0; i < 150; i++) {
      t.onmessage!({ jsonrpc: '2.0', id: i, method: 'ping' });
      t.onmessage!({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
      // Delivery settles asynchronously, as on a pipe.
      await Promise.resolve();
      await Promise.resolve();
    }
    expect(floods).toEqual(['flooded toolgate with 101 requests and 100 notifications (at most 200 per connection)']);
  });

  it('stacks with the tools/list capture: both see every message', async () => {
    const { t } = fakeTransport(true);
    const capture = captureToolsList(t);
    const floods: string[] = [];
    guardFlood(t, (m) => floods.push(m), { unanswered: 1, messages: 3 });
    const seen: unknown[] = [];
    t.onmessage = (m) => seen.push(m);
    await t.send({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    t.onmessage!({ jsonrpc: '2.0', id: 7, result: { tools: [] } });
    for (let i = 0; i < 4; i++) t.onmessage!({ jsonrpc: '2.0', method: 'notifications/message', params: {} });
    expect(capture.take(7)).toEqual({ tools: [] });
    expect(seen).toHaveLength(5);
    expect(floods).toEqual(['flooded toolgate with 0 requests and 4 notifications (at most 3 per connection)']);
  });
});

describe('a 100,000-tool page on one 45 MB line', () => {
  it('is listed whole, and the event loop is never blocked for a second while it is parsed', async () => {
    const dir = tempDir('tg-long-');
    cleanups.push(dir.cleanup);
    const pidFile = join(dir.path, 'pids');
    let last = performance.now();
    let worst = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 5);
    try {
      const snap = await snapshotMcp('big', {
        transport: 'stdio',
        command: NODE,
        args: [join(FIXTURES, 'hostile', 'big-page.mjs'), pidFile],
        cwd: ROOT,
        env: [],
        capabilities: {},
        timeouts: { startupMs: 30_000, requestMs: 60_000, totalMs: 90_000 },
        limits: { maxPages: 2, maxBytes: 64 * 1024 * 1024 },
      });
      expect(snap.tools).toHaveLength(100_000);
      expect((snap.tools.at(-1)!.tool as { name: string }).name).toBe('tool_099999');
      expect(snap.diagnostics.rawBytes).toBeGreaterThan(40_000_000);
    } finally {
      clearInterval(ticker);
    }
    // One JSON.parse of the page blocked for 2-4 s on a loaded 2-core runner (0.7-1.5 s idle);
    // sliced, the longest stretch is ~0.1 s there. A second is the interrupt budget (issue 11 §9).
    expect(worst).toBeLessThan(1000);
    expect(livePidsInGroup(readPids(pidFile)[0]!)).toEqual([]);
  });
});
