/**
 * What a spawned server can see (docs/design.md §9): only the default variables (PATH, LOGNAME,
 * SHELL, TERM, USER), the names the source lists, and a scratch HOME that is deleted afterwards
 * (even when the server wrote into it). Never GITHUB_TOKEN, INPUT_*, ACTIONS_* or any other
 * variable of toolgate's own environment. Checked for a stdio server and for an HTTP server's
 * `start` command, in process and through the built CLI with the secrets in the CLI's own
 * environment. (Unit tests of the allowlist itself are in test/sources/mcp-env.test.ts.)
 */
import { MARKER_NAME } from '../../src/sources/launch/escape-scan.js';
import { randomBytes } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withoutSandboxForThisFile } from '../support/sandbox-mode.js';
import { DEFAULT_CHILD_ENV_NAMES } from '../../src/sources/launch/env.js';
import { snapshotMcp } from '../../src/sources/mcp.js';
import type { RawSnapshot } from '../../src/sources/types.js';
import { FIXTURES, NODE, ROOT, freePort, livePidsInGroup, readPids, tempDir, type HttpCfg, type StdioCfg } from '../support/mcp-fixtures.js';
import { runCli } from '../support/run-dist.js';
import { commit, git, writeFiles } from '../support/action-repo.js';
import { createServer } from 'node:http';

withoutSandboxForThisFile();

const FIXTURE = join(FIXTURES, 'hostile', 'env-report.mjs');
const SUFFIX = randomBytes(4).toString('hex').toUpperCase();
const ALLOWED = `TOOLGATE_ALLOWED_${SUFFIX}`;
const SECRET = `SECRET_${SUFFIX}`;
/** What a GitHub runner's environment holds that a server from a pull request must not see. */
const HOSTILE_ENV: Record<string, string> = {
  GITHUB_TOKEN: 'ghs_do_not_leak',
  INPUT_GITHUB_TOKEN: 'ghs_do_not_leak',
  INPUT_CONFIG: 'toolgate.yml',
  ACTIONS_RUNTIME_TOKEN: 'do_not_leak',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://example.invalid/token',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'do_not_leak',
  NPM_TOKEN: 'npm_do_not_leak',
  [SECRET]: 'do_not_leak',
  [ALLOWED]: 'visible',
};
const TIMEOUTS = { startupMs: 10_000, requestMs: 5000, totalMs: 20_000 };
const LIMITS = { maxPages: 5, maxBytes: 1024 * 1024 };

const dirs: { cleanup: () => void }[] = [];
afterAll(() => dirs.splice(0).forEach((d) => d.cleanup()));
function temp(): string {
  const d = tempDir('tg-hostile-env-');
  dirs.push(d);
  return d.path;
}

/** The names and HOME a server reported through its tool descriptions. */
function seen(tools: { name: string; description?: string }[]): { names: string[]; home: string } {
  const byName = new Map(tools.map((t) => [t.name, t.description ?? '']));
  return { names: byName.get('env_names')!.split(','), home: byName.get('home')! };
}

function expectOnlyAllowed(report: { names: string[]; home: string }, realHome: string | undefined): void {
  // And the run's marker, which every process toolgate starts carries (launch/escape-scan.ts).
  const allowed = new Set([...DEFAULT_CHILD_ENV_NAMES, 'HOME', ALLOWED, MARKER_NAME]);
  expect(report.names.filter((n) => !allowed.has(n))).toEqual([]);
  expect(report.names).toContain(MARKER_NAME);
  expect(report.names).toContain(ALLOWED);
  expect(report.names).toContain('PATH');
  expect(report.names).toContain('HOME');
  for (const name of report.names) expect(name).not.toMatch(/^(GITHUB_|INPUT_|ACTIONS_|SECRET_|NPM_)/);
  expect(report.home).toMatch(/toolgate-home-/);
  expect(report.home).not.toBe(realHome);
  // The server wrote $HOME/.cache/env-report/state.json: the scratch home is gone all the same.
  expect(existsSync(report.home)).toBe(false);
}

const toolsOf = (snap: RawSnapshot) => snap.tools.map((t) => t.tool as { name: string; description?: string });

