/**
 * A server starts in bubblewrap before anything has asked whether bwrap can make namespaces here
 * (issue 18: the probe beside the policy's read cost a run ~38 ms). The probe runs only when such
 * a start fails: a "no" starts the server again unsandboxed and says so (`server-unsandboxed`), a
 * "yes" leaves the failure as the server's own. The machine without user namespaces is real: the
 * CLI runs inside `bwrap --unshare-user --disable-userns`, where the kernel refuses every new
 * namespace (ENOSPC), as on a host with `user.max_user_namespaces` at 0.
 */
import { spawnSync } from 'node:child_process';
import * as childProcess from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { runCheck } from '../../src/run-check.js';
import { namespacesExhausted, namespacesInDoubt, SandboxState } from '../../src/sources/launch/state.js';
import { silentLogger } from '../../src/util/logger.js';
import { Launcher, type Launched } from '../../src/sources/launch/index.js';
import { CLI } from '../support/run-dist.js';
import { FIXTURE_READS, fixture, freePort, NODE, nodeFixture, tempDir } from '../support/mcp-fixtures.js';
import { DEFAULT_CONTAINMENT } from '../../src/config/source-config.js';

/** The probe's runs: bwrap with `-- true` at the end, through spawn or spawnSync (launch/state.ts). */
const probes = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:child_process', async (importOriginal) => {
  const real = await importOriginal<typeof childProcess>();
  const isProbe = (command: string, args: readonly string[] | undefined) => command.endsWith('bwrap') && args?.at(-1) === 'true' && args.at(-2) === '--';
  return {
    ...real,
    spawn: (command: string, args: readonly string[], ...rest: never[]) => {
      if (isProbe(command, args)) probes.count++;
      return (real.spawn as (...a: unknown[]) => unknown)(command, args, ...rest);
    },
    spawnSync: (command: string, args: readonly string[], ...rest: never[]) => {
      if (isProbe(command, args)) probes.count++;
      return (real.spawnSync as (...a: unknown[]) => unknown)(command, args, ...rest);
    },
  };
});

const SUPPORT = new SandboxState().support();
const AVAILABLE = SUPPORT.available;
/** The bwrap toolgate uses (/usr/bin or /bin). */
const BWRAP = SUPPORT.available ? SUPPORT.bwrap : 'bwrap';

/** `bwrap --disable-userns` (bubblewrap 0.8+) works here: a machine without user namespaces can be made. */
const CAN_DISABLE_USERNS =
  AVAILABLE && spawnSync(BWRAP, ['--unshare-user', '--disable-userns', '--dev-bind', '/', '/', '--proc', '/proc', '--', 'true']).status === 0;

describe('namespacesInDoubt: when the probe still runs first', () => {
  const proc = (files: Record<string, string>) => (path: string) => files[path];
  it('a kernel that allows user namespaces: no doubt, the server starts in bwrap untried', () => {
    expect(namespacesInDoubt(proc({ '/proc/sys/user/max_user_namespaces': '96362', '/proc/self/status': 'Name:\tnode\nSeccomp:\t0\n' }))).toBe(false);
    expect(namespacesInDoubt(proc({}))).toBe(false);
  });
  it.each([
    ['/proc/sys/user/max_user_namespaces', '0'],
    ['/proc/sys/kernel/unprivileged_userns_clone', '0'],
    ['/proc/sys/kernel/apparmor_restrict_unprivileged_userns', '1'],
    ['/proc/self/status', 'Name:\tnode\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n'],
  ])('%s = %j: in doubt', (path, text) => {
    expect(namespacesInDoubt(proc({ [path]: text }))).toBe(true);
  });
  it('settings that allow them are no doubt', () => {
    expect(namespacesInDoubt(proc({ '/proc/sys/kernel/unprivileged_userns_clone': '1', '/proc/sys/kernel/apparmor_restrict_unprivileged_userns': '0' }))).toBe(
      false,
    );
  });
});

/** A sandbox state whose probe, once `sayNo` is set, says this machine has no namespaces (as a server could make it say). */
class ProbeSaysNoLater extends SandboxState {
  sayNo = false;
  override supportAsync(): ReturnType<SandboxState['supportAsync']> {
    return this.sayNo ? Promise.resolve({ available: false, reason: 'test: the probe says no' }) : super.supportAsync();
  }
}

