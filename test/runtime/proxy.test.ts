/**
 * The relay without processes (in-memory endpoints): what reaches the server, what the client is
 * answered. The end-to-end suites (test/e2e/proxy*.test.ts) run the same relay between real
 * clients and servers.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME } from '../../src/config/policy.js';
import { DecisionLog } from '../../src/runtime/decision-log.js';
import { Proxy } from '../../src/runtime/proxy.js';
import type { Message } from '../../src/runtime/client-stdio.js';
import type { Json } from '../../src/util/json.js';
import { mcpSurface, readTool, writeTool } from '../support/surface-builders.js';

const TOOLS: Json[] = [readTool('get'), writeTool('put')];

/** A relay whose server answers tools/list with TOOLS and tools/call with "ok". */
function relay() {
  const toServer: Message[] = [];
  const toClient: Message[] = [];
  const lines: string[] = [];
  const sink = new Writable({ write: (c: Buffer, _e, cb) => (lines.push(c.toString()), cb()) });
  const server = {
    send: (m: Message) => {
      toServer.push(m);
      if (m.method === 'tools/list') queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } }));
      else if (m.method === 'tools/call' && m.id !== undefined)
        queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'ok' }] } }));
    },
  };
  const proxy: Proxy = new Proxy({ send: (m) => void toClient.push(m) }, server, {
    contract: mcpSurface(TOOLS),
    // The vendor methods these tests pass through are named, as a policy would name them.
    runtime: { ...DEFAULT_RUNTIME, allow: ['read'], passMethods: ['vendor/unknown', 'vendor/slow'] },
    log: new DecisionLog(sink, 's', false),
    requestTimeoutMs: 1000,
    listLimits: { maxPages: 10, maxBytes: 1 << 20 },
  });
  const settle = () => new Promise((r) => setTimeout(r, 10));
  return { proxy, toServer, toClient, lines, settle };
}

const calls = (ms: Message[]) => ms.filter((m) => m.method === 'tools/call');

