/**
 * The sandbox a server under test runs in (issue 12): no process escapes, no secret of toolgate's
 * is readable, no network but loopback, no write outside the scratch HOME, /tmp and the paths a
 * source names. Every case runs twice where the machine has bubblewrap: sandboxed, and with the
 * sandbox made unavailable (`TOOLGATE_SANDBOX_UNAVAILABLE`), where escapes must still be found,
 * killed and reported (`server-escaped`) and the report must say the server ran unsandboxed.
 * The unsandboxed runs also show that each probe can see what the sandbox hides, so a test that
 * passes sandboxed is not passing for want of trying. Network probes only use listeners this
 * test opens on 127.0.0.1 and, inside the sandbox only, a `.invalid` name.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { runCheck } from '../../src/run-check.js';
import type { CheckResult } from '../../src/judge/result.js';
import { SandboxState } from '../../src/sources/launch/state.js';
import { DEFAULT_CONTAINMENT, type Containment } from '../../src/config/source-config.js';
import { silentLogger } from '../../src/util/logger.js';
import { CLI } from '../support/run-dist.js';
import { FIXTURES, NODE, readPids, tempDir } from '../support/mcp-fixtures.js';

const HOSTILE = join(FIXTURES, 'hostile');
/** The socket case makes its socket under /run (where the Docker daemon's is): root only. */
const RUN_WRITABLE = (() => {
  try {
    accessSync('/run', constants.W_OK);
    return true;
  } catch {
    return false;
  }
})();
const cleanups: (() => void)[] = [];
afterAll(() => cleanups.splice(0).forEach((c) => c()));

const SUPPORT = new SandboxState().support();
const AVAILABLE = SUPPORT.available;
const WHY = SUPPORT.available ? '' : SUPPORT.reason;
const MODES = [...(AVAILABLE ? (['sandboxed'] as const) : []), 'unsandboxed'] as const;
if (!AVAILABLE) console.warn(`sandbox.test.ts: the sandboxed cases are skipped here: ${WHY}`);

function useMode(mode: (typeof MODES)[number]): void {
  vi.stubEnv('TOOLGATE_SANDBOX_UNAVAILABLE', mode === 'unsandboxed' ? 'test: run as on a machine without the sandbox' : undefined);
}
afterEach(() => {
  vi.unstubAllEnvs();
});

/** A repository directory (with a `.git`) and a policy running `script args` from it. */
function repo(script: string, args: string[], containment: Partial<Containment> = {}) {
  const dir = tempDir('tg-sandbox-');
  cleanups.push(dir.cleanup);
  mkdirSync(join(dir.path, '.git'));
  writeFileSync(join(dir.path, '.git/config'), '[core]\n');
  const policy = adHocPolicy(
    {
      id: 'hostile',
      kind: 'mcp',
      contract: join(dir.path, 'c.json'),
      mcp: {
        transport: 'stdio',
        command: NODE,
        args: [join(HOSTILE, script), ...args],
        cwd: dir.path,
        env: [],
        capabilities: {},
        timeouts: { startupMs: 20_000, requestMs: 10_000, totalMs: 30_000 },
        limits: { maxPages: 5, maxBytes: 1 << 20 },
        // The fixture servers live outside this repository: the source names them as readable.
        containment: {
          ...DEFAULT_CONTAINMENT,
          ...containment,
          writable: (containment.writable ?? []).map((w) => join(dir.path, w)),
          readable: [HOSTILE, ...(containment.readable ?? [])],
        },
      },
    },
    dir.path,
  );
  return { dir: dir.path, policy };
}

const audit = (policy: ReturnType<typeof repo>['policy'], root: string): Promise<CheckResult> =>
  runCheck({ policy, mode: 'audit', root, logger: silentLogger });
const ids = (r: CheckResult) => r.findings.map((f) => f.ruleId);

/** Live (non-zombie) processes whose command line holds `token`, from /proc. */
function withToken(token: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(token)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2))) out.push(Number(entry));
    } catch {
      // gone
    }
  }
  return out;
}

/** Polls until no process carries `token`, for at most `ms`; kills and returns what is left. */
async function survivors(token: string, ms = 3000): Promise<number[]> {
  const end = Date.now() + ms;
  let alive = withToken(token);
  while (alive.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 50));
    alive = withToken(token);
  }
  alive.forEach((p) => process.kill(p, 'SIGKILL'));
  return alive;
}

