/**
 * Child processes toolgate starts (stdio servers, HTTP sources' start commands): spawned as the
 * leader of their own process group, a tail of their output kept, the whole group ended, and what
 * left the group but carries the run's marker found and killed (escape-scan.ts).
 *
 * Why not the SDK's `StdioClientTransport`: its `close()` signals only the direct child, so a
 * server behind `sh -c` or `npx` leaves orphans (docs/design.md §14). So toolgate spawns itself
 * and puts its own transport (sources/mcp-process.ts) over the pipes.
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import type { CommandSpec } from '../../config/source-config.js';
import { onInterrupt } from '../../util/cleanup.js';
import { SourceError } from '../source-error.js';
import { findMarked, killMarked, sweepMarked, type MarkedProcess } from './escape-scan.js';

/** Bytes of stderr kept for messages (docs/design.md §9). */
export const STDERR_TAIL_BYTES = 4096;
/** Time between SIGTERM and SIGKILL to the process group (ms). */
export const KILL_GRACE_MS = 1000;

/** How a process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** Formats `command arg1 arg2` for messages, shortened to a sane length. */
export function describeCommand(spec: Pick<CommandSpec, 'command' | 'args'>): string {
  const quote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : JSON.stringify(s));
  const text = [spec.command, ...spec.args].map(quote).join(' ');
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}

/** Keeps the last `max` bytes written to it. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly max = STDERR_TAIL_BYTES) {}
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size - (this.chunks[0]?.length ?? 0) >= this.max && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
  }
  /** The tail as text (a multi-byte character cut at the start shows as U+FFFD). */
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.length - this.max)).toString('utf8');
  }
}

/**
 * A spawned server process, leader of its own process group (POSIX `detached`), so that
 * {@link ServerProcess.stop} can signal every descendant at once.
 */