describe('the relay', () => {
  it("answers tools/list itself with the admitted tools, under the client's id", async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} });
    await r.settle();
    expect(r.toClient).toEqual([{ jsonrpc: '2.0', id: 7, result: { tools: [TOOLS[0]] } }]);
    // The server saw only the proxy's own listing, under an id of its own.
    expect(r.toServer.map((m) => [m.method, typeof m.id])).toEqual([['tools/list', 'string']]);
  });

  it('a tools/call without an id (a notification) or with a null id is never sent on', async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'get', arguments: {} } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: null, method: 'tools/call', params: { name: 'get', arguments: {} } });
    await r.settle();
    expect(calls(r.toServer)).toEqual([]);
    expect(r.toClient).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'toolgate proxy: tools/call needs a string or number id' } }]);
  });

  it('string and number ids stay apart; an admitted call goes on unchanged and its answer comes back', async () => {
    const r = relay();
    const call = (id: Json) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get', arguments: {}, _meta: { progressToken: 'p' } } });
    await r.proxy.fromClient(call(1));
    await r.proxy.fromClient(call('1'));
    await r.settle();
    expect(calls(r.toServer)).toEqual([call(1), call('1')]);
    expect(r.toClient.map((m) => m.id)).toEqual([1, '1']);
  });

  it('refuses a write tool under allow [read] and an undeclared argument, answering the client only', async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'put', arguments: {} } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get', arguments: { extra: 1 } } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'constructor' } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: null });
    await r.settle();
    expect(calls(r.toServer)).toEqual([]);
    expect(r.toClient.map((m) => (m.result as { structuredContent: { error: string } }).structuredContent.error)).toEqual([
      'tool_not_allowed',
      'invalid_arguments',
      'tool_not_allowed',
      'invalid_arguments',
    ]);
  });

  it('passes everything else through unchanged, both ways', async () => {
    const r = relay();
    const fromClient = [
      { jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'x://a', _meta: { k: 1 } } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } },
      { jsonrpc: '2.0', id: 9, method: 'vendor/unknown', params: { a: [1] } },
      { jsonrpc: '2.0', id: 's1', result: { role: 'assistant', content: { type: 'text', text: 'hi' } } },
    ];
    for (const m of fromClient) await r.proxy.fromClient(m);
    const fromServer = [
      { jsonrpc: '2.0', id: 's1', method: 'sampling/createMessage', params: { messages: [] } },
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } },
      { jsonrpc: '2.0', id: 'r', result: { contents: [] } },
    ];
    for (const m of fromServer) await r.proxy.fromServer(m);
    expect(r.toServer).toEqual(fromClient);
    expect(r.toClient).toEqual(fromServer);
  });

  it('only an answer to a pending client request reaches the client, once, with its id of the same type', async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    await r.settle();
    // The server answers "the client's tools/list" itself (it guessed the id), with tools of its choosing.
    await r.proxy.fromServer({ jsonrpc: '2.0', id: 1, result: { tools: [writeTool('evil')] } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 4, method: 'ping' });
    await r.proxy.fromServer({ jsonrpc: '2.0', id: '4', result: {} });
    await r.proxy.fromServer({ jsonrpc: '2.0', id: 4, result: {} });
    await r.proxy.fromServer({ jsonrpc: '2.0', id: 4, result: { again: true } });
    expect(r.toClient).toEqual([
      { jsonrpc: '2.0', id: 1, result: { tools: [TOOLS[0]] } },
      { jsonrpc: '2.0', id: 4, result: {} },
    ]);
    expect(r.lines.filter((l) => l.includes('unsolicited-answer'))).toHaveLength(3);
  });

  it('refuses request ids that are no string or number, or that a pending request already has; and task-augmented calls', async () => {
    const r = relay();
    const cases: Message[] = [
      { jsonrpc: '2.0', id: {}, method: 'ping' },
      { jsonrpc: '2.0', id: true, method: 'tools/call', params: { name: 'get', arguments: {} } },
      { jsonrpc: '2.0', id: 'p', method: 'vendor/slow' },
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
    ];
    for (const m of cases) await r.proxy.fromClient(m);
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'get', arguments: {}, task: { ttl: 1000 } } });
    await r.settle();
    expect(r.toServer.filter((m) => m.method !== 'tools/list')).toEqual([cases[2]]);
    expect(r.toClient.filter((m) => m.id === null)).toHaveLength(3);
    expect(r.toClient.find((m) => m.id === 9)).toMatchObject({ result: { isError: true, structuredContent: { error: 'invalid_arguments' } } });
  });

  it('a server that pages forever is cut at the listing bound, and then nothing is admitted (fail closed)', async () => {
    const toClient: Message[] = [];
    const sink = new Writable({ write: (_c: Buffer, _e, cb) => cb() });
    const sent: Message[] = [];
    const proxy: Proxy = new Proxy(
      { send: (m) => void toClient.push(m) },
      {
        send: (m: Message) => {
          sent.push(m);
          // Every page has a next one.
          if (m.method === 'tools/list')
            queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result: { tools: TOOLS, nextCursor: String(sent.length) } }));
        },
      },
      {
        contract: mcpSurface(TOOLS),
        runtime: DEFAULT_RUNTIME,
        log: new DecisionLog(sink, 's', false),
        requestTimeoutMs: 1000,
        listLimits: { maxPages: 5, maxBytes: 1 << 20 },
      },
    );
    await proxy.fromClient({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await new Promise((r) => setTimeout(r, 20));
    expect(sent.filter((m) => m.method === 'tools/list')).toHaveLength(5);
    expect(toClient[0]).toMatchObject({ id: 1, error: { message: expect.stringContaining('paged more than 5 times') as unknown } });
    const before = sent.length;
    await proxy.fromClient({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get', arguments: {} } });
    await new Promise((r) => setTimeout(r, 20));
    // Refused without reaching the server: after a failed listing nothing is admitted.
    expect(sent.slice(before).some((m) => m.method === 'tools/call')).toBe(false);
    expect(toClient.find((m) => m.id === 2)).toMatchObject({ result: { isError: true, structuredContent: { error: 'tool_not_allowed' } } });
  });
});
