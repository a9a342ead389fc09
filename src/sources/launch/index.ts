/**
 * The one place toolgate starts untrusted processes: a stdio MCP server or an HTTP source's
 * `start` command, for a snapshot, the proxy or the early start (docs/design.md §9). One entry,
 * {@link Launcher.start}`(spec, containment, role)`, does everything a start needs: the scratch
 * `HOME` and the minimal environment (env.ts), the run marker (escape-scan.ts), the sandbox
 * (bwrap.ts, mounts.ts) as the run's {@link SandboxState} allows, and the spawn in an own process
 * group (process.ts). Its result is a value, started or not, with the same diagnostics either way.
 *
 * The early start (a handle, {@link EarlyStart}): the CLI starts the first stdio server as soon as
 * the policy is read, so the server boots while the rest of toolgate loads, and the snapshot of the
 * same source config takes that process.
 *
 * This module loads no MCP SDK code (the SDK and Zod are most of what toolgate loads): it must be
 * cheap to reach before the server starts.
 * @module
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { DEFAULT_CONTAINMENT, type CommandSpec, type Containment, type McpCommon, type McpStdioConfig } from '../../config/source-config.js';
import { mark } from '../../util/timing.js';
import { SourceError } from '../source-error.js';
import type { SandboxUse } from '../types.js';
import { sandboxedCommand } from './bwrap.js';
import { buildChildEnv, makeScratchHome, type ScratchHome } from './env.js';
import { MARKER_NAME, newMarker } from './escape-scan.js';
import { homeDirectories } from './install-dirs.js';
import { SandboxRefusal } from './mounts.js';
import { describeCommand, lookupCommand, ServerProcess, spawnFailed } from './process.js';
import { SandboxState } from './state.js';

/**
 * What a started process is for, and what follows from it: how its pipes are used, what the
 * messages call it, and its network in the sandbox.
 * - `stdio-server`: JSON-RPC on stdin/stdout; the network its source gives it (`loopback` unless
 *   `network: open`).
 * - `http-start`: an HTTP source's start command; stdin closed, stdout kept with stderr; the
 *   host's network, since toolgate connects to its port from outside the sandbox (so one the base
 *   branch does not run yet is not started at all).
 */
export const ROLES = {
  'stdio-server': { stdio: 'pipe', what: 'MCP server', network: (c: Containment) => c.network },
  'http-start': { stdio: 'log', what: 'start command', network: (_: Containment) => 'open' as const },
} as const;
export type Role = keyof typeof ROLES;

/** A command to start, and the repository it belongs to (toolgate.yml's directory). */
export interface LaunchSpec extends CommandSpec {
  root: string;
}

/** What is known of a start, started or not: how it ran (in the sandbox, or not and why). */
export interface LaunchDiagnostics {
  sandbox?: SandboxUse;
}

/** A started process, its scratch HOME (the caller ends both: `proc.stop()`, `home.dispose()`). */
export interface Launched {
  ok: true;
  proc: ServerProcess;
  home: ScratchHome;
  diagnostics: LaunchDiagnostics;
  /**
   * Set for a start in bubblewrap before anything asked whether it can make namespaces here:
   * whether bwrap reported the sandbox's first process (see {@link Launcher.failedForWantOfSandbox}).
   */
  namespacesMade?: Promise<boolean>;
}

/** A start that did not happen (nothing is left running, no HOME is left behind). */
export interface NotLaunched {
  ok: false;
  /** `spawn-failed`: not found, refused by the sandbox, a bad cwd, no namespaces left now. */
  error: SourceError;
  diagnostics: LaunchDiagnostics;
}

export type Launch = Launched | NotLaunched;

/** A server started before its snapshot asked for it (see {@link Launcher.startEarly}). */
export interface EarlyStart {
  cfg: McpStdioConfig & McpCommon;
  root: string;
  /** `performance.now()` when it was started: start-up time limits count from here. */
  at: number;
  /** Settles once the process is spawned, or its start failed. */
  launch: Promise<Launch>;
}

/** The child's fd where bwrap reports the sandbox it made (`--info-fd`): the fourth pipe. */
const INFO_FD = 3;

/** Starts processes for one run, with the run's sandbox state and its early start. */
export class Launcher {
  private early: EarlyStart | undefined;

  constructor(readonly sandbox: SandboxState = new SandboxState()) {}

