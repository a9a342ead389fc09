/**
 * Refusals read right in the clients people use: the MCP TypeScript SDK 1.x client
 * (@modelcontextprotocol/sdk), the 2.x client (@modelcontextprotocol/client) and the MCP
 * Inspector CLI (@modelcontextprotocol/inspector --cli, itself an SDK 1.x client that lists the
 * tools before it calls one), each started as docs/proxy.md configures them, against the built
 * `toolgate proxy` in front of @modelcontextprotocol/server-filesystem, whose every tool declares
 * an `outputSchema`. The SDK clients must show toolgate's reason for each kind of refusal, and the
 * Inspector, built on the SDK 1.x client, for a refusal of a tool it listed and of one it did not,
 * where the SDK 1.x client used to throw "-32602 Structured content does not match the tool's
 * output schema".
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransport1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateInProcess } from '../support/action-repo.js';
import { CLI, READ_REPO, REPO, runProcess, tempWorkspace } from '../support/run-dist.js';

const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const DRIFTING = join(REPO, 'test/fixtures/servers/drifting.mjs');
const INSPECTOR = join(REPO, 'node_modules/.bin/mcp-inspector');
/** The Inspector the snippets pin: the one installed here, so the snippets run what the tests run. */
const INSPECTOR_VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies[
  '@modelcontextprotocol/inspector'
]!;
const ws = tempWorkspace('tg-proxy-clients-');
afterAll(() => ws.cleanup());

const repo = join(ws.dir, 'repo');
const data = join(repo, 'data');
const config = join(repo, 'toolgate.yml');

interface CallResult {
  isError?: boolean;
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  _meta?: Record<string, { error: string; detail: string } | undefined>;
}

/** The refusals every client must show: the call, the refusal and the reason its text must give. */
const REFUSALS: { name: string; args: Record<string, unknown>; error: string; reason: RegExp }[] = [
  { name: 'read_text_file', args: { path: 42 }, error: 'invalid_arguments', reason: /\/path must be string/ },
  {
    name: 'write_file',
    args: { path: join(data, 'b.txt'), content: 'x' },
    error: 'tool_not_allowed',
    reason: /tool "write_file" is not admitted: class-not-allowed/,
  },
  { name: 'read_text_file', args: { path: join(data, 'big.txt') }, error: 'result_too_large', reason: /over runtime\.max-result-bytes \(4096\)/ },
  { name: 'list_directory', args: { path: data }, error: 'tool_drifted', reason: /tool "list_directory" is not admitted: drifted/ },
];

function expectShown(r: CallResult, error: string, reason: RegExp, what: string): void {
  expect(r.isError, what).toBe(true);
  expect(r.content?.[0]?.text, what).toMatch(new RegExp(`^toolgate refused this call \\(${error}\\): `));
  expect(r.content?.[0]?.text, what).toMatch(reason);
  expect(r._meta?.['io.github.toolgate/refusal'], what).toMatchObject({ error });
  // Every tool of this server declares an outputSchema: a structuredContent of toolgate's own would break SDK 1.x.
  expect(r.structuredContent, what).toBeUndefined();
}

/**
 * Runs `command args` from the workspace with the test's environment (as a shell would), bounded;
 * each Inspector run starts its own proxy and server, so a case starts them all at once.
 */
const run = (command: string, args: string[]) => runProcess(command, args, { cwd: ws.dir, env: process.env as Record<string, string>, timeoutMs: 90_000 });

/** The client entry of docs/proxy.md, with `node dist/cli.js` for `npx toolgate`. */
const CLIENT_ARGS = [CLI, 'proxy', '--config', config, '--source', 'fs'];

