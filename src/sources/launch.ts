/**
 * Starting a server's process: the scratch `HOME`, the minimal environment, the run marker and the
 * sandbox (docs/design.md §9), for a stdio server or an HTTP source's `start` command; and the early start
 * (issue 18): the CLI starts the first stdio server as soon as the policy is read, so the server
 * boots while the rest of toolgate loads, and the snapshot adopts that process.
 *
 * This module loads no MCP SDK code (the SDK and Zod are most of what toolgate loads): it must be
 * cheap to reach before the server starts.
 * @module
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { CommandSpec, McpCommon, McpStdioConfig } from '../config/source-config.js';
import { SourceError } from './source-error.js';
import { buildChildEnv, makeScratchHome, type ScratchHome } from './mcp-env.js';
import { describeCommand, lookupCommand, ServerProcess, spawnFailed } from './mcp-process.js';
import { expectedSandbox, MARKER_NAME, newMarker, SandboxRefusal, sandboxedCommand, sandboxSupportAsync, sandboxWorked } from './sandbox.js';
import { DEFAULT_CONTAINMENT } from '../config/source-config.js';
import type { SandboxUse } from './types.js';
import { mark } from '../util/timing.js';
import { unreadableInEtc } from './launch/mounts.js';
import { homeDirectories } from './launch/install-dirs.js';

/**
 * What a start made, filled in as it goes, so that whoever owns it can clean up after a failure
 * part-way: a scratch home without a process, or a refused sandbox recorded for the report.
 */
export interface Launch {
  home?: ScratchHome;
  proc?: ServerProcess;
  /** How the command ran: in the sandbox, or not and why. */
  sandbox?: SandboxUse;
  /**
   * Set for a start in bubblewrap before anything asked whether it can make namespaces here:
   * whether bwrap reported the sandbox's first process, i.e. made the namespaces (see
   * {@link failedForWantOfSandbox}).
   */
  namespacesMade?: Promise<boolean>;
}

/**
 * Starts `spec` (a stdio server, or an HTTP `start` command) with the minimal environment, the
 * launch's scratch HOME and a fresh run marker, in the sandbox unless the machine has none or the
 * source turns it off (sources/sandbox.ts); records which on `into.sandbox`. Where nothing has yet
 * asked whether bwrap can make namespaces here, the command starts in it all the same and
 * `into.namespacesMade` is set: a caller that can start it again asks
 * {@link failedForWantOfSandbox} when the start fails; one that cannot (the proxy) awaits
 * `sandboxSupportAsync()` first. An HTTP start command keeps the host's network: its port must be
 * reachable from toolgate.
 * @param into a launch whose `home` is set.
 * @throws SourceError `spawn-failed`: command not found, refused by the sandbox, bad cwd, a
 *   start command that needs the network the base branch's policy does not give it yet, or a
 *   sandbox with no user namespaces left now (`exhausted`: never a reason to run unsandboxed).
 */
export async function startContained(spec: CommandSpec, cfg: McpCommon, into: Launch, root: string, stdio: 'pipe' | 'log'): Promise<ServerProcess> {
  const containment = cfg.containment ?? DEFAULT_CONTAINMENT;
  const marker = newMarker();
  const env: Record<string, string> = { ...buildChildEnv({ names: spec.env, source: process.env, home: into.home!.path }), [MARKER_NAME]: marker };
  const support = expectedSandbox();
  let launched = spec;
  if (containment.sandbox === 'off') into.sandbox = { sandboxed: false, reason: 'the source sets `sandbox: off`' };
  else if (!support.available) {
    // A sandbox that works here but has no namespaces left now: fail closed.
    if (support.exhausted)
      throw new SourceError(
        `could not start ${stdio === 'log' ? 'start command' : 'MCP server'} \`${describeCommand(spec)}\` in the sandbox: ${support.reason}`,
        'spawn-failed',
      );
    into.sandbox = { sandboxed: false, reason: support.reason };
  } else {
    // Looked up here, as the spawn would: inside the sandbox a missing command is bwrap's exit.
    // (A working directory that does not exist is the spawn's to report, as without the sandbox.)
    const found = existsSync(spec.cwd) ? lookupCommand(spec.command, env.PATH, spec.cwd) : { found: spec.command };
    if ('code' in found) throw spawnFailed(spec, found.code);
    if (stdio === 'log' && containment.startNetwork === false && containment.network !== 'open') {
      throw new SourceError(
        `start command \`${describeCommand(spec)}\` was not run: it needs the host's network (toolgate connects to its port), and the base branch's policy does not run it yet; merge the policy change that adds it first, or give the source \`network: open\` there`,
        'spawn-failed',
      );
    }
    const network = stdio === 'log' ? 'open' : containment.network;
    // npm retries a failed fetch for about a minute (two retries, backing off up to 60 s); with
    // loopback only, no fetch can succeed, so `npx -y` without its package cached fails at once.
    // Said in the scratch HOME's .npmrc (npm's user config), not in the server's environment.
    if (network === 'loopback') writeFileSync(join(into.home!.path, '.npmrc'), 'fetch-retries=0\n');
    try {
      const place = {
        root,
        home: into.home!.path,
        env: process.env,
        childEnv: env,
        homes: homeDirectories(process.env),
        ...(process.getuid?.() === 0 ? { etcHidden: etcHiddenFromRoot() } : {}),
        ...('untried' in support ? { infoFd: INFO_FD } : {}),
      };
      launched = sandboxedCommand(support.bwrap, spec, { ...containment, network }, place);
    } catch (e) {
      if (e instanceof SandboxRefusal)
        throw new SourceError(
          `could not start ${stdio === 'log' ? 'start command' : 'MCP server'} \`${describeCommand(spec)}\` in the sandbox: ${e.message}`,
          'spawn-failed',
        );
      throw e;
    }
    into.sandbox = { sandboxed: true, network };
    if ('untried' in support) {
      const proc = await ServerProcess.spawn(launched, env, { stdio, describeAs: spec, marker, infoFd: true });
      into.namespacesMade = namespacesReported(proc, support.bwrap);
      return proc;
    }
  }
  return ServerProcess.spawn(launched, env, { stdio, describeAs: spec, marker });
}