  /**
   * Starts `spec` for `role` with the minimal environment, a fresh scratch HOME and run marker, in
   * the sandbox unless the machine has none or the source turns it off (reported in
   * `diagnostics.sandbox`). Where nothing has yet asked whether bwrap can make namespaces here,
   * the command starts in it all the same and `namespacesMade` is set: a caller that can start it
   * again asks {@link failedForWantOfSandbox} when its start fails; one that cannot (the proxy)
   * awaits `sandbox.supportAsync()` first. Never rejects for the command's sake.
   */
  async start(spec: LaunchSpec, containment: Containment | undefined, role: Role): Promise<Launch> {
    const home = await makeScratchHome();
    const diagnostics: LaunchDiagnostics = {};
    try {
      const started = await this.spawnContained(spec, containment ?? DEFAULT_CONTAINMENT, role, home, diagnostics);
      mark(role === 'stdio-server' ? 'server spawned' : 'start command spawned');
      return { ok: true, home, diagnostics, ...started };
    } catch (e) {
      await home.dispose();
      if (e instanceof SourceError) return { ok: false, error: e, diagnostics };
      throw e;
    }
  }

  /** {@link start}'s work after the HOME: decide the sandbox, wrap the command, spawn. @throws SourceError */
  private async spawnContained(
    spec: LaunchSpec,
    containment: Containment,
    role: Role,
    home: ScratchHome,
    diagnostics: LaunchDiagnostics,
  ): Promise<{ proc: ServerProcess; namespacesMade?: Promise<boolean> }> {
    const { stdio, what } = ROLES[role];
    const marker = newMarker();
    const env: Record<string, string> = { ...buildChildEnv({ names: spec.env, source: process.env, home: home.path }), [MARKER_NAME]: marker };
    const refused = (why: string) => new SourceError(`could not start ${what} \`${describeCommand(spec)}\` in the sandbox: ${why}`, 'spawn-failed');
    const support = this.sandbox.expected();
    if (containment.sandbox === 'off') diagnostics.sandbox = { sandboxed: false, reason: 'the source sets `sandbox: off`' };
    else if (!support.available) {
      // A sandbox that works here but has no namespaces left now: fail closed.
      if (support.exhausted) throw refused(support.reason);
      diagnostics.sandbox = { sandboxed: false, reason: support.reason };
    } else {
      // Looked up here, as the spawn would: inside the sandbox a missing command is bwrap's exit.
      // (A working directory that does not exist is the spawn's to report, as without the sandbox.)
      const found = existsSync(spec.cwd) ? lookupCommand(spec.command, env.PATH, spec.cwd) : { found: spec.command };
      if ('code' in found) throw spawnFailed(spec, found.code);
      const network = ROLES[role].network(containment);
      if (role === 'http-start' && containment.startNetwork === false && containment.network !== 'open') {
        throw new SourceError(
          `start command \`${describeCommand(spec)}\` was not run: it needs the host's network (toolgate connects to its port), and the base branch's policy does not run it yet; merge the policy change that adds it first, or give the source \`network: open\` there`,
          'spawn-failed',
        );
      }
      // npm retries a failed fetch for about a minute (two retries, backing off up to 60 s); with
      // loopback only, no fetch can succeed, so `npx -y` without its package cached fails at once.
      // Said in the scratch HOME's .npmrc (npm's user config), not in the server's environment.
      if (network === 'loopback') writeFileSync(join(home.path, '.npmrc'), 'fetch-retries=0\n');
      const untried = 'untried' in support;
      let launched: CommandSpec;
      try {
        launched = sandboxedCommand(support.bwrap, spec, { ...containment, network }, this.place(spec.root, home, env, untried));
      } catch (e) {
        if (e instanceof SandboxRefusal) throw refused(e.message);
        throw e;
      }
      diagnostics.sandbox = { sandboxed: true, network };
      const proc = await ServerProcess.spawn(launched, env, { stdio, describeAs: spec, marker, infoFd: untried });
      return untried ? { proc, namespacesMade: this.namespacesReported(proc, support.bwrap) } : { proc };
    }
    return { proc: await ServerProcess.spawn(spec, env, { stdio, describeAs: spec, marker }) };
  }

  /** Where a sandboxed command runs and what it may touch (mounts.ts). */
  private place(root: string, home: ScratchHome, childEnv: Record<string, string>, untried: boolean) {
    return {
      root,
      home: home.path,
      env: process.env,
      childEnv,
      homes: homeDirectories(process.env),
      ...(process.getuid?.() === 0 ? { rootOnly: this.sandbox.rootOnly() } : {}),
      ...(untried ? { infoFd: INFO_FD } : {}),
    };
  }

