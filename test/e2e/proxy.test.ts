/**
 * `toolgate proxy` (docs/design.md §11) end to end: the real SDK client (@modelcontextprotocol/client)
 * talks to the built CLI's proxy, which starts a real server (server-everything, the notes
 * example) as `check` does. What the agent is shown and what its calls do are compared with a
 * direct connection to the same server.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransport1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateInProcess } from '../support/action-repo.js';
import { CACHE_ENV, CLI, READ_REPO, REPO, runCli, runProcess, tempWorkspace } from '../support/run-dist.js';
import { SandboxState } from '../../src/sources/launch/state.js';

const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const NOTES = join(REPO, 'examples/notes/server.mjs');
const ws = tempWorkspace('tg-proxy-');
afterAll(() => ws.cleanup());

interface Refused {
  isError?: boolean;
  structuredContent?: { ok: boolean; error: string; detail: string };
  _meta?: Record<string, { error: string; detail: string } | undefined>;
}

async function connect(command: string, args: string[], cwd: string): Promise<Client> {
  const client = new Client({ name: 'proxy-test', version: '1' }, { capabilities: {} });
  await client.connect(new StdioClientTransport({ command, args, cwd, stderr: 'ignore' }));
  return client;
}

const decisions = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as { event: string; tool?: string; decision: string; reason?: string; detail?: string; argumentsSha256?: string; arguments?: unknown },
    );

/** toolgate.yml of server-everything with this runtime block. */
const everythingPolicy = (runtime: string) =>
  `sources:\n  - id: everything\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(EVERYTHING)}, stdio]\n${READ_REPO()}runtime:\n${runtime}`;
let everythingPinned: Promise<string> | undefined;
/**
 * The contract `toolgate update` writes for server-everything (its text), made once for the file:
 * the runtime block is not in it, so the cases that differ only there share it. The contracts of
 * this file are written in this process by the pipeline `update` runs (updateInProcess).
 */
function everythingContract(): Promise<string> {
  everythingPinned ??= (async () => {
    const dir = join(ws.dir, 'everything-pin');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'toolgate.yml'), everythingPolicy('  allow: [read]\n'));
    await updateInProcess(dir);
    return readFileSync(join(dir, '.toolgate/everything.surface.json'), 'utf8');
  })();
  return everythingPinned;
}

/** A folder `name` with server-everything's toolgate.yml (this runtime block) and its contract. */
async function everythingWorkspace(name: string, runtime: string): Promise<string> {
  const contract = await everythingContract();
  const dir = join(ws.dir, name);
  mkdirSync(join(dir, '.toolgate'), { recursive: true });
  writeFileSync(join(dir, 'toolgate.yml'), everythingPolicy(runtime));
  writeFileSync(join(dir, '.toolgate/everything.surface.json'), contract);
  return dir;
}

