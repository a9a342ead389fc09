/**
 * `toolgate proxy` against an upstream that pages, changes its tools, floods, cancels and answers
 * twice (test/fixtures/servers/proxy-target.mjs, raw JSON-RPC), through the real SDK client.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxState } from '../../src/sources/launch/state.js';
import { freePort } from '../support/mcp-fixtures.js';
import { updateInProcess } from '../support/action-repo.js';
import { CACHE_ENV, CLI, READ_REPO, REPO, tempWorkspace } from '../support/run-dist.js';

const TARGET = join(REPO, 'test/fixtures/servers/proxy-target.mjs');
const ws = tempWorkspace('tg-proxy-up-');
afterAll(() => ws.cleanup());
// An argument the server ignores, named after this workspace: its processes are found by their
// command line. (Not a script importing the server: in the sandbox a /tmp path is visible only when named.)
const tag = join(ws.dir, 'target-server-tag');
const serverProcesses = () => spawnSync('pgrep', ['-f', tag], { encoding: 'utf8' }).stdout.trim();

interface ToolResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}

/** The folders of the SSE, 2026-07-28 and Streamable HTTP cases, pinned with the workspace's own. */
const folders = { sse: '', modern: '', http: '' };
// An argument the server ignores, named after this workspace, finds the start command's processes.
const httpTag = join(ws.dir, 'http', 'http-server-tag');

// Every contract at once, written in this process by the pipeline `update` runs: each pins its own
// folder and starts its own server.
beforeAll(async () => {
  mkdirSync(ws.dir, { recursive: true });
  writeFileSync(
    join(ws.dir, 'toolgate.yml'),
    `sources:\n  - id: target\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(TARGET)}, ${JSON.stringify(tag)}]\n${READ_REPO()}runtime:\n  max-result-bytes: 100000\n`,
  );
  const [, sse, modern, http] = await Promise.all([
    updateInProcess(ws.dir),
    pinnedWorkspace('sse', httpSource('old', await freePort(), '/sse', 'sse.mjs')),
    pinnedWorkspace(
      'modern',
      `sources:\n  - id: m\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(join(REPO, 'test/fixtures/servers/modern.mjs'))}]\n${READ_REPO()}`,
    ),
    pinnedWorkspace('http', httpSource('web', await freePort(), '/mcp', 'http.mjs', httpTag)),
  ]);
  Object.assign(folders, { sse, modern, http });
}, 90_000);

/** An SDK client connected to `toolgate proxy` run in `dir` (default: the workspace), logging to `log`. */
async function proxied(log: string, dir = ws.dir, options: ConstructorParameters<typeof Client>[1] = { capabilities: {} }): Promise<Client> {
  const client = new Client({ name: 'proxy-test', version: '1' }, options);
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'proxy', '--log', log], cwd: dir, env: CACHE_ENV, stderr: 'ignore' }));
  return client;
}

/** A folder `name` in the workspace with this toolgate.yml and its contract. */
async function pinnedWorkspace(name: string, yml: string): Promise<string> {
  const dir = join(ws.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'toolgate.yml'), yml);
  await updateInProcess(dir);
  return dir;
}

/** An HTTP source whose `start` command runs `fixture` on `port` (extra arguments after it). */
const httpSource = (id: string, port: number, path: string, fixture: string, ...extra: string[]) =>
  `sources:\n  - id: ${id}\n    mcp:\n      url: http://127.0.0.1:${port}${path}\n      start:\n        command: ${JSON.stringify(process.execPath)}\n        args: [${[join(REPO, 'test/fixtures/servers', fixture), String(port), ...extra].map((a) => JSON.stringify(a)).join(', ')}]\n${READ_REPO()}runtime:\n  allow: [read]\n`;