describe.skipIf(!AVAILABLE)('a server in an untried sandbox (this machine has one)', () => {
  function policyFor(script: string) {
    const dir = tempDir('tg-untried-');
    // The fixture lives outside this repository: the source names it as readable.
    const cfg = nodeFixture(script, [], { cwd: dir.path, containment: { ...DEFAULT_CONTAINMENT, readable: [...FIXTURE_READS] } });
    return { dir, policy: adHocPolicy({ id: 'srv', kind: 'mcp', contract: join(dir.path, 'c.json'), mcp: cfg }, dir.path) };
  }

  it('runs sandboxed, and no probe ran for it: its own start told that bwrap makes namespaces here', async () => {
    // The counter sees a probe, so the checks of it below can fail.
    const seen = probes.count;
    await new SandboxState().supportAsync();
    expect(probes.count).toBe(seen + 1);
    const launcher = new Launcher();
    const { dir, policy } = policyFor('annotated.mjs');
    try {
      expect(launcher.sandbox.expected()).toMatchObject({ available: true, untried: true });
      const before = probes.count;
      const result = await runCheck({ policy, mode: 'audit', root: dir.path, logger: silentLogger, launcher });
      const src = result.sources[0]!;
      expect(src.failure).toBeUndefined();
      expect(src.surface?.tools.length).toBeGreaterThan(0);
      expect(src.diagnostics?.sandbox).toEqual({ sandboxed: true, network: 'loopback' });
      expect(probes.count).toBe(before);
      // bwrap reported the sandbox's first process: known for the rest of the run.
      expect(launcher.sandbox.phase).toBe('works');
      expect(launcher.sandbox.expected()).toEqual({ available: true, bwrap: BWRAP });
    } finally {
      dir.cleanup();
    }
  });

  it('a server whose namespaces were made is never started again without them, whatever a probe would then say (attacker review)', async () => {
    // A server's code can make a later probe fail (by holding every user namespace the kernel
    // allows while it exits). Here the probe is made to say no after the start, as it then would.
    const dir = tempDir('tg-untried-');
    const state = new ProbeSaysNoLater();
    const launcher = new Launcher(state);
    const cfg = nodeFixture('exit-at-once.mjs', [], { cwd: dir.path, containment: { ...DEFAULT_CONTAINMENT, readable: [...FIXTURE_READS] } });
    const l = await launcher.start({ ...cfg, root: dir.path }, cfg.containment, 'stdio-server');
    expect(l.ok).toBe(true);
    const into = l as Launched;
    try {
      expect(await into.namespacesMade).toBe(true);
      await into.proc.waitExit(10_000);
      state.sayNo = true;
      const before = probes.count;
      expect(await launcher.failedForWantOfSandbox(into)).toBe(false);
      expect(probes.count).toBe(before);
    } finally {
      await into.proc.stop();
      await into.home.dispose();
      dir.cleanup();
    }
  });

  it('a server that fails on its own fails as itself, sandboxed, and is not started again unsandboxed', async () => {
    const { dir, policy } = policyFor('exit-at-once.mjs');
    const launcher = new Launcher();
    try {
      const result = await runCheck({ policy, mode: 'audit', root: dir.path, logger: silentLogger, launcher });
      const src = result.sources[0]!;
      expect(src.failure?.message).toMatch(/FIXTURE_API_KEY is not set/);
      // Reported as the server's failure, from its run in the sandbox: not started again without it.
      expect(result.findings.map((f) => f.ruleId)).toContain('server-failed');
      expect(result.findings.map((f) => f.ruleId)).not.toContain('server-unsandboxed');
      // The start reported its namespaces, so no probe was asked.
      expect(launcher.sandbox.expected()).toEqual({ available: true, bwrap: BWRAP });
    } finally {
      dir.cleanup();
    }
  });
});

describe('after a start without the report, the probe decides (failedForWantOfSandbox)', () => {
  /** A start (by `launcher`) whose process has ended and whose bwrap reported (`made`) or not. */
  async function ended(launcher: Launcher, made: boolean): Promise<Launched> {
    const dir = tempDir('tg-untried-');
    const cfg = nodeFixture('exit-at-once.mjs', [], { cwd: dir.path, containment: { sandbox: 'off', network: 'loopback', writable: [] } });
    const l = (await launcher.start({ ...cfg, root: dir.path }, cfg.containment, 'stdio-server')) as Launched;
    await l.proc.waitExit(10_000);
    l.namespacesMade = Promise.resolve(made);
    onTestFinished(async () => {
      await l.home.dispose();
      dir.cleanup();
    });
    return l;
  }

  it('no report and a machine without user namespaces: start again (unsandboxed, reported)', async () => {
    process.env.TOOLGATE_SANDBOX_UNAVAILABLE = 'test: no user namespaces';
    try {
      const launcher = new Launcher();
      expect(await launcher.failedForWantOfSandbox(await ended(launcher, false))).toBe(true);
      expect(await launcher.failedForWantOfSandbox(await ended(launcher, true))).toBe(false);
    } finally {
      delete process.env.TOOLGATE_SANDBOX_UNAVAILABLE;
    }
  });
});

describe('namespacesExhausted: a full user-namespace limit is no machine without a sandbox', () => {
  const limit = (value: string | undefined) => (path: string) => (path === '/proc/sys/user/max_user_namespaces' ? value : undefined);
  it.each([
    ['bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)', '96362', true],
    ['bwrap: Creating new namespace failed: No space left on device', '96362', true],
    ['bwrap: Creating new namespace failed: Resource temporarily unavailable', undefined, true],
    ['bwrap: Creating new namespace failed: nesting depth or /proc/sys/user/max_*_namespaces exceeded (ENOSPC)', '0', false],
    [
      "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.",
      '96362',
      false,
    ],
    ['bwrap: setting up uid map: Permission denied', '96362', false],
  ])('%s (limit %s): exhausted %s', (why, max, exhausted) => {
    expect(namespacesExhausted(why, limit(max))).toBe(exhausted);
  });
});