describe('proxy in front of @modelcontextprotocol/server-everything, runtime.allow: [read]', () => {
  const dir = join(ws.dir, 'everything');
  const log = join(dir, 'decisions.jsonl');
  let proxied: Client;
  let direct: Client;
  let pinnedRead: string[];

  beforeAll(async () => {
    await everythingWorkspace('everything', '  allow: [read]\n');
    const contract = JSON.parse(readFileSync(join(dir, '.toolgate/everything.surface.json'), 'utf8')) as { tools: { name: string; safetyClass: string }[] };
    pinnedRead = contract.tools.filter((t) => t.safetyClass === 'read').map((t) => t.name);
    proxied = await connect(process.execPath, [CLI, 'proxy', '--log', log], dir);
    direct = await connect(process.execPath, [EVERYTHING, 'stdio'], dir);
  }, 60_000);
  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
  });

  it('lists exactly the pinned read tools, each exactly as the server lists it', async () => {
    const shown = (await proxied.listTools()).tools;
    expect(shown.map((t) => t.name).sort()).toEqual([...pinnedRead].sort());
    const served = new Map((await direct.listTools()).tools.map((t) => [t.name, t]));
    for (const t of shown) expect(t).toEqual(served.get(t.name));
    expect(pinnedRead.length).toBeGreaterThan(3);
    expect(served.size).toBeGreaterThan(shown.length);
  });

  it('an admitted call returns what a direct call returns', async () => {
    const args = { name: 'get-sum', arguments: { a: 2, b: 40 } };
    expect(await proxied.callTool(args)).toEqual(await direct.callTool(args));
    const echo = { name: 'echo', arguments: { message: 'through the proxy' } };
    expect(await proxied.callTool(echo)).toEqual(await direct.callTool(echo));
  });

  it('refuses, without reaching the server: a write tool, a tool nobody listed, an unknown argument, a wrong type', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['toggle-simulated-logging', {}, 'tool_not_allowed'],
      ['no-such-tool', {}, 'tool_not_allowed'],
      ['echo', { message: 'x', notes: 'exfiltrated' }, 'invalid_arguments'],
      ['echo', { message: 42 }, 'invalid_arguments'],
    ];
    for (const [name, args, error] of cases) {
      const r = (await proxied.callTool({ name, arguments: args })) as Refused;
      expect(r.isError, name).toBe(true);
      expect(r.structuredContent, name).toMatchObject({ ok: false, error });
    }
  });

  it("the SDK 1.x client shows toolgate's reason for a tool with an outputSchema (get-structured-content) and one without (echo)", async () => {
    const client = new Client1({ name: 'sdk-1x', version: '1' }, { capabilities: {} });
    await client.connect(
      new StdioClientTransport1({ command: process.execPath, args: [CLI, 'proxy', '--log', 'sdk1.jsonl'], cwd: dir, env: CACHE_ENV, stderr: 'ignore' }),
    );
    try {
      const listed = (await client.listTools()).tools;
      expect(listed.find((t) => t.name === 'get-structured-content')?.outputSchema).toBeDefined();
      expect(listed.find((t) => t.name === 'echo')?.outputSchema).toBeUndefined();
      const withSchema = (await client.callTool({ name: 'get-structured-content', arguments: { location: 'Atlantis', extra: 1 } })) as Refused & {
        content: { text: string }[];
      };
      expect(withSchema.isError).toBe(true);
      expect(withSchema.content[0]?.text).toMatch(/^toolgate refused this call \(invalid_arguments\): unknown argument "extra"/);
      expect(withSchema.structuredContent).toBeUndefined();
      const without = (await client.callTool({ name: 'echo', arguments: { message: 42 } })) as Refused;
      expect(without.structuredContent).toMatchObject({ ok: false, error: 'invalid_arguments', detail: '/message must be string' });
      expect(without._meta?.['io.github.toolgate/refusal']).toMatchObject({ error: 'invalid_arguments' });
    } finally {
      await client.close();
    }
  }, 60_000);

  it('progress notifications of a long call cross the proxy', async () => {
    const progress: number[] = [];
    const r = await proxied.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      { onprogress: (p) => progress.push(p.progress) },
    );
    expect((r as { isError?: boolean }).isError ?? false).toBe(false);
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it('logs one line per admission and per call decision, arguments only as their sha256', () => {
    const lines = decisions(log);
    expect(
      lines
        .filter((l) => l.event === 'list' && l.decision === 'admitted')
        .map((l) => l.tool)
        .sort(),
    ).toEqual(expect.arrayContaining([...pinnedRead].sort()));
    expect(lines.filter((l) => l.event === 'list' && l.decision === 'hidden').map((l) => l.reason)).toContain('class-not-allowed');
    const refused = lines.filter((l) => l.event === 'call' && l.decision === 'refused');
    expect(refused.map((l) => l.reason)).toEqual(['tool_not_allowed', 'tool_not_allowed', 'invalid_arguments', 'invalid_arguments']);
    for (const l of lines.filter((x) => x.event === 'call')) {
      expect(l.argumentsSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(l.arguments).toBeUndefined();
    }
    expect(JSON.stringify(lines)).not.toContain('exfiltrated');
  });
});