  /**
   * Whether bwrap reports the sandbox's first process on {@link INFO_FD}: it writes
   * `{"child-pid": N, ...}` right after `clone()` made the namespaces, before any of the command
   * runs, and dies without a word when the kernel refuses them. Once reported, the state moves to
   * `works` for the rest of the run.
   */
  private namespacesReported(proc: ServerProcess, bwrap: string): Promise<boolean> {
    const info = proc.child.stdio[INFO_FD] as Readable | null | undefined;
    if (!info) return Promise.resolve(false);
    return new Promise((resolve) => {
      let text = '';
      info.setEncoding('utf8');
      info.on('data', (chunk: string) => {
        if (text.length > 4096) return;
        text += chunk;
        if (!/"child-pid"\s*:\s*\d/.test(text)) return;
        this.sandbox.worked(bwrap);
        resolve(true);
      });
      // After a report these change nothing (a promise settles once).
      info.once('end', () => resolve(false));
      info.once('close', () => resolve(false));
      info.once('error', () => resolve(false));
    });
  }

  /**
   * Whether a start that failed failed because bubblewrap cannot make namespaces on this machine:
   * it ran in an untried sandbox, its process has ended, bwrap never reported the sandbox's first
   * process (so none of the command ran), and the probe, asked now, says no. The state keeps the
   * probe's verdict, so the caller's next start runs unsandboxed and is reported as such
   * (`server-unsandboxed`). Any other failure is the server's own: the caller reports it.
   *
   * Why the report decides, not the probe alone: a server's code that ran in the sandbox can make
   * a later probe fail, by holding every user namespace the kernel allows while it exits; the
   * probe would then blame the machine and the server would run again, unsandboxed. A start whose
   * namespaces were made is never a reason to run without them.
   */
  async failedForWantOfSandbox(l: { proc?: ServerProcess; namespacesMade?: Promise<boolean> } | undefined): Promise<boolean> {
    if (!l?.namespacesMade || !l.proc) return false;
    if ((await l.proc.waitExit(250)) === undefined) return false;
    // The process has ended, so bwrap's end of the pipe has closed; a report that never settles
    // (it cannot) counts as one: no second start without the sandbox.
    const made = await Promise.race([l.namespacesMade, new Promise<boolean>((r) => setTimeout(() => r(true), 1000).unref())]);
    if (made) return false;
    return !(await this.sandbox.supportAsync()).available;
  }

  /**
   * Starts a stdio server now, for the snapshot of the same source config to take
   * ({@link takeEarly}): the server then boots while toolgate loads its pipeline. Call it only
   * once everything that must be checked before any server of the run starts has been checked
   * (the policy read and valid, the sources selected, `sandbox: required` met, no runner secret
   * passed on), and only with the policy that will run the server (never while a base branch's
   * policy judges: that policy decides how the server is contained). One at a time; a second call
   * ends the first. Resolves once the process is spawned or its start failed; never rejects.
   */
  async startEarly(cfg: McpStdioConfig & McpCommon, root: string): Promise<void> {
    void this.discardEarly();
    const launch = this.start({ ...cfg, root }, cfg.containment, 'stdio-server');
    this.early = { cfg, root, at: performance.now(), launch };
    // Await it before loading anything heavy: on Node 22+ an import() can run to its end without
    // letting the spawn's own callbacks in.
    await launch;
  }

  /**
   * The early start for exactly this source config (the same object: the same policy read) and
   * root, handed over once; undefined when there is none or it was for something else (which is
   * then ended).
   */
  takeEarly(cfg: McpStdioConfig & McpCommon, root: string): EarlyStart | undefined {
    const found = this.early;
    this.early = undefined;
    if (!found) return undefined;
    if (found.cfg === cfg && found.root === root) return found;
    void endEarly(found);
    return undefined;
  }

  /** Ends an early start nobody took (a run that stopped before its snapshot). Idempotent. */
  async discardEarly(): Promise<void> {
    const found = this.early;
    this.early = undefined;
    if (found) await endEarly(found);
  }
}

async function endEarly(e: EarlyStart): Promise<void> {
  const l = await e.launch;
  if (!l.ok) return;
  await l.proc.stop();
  await l.home.dispose();
}
