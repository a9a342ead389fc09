/**
 * The relay without processes (in-memory endpoints): what reaches the server, what the client is
 * answered. The end-to-end suites (test/e2e/proxy*.test.ts) run the same relay between real
 * clients and servers.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RUNTIME } from '../../src/config/policy-resolve.js';
import { DecisionLog } from '../../src/runtime/decision-log.js';
import { Relay } from '../../src/runtime/proxy.js';
import type { Message } from '../../src/runtime/client-stdio.js';
import { wireText } from '../../src/util/wire-text.js';
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
  const proxy: Relay = new Relay({ send: (m) => void toClient.push(m) }, server, {
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
    const proxy: Relay = new Relay(
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

describe('methods the relay does not judge itself', () => {
  const errorOf = (ms: Message[], id: Json) => ms.find((m) => m.id === id)?.error as { code: number; message: string } | undefined;
  const logged = (lines: string[]) => lines.map((l) => JSON.parse(l) as { event: string; method?: string; decision: string; reason?: string });

  it('answers every spelling of tools/call and tools/list but the exact one "method not found", and sends none of them on', async () => {
    const r = relay();
    const variants = ['TOOLS/CALL', 'tools/call ', 'Tools/Call', 'tools/\u200bcall', 'ｔｏｏｌｓ/ｃａｌｌ', 'TOOLS/LIST', 'tools/list\t'];
    for (const [i, method] of variants.entries()) await r.proxy.fromClient({ jsonrpc: '2.0', id: 100 + i, method, params: { name: 'put', arguments: {} } });
    await r.proxy.fromClient({ jsonrpc: '2.0', method: 'TOOLS/CALL', params: { name: 'put', arguments: {} } });
    await r.settle();
    expect(r.toServer).toEqual([]);
    for (const [i, method] of variants.entries())
      expect(errorOf(r.toClient, 100 + i), method).toEqual({
        code: -32601,
        message: `toolgate proxy: method ${JSON.stringify(method)} is not "${method.toLowerCase().includes('list') ? 'tools/list' : 'tools/call'}" (methods are exact, case-sensitive names), and a variant of a method the proxy judges is never forwarded`,
      });
    const lines = logged(r.lines).filter((l) => l.event === 'request');
    expect(lines.map((l) => [l.method, l.decision, l.reason])).toEqual([
      ...variants.map((m) => [m, 'refused', 'judged-method-variant']),
      ['TOOLS/CALL', 'dropped', 'judged-method-variant'],
    ]);
  });

  it('refuses an unknown request naming runtime.pass-methods, drops an unknown notification, and logs both', async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 1, method: 'vendor/run', params: { cmd: 'rm -rf /' } });
    await r.proxy.fromClient({ jsonrpc: '2.0', method: 'notifications/vendor', params: {} });
    await r.settle();
    expect(r.toServer).toEqual([]);
    expect(errorOf(r.toClient, 1)).toEqual({
      code: -32601,
      message:
        'toolgate proxy: method "vendor/run" is not an MCP client request of any protocol version the proxy knows, so it is not forwarded; name it in runtime.pass-methods to let it through',
    });
    expect(r.toClient).toHaveLength(1);
    expect(logged(r.lines).map((l) => [l.event, l.method, l.decision, l.reason])).toEqual([
      ['request', 'vendor/run', 'refused', 'unknown-method'],
      ['request', 'notifications/vendor', 'dropped', 'unknown-method'],
    ]);
  });

  it("after the server answered initialize, judges by that version's methods (tasks/get is not one of 2025-06-18)", async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 'i', method: 'initialize', params: { protocolVersion: '2025-06-18' } });
    await r.proxy.fromServer({ jsonrpc: '2.0', id: 'i', result: { protocolVersion: '2025-06-18', capabilities: {} } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: 't' } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 3, method: 'ping' });
    await r.settle();
    expect(r.toServer.map((m) => m.method)).toEqual(['initialize', 'ping']);
    expect(errorOf(r.toClient, 2)?.message).toContain('is not an MCP client request of protocol 2025-06-18');
  });

  it('a message whose method is no string, or that is neither request nor answer, is refused; an answer with an unusable id dropped; none sent on', async () => {
    const r = relay();
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 1, method: ['tools/call'], params: { name: 'put' } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 2, params: { name: 'put' } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: { deep: true }, result: {} });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    await r.settle();
    expect(r.toServer).toEqual([]);
    expect(r.toClient.map((m) => [m.id, (m.error as { code: number }).code])).toEqual([
      [1, -32600],
      [2, -32600],
    ]);
    expect(logged(r.lines).map((l) => [l.reason, l.decision])).toEqual([
      ['invalid-request', 'refused'],
      ['invalid-request', 'refused'],
      ['invalid-answer', 'dropped'],
      ['invalid-answer', 'dropped'],
    ]);
  });

  it('answers and logs a refused call nested 20,000 deep, a call with a 1 MB id, and one whose id JSON cannot hold', async () => {
    const r = relay();
    const deepArgs = JSON.parse(`{"id":${'['.repeat(20_000)}${']'.repeat(20_000)}}`) as Json;
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'put', arguments: deepArgs } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get', arguments: deepArgs } });
    const bigId = 'i'.repeat(1 << 20);
    await r.proxy.fromClient({ jsonrpc: '2.0', id: bigId, method: 'tools/call', params: { name: 'put', arguments: {} } });
    await r.proxy.fromClient({ jsonrpc: '2.0', id: JSON.parse('1e400') as number, method: 'tools/call', params: { name: 'get', arguments: {} } });
    await r.settle();
    expect(calls(r.toServer)).toEqual([]);
    const refusal = (id: Json) =>
      (r.toClient.find((m) => m.id === id)?.result as { _meta: Record<string, { error: string }> })._meta['io.github.toolgate/refusal']?.error;
    expect(refusal(1)).toBe('tool_not_allowed');
    expect(refusal(2)).toBe('invalid_arguments');
    expect(refusal(bigId)).toBe('tool_not_allowed');
    expect(r.toClient.find((m) => m.id === null)).toMatchObject({ error: { code: -32600 } });
    const lines = logged(r.lines) as { argumentsSha256?: string; reason?: string }[];
    expect(lines.filter((l) => l.reason === 'tool_not_allowed' || l.reason === 'invalid_arguments').map((l) => l.argumentsSha256)).toEqual([
      expect.stringMatching(/^[0-9a-f]{64}$/),
      expect.stringMatching(/^[0-9a-f]{64}$/),
      expect.stringMatching(/^[0-9a-f]{64}$/),
    ]);
    expect(lines.filter((l) => l.reason === 'no-request-id')).toHaveLength(1);
  });

  it("the client's answers to the server's requests still pass", async () => {
    const r = relay();
    const answers = [
      { jsonrpc: '2.0', id: 's1', result: { role: 'assistant', content: { type: 'text', text: 'hi' } } },
      { jsonrpc: '2.0', id: 7, result: { action: 'accept', content: {} } },
      { jsonrpc: '2.0', id: 8, error: { code: -32601, message: 'no roots' } },
    ];
    for (const m of answers) await r.proxy.fromClient(m);
    expect(r.toServer).toEqual(answers);
  });
});

describe('answers from the server nested deeper than JSON.stringify goes', () => {
  it('a call result becomes result_too_large; any other answer an error under its id', async () => {
    const deep = JSON.parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`) as Json;
    const toClient: string[] = [];
    const sink = new Writable({ write: (_c: Buffer, _e, cb) => cb() });
    const proxy: Relay = new Relay(
      // As the stdio side writes: JSON.stringify, which throws on the deep value.
      { send: (m) => void toClient.push(JSON.stringify(m)) },
      {
        send: (m: Message) => {
          if (m.method === 'tools/list') queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } }));
          else if (m.method === 'tools/call' || m.method === 'resources/read')
            queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'x' }], deep } }));
        },
      },
      {
        contract: mcpSurface(TOOLS),
        runtime: DEFAULT_RUNTIME,
        log: new DecisionLog(sink, 's', false),
        requestTimeoutMs: 1000,
        listLimits: { maxPages: 10, maxBytes: 1 << 20 },
      },
    );
    await proxy.fromClient({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get', arguments: {} } });
    await proxy.fromClient({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'x://y' } });
    await new Promise((r) => setTimeout(r, 20));
    const answers = toClient.map((l) => JSON.parse(l) as Message);
    expect(answers.find((m) => m.id === 1)).toMatchObject({
      result: { isError: true, structuredContent: { error: 'result_too_large', detail: expect.stringContaining('nested too deep') as unknown } },
    });
    expect(answers.find((m) => m.id === 2)).toMatchObject({ error: { code: -32603, message: expect.stringContaining('could not be written') as unknown } });
  });
});

describe('the result bound, measured on the text the client is written', () => {
  /** A relay whose server answers a call with `result`, written as ClientStdio writes (wireText). */
  async function answerWith(result: Json, maxResultBytes: number): Promise<Message> {
    const toClient: Message[] = [];
    const proxy: Relay = new Relay(
      { send: (m) => void toClient.push(JSON.parse(wireText(m)) as Message) },
      {
        send: (m: Message) => {
          if (m.method === 'tools/list') queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result: { tools: TOOLS } }));
          else queueMicrotask(() => void proxy.fromServer({ jsonrpc: '2.0', id: m.id, result }));
        },
      },
      {
        contract: mcpSurface(TOOLS),
        runtime: { ...DEFAULT_RUNTIME, maxResultBytes },
        log: new DecisionLog(new Writable({ write: (_c: Buffer, _e, cb) => cb() }), 's', false),
        requestTimeoutMs: 1000,
        listLimits: { maxPages: 10, maxBytes: 1 << 20 },
      },
    );
    await proxy.fromClient({ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'get', arguments: {} } });
    await new Promise((r) => setTimeout(r, 20));
    return toClient[0]!;
  }

  it('a result of exactly max-result-bytes passes although the whole answer is longer; one byte more is refused', async () => {
    // Bytes, not characters: é is two bytes in UTF-8.
    const result = { content: [{ type: 'text', text: `${'é'.repeat(500)}${'x'.repeat(24)}` }] };
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(Buffer.byteLength(JSON.stringify({ jsonrpc: '2.0', id: 'c', result }))).toBeGreaterThan(bytes);
    expect(await answerWith(result, bytes)).toEqual({ jsonrpc: '2.0', id: 'c', result });
    const refused = await answerWith(result, bytes - 1);
    expect(refused.result).toMatchObject({
      isError: true,
      structuredContent: { error: 'result_too_large', detail: `the result of tool "get" is ${bytes} bytes, over runtime.max-result-bytes (${bytes - 1})` },
    });
  });
});