describe('in process: toolgate environment holds secrets', () => {
  const realHome = process.env.HOME;
  beforeEach(() => {
    for (const [k, v] of Object.entries(HOSTILE_ENV)) vi.stubEnv(k, v);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('a stdio server sees only the defaults, the named variable and a scratch HOME (deleted after)', async () => {
    const pidFile = join(temp(), 'pids');
    const cfg: StdioCfg = {
      transport: 'stdio',
      command: NODE,
      args: [FIXTURE, pidFile],
      cwd: ROOT,
      env: [ALLOWED, `TOOLGATE_UNSET_${SUFFIX}`],
      capabilities: {},
      timeouts: TIMEOUTS,
      limits: LIMITS,
    };
    const snap = await snapshotMcp('env', cfg);
    expectOnlyAllowed(seen(toolsOf(snap)), realHome);
    expect(livePidsInGroup(readPids(pidFile)[0]!)).toEqual([]);
  });

  it("an HTTP server's start command sees only the defaults, the named variable and a scratch HOME", async () => {
    const pidFile = join(temp(), 'pids');
    const port = await freePort();
    const cfg: HttpCfg = {
      transport: 'http',
      url: `http://127.0.0.1:${port}/mcp`,
      headers: [],
      start: { command: NODE, args: [FIXTURE, pidFile, '--http', String(port)], cwd: ROOT, env: [ALLOWED] },
      capabilities: {},
      timeouts: TIMEOUTS,
      limits: LIMITS,
    };
    const snap = await snapshotMcp('env-http', cfg);
    expect(snap.source.transport).toBe('streamable-http');
    expectOnlyAllowed(seen(toolsOf(snap)), realHome);
    expect(livePidsInGroup(readPids(pidFile)[0]!)).toEqual([]);
  });
});

describe('through the built CLI, with the secrets in the CLI’s own environment', () => {
  const cliEnv = HOSTILE_ENV;

  it('stdio: `toolgate snapshot -e NAME -- node server`', async () => {
    const dir = temp();
    const pidFile = join(dir, 'pids');
    const r = await runCli(['snapshot', '-e', ALLOWED, '--', NODE, FIXTURE, pidFile], { cwd: dir, env: cliEnv, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const surface = JSON.parse(r.stdout) as { tools: { name: string; description?: string }[] };
    expectOnlyAllowed(seen(surface.tools), process.env.HOME);
    expect(livePidsInGroup(readPids(pidFile)[0]!)).toEqual([]);
  });

  it('HTTP `start` from toolgate.yml: `toolgate snapshot -c toolgate.yml`', async () => {
    const dir = temp();
    const pidFile = join(dir, 'pids');
    const port = await freePort();
    writeFileSync(
      join(dir, 'toolgate.yml'),
      [
        'sources:',
        '  - id: env-http',
        '    mcp:',
        `      url: http://127.0.0.1:${port}/mcp`,
        `      start: { command: ${JSON.stringify(NODE)}, args: [${JSON.stringify(FIXTURE)}, ${JSON.stringify(pidFile)}, --http, "${port}"], env: [${ALLOWED}] }`,
        '      startup-timeout-ms: 10000',
        '',
      ].join('\n'),
    );
    const r = await runCli(['snapshot', '-c', 'toolgate.yml'], { cwd: dir, env: cliEnv, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const surface = JSON.parse(r.stdout) as { tools: { name: string; description?: string }[] };
    expectOnlyAllowed(seen(surface.tools), process.env.HOME);
    expect(livePidsInGroup(readPids(pidFile)[0]!)).toEqual([]);
  });

  it('a pull request that points an HTTP source elsewhere: `check --base` exits 2 on the url line, and the header never leaves', async () => {
    const dir = temp();
    const requests: string[] = [];
    const collector = createServer((req, res) => {
      requests.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((done) => collector.listen(0, '127.0.0.1', done));
    const port = (collector.address() as { port: number }).port;
    const policy = (url: string) =>
      `sources:\n  - id: remote\n    mcp:\n      url: ${url}\n      headers:\n        Authorization: { env: ${SECRET}, prefix: "Bearer " }\n`;
    try {
      git(dir, 'init', '-q', '-b', 'main');
      writeFiles(dir, { 'toolgate.yml': policy('https://mcp.example.invalid/mcp') });
      commit(dir, 'base: the token goes to the service');
      writeFiles(dir, { 'toolgate.yml': policy(`http://127.0.0.1:${port}/mcp`) });
      commit(dir, 'head: the token goes to a collector');
      const r = await runCli(['check', '--base', 'main~1'], { cwd: dir, env: cliEnv, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `source "remote" sends "${SECRET}" (header "Authorization") to http://127.0.0.1:${port}, where the base branch's policy does not send it`,
      );
      expect(r.stderr).toMatch(/toolgate\.yml:4\b/);
      expect(requests).toEqual([]);
    } finally {
      await new Promise((done) => collector.close(done));
    }
  });
});