describe('proxy against a changing, paging, noisy upstream', () => {
  let client: Client;
  const log = join(ws.dir, 'decisions.jsonl');
  const changed: number[] = [];

  beforeAll(async () => {
    client = await proxied(log);
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed.push(Date.now()));
  }, 30_000);
  afterAll(async () => client?.close());

  it('lists every admitted tool across the upstream pages, in one page', async () => {
    const r = await client.listTools();
    expect(r.tools.map((t) => t.name)).toEqual(['read_doc', 'write_doc', 'big', 'mutate', 'slow', 'twice', 'stats', 'flood']);
    expect(r.nextCursor).toBeUndefined();
  });

  it('a result over runtime.max-result-bytes is replaced by an error result; a smaller one passes', async () => {
    expect(((await client.callTool({ name: 'big', arguments: { size: 1000 } })) as ToolResult).content?.[0]?.text).toHaveLength(1000);
    const r = (await client.callTool({ name: 'big', arguments: { size: 200_000 } })) as ToolResult;
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toMatchObject({ ok: false, error: 'result_too_large' });
  });

  it('an answer sent twice for one call does not confuse the relay: the next call works', async () => {
    expect(((await client.callTool({ name: 'twice', arguments: {} })) as ToolResult).content?.[0]?.text).toBe('first');
    expect(((await client.callTool({ name: 'read_doc', arguments: { id: 'a' } })) as ToolResult).content?.[0]?.text).toBe('doc a');
  });

  it('cancellation crosses the proxy: the server sees notifications/cancelled for the call', async () => {
    const abort = new AbortController();
    const progress: number[] = [];
    const call = client.callTool({ name: 'slow', arguments: {} }, { signal: abort.signal, onprogress: (p) => progress.push(p.progress) });
    await new Promise((r) => setTimeout(r, 300));
    abort.abort();
    await expect(call).rejects.toThrow();
    const stats = (await client.callTool({ name: 'stats', arguments: {} })) as ToolResult;
    expect((stats.structuredContent?.cancelled as unknown[]).length).toBe(1);
    expect(progress).toEqual([1]);
  });

  it('list_changed: re-listed; passed on only when the admitted set changed; a drifted tool is refused from then on', async () => {
    await client.callTool({ name: 'mutate', arguments: { add: true } });
    await new Promise((r) => setTimeout(r, 500));
    // `extra` is not in the contract: the admitted set is the same, the client is not bothered.
    expect(changed).toEqual([]);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('extra');
    await client.callTool({ name: 'mutate', arguments: { drift: true } });
    for (let i = 0; i < 50 && changed.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(changed).toHaveLength(1);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('read_doc');
    const r = (await client.callTool({ name: 'read_doc', arguments: { id: 'a' } })) as ToolResult;
    expect(r.structuredContent).toMatchObject({ ok: false, error: 'tool_drifted' });
    const calls = ((await client.callTool({ name: 'stats', arguments: {} })) as ToolResult).structuredContent?.calls as string[];
    // The refused call never reached the server: read_doc was called once, before the drift.
    expect(calls.filter((c) => c === 'read_doc')).toHaveLength(1);
  });

  it("the noise line on the server's stdout is dropped and counted in the log at exit", async () => {
    await client.close();
    for (let i = 0; i < 50 && !readFileSync(log, 'utf8').includes('"summary"'); i++) await new Promise((r) => setTimeout(r, 100));
    const lines = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string; reason?: string; detail?: string });
    expect(lines.find((l) => l.reason === 'stdout-noise')?.detail).toBe("1 non-JSON lines on the server's stdout");
    expect(lines.at(-1)?.event).toBe('summary');
  });
});