beforeAll(async () => {
  mkdirSync(data, { recursive: true });
  writeFileSync(join(data, 'a.txt'), 'hello\n');
  writeFileSync(join(data, 'big.txt'), 'x'.repeat(10_000));
  const yml = (args: string[]) =>
    `sources:\n  - id: fs\n    mcp:\n      command: ${JSON.stringify(process.execPath)}\n      args: ${JSON.stringify(args)}\n${READ_REPO()}runtime:\n  allow: [read]\n  max-result-bytes: 4096\n`;
  writeFileSync(config, yml([FILESYSTEM, data]));
  // The contract, written in this process by the pipeline `update` runs.
  await updateInProcess(repo);
  // After the review the server changed: list_directory's description has a sentence more.
  writeFileSync(config, yml([DRIFTING, 'list_directory', '--', process.execPath, FILESYSTEM, data]));
}, 90_000);

describe('the SDK 1.x client (@modelcontextprotocol/sdk), after listing the tools', () => {
  it("shows toolgate's reason for each refusal, and still validates what passes", async () => {
    const client = new Client1({ name: 'sdk-1x', version: '1' }, { capabilities: {} });
    // Started from outside the repository with --config, as the client entry of docs/proxy.md does.
    await client.connect(new StdioClientTransport1({ command: process.execPath, args: CLIENT_ARGS, cwd: ws.dir, stderr: 'ignore' }));
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.length).toBeGreaterThan(3);
      expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);
      for (const c of REFUSALS)
        expectShown((await client.callTool({ name: c.name, arguments: c.args })) as CallResult, c.error, c.reason, `${c.error} ${c.name}`);
      const unknown = (await client.callTool({ name: 'no_such_tool', arguments: {} })) as CallResult;
      // No definition declares an outputSchema for a tool nobody listed: it keeps structuredContent.
      expect(unknown.structuredContent).toEqual({ ok: false, error: 'tool_not_allowed', detail: 'tool "no_such_tool" is not listed by the server' });
      const read = await client.callTool({ name: 'read_text_file', arguments: { path: join(data, 'a.txt') } });
      expect(read.structuredContent).toEqual({ content: 'hello\n' });
    } finally {
      await client.close();
    }
  }, 90_000);
});

describe('the SDK 2.x client (@modelcontextprotocol/client), after listing the tools', () => {
  it("shows toolgate's reason for each refusal", async () => {
    const client = new Client({ name: 'sdk-2x', version: '1' }, { capabilities: {} });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: CLIENT_ARGS, cwd: ws.dir, stderr: 'ignore' }));
    try {
      await client.listTools();
      for (const c of REFUSALS)
        expectShown((await client.callTool({ name: c.name, arguments: c.args })) as CallResult, c.error, c.reason, `${c.error} ${c.name}`);
    } finally {
      await client.close();
    }
  }, 90_000);
});

