/**
 * The sandbox a server under test runs in (issue 12; used for stdio servers and HTTP sources'
 * `start` commands, and meant for `toolgate proxy`).
 *
 * Linux with bubblewrap (`bwrap`, the sandbox Flatpak uses; Debian/Ubuntu package `bubblewrap`):
 * the command runs in new user, PID, network, IPC, UTS and cgroup namespaces, so
 * - every process it starts dies with it: the PID namespace ends when its first process does,
 *   whatever sessions or groups its processes made (`setsid`, double forks), and bwrap's
 *   `--die-with-parent` ends it when toolgate dies, SIGKILL included;
 * - it sees only its own processes (`/proc` of the namespace): not toolgate's environment;
 * - it has no network but its own loopback (unless the source sets `network: open`);
 * - it sees a file system built from nothing (launch/mounts.ts): the system's directories, the
 *   command's install directories, the repository without its `.git`, the paths the source
 *   names; read-only but for the scratch `HOME`, a private `/tmp` and the `writable` paths.
 *   Nothing else of the home directory, and no unix socket of the host.
 * Why bubblewrap: it is small, maintained, packaged everywhere, works unprivileged where user
 * namespaces are allowed (GitHub's hosted runners), and costs a few ms per start; util-linux
 * `unshare` would make us write the mount setup ourselves, and @anthropic-ai/sandbox-runtime
 * needs Node 22.12 (toolgate supports 20) and is beta.
 *
 * Elsewhere (no bwrap, user namespaces refused, macOS, Windows) the command runs as before and
 * every report says so; escapes are then detected by an environment marker that every process
 * of the server inherits ({@link findMarked}) and ended ({@link killMarked}).
 *
 * @module
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandSpec, Containment } from '../config/source-config.js';
import { mountArgs, systemArgs, type SandboxPlace } from './launch/mounts.js';

export { SandboxRefusal, type SandboxPlace } from './launch/mounts.js';

/**
 * Whether servers can be sandboxed here, and with what. `exhausted`: bubblewrap works here, but
 * the user-namespace limit is reached now (see {@link namespacesExhausted}): no server may start,
 * sandboxed or not.
 */
export type SandboxSupport = { available: true; bwrap: string } | { available: false; reason: string; exhausted?: true };

/**
 * What a start may assume: the verdict when one is known, else bwrap's path with `untried` (it
 * is installed, but whether it can make namespaces here has not been asked).
 */
export type ExpectedSandbox = SandboxSupport | { available: true; bwrap: string; untried: true };

let support: SandboxSupport | undefined;
let probing: Promise<SandboxSupport> | undefined;

/**
 * Whether bubblewrap can make the namespaces here: it runs `true` in the same setup a server
 * gets, once per process (~40 ms). Linux only. Synchronous: for a caller that cannot start a
 * server again unsandboxed (the proxy) and must know before its first start.
 */