describe.each(MODES)('escapes (%s)', (mode) => {
  beforeEach(() => useMode(mode));
  for (const how of ['setsid', 'double-fork', 'pgrp', 'respawn', 'linger'] as const) {
    it(`${how}: nothing survives the run${mode === 'unsandboxed' ? ', and what left the group is reported' : ''}`, async () => {
      const { dir, policy } = repo('escape.mjs', ['run/pids', how], { writable: ['run'] });
      mkdirSync(join(dir, 'run'));
      const pidFile = join(dir, 'run/pids');
      const r = await audit(policy, dir);
      expect(r.sources[0]!.failure, r.sources[0]!.failure?.message).toBeUndefined();
      // The server itself plus what it left (linger and respawn: only itself while it served).
      expect(readPids(pidFile).length).toBeGreaterThanOrEqual(how === 'linger' || how === 'respawn' ? 1 : 2);
      expect(await survivors('run/pids')).toEqual([]);
      const sandbox = r.sources[0]!.diagnostics?.sandbox;
      if (mode === 'sandboxed') {
        expect(sandbox).toEqual({ sandboxed: true, network: 'loopback' });
        expect(ids(r)).not.toContain('server-escaped');
        expect(ids(r)).not.toContain('server-unsandboxed');
      } else {
        expect(sandbox).toMatchObject({ sandboxed: false });
        expect(ids(r)).toContain('server-unsandboxed');
        // In the group (linger) it is ended with the group; outside it, found by its marker.
        if (how === 'linger') expect(ids(r)).not.toContain('server-escaped');
        else expect(r.findings.find((f) => f.ruleId === 'server-escaped')?.message).toMatch(/outlived it .* killed: pid \d+ `.*node/);
      }
    }, 30_000);
  }
});

describe.each(MODES)('what the server can reach (%s)', (mode) => {
  let listener: Server;
  let port = 0;
  let accepted = 0;
  beforeEach(async () => {
    useMode(mode);
    accepted = 0;
    listener = createServer((s) => {
      accepted++;
      s.destroy();
    });
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    port = (listener.address() as { port: number }).port;
  });
  afterEach(() => new Promise<void>((r) => listener.close(() => r())));

  it("toolgate's secrets, the host's loopback, the runner's files, the repository and .git", async () => {
    // A variable of this process's own start-up environment (what /proc/<pid>/environ shows),
    // one toolgate never passes on: in the Action, the token is such a variable.
    const passed = new Set(['PATH', 'HOME', 'LOGNAME', 'SHELL', 'TERM', 'USER', 'PWD', '_']);
    const secret = readFileSync('/proc/self/environ', 'latin1')
      .split('\0')
      .find((kv) => kv.includes('=') && !passed.has(kv.slice(0, kv.indexOf('='))) && kv.length > 12)!;
    expect(secret).toBeDefined();
    const runner = tempDir('tg-runner-');
    cleanups.push(runner.cleanup);
    const githubEnv = join(runner.path, 'github_env');
    writeFileSync(githubEnv, '');
    vi.stubEnv('GITHUB_ENV', githubEnv);
    try {
      const { dir, policy } = repo('nosy.mjs', ['--', secret, String(port), ['repo-file.txt', '.git/config', githubEnv, 'out/allowed.txt'].join(',')], {
        writable: ['out'],
      });
      mkdirSync(join(dir, 'out'));
      // The server's paths are relative to its cwd (the repository) except GITHUB_ENV.
      const r = await audit(policy, dir);
      expect(r.sources[0]!.failure, r.sources[0]!.failure?.message).toBeUndefined();
      const report = JSON.parse(r.sources[0]!.surface!.tools[0]!.description!) as { secretIn: string[]; connected: string; wrote: string[] };
      if (mode === 'sandboxed') {
        expect(report.secretIn).toEqual([]);
        expect(report.connected).toMatch(/^no/);
        expect(accepted).toBe(0);
        expect(report.wrote).toEqual([
          expect.stringMatching(/^repo-file.txt: no \((EROFS|EACCES|EPERM)\)$/),
          expect.stringMatching(/^\.git\/config: no/),
          expect.stringMatching(new RegExp(`^${githubEnv}: no`)),
          'out/allowed.txt: yes',
        ]);
        expect(existsSync(join(dir, 'repo-file.txt'))).toBe(false);
        expect(readFileSync(join(dir, '.git/config'), 'utf8')).toBe('[core]\n');
        expect(readFileSync(githubEnv, 'utf8')).toBe('');
        expect(readFileSync(join(dir, 'out/allowed.txt'), 'utf8')).toContain('written by the server');
      } else {
        // Unsandboxed, each probe reaches what it looks for: the test above can fail.
        expect(report.secretIn.length).toBeGreaterThan(0);
        expect(report.connected).toBe('yes');
        expect(accepted).toBe(1);
        expect(readFileSync(githubEnv, 'utf8')).toContain('written by the server');
      }
    } finally {
      vi.unstubAllEnvs();
    }
  }, 30_000);

  it.skipIf(mode !== 'sandboxed')(
    'a name it looks up is blocked and reported (server-network-blocked)',
    async () => {
      const { dir, policy } = repo('nosy.mjs', ['--', 'x', String(port), '', 'telemetry.toolgate.invalid']);
      const r = await audit(policy, dir);
      const report = JSON.parse(r.sources[0]!.surface!.tools[0]!.description!) as { looked: string };
      expect(report.looked).toMatch(/^no/);
      const f = r.findings.find((x) => x.ruleId === 'server-network-blocked');
      expect(f?.level).toBe('warning');
      expect(f?.message).toContain('telemetry.toolgate.invalid');
    },
    30_000,
  );

  it.skipIf(mode !== 'sandboxed')(
    "GitHub's hosted-runner layout: the runner's files inside RUNNER_TEMP are hidden with it, and the server starts",
    async () => {
      const runner = tempDir('tg-runner-temp-');
      cleanups.push(runner.cleanup);
      const files = join(runner.path, '_runner_file_commands');
      mkdirSync(files);
      mkdirSync(join(runner.path, '_github_workflow'));
      const vars = {
        RUNNER_TEMP: runner.path,
        GITHUB_OUTPUT: join(files, 'set_output_1'),
        GITHUB_ENV: join(files, 'set_env_1'),
        GITHUB_STEP_SUMMARY: join(files, 'step_summary_1'),
        GITHUB_EVENT_PATH: join(runner.path, '_github_workflow', 'event.json'),
      };
      for (const [k, v] of Object.entries(vars)) {
        if (k !== 'RUNNER_TEMP') writeFileSync(v, '');
        vi.stubEnv(k, v);
      }
      try {
        const { dir, policy } = repo('nosy.mjs', ['--', 'x', String(port), [vars.GITHUB_OUTPUT, join(runner.path, 'other')].join(',')]);
        const r = await audit(policy, dir);
        expect(r.sources[0]!.failure, r.sources[0]!.failure?.message).toBeUndefined();
        const report = JSON.parse(r.sources[0]!.surface!.tools[0]!.description!) as { wrote: string[] };
        expect(report.wrote).toEqual([expect.stringMatching(new RegExp(`^${vars.GITHUB_OUTPUT}: no`)), expect.stringMatching(/other: no/)]);
        expect(readFileSync(vars.GITHUB_OUTPUT, 'utf8')).toBe('');
      } finally {
        vi.unstubAllEnvs();
      }
    },
    30_000,
  );

  it.skipIf(mode !== 'sandboxed')(
    'a server that fails because its lookup is blocked (npx without network) still gets server-network-blocked',
    async () => {
      const { dir, policy } = repo('offline-install.mjs', ['registry.toolgate.invalid']);
      const r = await audit(policy, dir);
      expect(r.sources[0]!.failure?.reason).toBeDefined();
      expect(ids(r)).toContain('server-failed');
      const f = r.findings.find((x) => x.ruleId === 'server-network-blocked');
      expect(f?.level).toBe('warning');
      expect(f?.message).toContain('registry.toolgate.invalid');
    },
    30_000,
  );

  it.skipIf(mode !== 'sandboxed')(
    '`network: open` gives the host network back (the loopback listener is reached)',
    async () => {
      const { dir, policy } = repo('nosy.mjs', ['--', 'x', String(port), ''], { network: 'open' });
      const r = await audit(policy, dir);
      const report = JSON.parse(r.sources[0]!.surface!.tools[0]!.description!) as { connected: string };
      expect(report.connected).toBe('yes');
      expect(r.sources[0]!.diagnostics?.sandbox).toEqual({ sandboxed: true, network: 'open' });
    },
    30_000,
  );
});

describe.each(MODES)('toolgate interrupted mid-listing (%s)', (mode) => {
  for (const signal of ['SIGINT', ...(mode === 'sandboxed' ? (['SIGKILL'] as const) : [])] as const) {
    it(`${signal}: the server and the process it left in a new session are gone`, async () => {
      const w = tempDir('tg-sandbox-int-');
      cleanups.push(w.cleanup);
      mkdirSync(join(w.path, 'run'));
      const token = `run/pids-${signal}-${mode}`;
      writeFileSync(
        join(w.path, 'toolgate.yml'),
        `sources:\n  - id: esc\n    mcp:\n      command: ${JSON.stringify(NODE)}\n      args: [${JSON.stringify(join(HOSTILE, 'escape.mjs'))}, ${JSON.stringify(token)}, setsid-hang]\n      writable: [run]\n      readable: [${JSON.stringify(HOSTILE)}]\n`,
      );
      const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' };
      if (mode === 'unsandboxed') env.TOOLGATE_SANDBOX_UNAVAILABLE = 'test';
      const child = spawn(NODE, [CLI, 'update'], { cwd: w.path, env, stdio: 'ignore' });
      const closed = new Promise((r) => child.on('close', r));
      const end = Date.now() + 20_000;
      const file = join(w.path, token);
      while ((!existsSync(file) || readPids(file).length < 2) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(readPids(file).length).toBe(2);
      expect(withToken(token).length).toBeGreaterThanOrEqual(2);
      child.kill(signal);
      await closed;
      expect(await survivors(token, 5000)).toEqual([]);
    }, 30_000);
  }
});

describe.skipIf(!AVAILABLE)('what a pull request cannot undo (sandboxed; from an attack on the sandbox)', () => {
  beforeEach(() => useMode('sandboxed'));

  it('a writable path that is a link out of the repository is refused before anything runs', async () => {
    const { dir, policy } = repo('nosy.mjs', ['--', 'x', '1', '../escaped.txt'], { writable: ['data'] });
    symlinkSync('..', join(dir, 'data'));
    const r = await audit(policy, dir);
    expect(r.sources[0]!.failure?.reason).toBe('spawn-failed');
    expect(r.sources[0]!.failure?.message).toMatch(/a `writable` path .*data is outside the repository \(it leads to /);
  }, 30_000);

  it('a working directory that is a link out of the repository is refused', async () => {
    const { dir, policy } = repo('nosy.mjs', ['--', 'x', '1']);
    symlinkSync('/', join(dir, 'up'));
    (policy.sources[0] as { mcp: { cwd: string } }).mcp.cwd = join(dir, 'up');
    const r = await audit(policy, dir);
    expect(r.sources[0]!.failure?.message).toMatch(/the working directory \(`cwd`\) .*up is outside the repository/);
  }, 30_000);

  it.skipIf(!RUN_WRITABLE)(
    '`writable: ["."]` leaves .git hidden and read-only; a unix socket under /run is out of reach',
    async () => {
      const sockDir = mkdtempSync('/run/tg-sock-');
      cleanups.push(() => rmSync(sockDir, { recursive: true, force: true }));
      const sock = join(sockDir, 's.sock');
      const unix = createServer((s) => s.destroy());
      await new Promise<void>((r) => unix.listen(sock, r));
      try {
        const { dir, policy } = repo('nosy.mjs', ['--', 'x', '1', '.git/config,repo-file.txt', '', sock], { writable: ['.'] });
        const r = await audit(policy, dir);
        const report = JSON.parse(r.sources[0]!.surface!.tools[0]!.description!) as { wrote: string[]; socket: string };
        expect(report.wrote[0]).toMatch(/^\.git\/config: no/);
        expect(report.wrote[1]).toBe('repo-file.txt: yes');
        expect(report.socket).toMatch(/^no \(ENOENT\)/);
        expect(readFileSync(join(dir, '.git/config'), 'utf8')).toBe('[core]\n');
      } finally {
        await new Promise<void>((r) => unix.close(() => r()));
      }
    },
    30_000,
  );

  it('an HTTP start command the base branch does not run yet is not started (it would get the host network)', async () => {
    const { dir } = repo('nosy.mjs', []);
    const policy = adHocPolicy(
      {
        id: 'remote',
        kind: 'mcp',
        contract: join(dir, 'c.json'),
        mcp: {
          transport: 'http',
          url: 'http://127.0.0.1:9/mcp',
          headers: [],
          start: { command: NODE, args: [join(FIXTURES, 'http.mjs'), '9'], cwd: dir, env: [] },
          capabilities: {},
          timeouts: { startupMs: 20_000, requestMs: 10_000, totalMs: 30_000 },
          limits: { maxPages: 5, maxBytes: 1 << 20 },
          containment: { ...DEFAULT_CONTAINMENT, startNetwork: false },
        },
      },
      dir,
    );
    const r = await audit(policy, dir);
    expect(r.sources[0]!.failure?.message).toMatch(/was not run: it needs the host's network .* the base branch's policy does not run it yet/);
  }, 30_000);
});