let etcHidden: string[] | undefined;
/** {@link unreadableInEtc}, once per process. */
function etcHiddenFromRoot(): string[] {
  return (etcHidden ??= unreadableInEtc());
}

/** The child's fd where bwrap reports the sandbox it made (`--info-fd`): the fourth pipe. */
const INFO_FD = 3;

/**
 * Whether bwrap reports the sandbox's first process on {@link INFO_FD}: it writes
 * `{"child-pid": N, ...}` right after `clone()` made the namespaces, before any of the command
 * runs, and dies without a word when the kernel refuses them. Once reported, the namespaces are
 * known to work here for the rest of the run (`sandboxWorked`).
 */
function namespacesReported(proc: ServerProcess, bwrap: string): Promise<boolean> {
  const info = proc.child.stdio[INFO_FD] as Readable | null | undefined;
  if (!info) return Promise.resolve(false);
  return new Promise((resolve) => {
    let text = '';
    info.setEncoding('utf8');
    info.on('data', (chunk: string) => {
      if (text.length > 4096) return;
      text += chunk;
      if (!/"child-pid"\s*:\s*\d/.test(text)) return;
      sandboxWorked(bwrap);
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
 * it ran in an untried sandbox ({@link startContained}), its process has ended, bwrap never
 * reported the sandbox's first process (so none of the command ran), and the probe, asked now,
 * says no. The probe's verdict is kept, so the caller's next start runs unsandboxed and is
 * reported as such (`server-unsandboxed`), as when the probe had run first. Any other failure is
 * the server's own (or its sandbox setup's): the caller reports it.
 *
 * Why the report decides, not the probe alone (attacker review): a server's code that ran in
 * the sandbox can make a later probe fail, by holding every user namespace the kernel allows
 * while it exits; the probe would then blame the machine and the server would run again,
 * unsandboxed. A start whose namespaces were made is never a reason to run without them.
 */
export async function failedForWantOfSandbox(l: Launch): Promise<boolean> {
  if (!l.namespacesMade || !l.proc) return false;
  if ((await l.proc.waitExit(250)) === undefined) return false;
  // The process has ended, so bwrap's end of the pipe has closed; a report that never settles
  // (it cannot) counts as one: no second start without the sandbox.
  const made = await Promise.race([l.namespacesMade, new Promise<boolean>((r) => setTimeout(() => r(true), 1000).unref())]);
  if (made) return false;
  return !(await sandboxSupportAsync()).available;
}

/**
 * Starts a stdio server: a scratch HOME, then {@link startContained}. Fills `into` as it goes; on
 * a failure the caller disposes what `into` holds.
 * @throws SourceError `spawn-failed` (see {@link startContained}).
 */
export async function launchStdio(cfg: McpStdioConfig & McpCommon, root: string, into: Launch): Promise<void> {
  into.home = await makeScratchHome();
  into.proc = await startContained(cfg, cfg, into, root, 'pipe');
  mark('server spawned');
}

/** A server started before its snapshot asked for it (see {@link startEarly}). */
export interface EarlyLaunch {
  cfg: McpStdioConfig & McpCommon;
  root: string;
  /** `performance.now()` when it was started: start-up time limits count from here. */
  at: number;
  into: Launch;
  /** Settles when the start did; rejects as {@link launchStdio} would. */
  started: Promise<void>;
}

let early: EarlyLaunch | undefined;

/**
 * Starts a stdio server now, for the snapshot of the same source config to adopt
 * ({@link takeEarly}): the server then boots while toolgate loads its pipeline (issue 18). Call it
 * only once everything that must be checked before any server of the run starts has been checked
 * (the policy read and valid, the sources selected, `sandbox: required` met, no runner secret
 * passed on), and only when the policy read is the one that will run the server (never while a
 * base branch's policy judges: that policy decides how the server is contained). One at a time;
 * a second call ends the first. Resolves once the process is spawned; never rejects.
 */
export function startEarly(cfg: McpStdioConfig & McpCommon, root: string): Promise<void> {
  void discardEarly();
  const into: Launch = {};
  const started = launchStdio(cfg, root, into);
  early = { cfg, root, at: performance.now(), into, started };
  // Settles once the process is spawned (or its start failed: the snapshot that adopts it says
  // why; one that is never adopted is only cleaned up). Await it before loading anything heavy:
  // on Node 22+ an import() can run to its end without letting the spawn's own callbacks in.
  return started.catch(() => undefined);
}

/**
 * The early launch for exactly this source config (the same object: the same policy read) and
 * root, handed over once; undefined when there is none or it was for something else (which is
 * then ended).
 */
export function takeEarly(cfg: McpStdioConfig & McpCommon, root: string): EarlyLaunch | undefined {
  const found = early;
  if (!found) return undefined;
  early = undefined;
  if (found.cfg === cfg && found.root === root) return found;
  void endLaunch(found);
  return undefined;
}

/** Ends an early launch nobody adopted (a run that stopped before its snapshot). Idempotent. */
export async function discardEarly(): Promise<void> {
  const found = early;
  early = undefined;
  if (found) await endLaunch(found);
}

async function endLaunch(l: EarlyLaunch): Promise<void> {
  await l.started.catch(() => undefined);
  await l.into.proc?.stop();
  await l.into.home?.dispose();
}