describe.skipIf(!CAN_DISABLE_USERNS)('with every new user namespace refused for want of room (bwrap --disable-userns around the CLI: ENOSPC)', () => {
  /** `toolgate <args>` from dist/ in `dir`, where no new namespace can be made (stdin: `input`, then closed). */
  function cliWithoutUserns(dir: string, args: string[], input = '') {
    const outer = ['--unshare-user', '--disable-userns', '--dev-bind', '/', '/', '--proc', '/proc', '--'];
    // HOME apart from the repository: the sandbox refuses to show a repository that is a home directory.
    const home = tempDir('tg-nouserns-home-');
    onTestFinished(home.cleanup);
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home.path };
    const r = spawnSync(BWRAP, [...outer, NODE, CLI, ...args], { cwd: dir, env, input, encoding: 'utf8', timeout: 60_000 });
    return { code: r.status, out: r.stdout + r.stderr };
  }

  /** A toolgate.yml running the annotated fixture, with `head` above `sources:`. */
  const policyText = (head = '') =>
    `${head}sources:\n  - id: srv\n    mcp:\n      command: ${JSON.stringify(NODE)}\n      args: [${JSON.stringify(fixture('annotated.mjs'))}]\n      readable: ${JSON.stringify(FIXTURE_READS)}\n`;
  const EXHAUSTED =
    /in the sandbox: bubblewrap cannot create namespaces now \(bwrap: Creating new namespace failed: [^)]*\(ENOSPC\)\): the limit of user namespaces is reached/;

  it('a stdio server: its start in bwrap fails, the probe says why, and it is not run unsandboxed (exit 3)', () => {
    const dir = tempDir('tg-nouserns-');
    try {
      writeFileSync(join(dir.path, 'toolgate.yml'), policyText());
      const r = cliWithoutUserns(dir.path, ['audit']);
      expect(r.out).toMatch(/could not start MCP server/);
      expect(r.out).toMatch(EXHAUSTED);
      expect(r.out).not.toMatch(/sandbox: none|server-unsandboxed/);
      expect(r.code).toBe(3);
    } finally {
      dir.cleanup();
    }
  });

  it('an HTTP source’s start command: the same', async () => {
    const dir = tempDir('tg-nouserns-');
    const port = await freePort();
    try {
      writeFileSync(
        join(dir.path, 'toolgate.yml'),
        [
          'sources:',
          '  - id: web',
          '    mcp:',
          `      url: http://127.0.0.1:${port}/mcp`,
          '      start:',
          `        command: ${JSON.stringify(NODE)}`,
          `        args: [${JSON.stringify(fixture('http.mjs'))}, "${port}"]`,
          `      readable: ${JSON.stringify(FIXTURE_READS)}`,
          '',
        ].join('\n'),
      );
      const r = cliWithoutUserns(dir.path, ['audit']);
      expect(r.out).toMatch(/could not start start command/);
      expect(r.out).toMatch(EXHAUSTED);
      expect(r.out).not.toMatch(/sandbox: none|server-unsandboxed/);
      expect(r.code).toBe(3);
    } finally {
      dir.cleanup();
    }
  });

  it('`sandbox: required` refuses before any server starts (the probe runs first there): exit 2', () => {
    const dir = tempDir('tg-nouserns-');
    try {
      writeFileSync(join(dir.path, 'toolgate.yml'), policyText('sandbox: required\n'));
      const r = cliWithoutUserns(dir.path, ['audit']);
      expect(r.out).toMatch(/`sandbox: required`, but servers cannot be sandboxed here: bubblewrap cannot create namespaces now/);
      expect(r.code).toBe(2);
    } finally {
      dir.cleanup();
    }
  });

  it('toolgate proxy: does not start the server (exit 3; exit 2 under `sandbox: required`)', () => {
    const dir = tempDir('tg-nouserns-');
    try {
      writeFileSync(join(dir.path, 'toolgate.yml'), policyText());
      // The contract, written where namespaces can be made.
      expect(spawnSync(NODE, [CLI, 'update'], { cwd: dir.path, encoding: 'utf8', timeout: 60_000 }).status).toBe(0);
      const auto = cliWithoutUserns(dir.path, ['proxy', '--source', 'srv']);
      expect(auto.out).toMatch(EXHAUSTED);
      expect(auto.out).not.toMatch(/"decision":"unsandboxed"/);
      expect(auto.code).toBe(3);
      writeFileSync(join(dir.path, 'toolgate.yml'), policyText('sandbox: required\n'));
      const required = cliWithoutUserns(dir.path, ['proxy', '--source', 'srv']);
      expect(required.out).toMatch(/`sandbox: required`, but servers cannot be sandboxed here/);
      expect(required.out).not.toMatch(/"event":"upstream"/);
      expect(required.code).toBe(2);
    } finally {
      dir.cleanup();
    }
  });
});