export class ServerProcess {
  /** Resolves when the direct child has exited. */
  readonly exited: Promise<ExitInfo>;
  /** Set once the direct child has exited. */
  exitInfo: ExitInfo | undefined;
  private readonly tail: TailBuffer;
  private stopping: Promise<void> | undefined;
  private unregister: () => void = () => undefined;
  /** The run marker every process of this server inherits (escape-scan.ts), if any. */
  private marker: string | undefined;
  /** Set by {@link stop}: processes that carried the marker and outlived the group (now killed). */
  escaped: MarkedProcess[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly pid: number,
    readonly description: string,
    tailOfStdout: boolean,
  ) {
    this.tail = new TailBuffer();
    child.stderr?.on('data', (c: Buffer) => this.tail.push(c));
    if (tailOfStdout) child.stdout?.on('data', (c: Buffer) => this.tail.push(c));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        const done = () => {
          this.exitInfo = { code, signal };
          resolve(this.exitInfo);
        };
        // 'exit' can come before the last stderr chunk (the server's last words, shown in the
        // finding); wait for stderr to close, briefly, since a grandchild may hold it open.
        const err = child.stderr;
        if (!err || err.readableEnded || err.destroyed) return done();
        const timer = setTimeout(done, 200);
        err.once('close', () => {
          clearTimeout(timer);
          done();
        });
      });
    });
    // A write to a dead child's stdin raises EPIPE on the stream; the transport reports it.
    child.stdin?.on('error', () => undefined);
  }

  /**
   * Spawns `spec` with exactly `env`.
   *
   * @param options.stdio `'pipe'` for a stdio server (stdin/stdout carry JSON-RPC); `'log'` for an
   *   HTTP server's start command (stdin closed, stdout kept in the tail with stderr).
   * @param options.infoFd a fourth pipe, the child's fd 3 (`child.stdio[3]`): where bwrap's
   *   `--info-fd 3` reports the sandbox it made (index.ts).
   * @throws SourceError `spawn-failed` when the command cannot be started (not found, not
   *   executable, bad `cwd`).
   */
  static async spawn(
    spec: CommandSpec,
    env: Record<string, string>,
    options: { stdio: 'pipe' | 'log'; describeAs?: CommandSpec; marker?: string; infoFd?: boolean },
  ): Promise<ServerProcess> {
    const description = describeCommand(options.describeAs ?? spec);
    let cwdOk: boolean;
    try {
      cwdOk = statSync(spec.cwd).isDirectory();
    } catch {
      cwdOk = false;
    }
    if (!cwdOk) {
      throw new SourceError(
        `could not start MCP server \`${description}\`: working directory ${spec.cwd} does not exist or is not a directory; fix \`cwd\` in the source config`,
        'spawn-failed',
      );
    }
    const child = spawn(spec.command, spec.args, {
      cwd: spec.cwd,
      env,
      // Own process group on POSIX so the group can be signalled as a whole. On Windows
      // `detached` would open a console; there we end the tree with `taskkill /T`.
      detached: process.platform !== 'win32',
      stdio: [options.stdio === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(options.infoFd ? (['pipe'] as const) : [])],
      windowsHide: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err: NodeJS.ErrnoException) => reject(spawnFailed(options.describeAs ?? spec, err.code, err)));
    });
    const proc = new ServerProcess(child, child.pid!, description, options.stdio === 'log');
    proc.marker = options.marker;
    // Interrupted before stop(): end the whole group at once, nothing may outlive toolgate.
    // SIGKILL is delivered when the target is next scheduled, so wait (bounded) until it has
    // died before toolgate itself exits. Marked processes in other groups or sessions too.
    proc.unregister = onInterrupt(() => {
      signalGroup(proc.pid, 'SIGKILL');
      if (proc.marker) killMarked(findMarked(proc.marker));
      waitGroupGoneSync(proc.pid, INTERRUPT_WAIT_MS);
    });
    return proc;
  }

  /** Last bytes of stderr (and, for start commands, stdout). */
  stderrTail(): string {
    return this.tail.text();
  }

  /** Waits up to `ms` for the direct child to exit; returns its exit info if it did. */
  async waitExit(ms: number): Promise<ExitInfo | undefined> {
    if (this.exitInfo) return this.exitInfo;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), ms)));
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Ends the whole process group: close stdin, SIGTERM to the group, SIGKILL after
   * {@link KILL_GRACE_MS} if any member is still alive, then wait (bounded) until none is.
   * Idempotent; never throws.
   */
  stop(graceMs = KILL_GRACE_MS): Promise<void> {
    this.stopping ??= this.doStop(graceMs)
      .catch(() => undefined)
      .finally(() => this.unregister());
    return this.stopping;
  }

  private async doStop(graceMs: number): Promise<void> {
    this.child.stdin?.end();
    if (process.platform === 'win32') {
      if (this.exitInfo) return;
      spawn('taskkill', ['/pid', String(this.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
      await this.waitExit(graceMs * 2);
      return;
    }
    signalGroup(this.pid, 'SIGTERM');
    // The direct child's exit wakes this at once (most servers die within a few ms of SIGTERM);
    // what is left of its group, if anything, is then polled.
    const started = Date.now();
    await this.waitExit(graceMs);
    if (!(await waitGroupGone(this.pid, Math.max(0, graceMs - (Date.now() - started))))) {
      signalGroup(this.pid, 'SIGKILL');
      await waitGroupGone(this.pid, graceMs);
    }
    destroyPipes(this.child);
    // What left the group (a new session, a double fork) but still carries the run's marker.
    if (this.marker) this.escaped = await sweepMarked(this.marker);
  }
}

/**
 * The `spawn-failed` error for `spec` (as the user configured it) and an errno code: ENOENT
 * (not found), EACCES (not executable), else the cause's message.
 */
export function spawnFailed(spec: CommandSpec, code: string | undefined, cause?: Error): SourceError {
  const hint =
    code === 'ENOENT'
      ? `command not found; check that \`${spec.command}\` is installed and on PATH (the server gets toolgate's PATH) or give an absolute path, and that cwd ${spec.cwd} is right`
      : code === 'EACCES'
        ? `permission denied; check that \`${spec.command}\` is executable`
        : (cause?.message ?? String(code));
  return new SourceError(`could not start MCP server \`${describeCommand(spec)}\`: ${hint}`, 'spawn-failed', undefined, cause ? { cause } : undefined);
}

/**
 * Where `command` would be found by `execvp` with `PATH` from `cwd`, or the errno code it would
 * fail with (ENOENT, EACCES). A command started through the sandbox is looked up here first, so
 * a typo is still `spawn-failed` rather than the sandbox's own exit.
 */
export function lookupCommand(command: string, path: string | undefined, cwd: string): { found: string } | { code: 'ENOENT' | 'EACCES' } {
  const candidates = command.includes('/')
    ? [resolvePath(cwd, command)]
    : (path ?? '')
        .split(':')
        .filter(Boolean)
        .map((d) => join(resolvePath(cwd, d), command));
  let denied = false;
  for (const file of candidates) {
    try {
      if (!statSync(file).isFile()) continue;
      accessSync(file, constants.X_OK);
      return { found: file };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EACCES') denied = true;
    }
  }
  return { code: denied ? 'EACCES' : 'ENOENT' };
}

function destroyPipes(child: ChildProcess): void {
  for (const stream of child.stdio) stream?.destroy();
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/**
 * True when some process of group `pgid` is still alive. Zombies do not count: an orphaned
 * grandchild is reaped by init, and where init does not reap (some containers) its zombie is
 * harmless but still answers `kill(0)`.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  if (process.platform !== 'linux') return true;
  try {
    return livePidsInGroup(pgid).length > 0;
  } catch {
    return true;
  }
}

/** Live (non-zombie) pids of process group `pgid`, from Linux `/proc` ([] elsewhere). */
export function livePidsInGroup(pgid: number): number[] {
  if (process.platform !== 'linux') return [];
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the parenthesised command name: state ppid pgrp ...
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(rest[2]) === pgid && rest[0] !== 'Z' && rest[0] !== 'X') out.push(Number(entry));
  }
  return out;
}

/** Longest wait for a SIGKILLed group to die while toolgate is being interrupted (ms). */
const INTERRUPT_WAIT_MS = 3000;

/** Synchronous {@link waitGroupGone}, for signal handlers that exit right after (sleeps via Atomics.wait). */
function waitGroupGoneSync(pgid: number, ms: number): boolean {
  const end = Date.now() + ms;
  const cell = new Int32Array(new SharedArrayBuffer(4));
  while (groupAlive(pgid)) {
    if (Date.now() >= end) return false;
    Atomics.wait(cell, 0, 0, 10);
  }
  return true;
}

async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  for (let delay = 1; ; delay = Math.min(delay * 2, 50)) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}
