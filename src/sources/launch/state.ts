/**
 * Whether servers can be sandboxed on this machine, as one run learns it: an explicit,
 * forward-only state machine that the run creates and passes to every start (no module state:
 * each run, and each test, has its own).
 *
 *   untried ──(a start's bwrap reports its namespaces, or the probe passes)──▶ works
 *      │──(precondition fails, or the probe says no)──────────────────────────▶ none
 *      └──(the probe hits the user-namespace limit)───────────────────────────▶ exhausted
 *
 * Once settled it never changes: a later failure of the run is never taken for a machine without
 * namespaces (a server sandboxed once is never started again unsandboxed). Where bwrap is
 * installed a server starts in it untried (the probe costs ~40 ms, and a start tells the same);
 * where the kernel's settings make a refusal likely, the probe runs first. `exhausted`: bwrap
 * works here but the limit is reached now (see {@link namespacesExhausted}): no server may start,
 * sandboxed or not.
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findSystemBinary, probeArgs } from './bwrap.js';
import { rootOnlyPaths } from './mounts.js';

/** Whether servers can be sandboxed here, and with what. */
export type SandboxSupport = { available: true; bwrap: string } | { available: false; reason: string; exhausted?: true };

/**
 * What a start may assume: the verdict when one is known, else bwrap's path with `untried` (it
 * is installed, but whether it can make namespaces here has not been asked).
 */
export type ExpectedSandbox = SandboxSupport | { available: true; bwrap: string; untried: true };

/** Where the state reads the machine; tests give another environment, platform or proc root. */
export interface MachineView {
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  /** The directory that stands for /proc. */
  procRoot: string;
}

/** The machine toolgate runs on. */
export const THIS_MACHINE: MachineView = { env: process.env, platform: process.platform, procRoot: '/proc' };

/** See the module comment. */
export class SandboxState {
  private verdict: SandboxSupport | undefined;
  private probing: Promise<SandboxSupport> | undefined;
  private rootOnlyFound: string[] | undefined;
  private readonly read: ProcReader;

  constructor(readonly machine: MachineView = THIS_MACHINE) {
    this.read = procReader(machine.procRoot);
  }

  /** `untried`, `works`, `none` or `exhausted` (see the module comment). */
  get phase(): 'untried' | 'works' | 'none' | 'exhausted' {
    const v = this.verdict;
    return !v ? 'untried' : v.available ? 'works' : v.exhausted ? 'exhausted' : 'none';
  }

  /** Settles the state, once: the first verdict stays. */
  private settle(v: SandboxSupport): SandboxSupport {
    return (this.verdict ??= v);
  }