describe('proxy in front of @modelcontextprotocol/server-filesystem, runtime.allow: [read]', () => {
  const dir = join(ws.dir, 'fs');
  const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');

  it('shows only its read tools; an admitted read returns what a direct call returns; a write is refused before the server', async () => {
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'data', 'a.txt'), 'hello from a file\n');
    const args = `[${JSON.stringify(FILESYSTEM)}, ${JSON.stringify(join(dir, 'data'))}]`;
    writeFileSync(
      join(dir, 'toolgate.yml'),
      `sources:\n  - id: fs\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${args}\n${READ_REPO()}runtime:\n  allow: [read]\n`,
    );
    await updateInProcess(dir);
    const proxied = await connect(process.execPath, [CLI, 'proxy', '--log', 'fs.jsonl'], dir);
    const direct = await connect(process.execPath, [FILESYSTEM, join(dir, 'data')], dir);
    try {
      const shown = (await proxied.listTools()).tools;
      const all = (await direct.listTools()).tools;
      expect(shown.map((t) => t.name).sort()).toEqual(
        all
          .filter((t) => t.annotations?.readOnlyHint === true)
          .map((t) => t.name)
          .sort(),
      );
      expect(shown.map((t) => t.name)).not.toContain('write_file');
      const read = { name: 'read_text_file', arguments: { path: join(dir, 'data', 'a.txt') } };
      expect(await proxied.callTool(read)).toEqual(await direct.callTool(read));
      const write = (await proxied.callTool({ name: 'write_file', arguments: { path: join(dir, 'data', 'b.txt'), content: 'x' } })) as Refused;
      // write_file declares an outputSchema: the refusal says why in its text and _meta, not in structuredContent.
      expect(write.isError).toBe(true);
      expect(write._meta?.['io.github.toolgate/refusal']).toMatchObject({ error: 'tool_not_allowed' });
      expect(write.structuredContent).toBeUndefined();
      expect(readFileSync(join(dir, 'data', 'a.txt'), 'utf8')).toBe('hello from a file\n');
      expect(() => readFileSync(join(dir, 'data', 'b.txt'))).toThrow();
    } finally {
      await proxied.close();
      await direct.close();
    }
  }, 60_000);
});

describe('proxy in front of @modelcontextprotocol/server-memory, which writes its graph where the sandbox does not let it', () => {
  const dir = join(ws.dir, 'memory');
  const MEMORY = join(REPO, 'node_modules/@modelcontextprotocol/server-memory/dist/index.js');

  it.skipIf(!new SandboxState().support().available)(
    'its own EROFS comes with a hint in the decision log naming `writable:`',
    async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'toolgate.yml'),
        `sources:\n  - id: memory\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(MEMORY)}]\n${READ_REPO()}`,
      );
      await updateInProcess(dir);
      const proxied = await connect(process.execPath, [CLI, 'proxy', '--log', 'memory.jsonl'], dir);
      try {
        const r = (await proxied.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'a', entityType: 'b', observations: [] }] } })) as {
          isError?: boolean;
          content?: { text?: string }[];
        };
        // The server's own answer, passed on as it is.
        expect(r.isError).toBe(true);
        expect(r.content?.[0]?.text).toMatch(/^EROFS: read-only file system, open '.*server-memory\/dist\/memory\.jsonl/);
      } finally {
        await proxied.close();
      }
      const hints = decisions(join(dir, 'memory.jsonl')).filter((d) => d.decision === 'hint');
      expect(hints).toEqual([
        expect.objectContaining({
          event: 'upstream',
          reason: 'sandbox-writable',
          detail: expect.stringMatching(
            /^the server writes .*server-memory\/dist\/memory\.jsonl.*, which the sandbox keeps read-only; point it at a directory of the repository named in `writable:`/,
          ),
        }),
      ]);
    },
    60_000,
  );
});