describe('the MCP Inspector CLI, as docs/proxy.md runs it', () => {
  /** `npx @modelcontextprotocol/inspector@<pinned> --cli …` with the local binary, `node dist/cli.js` for `npx toolgate`. */
  const inspect = async (args: string[]) => {
    const r = await run(INSPECTOR, args);
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    return JSON.parse(r.stdout) as CallResult & { tools?: { name: string }[] };
  };
  const call = (name: string, args: Record<string, unknown>) => [
    '--method',
    'tools/call',
    '--tool-name',
    name,
    ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${String(v)}`]),
  ];

  it("-c for the policy file: lists, and shows toolgate's reason for each refusal", async () => {
    const proxy = [process.execPath, CLI, 'proxy', '-c', config, '--source', 'fs'];
    // The Inspector converts arguments by the listed schema: an undeclared one is the invalid call
    // here, a refusal of a listed tool. A tool it did not list (not admitted) is the other path a
    // call takes in the Inspector; the other kinds of refusal come back in the same shape, and the
    // SDK 1.x client the Inspector is built on shows each of them above.
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['read_text_file', { path: join(data, 'a.txt'), mode: 'raw' }, 'invalid_arguments', /unknown argument "mode"/],
      ...REFUSALS.filter((c) => c.error === 'tool_not_allowed').map((c): [string, Record<string, unknown>, string, RegExp] => [
        c.name,
        c.args,
        c.error,
        c.reason,
      ]),
    ];
    const [listed, ...refused] = await Promise.all([
      inspect(['--cli', ...proxy, '--method', 'tools/list']),
      ...cases.map(([name, args]) => inspect(['--cli', ...proxy, ...call(name, args)])),
    ]);
    expect(listed!.tools?.map((t) => t.name)).toContain('read_text_file');
    cases.forEach(([name, , error, reason], i) => expectShown(refused[i]!, error, reason, `${error} ${name}`));
  }, 300_000);

  it('the -- form: everything after -- goes to the server command, --config included', async () => {
    // Without -- or -c the Inspector takes --config for itself and fails: the reason docs/proxy.md says so.
    const [r, plain] = await Promise.all([
      inspect([
        '--cli',
        '--',
        process.execPath,
        CLI,
        'proxy',
        '--config',
        config,
        '--source',
        'fs',
        ...call('write_file', { path: join(data, 'c.txt'), content: 'x' }),
      ]),
      run(INSPECTOR, ['--cli', process.execPath, CLI, 'proxy', '--config', config, '--method', 'tools/list']),
    ]);
    expectShown(r, 'tool_not_allowed', /tool "write_file" is not admitted/, 'write_file');
    expect(plain.code).not.toBe(0);
    expect(plain.stdout + plain.stderr).toContain('Both --config and --server must be provided together');
  }, 120_000);
});

describe('the client snippets of docs/proxy.md, run as written on examples/notes', () => {
  const notesConfig = join(REPO, 'examples/notes/toolgate.yml');
  const section = readFileSync(join(REPO, 'docs/proxy.md'), 'utf8');
  /** A command line of docs/proxy.md with the published names replaced by the local builds. */
  const local = (words: string[]) =>
    words
      .join(' ')
      .replace(`npx @modelcontextprotocol/inspector@${INSPECTOR_VERSION}`, INSPECTOR)
      .replaceAll('npx toolgate', `${process.execPath} ${CLI}`)
      .replaceAll('/path/to/repo/toolgate.yml', notesConfig)
      .split(' ');

  it('the mcpServers entry starts the proxy for the SDK 1.x and 2.x clients, from any directory', async () => {
    const json = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const entry = (JSON.parse(json) as { mcpServers: Record<string, { command: string; args: string[] }> }).mcpServers.notes!;
    const [command, ...args] = local([entry.command, ...entry.args]);
    const c1 = new Client1({ name: 'readme-1x', version: '1' }, { capabilities: {} });
    const c2 = new Client({ name: 'readme-2x', version: '1' }, { capabilities: {} });
    await c1.connect(new StdioClientTransport1({ command: command!, args, cwd: ws.dir, stderr: 'ignore' }));
    await c2.connect(new StdioClientTransport({ command: command!, args, cwd: ws.dir, stderr: 'ignore' }));
    try {
      for (const c of [c1, c2] as unknown as Client1[]) {
        expect((await c.listTools()).tools.map((t) => t.name)).toContain('get_note');
        const r = (await c.callTool({ name: 'get_note', arguments: { title: 42 } })) as CallResult;
        expect(r.content?.[0]?.text).toBe('toolgate refused this call (invalid_arguments): /title must be string');
      }
    } finally {
      await c1.close();
      await c2.close();
    }
  }, 90_000);

  it('both Inspector command lines', async () => {
    const sh = /```sh\n([\s\S]*?)```/.exec(section)![1]!.replaceAll('\\\n', ' ');
    const lines = sh.split('\n').filter((l) => l.trim());
    expect(lines).toHaveLength(2);
    const outputs = await Promise.all(
      lines.map(async (line) => {
        const [command, ...args] = local(line.trim().split(/\s+/));
        const r = await run(command!, args);
        expect(r.code, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
        return JSON.parse(r.stdout) as CallResult & { tools?: { name: string }[] };
      }),
    );
    expect(outputs[0]!.tools?.map((t) => t.name)).toContain('get_note');
    expect(outputs[1]!.isError ?? false).toBe(false);
    expect(outputs[1]!.content).toEqual([{ type: 'text', text: '' }]);
  }, 180_000);
});
