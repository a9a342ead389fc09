/**
 * Child processes for MCP sources: spawn in an own process group, keep a stderr tail, end the
 * whole group. Used for stdio servers and for the `start` command of HTTP servers.
 *
 * Why not the SDK's `StdioClientTransport`: its `close()` signals only the direct child, so a
 * server behind `sh -c` or `npx` leaves orphans (DESIGN §9); it silently drops non-JSON stdout
 * lines, which we count as a hygiene signal; and we want a hard per-line byte cap that fails as
 * `byte-cap`. So we spawn ourselves and put a small {@link ProcessStdioTransport} (the SDK's
 * `Transport` interface) over the pipes.
 */
import { onInterrupt } from '../util/cleanup.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { CommandSpec } from '../config/source-config.js';
import { SourceError, type SourceFailure } from '../util/errors.js';

/** Bytes of stderr kept for messages (DESIGN: "last 4 KiB"). */
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
   * @throws SourceError `spawn-failed` when the command cannot be started (not found, not
   *   executable, bad `cwd`).
   */
  static async spawn(
    spec: CommandSpec,
    env: Record<string, string>,
    options: { stdio: 'pipe' | 'log' },
  ): Promise<ServerProcess> {
    const description = describeCommand(spec);
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
      stdio: [options.stdio === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err: NodeJS.ErrnoException) => {
        const hint =
          err.code === 'ENOENT'
            ? `command not found; check that \`${spec.command}\` is installed and on PATH (the server gets toolgate's PATH) or give an absolute path, and that cwd ${spec.cwd} is right`
            : err.code === 'EACCES'
              ? `permission denied; check that \`${spec.command}\` is executable`
              : err.message;
        reject(new SourceError(`could not start MCP server \`${description}\`: ${hint}`, 'spawn-failed', undefined, { cause: err }));
      });
    });
    const proc = new ServerProcess(child, child.pid!, description, options.stdio === 'log');
    // Interrupted before stop(): end the whole group at once, nothing may outlive toolgate.
    // SIGKILL is delivered when the target is next scheduled, so wait (bounded) until it has
    // died before toolgate itself exits.
    proc.unregister = onInterrupt(() => {
      signalGroup(proc.pid, 'SIGKILL');
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
    if (await waitGroupGone(this.pid, graceMs)) return destroyPipes(this.child);
    signalGroup(this.pid, 'SIGKILL');
    await waitGroupGone(this.pid, graceMs);
    destroyPipes(this.child);
  }
}

function destroyPipes(child: ChildProcess): void {
  child.stdin?.destroy();
  child.stdout?.destroy();
  child.stderr?.destroy();
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
  for (let delay = 5; ; delay = Math.min(delay * 2, 50)) {
    if (!groupAlive(pgid)) return true;
    if (Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, delay));
  }
}

/** A transport-level failure that the snapshot maps to a {@link SourceFailure}. */
export interface TransportFailure {
  reason: SourceFailure;
  message: string;
}

/**
 * MCP stdio transport over a {@link ServerProcess}: newline-delimited JSON-RPC on stdin/stdout.
 *
 * - Lines that are not a JSON-RPC message are counted in {@link noiseLines} (the SDK drops them
 *   silently; they are a hygiene problem, and a banner is the usual cause of a client hang).
 * - A line longer than `maxLineBytes` ends the connection with a `byte-cap` failure before it is
 *   buffered whole, so a 100 MB line cannot exhaust memory.
 *
 * The process is not owned: `close()` detaches, the snapshot ends the process group.
 * `pid` and `stderr` are present so the SDK's version negotiation treats this as a stdio
 * transport (a silent probe means a legacy server, not an outage).
 */