  /**
   * Whether bubblewrap can make the namespaces here: it runs `true` in the same setup a server
   * gets (~40 ms), once. Synchronous: for `sandbox: required`, decided before anything starts.
   */
  support(): SandboxSupport {
    if (this.verdict) return this.verdict;
    const pre = this.precondition();
    if ('reason' in pre) return this.settle(pre);
    const r = spawnSync(pre.bwrap, probeArgs(), { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
    return this.settle(this.judge(pre.bwrap, r.status, r.stderr?.toString('utf8') ?? '', r.error));
  }

  /** {@link support} without blocking: runs the probe (once) and resolves with the verdict. */
  supportAsync(): Promise<SandboxSupport> {
    if (this.verdict) return Promise.resolve(this.verdict);
    return (this.probing ??= new Promise<SandboxSupport>((resolve) => {
      const pre = this.precondition();
      if ('reason' in pre) return resolve(pre);
      const child = spawn(pre.bwrap, probeArgs(), { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('error', (e) => resolve(this.judge(pre.bwrap, null, stderr, e)));
      child.once('close', (code) => {
        clearTimeout(timer);
        resolve(this.judge(pre.bwrap, code, stderr));
      });
    }).then((s) => this.settle(s)));
  }

  /**
   * Records that bubblewrap made its namespaces here (a start's bwrap reported its child):
   * `untried` → `works`, so that no later failure of this run is taken for a machine without them.
   */
  worked(bwrap: string): void {
    this.settle({ available: true, bwrap });
  }

  /**
   * What a start assumes, without running anything: the verdict, or what the precondition tells,
   * or `untried` when bwrap is installed; where the kernel's settings make a refusal likely
   * ({@link namespacesInDoubt}), a failed start and a second one would cost more than the probe
   * (~150 ms against ~40 ms): the probe runs first.
   */
  expected(): ExpectedSandbox {
    if (this.verdict) return this.verdict;
    const pre = this.precondition();
    if ('reason' in pre) return this.settle(pre);
    if (namespacesInDoubt(this.read)) return this.support();
    return { available: true, bwrap: pre.bwrap, untried: true };
  }

  /** What a sandbox hides when toolgate runs as root (mounts.ts), found once per run. */
  rootOnly(): string[] {
    return (this.rootOnlyFound ??= rootOnlyPaths());
  }

  /** What can be told without running bwrap: unavailable (and why), or where bwrap is. */
  private precondition(): { bwrap: string } | { available: false; reason: string } {
    const { env, platform } = this.machine;
    if (env.TOOLGATE_SANDBOX_UNAVAILABLE) return { available: false, reason: `TOOLGATE_SANDBOX_UNAVAILABLE is set (${env.TOOLGATE_SANDBOX_UNAVAILABLE})` };
    if (platform !== 'linux') return { available: false, reason: `no sandbox on ${platform} (toolgate sandboxes with bubblewrap, on Linux)` };
    const bwrap = findSystemBinary('bwrap');
    if (!bwrap) return { available: false, reason: 'bubblewrap (bwrap) is not installed: `sudo apt-get install bubblewrap`' };
    return { bwrap };
  }

  private judge(bwrap: string, status: number | null, stderr: string, error?: Error): SandboxSupport {
    if (status === 0) return { available: true, bwrap };
    const why = stderr.trim().split('\n')[0] || (error ? error.message : `exit ${status}`);
    if (namespacesExhausted(why, this.read)) {
      return {
        available: false,
        exhausted: true,
        reason: `bubblewrap cannot create namespaces now (${why}): the limit of user namespaces is reached (user.max_user_namespaces, counted over every process of this user), which is no reason to run a server unsandboxed; end what holds them, or raise the limit`,
      };
    }
    return { available: false, reason: refusalReason(why, this.read) };
  }
}

/** Reads a `/proc/…` file's text, trimmed; undefined when it cannot be read (absent on this kernel). */
export type ProcReader = (path: string) => string | undefined;

/**
 * A {@link ProcReader} whose `/proc/…` paths are read under `procRoot` (tests point it at a
 * directory that stands for a machine's /proc).
 */
export function procReader(procRoot = '/proc'): ProcReader {
  return (path) => {
    try {
      return readFileSync(join(procRoot, path.replace(/^\/proc(\/|$)/, '')), 'utf8').trim();
    } catch {
      return undefined;
    }
  };
}

/**
 * Whether this machine's settings make it likely that bubblewrap cannot make user namespaces:
 * `user.max_user_namespaces` 0; Debian's `kernel.unprivileged_userns_clone` 0; Ubuntu 23.10+'s
 * `kernel.apparmor_restrict_unprivileged_userns` 1 (namespaces without capabilities, unless
 * bwrap has an AppArmor profile); or a seccomp filter on this process (`Seccomp: 2` in
 * /proc/self/status: Docker's default profile refuses `clone(CLONE_NEWUSER)`). Only a hint for
 * whether to probe first; the probe decides. Exported for tests (`read` stands for /proc).
 */
export function namespacesInDoubt(read: (path: string) => string | undefined): boolean {
  if (read('/proc/sys/user/max_user_namespaces') === '0') return true;
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') return true;
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') return true;
  return /^Seccomp:\s*2$/m.test(read('/proc/self/status') ?? '');
}

/**
 * Why bubblewrap could not make namespaces (`why`, its first line of stderr), with the setting
 * of this machine that explains it and the way to a sandbox: AppArmor's restriction
 * (`kernel.apparmor_restrict_unprivileged_userns` 1: Ubuntu 23.10+, GitHub's ubuntu-latest) needs
 * AppArmor's own bwrap-userns-restrict profile (the README's setup-sandbox step); Debian's
 * `kernel.unprivileged_userns_clone` 0 and `user.max_user_namespaces` 0 switch them off.
 * Exported for tests (`read` stands for /proc, see {@link procReader}).
 */
export function refusalReason(why: string, read: ProcReader): string {
  const head = `bubblewrap cannot create namespaces here (${why})`;
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1')
    return `${head}: AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1) and bwrap has no AppArmor profile; load AppArmor's bwrap-userns-restrict profile (in a workflow, the step \`uses: toolgate/toolgate/setup-sandbox@v0\`; see the README, "GitHub Action")`;
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0')
    return `${head}: unprivileged user namespaces are switched off (kernel.unprivileged_userns_clone = 0)`;
  if (read('/proc/sys/user/max_user_namespaces') === '0') return `${head}: user namespaces are switched off (user.max_user_namespaces = 0)`;
  return `${head}; user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone, or AppArmor's kernel.apparmor_restrict_unprivileged_userns)`;
}

/**
 * Whether bubblewrap's refusal (`why`, its first line of stderr) means the user-namespace limit
 * is reached (ENOSPC, or EAGAIN/EUSERS from older kernels) on a machine whose limit is not 0,
 * rather than that this machine has no user namespaces. The limit counts every process of the
 * user, so a server sandboxed elsewhere (another toolgate run, a proxy) can fill it and hold it:
 * were that a reason to run unsandboxed, any server could make the next one run so. A limit of 0 is user namespaces switched off, as `unprivileged_userns_clone` is.
 * Exported for tests (`read` stands for /proc).
 */
export function namespacesExhausted(why: string, read: (path: string) => string | undefined): boolean {
  if (!/ENOSPC|No space left on device|EAGAIN|Resource temporarily unavailable|EUSERS|Too many users/.test(why)) return false;
  return read('/proc/sys/user/max_user_namespaces') !== '0';
}
