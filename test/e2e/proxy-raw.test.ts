/**
 * `toolgate proxy` (the built CLI) driven by a raw JSON-RPC client writing bytes on its stdin, in
 * front of test/fixtures/servers/proxy-target.mjs, a server that tidies method names (so a
 * `TOOLS/CALL` that reached it would run the tool) and reports every method it saw. Every method
 * variant, unknown method and malformed, deep or huge refused request gets an answer and a
 * decision-log line, and none reaches the server; the log cannot stop the relay.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepoTemplates, updateInProcess } from '../support/action-repo.js';
import { CACHE_ENV, CLI, READ_REPO, REPO, runCli, tempWorkspace } from '../support/run-dist.js';

const TARGET = join(REPO, 'test/fixtures/servers/proxy-target.mjs');
const ws = tempWorkspace('tg-proxy-raw-');
afterAll(() => ws.cleanup());

type Msg = Record<string, unknown> & { id?: unknown; error?: { code: number; message: string }; result?: Record<string, unknown> };

/** A client that writes raw bytes to `toolgate proxy` and reads its answers, one JSON value per line. */
class RawClient {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: unknown[] = [];
  /** The lines received, as written. */
  readonly lines: string[] = [];
  stderr = '';
  private rest = '';

  constructor(cwd: string, args: string[]) {
    this.child = spawn(process.execPath, [CLI, 'proxy', ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...CACHE_ENV } });
    this.child.stdout.on('data', (c: Buffer) => {
      const text = this.rest + c.toString();
      const lines = text.split('\n');
      this.rest = lines.pop() ?? '';
      for (const l of lines) {
        if (!l.trim()) continue;
        this.lines.push(l);
        this.received.push(JSON.parse(l));
      }
    });
    this.child.stderr.on('data', (c: Buffer) => (this.stderr += c.toString()));
  }

  send(line: string | Buffer): void {
    this.child.stdin.write(line);
    if (typeof line === 'string' && !line.endsWith('\n')) this.child.stdin.write('\n');
  }

  request(id: unknown, method: string, params: Record<string, unknown> = {}): void {
    this.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
  }

  /** The first received value `match` accepts, waiting up to 30 s. */
  async next<T = Msg>(match: (m: unknown) => boolean, what: string): Promise<T> {
    for (let i = 0; i < 1500; i++) {
      const found = this.received.find(match);
      if (found !== undefined) return found as T;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no ${what} within 30 s; received ${JSON.stringify(this.received).slice(0, 2000)}; stderr ${this.stderr.slice(-2000)}`);
  }

  answer(id: unknown): Promise<Msg> {
    return this.next((m) => typeof m === 'object' && m !== null && !Array.isArray(m) && (m as Msg).id === id, `answer to id ${String(id).slice(0, 50)}`);
  }

  async initialize(version = '2025-06-18'): Promise<void> {
    this.request('init', 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } });
    await this.answer('init');
    this.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }

  /** What the server saw (its `stats` tool): the methods as sent, and the tools it ran. */
  async serverSaw(id: string): Promise<{ methods: string[]; calls: string[] }> {
    this.request(id, 'tools/call', { name: 'stats', arguments: {} });
    return (await this.answer(id)).result!.structuredContent as { methods: string[]; calls: string[] };
  }

  async close(): Promise<number | null> {
    const exited = new Promise<number | null>((r) => this.child.once('exit', (code) => r(code)));
    this.child.stdin.end();
    return exited;
  }
}

/** The log's complete lines: the proxy writes it in batches, so while it runs the file may be empty or end mid-batch. */
const logLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((l) => JSON.parse(l) as { event: string; method?: string; tool?: string; decision: string; reason?: string; argumentsSha256?: string });

const refusalOf = (m: Msg) => (m.result?._meta as Record<string, { error: string; detail: string }> | undefined)?.['io.github.toolgate/refusal'];

const policy = (runtime: string) =>
  `sources:\n  - id: target\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(TARGET)}]\n${READ_REPO()}runtime:\n  allow: [read]\n${runtime}`;

// The runtime block is not in the contract: the target's contract is written once for the file (in
// this process, by the pipeline `update` runs) and copied into each case's folder.
const templates = new RepoTemplates();
afterAll(() => templates.dispose());

/** A folder `name` with the target's toolgate.yml (this runtime block) and its contract. */
async function workspace(name: string, runtime: string): Promise<string> {
  const dir = join(ws.dir, name);
  await templates.copy(
    'target',
    async (d) => {
      writeFileSync(join(d, 'toolgate.yml'), policy(''));
      await updateInProcess(d);
      return {};
    },
    dir,
  );
  writeFileSync(join(dir, 'toolgate.yml'), policy(runtime));
  return dir;
}

describe('a raw JSON-RPC client through toolgate proxy (runtime.allow [read], max-message-bytes 1 MiB)', () => {
  let dir: string;
  let client: RawClient;
  const log = () => logLines(join(dir, 'decisions.jsonl'));
  type Line = ReturnType<typeof log>[number];
  /** The log once `ready` holds of it, waiting up to 10 s: its file stream may lag the answers on stdout. */
  const logWhen = async (ready: (lines: Line[]) => boolean): Promise<Line[]> => {
    for (let i = 0; i < 500 && !ready(log()); i++) await new Promise((r) => setTimeout(r, 20));
    return log();
  };

  beforeAll(async () => {
    dir = await workspace('main', '  max-message-bytes: 1048576\n');
    client = new RawClient(dir, ['--log', 'decisions.jsonl']);
    await client.initialize();
  }, 60_000);
  afterAll(async () => void (await client?.close()));

  it('answers each spelling of tools/call and tools/list "method not found"; the server, which tidies names, never sees one', async () => {
    const variants = ['TOOLS/CALL', 'tools/call ', ' Tools/Call', 'tools/\u200bcall', 'ｔｏｏｌｓ/ｃａｌｌ', 't\u043eols/call', 'TOOLS/LIST', 'tools/list\t'];
    for (const [i, method] of variants.entries()) client.request(`v${i}`, method, { name: 'write_doc', arguments: { id: 'x', body: 'y' } });
    client.send(JSON.stringify({ jsonrpc: '2.0', method: 'Tools/Call', params: { name: 'write_doc', arguments: { id: 'n' } } }));
    for (const [i, method] of variants.entries()) {
      const a = await client.answer(`v${i}`);
      expect(a.error?.code, method).toBe(-32601);
      expect(a.error?.message, method).toContain('a variant of a method the proxy judges is never forwarded');
    }
    const saw = await client.serverSaw('stats-variants');
    expect(saw.calls).not.toContain('write_doc');
    expect(saw.methods.filter((m) => m !== 'tools/call' && m !== 'tools/list' && m.toLowerCase().includes('tools'))).toEqual([]);
    const isVariant = (l: Line) => l.reason === 'judged-method-variant';
    const refused = (await logWhen((ls) => ls.filter(isVariant).length > variants.length)).filter(isVariant);
    expect(refused.map((l) => l.method)).toEqual([...variants, 'Tools/Call']);
    expect(refused.at(-1)?.decision).toBe('dropped');
  }, 60_000);

  it('refuses an unknown request, drops an unknown notification and a method of another protocol version; known ones pass', async () => {
    client.request('u1', 'vendor/run', { cmd: 'id' });
    client.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/vendor/ping' }));
    client.request('u2', 'tasks/get', { taskId: 't' });
    client.request('u3', 'ping');
    expect((await client.answer('u1')).error).toEqual({
      code: -32601,
      message:
        'toolgate proxy: method "vendor/run" is not an MCP client request of protocol 2025-06-18, so it is not forwarded; name it in runtime.pass-methods to let it through',
    });
    expect((await client.answer('u2')).error?.message).toContain('"tasks/get" is not an MCP client request of protocol 2025-06-18');
    expect((await client.answer('u3')).result).toEqual({});
    const saw = await client.serverSaw('stats-unknown');
    expect(saw.methods).toContain('ping');
    for (const m of ['vendor/run', 'notifications/vendor/ping', 'tasks/get']) expect(saw.methods).not.toContain(m);
    expect(
      (await logWhen((ls) => ls.filter((l) => l.reason === 'unknown-method').length >= 3))
        .filter((l) => l.reason === 'unknown-method')
        .map((l) => [l.method, l.decision]),
    ).toEqual([
      ['vendor/run', 'refused'],
      ['notifications/vendor/ping', 'dropped'],
      ['tasks/get', 'refused'],
    ]);
  }, 60_000);

  it('answers and logs a refused call nested 20,000 deep, a 900 kB one, one with a 512 kB id, and one after a byte order mark', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    client.send(`{"jsonrpc":"2.0","id":"deep-hidden","method":"tools/call","params":{"name":"write_doc","arguments":{"id":${deep}}}}`);
    client.send(`{"jsonrpc":"2.0","id":"deep-admitted","method":"tools/call","params":{"name":"read_doc","arguments":{"id":${deep}}}}`);
    client.request('huge', 'tools/call', { name: 'read_doc', arguments: { id: 'a', blob: 'b'.repeat(900_000) } });
    const bigId = `id-${'x'.repeat(512 * 1024)}`;
    client.request(bigId, 'tools/call', { name: 'write_doc', arguments: { id: 'x' } });
    client.send(`\ufeff${JSON.stringify({ jsonrpc: '2.0', id: 'bom', method: 'tools/call', params: { name: 'write_doc', arguments: { id: 'x' } } })}`);
    expect(refusalOf(await client.answer('deep-hidden'))?.error).toBe('tool_not_allowed');
    expect(refusalOf(await client.answer('deep-admitted'))).toMatchObject({ error: 'invalid_arguments', detail: '/id must be string' });
    expect(refusalOf(await client.answer('huge'))).toMatchObject({
      error: 'invalid_arguments',
      detail: expect.stringContaining('unknown argument "blob"') as unknown,
    });
    expect(refusalOf(await client.answer(bigId))?.error).toBe('tool_not_allowed');
    expect(refusalOf(await client.answer('bom'))?.error).toBe('tool_not_allowed');
    expect((await client.serverSaw('stats-deep')).calls).not.toContain('write_doc');
    const isRefusedCall = (l: Line) => l.event === 'call' && l.decision === 'refused';
    const refusedCalls = (await logWhen((ls) => ls.filter(isRefusedCall).length >= 5)).filter(isRefusedCall);
    expect(refusedCalls).toHaveLength(5);
    for (const l of refusedCalls) expect(l.argumentsSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(refusedCalls.find((l) => l.tool === 'read_doc' && l.reason === 'invalid_arguments')).toBeDefined();
  }, 60_000);

  it('answers a line over max-message-bytes, one not in UTF-8, a batch, a non-object and an id JSON cannot hold, and logs each', async () => {
    const before = log().filter((l) => l.event === 'request').length;
    client.request('too-big', 'tools/call', { name: 'read_doc', arguments: { id: 'x'.repeat(2 * 1024 * 1024) } });
    client.send(
      Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":"latin1","method":"tools/call","params":{"name":"caf'), Buffer.from([0xe9]), Buffer.from('"}}\n')]),
    );
    client.send(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'b1', method: 'tools/call', params: { name: 'write_doc' } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]),
    );
    client.send('"tools/call"');
    client.send('{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"name":"write_doc","arguments":{"id":"x"}}}');
    client.request('after', 'ping');
    await client.answer('after');
    const nulls = client.received.filter((m) => (m as Msg).id === null) as Msg[];
    expect(nulls.map((m) => m.error?.message)).toEqual(
      expect.arrayContaining([
        'toolgate proxy: message larger than 1048576 bytes (runtime.max-message-bytes)',
        'toolgate proxy: invalid request: a JSON-RPC message is an object, not string',
        expect.stringContaining('tools/call needs a string or number id') as unknown,
      ]),
    );
    expect((await client.answer('latin1')).error).toEqual({ code: -32700, message: 'toolgate proxy: the message is not valid UTF-8' });
    const batch = await client.next<Msg[]>((m) => Array.isArray(m), 'a batch answer');
    expect(batch).toEqual([{ jsonrpc: '2.0', id: 'b1', error: { code: -32600, message: expect.stringContaining('batches are not supported') as unknown } }]);
    const isRequest = (l: Line) => l.event === 'request';
    const requestLines = (await logWhen((ls) => ls.filter(isRequest).length >= before + 4 && ls.some((l) => l.reason === 'no-request-id')))
      .filter(isRequest)
      .slice(before);
    expect(requestLines.map((l) => l.reason).sort()).toEqual(['batch', 'invalid-utf8', 'not-an-object', 'too-large']);
    expect(log().filter((l) => l.reason === 'no-request-id')).toHaveLength(1);
    // Still relaying after all of it.
    expect((await client.serverSaw('stats-after')).calls.filter((c) => c !== 'stats')).toEqual([]);
  }, 60_000);
});

describe("a call's answer", () => {
  it('is written on as the server wrote it, unless a parser keeping the first of two keys could read another id from it', async () => {
    const client = new RawClient(await workspace('as-written', ''), []);
    await client.initialize();
    client.request('as-written', 'tools/call', { name: 'read_doc', arguments: { id: 'as-written' } });
    await client.answer('as-written');
    expect(client.lines).toContain('{ "result": {"content":[{"type":"text","text":"doc as-written"}]}, "jsonrpc": "2.0","id":"as-written"}');
    client.request('twin-id', 'tools/call', { name: 'read_doc', arguments: { id: 'twin-id' } });
    await client.answer('twin-id');
    // Written again from what JSON.parse read: one "id", the call's.
    expect(client.lines.filter((l) => l.includes('doc twin-id'))).toEqual([
      JSON.stringify({ jsonrpc: '2.0', id: 'twin-id', result: { content: [{ type: 'text', text: 'doc twin-id' }] } }),
    ]);
    expect(await client.close()).toBe(0);
  }, 60_000);
});

describe('runtime.pass-methods', () => {
  it('passes the vendor method it names (the server answers it), and still nothing that reads as tools/call', async () => {
    const dir = await workspace('pass', '  pass-methods: [vendor/run, notifications/vendor/ping]\n');
    const client = new RawClient(dir, ['--log', 'pass.jsonl']);
    try {
      await client.initialize();
      client.request('p1', 'vendor/run', { cmd: 'id' });
      client.send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/vendor/ping' }));
      client.request('p2', 'TOOLS/CALL', { name: 'write_doc', arguments: { id: 'x' } });
      // The fixture answers methods it has no handler for itself: the request reached it.
      expect((await client.answer('p1')).error).toEqual({ code: -32601, message: 'unknown method vendor/run' });
      expect((await client.answer('p2')).error?.message).toContain('is not "tools/call"');
      const saw = await client.serverSaw('stats');
      expect(saw.methods).toEqual(expect.arrayContaining(['vendor/run', 'notifications/vendor/ping']));
      expect(saw.methods).not.toContain('TOOLS/CALL');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('naming a spelling of tools/call is a configuration error at start (exit 2, the file and line)', async () => {
    const dir = join(ws.dir, 'bad-pass');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'toolgate.yml'),
      `sources:\n  - id: target\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(TARGET)}]\n${READ_REPO()}runtime:\n  pass-methods:\n    - vendor/ok\n    - "TOOLS/CALL"\n`,
    );
    // `update` takes this toolgate.yml (only the proxy refuses it).
    await updateInProcess(dir);
    const r = await runCli(['proxy'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('runtime.pass-methods names "TOOLS/CALL", which reads as tools/call');
    // Line 10: the readable line (the server lives outside this repository) is line 6.
    expect(r.stderr).toContain('toolgate.yml:10');
  }, 60_000);
});

describe('a decision log that cannot be written', () => {
  it('on a full disk (--log /dev/full) the proxy still refuses and relays, and says at exit that lines were lost', async () => {
    const dir = await workspace('full', '');
    const client = new RawClient(dir, ['--log', '/dev/full']);
    await client.initialize();
    client.request('r1', 'tools/call', { name: 'write_doc', arguments: { id: 'x' } });
    client.request('r2', 'tools/call', { name: 'read_doc', arguments: { id: 'a' } });
    expect(refusalOf(await client.answer('r1'))?.error).toBe('tool_not_allowed');
    expect((await client.answer('r2')).result?.content).toEqual([{ type: 'text', text: 'doc a' }]);
    expect(await client.close()).toBe(0);
    expect(client.stderr).toMatch(/decision log line\(s\) not written: .*ENOSPC/);
  }, 60_000);

  it('with stderr closed by the reader (EPIPE) the proxy still refuses and relays', async () => {
    const dir = await workspace('epipe', '');
    const client = new RawClient(dir, []);
    client.child.stderr.destroy();
    await client.initialize();
    for (let i = 0; i < 20; i++) client.request(`e${i}`, 'tools/call', { name: 'write_doc', arguments: { id: 'x' } });
    client.request('ok', 'tools/call', { name: 'read_doc', arguments: { id: 'b' } });
    expect(refusalOf(await client.answer('e19'))?.error).toBe('tool_not_allowed');
    expect((await client.answer('ok')).result?.content).toEqual([{ type: 'text', text: 'doc b' }]);
    expect(await client.close()).toBe(0);
  }, 60_000);
});