describe('a flood of list_changed', () => {
  it('costs a couple of listings, not one each, and reaches the client once per change of the admitted set', async () => {
    const client = await proxied(join(ws.dir, 'flood.jsonl'));
    const changed: number[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed.push(1));
    try {
      await client.listTools();
      await client.callTool({ name: 'flood', arguments: { n: 2000 } });
      await new Promise((r) => setTimeout(r, 1000));
      expect(changed).toEqual([]);
      await client.callTool({ name: 'flood', arguments: { n: 2000, drift: true } });
      for (let i = 0; i < 50 && changed.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 500));
      expect(changed).toHaveLength(1);
      const lists = ((await client.callTool({ name: 'stats', arguments: {} })) as ToolResult).structuredContent?.lists as number;
      // One for the client's listing, and at most two per burst (the one running and one after it).
      expect(lists).toBeLessThanOrEqual(5);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('a legacy HTTP+SSE server (2024-11-05 era)', () => {
  it('is reached over SSE after Streamable HTTP is answered with a 404, and proxied as the others', async () => {
    const dir = folders.sse;
    const pinned = JSON.parse(readFileSync(join(dir, '.toolgate/old.surface.json'), 'utf8')) as { tools: { name: string; safetyClass: string }[] };
    const client = await proxied('sse.jsonl', dir);
    try {
      const shown = (await client.listTools()).tools.map((t) => t.name).sort();
      expect(shown).toEqual(
        pinned.tools
          .filter((t) => t.safetyClass === 'read')
          .map((t) => t.name)
          .sort(),
      );
      expect(shown.length).toBeGreaterThan(0);
      const write = pinned.tools.find((t) => t.safetyClass === 'write');
      if (write)
        expect(((await client.callTool({ name: write.name, arguments: {} })) as ToolResult).structuredContent).toMatchObject({ error: 'tool_not_allowed' });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('a server of the 2026-07-28 era (server/discover, no initialize)', () => {
  it('is proxied as it is: the client negotiates that era, and the listing keeps its result keys (resultType, cache hints)', async () => {
    const dir = folders.modern;
    const client = await proxied('m.jsonl', dir, { capabilities: {}, versionNegotiation: { mode: 'auto', probe: { timeoutMs: 5000 } } });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['modern_tool']);
      // A refusal in this era carries the resultType it requires of every result.
      const refused = (await client.callTool({ name: 'no_such_tool', arguments: {} })) as ToolResult;
      expect(refused.isError).toBe(true);
      expect(refused.content?.[0]?.text).toBe('toolgate refused this call (tool_not_allowed): tool "no_such_tool" is not listed by the server');
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('the proxy killed outright (SIGKILL)', () => {
  const sandboxed = new SandboxState().support().available;
  it.skipIf(!sandboxed)(
    'takes the sandboxed server with it (bubblewrap --die-with-parent)',
    async () => {
      const child = spawn(process.execPath, [CLI, 'proxy'], { cwd: ws.dir, stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, ...CACHE_ENV } });
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
      );
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      expect(serverProcesses()).not.toBe('');
      child.kill('SIGKILL');
      for (let i = 0; i < 50 && serverProcesses() !== ''; i++) await new Promise((r) => setTimeout(r, 100));
      expect(serverProcesses()).toBe('');
    },
    30_000,
  );
});

describe('proxy in front of a Streamable HTTP server started by its `start` command', () => {
  it('lists the admitted tools, forwards an admitted call, refuses the rest, and ends the start command with the client', async () => {
    const dir = folders.http;
    const client = await proxied('http.jsonl', dir);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['http_read']);
    expect(((await client.callTool({ name: 'http_read', arguments: {} })) as ToolResult).isError ?? false).toBe(false);
    expect(((await client.callTool({ name: 'http_write', arguments: {} })) as ToolResult).structuredContent).toMatchObject({ error: 'tool_not_allowed' });
    const running = () => spawnSync('pgrep', ['-f', httpTag], { encoding: 'utf8' }).stdout.trim();
    expect(running()).not.toBe('');
    await client.close();
    for (let i = 0; i < 50 && running() !== ''; i++) await new Promise((r) => setTimeout(r, 100));
    expect(running()).toBe('');
  }, 60_000);
});