export class ProcessStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  sessionId?: string | undefined;
  /** Non-empty stdout lines that were not JSON-RPC messages. */
  noiseLines = 0;
  /** The first noise line (shortened), for the hygiene note. */
  firstNoiseLine: string | undefined;
  /** Set when the transport gave up (e.g. `byte-cap`). */
  failure: TransportFailure | undefined;
  /** Not piped separately: the process keeps the tail. Present for SDK transport detection. */
  readonly stderr = null;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Requests sent and not yet answered: id → method, to spot malformed answers to them. */
  private readonly inFlight = new Map<string | number, string>();
  private closed = false;
  private started = false;

  constructor(
    private readonly proc: ServerProcess,
    private readonly maxLineBytes: number,
  ) {}

  get pid(): number | null {
    return this.proc.pid;
  }

  start(): Promise<void> {
    if (this.started) return Promise.resolve();
    this.started = true;
    const out = this.proc.child.stdout!;
    out.on('data', (chunk: Buffer) => this.onData(chunk));
    out.once('close', () => this.finish());
    this.proc.child.once('exit', () => {
      // stdout may stay open in a grandchild; the direct child's exit still ends the session.
      setTimeout(() => this.finish(), 50).unref();
    });
    return Promise.resolve();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      if (nl === -1) break;
      const part = chunk.subarray(from, nl);
      const line = this.pending.length ? Buffer.concat([...this.pending, part]) : part;
      this.pending = [];
      this.pendingBytes = 0;
      from = nl + 1;
      if (line.length > this.maxLineBytes) return this.overflow(line.length);
      this.onLine(line);
      if (this.closed) return;
    }
    if (from < chunk.length) {
      const rest = chunk.subarray(from);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
      if (this.pendingBytes > this.maxLineBytes) this.overflow(this.pendingBytes);
    }
  }

  private overflow(bytes: number): void {
    this.failure = {
      reason: 'byte-cap',
      message: `a single stdout line exceeded ${this.maxLineBytes} bytes (read ${bytes} so far)`,
    };
    this.pending = [];
    this.pendingBytes = 0;
    this.onerror?.(new Error(this.failure.message));
    this.finish();
  }

  private onLine(raw: Buffer): void {
    const text = raw.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      msg = undefined;
    }
    if (typeof msg === 'object' && msg !== null && !Array.isArray(msg) && (msg as { jsonrpc?: unknown }).jsonrpc === '2.0') {
      const m = msg as Record<string, unknown>;
      const id = m.id;
      if (m.method === undefined && (typeof id === 'string' || typeof id === 'number') && this.inFlight.has(id)) {
        const method = this.inFlight.get(id)!;
        this.inFlight.delete(id);
        // The SDK drops a response it cannot parse (result not an object, extra keys, bad error
        // object) and the request would wait for its timeout, then be reported as "did not
        // answer". Fail at once and say what was wrong.
        const problem = responseProblem(m);
        if (problem) {
          this.failure = { reason: 'protocol-error', message: `answered ${method} with a malformed JSON-RPC response (${problem})` };
          this.onerror?.(new Error(this.failure.message));
          this.finish();
          return;
        }
      }
      this.onmessage?.(msg as JSONRPCMessage);
      return;
    }
    this.noiseLines++;
    this.firstNoiseLine ??= text.length > 120 ? `${text.slice(0, 117)}...` : text;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.proc.child.stdout?.removeAllListeners('data');
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.proc.child.stdin;
    if (this.closed || !stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new Error('server stdin is closed'));
    }
    const m = message as { id?: unknown; method?: unknown };
    if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) this.inFlight.set(m.id, m.method);
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(): Promise<void> {
    this.finish();
    return Promise.resolve();
  }
}

/**
 * Why a JSON-RPC response (a message with an id and no method) is not one the SDK accepts, or
 * undefined when it is: exactly one of `result` (an object) or `error` (`{code: integer,
 * message: string, ...}`), and no other top-level keys besides `jsonrpc` and `id` (the SDK's
 * response schemas are strict at the top level).
 */
export function responseProblem(m: Record<string, unknown>): string | undefined {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
  const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  if (extra.length > 0) return `unexpected key${extra.length === 1 ? '' : 's'} ${extra.slice(0, 3).map((k) => JSON.stringify(k)).join(', ')}`;
  if ('result' in m && 'error' in m) return 'both "result" and "error"';
  if ('result' in m) {
    const r = m.result;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return `"result" is ${kind(r)}, not an object`;
    const meta = (r as Record<string, unknown>)._meta;
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) return `"result._meta" is ${kind(meta)}, not an object`;
    return undefined;
  }
  if ('error' in m) {
    const e = m.error as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return `"error" is ${kind(e)}, not an object`;
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) return '"error.code" is not an integer';
    if (typeof e.message !== 'string') return '"error.message" is not a string';
    return undefined;
  }
  return 'neither "result" nor "error"';
}