describe('the MCP Inspector CLI (@modelcontextprotocol/inspector --cli) through the proxy', () => {
  const dir = join(ws.dir, 'inspector');
  const INSPECTOR = join(REPO, 'node_modules/.bin/mcp-inspector');
  // Each run starts its own proxy and server: a case starts them all at once.
  const inspect = async (...args: string[]) => {
    const r = await runProcess(INSPECTOR, ['--cli', process.execPath, CLI, 'proxy', ...args], {
      cwd: dir,
      env: process.env as Record<string, string>,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as { tools?: { name: string }[] } & Refused & { content?: { text?: string }[] };
  };

  beforeAll(() => everythingWorkspace('inspector', '  allow: [read]\n  deny: [get-env]\n'), 60_000);

  it('lists the admitted tools, calls one, and gets a refusal for an undeclared argument', async () => {
    const [listed, echoed, undeclared, denied] = await Promise.all([
      inspect('--method', 'tools/list'),
      inspect('--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi'),
      inspect('--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=hi', '--tool-arg', 'notes=x'),
      inspect('--method', 'tools/call', '--tool-name', 'get-env'),
    ]);
    const names = listed.tools!.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('get-env');
    expect(names).not.toContain('toggle-simulated-logging');
    expect(echoed.content?.[0]?.text).toBe('Echo: hi');
    expect(undeclared.structuredContent).toMatchObject({
      ok: false,
      error: 'invalid_arguments',
    });
    expect(denied.structuredContent).toMatchObject({ ok: false, error: 'tool_not_allowed' });
  }, 120_000);
});

describe('proxy in front of a server that changed after its contract was reviewed (the notes example with --drift)', () => {
  const dir = join(ws.dir, 'notes');
  // An argument the server ignores, named after this workspace: its processes are found by their
  // command line. (Not a script importing the server: in the sandbox a /tmp path is visible only when named.)
  const tag = join(ws.dir, 'notes-server-tag');

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'toolgate.yml'),
      `sources:\n  - id: notes\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(NOTES)}, ${JSON.stringify(tag)}]\n${READ_REPO()}`,
    );
    await updateInProcess(dir);
  }, 60_000);

  const serverProcesses = () => spawnSync('pgrep', ['-f', tag], { encoding: 'utf8' }).stdout.trim();

  it('hides the drifted tool and the new one, refuses calls to them, and leaves no process after the client disconnects', async () => {
    const client = await connect(
      process.execPath,
      [CLI, 'proxy', '--contract', '.toolgate/notes.surface.json', '--log', 'drift.jsonl', '--', process.execPath, NOTES, tag, '--drift'],
      dir,
    );
    const names = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(names).not.toContain('get_note');
    expect(names).not.toContain('export_notes');
    expect(names).toContain('list_notes');
    expect(((await client.callTool({ name: 'get_note', arguments: { title: 'a' } })) as Refused).structuredContent).toMatchObject({ error: 'tool_drifted' });
    expect(((await client.callTool({ name: 'export_notes', arguments: { url: 'http://x' } })) as Refused).structuredContent).toMatchObject({
      error: 'tool_not_allowed',
    });
    expect(serverProcesses()).not.toBe('');
    await client.close();
    for (let i = 0; i < 50 && serverProcesses() !== ''; i++) await new Promise((r) => setTimeout(r, 100));
    expect(serverProcesses()).toBe('');
    const lines = decisions(join(dir, 'drift.jsonl'));
    expect(lines.find((l) => l.tool === 'get_note' && l.event === 'list')).toMatchObject({ decision: 'hidden', reason: 'drifted' });
    expect(lines.at(-1)).toMatchObject({ event: 'summary' });
  }, 60_000);

  it('SIGINT ends the proxy and the server: exit 130, no process left', async () => {
    const child = spawn(process.execPath, [CLI, 'proxy'], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...CACHE_ENV } });
    // Initialize so the server is surely up, then interrupt.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    expect(serverProcesses()).not.toBe('');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    for (let i = 0; i < 50 && serverProcesses() !== ''; i++) await new Promise((r) => setTimeout(r, 100));
    expect(serverProcesses()).toBe('');
  }, 60_000);

  it('SIGTERM right after a call: exit 143, and the decision of the call is in the log (the batched lines are written at exit)', async () => {
    const child = spawn(process.execPath, [CLI, 'proxy', '--log', 'term.jsonl'], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...CACHE_ENV },
    });
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    const answers: { id?: unknown }[] = [];
    let buffered = '';
    child.stdout.on('data', (c: Buffer) => {
      buffered += c.toString('utf8');
      for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
        answers.push(JSON.parse(buffered.slice(0, nl)) as { id?: unknown });
        buffered = buffered.slice(nl + 1);
      }
    });
    const answered = async (id: number) => {
      for (let i = 0; i < 600 && !answers.some((a) => a.id === id); i++) await new Promise((r) => setTimeout(r, 50));
    };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    await answered(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no-such-tool', arguments: { a: 1 } } });
    await answered(2);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    const call = decisions(join(dir, 'term.jsonl')).find((l) => l.event === 'call');
    expect(call).toMatchObject({ tool: 'no-such-tool', decision: 'refused', reason: 'tool_not_allowed' });
    expect(call?.argumentsSha256).toMatch(/^[0-9a-f]{64}$/);
  }, 60_000);

  it('without a contract nothing starts: exit 2 and the fix', async () => {
    const r = await runCli(['proxy', '--contract', 'missing.json', '--', process.execPath, NOTES, tag], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no contract at missing.json');
    expect(r.stdout).toBe('');
  });
});