export function sandboxSupport(): SandboxSupport {
  if (support) return support;
  const pre = precondition();
  if ('reason' in pre) return (support = pre);
  const r = spawnSync(pre.bwrap, probeArgs(), { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
  return (support = verdict(pre.bwrap, r.status, r.stderr?.toString('utf8') ?? '', r.error));
}

/** {@link sandboxSupport} without blocking: runs the probe (once) and resolves with its verdict. */
export function sandboxSupportAsync(): Promise<SandboxSupport> {
  if (support) return Promise.resolve(support);
  return (probing ??= new Promise<SandboxSupport>((resolve) => {
    const pre = precondition();
    if ('reason' in pre) return resolve(pre);
    const child = spawn(pre.bwrap, probeArgs(), { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('error', (e) => resolve(verdict(pre.bwrap, null, stderr, e)));
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve(verdict(pre.bwrap, code, stderr));
    });
  }).then((s) => (support ??= s)));
}

/**
 * Records that bubblewrap made its namespaces here (a server's start reported its child: see
 * launch.ts): the verdict from then on, so that no later failure of this run is taken for a
 * machine without them.
 */
export function sandboxWorked(bwrap: string): void {
  support ??= { available: true, bwrap };
}

/**
 * What a server's start assumes, without running anything: the known verdict, or what
 * {@link precondition} tells, or `untried` when bwrap is installed. The probe is not run up
 * front (issue 18): beside the policy's read it still cost a run ~38 ms of its ~650, nearly all
 * the sandbox's price per start, and it answers the same as the server's own start in bwrap
 * does. A start in an untried sandbox that ends without bwrap's report of its namespaces asks
 * the probe then (launch.ts `failedForWantOfSandbox`), and is made again unsandboxed only when
 * the probe says this machine has none.
 */
export function expectedSandbox(): ExpectedSandbox {
  if (support) return support;
  const pre = precondition();
  if ('reason' in pre) return (support = pre);
  // Where the kernel's settings make a refusal likely, a failed start and a second one would cost
  // more than the probe (~150 ms against ~40 ms): probe first, as before.
  if (namespacesInDoubt(readProcText)) return sandboxSupport();
  return { available: true, bwrap: pre.bwrap, untried: true };
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

const readProcText = procReader();

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

/** What can be told without running bwrap: unavailable (and why), or where bwrap is. */
function precondition(): { bwrap: string } | { available: false; reason: string } {
  if (process.env.TOOLGATE_SANDBOX_UNAVAILABLE)
    return { available: false, reason: `TOOLGATE_SANDBOX_UNAVAILABLE is set (${process.env.TOOLGATE_SANDBOX_UNAVAILABLE})` };
  if (process.platform !== 'linux') return { available: false, reason: `no sandbox on ${process.platform} (toolgate sandboxes with bubblewrap, on Linux)` };
  const bwrap = findSystemBinary('bwrap');
  if (!bwrap) return { available: false, reason: 'bubblewrap (bwrap) is not installed: `sudo apt-get install bubblewrap`' };
  return { bwrap };
}

const probeArgs = () => [...namespaceArgs('loopback'), ...systemArgs(), '--', 'true'];

function verdict(bwrap: string, status: number | null, stderr: string, error?: Error): SandboxSupport {
  if (status === 0) return { available: true, bwrap };
  const why = stderr.trim().split('\n')[0] || (error ? error.message : `exit ${status}`);
  if (namespacesExhausted(why, readProcText)) {
    return {
      available: false,
      exhausted: true,
      reason: `bubblewrap cannot create namespaces now (${why}): the limit of user namespaces is reached (user.max_user_namespaces, counted over every process of this user), which is no reason to run a server unsandboxed; end what holds them, or raise the limit`,
    };
  }
  return { available: false, reason: refusalReason(why, readProcText) };
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
 * user, so a server sandboxed elsewhere (another toolgate run, a proxy) can fill it and hold it
 * (attacker review): were that a reason to run unsandboxed, any server could make the next one
 * run so. A limit of 0 is user namespaces switched off, as `unprivileged_userns_clone` is.
 * Exported for tests (`read` stands for /proc).
 */
export function namespacesExhausted(why: string, read: (path: string) => string | undefined): boolean {
  if (!/ENOSPC|No space left on device|EAGAIN|Resource temporarily unavailable|EUSERS|Too many users/.test(why)) return false;
  return read('/proc/sys/user/max_user_namespaces') !== '0';
}

/** Forgets the probe. @internal tests switch support on and off through the environment */
export function resetSandboxSupport(): void {
  support = undefined;
  probing = undefined;
}

/**
 * bwrap from the system's own directories only: never from PATH, where a dependency's
 * `node_modules/.bin` (under `npx`) could put a `bwrap` that sandboxes nothing.
 */
function findSystemBinary(name: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin']) {
    const p = join(dir, name);
    try {
      if (statSync(p).isFile()) return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

function namespaceArgs(network: Containment['network']): string[] {
  // --unshare-all: user (where allowed), ipc, pid, net, uts, cgroup. --die-with-parent: the whole
  // namespace goes when toolgate does. --new-session: no terminal to push input into.
  return ['--unshare-all', ...(network === 'open' ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
}

/**
 * `spec` wrapped in bubblewrap: the namespaces of the module comment and the file system of
 * launch/mounts.ts.
 * @throws SandboxRefusal naming the path, when one the source names is refused (see `mountArgs`).
 */
export function sandboxedCommand(bwrap: string, spec: CommandSpec, containment: Containment, place: SandboxPlace): CommandSpec {
  return { ...spec, command: bwrap, args: [...namespaceArgs(containment.network), ...mountArgs(spec, containment, place), spec.command, ...spec.args] };
}

/** Name of the environment variable that marks every process of one server run. */
export const MARKER_NAME = 'TOOLGATE_SERVER_RUN';

/** A fresh marker value for one server run: 96 random bits, in hex. */
export function newMarker(): string {
  return randomHex(12);
}

/**
 * `bytes` bytes from the system's CSPRNG, in hex. On Linux read from /dev/urandom (~0.4 ms): the
 * marker is made on the way to the first server, and loading node:crypto there costs 4-7 ms
 * (issue 18). Elsewhere, or without /dev/urandom, Web Crypto's getRandomValues.
 */
function randomHex(bytes: number): string {
  const buf = Buffer.alloc(bytes);
  let filled = 0;
  if (process.platform === 'linux') {
    try {
      const fd = openSync('/dev/urandom', 'r');
      try {
        while (filled < bytes) {
          const n = readSync(fd, buf, filled, bytes - filled, null);
          if (n <= 0) break;
          filled += n;
        }
      } finally {
        closeSync(fd);
      }
    } catch {
      filled = 0;
    }
  }
  if (filled < bytes) globalThis.crypto.getRandomValues(buf);
  return buf.toString('hex');
}

/** A live process that carries a marker: its pid and command line, for `server-escaped`. */
export interface MarkedProcess {
  pid: number;
  command: string;
}

/**
 * Live processes (not zombies) whose environment holds `MARKER_NAME=marker`, from Linux
 * `/proc` (none elsewhere). A process that replaced its environment (exec with a new one) is not
 * found: the sandbox, not this scan, is what holds.
 */
export function findMarked(marker: string): MarkedProcess[] {
  if (process.platform !== 'linux') return [];
  const wanted = `${MARKER_NAME}=${marker}`;
  const out: MarkedProcess[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const env = readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (!env.includes(wanted) || !env.split('\0').includes(wanted)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      out.push({ pid: Number(entry), command });
    } catch {
      // gone, or not ours to read
    }
  }
  return out;
}

/** SIGKILLs each process; returns those it found alive. */
export function killMarked(found: readonly MarkedProcess[]): MarkedProcess[] {
  return found.filter((p) => {
    try {
      process.kill(p.pid, 'SIGKILL');
      return true;
    } catch {
      return false;
    }
  });
}
