/**
 * The proxy's decision log (docs/design.md §11): one JSON line per admission, per call decision
 * and per refused message, and a summary at exit. Argument values are written only with
 * `runtime.log-arguments: true`; otherwise their sha256 (of the canonical JSON) identifies a call
 * without keeping what it carried.
 *
 * Writing never throws and never stops the relay: a value `JSON.stringify` cannot write (any
 * depth is written by {@link canonicalJsonDeep}; a cycle or a bigint gets a stated marker), a
 * stream that fails (a full disk, a closed stderr) or a write that throws are counted and the
 * relay goes on answering the client.
 *
 * Deferred ({@link DecisionLogOptions.deferred}): a decision costs the relay a push; the lines of
 * one turn of the event loop are formatted (time, digest, JSON) and written together once that
 * turn's messages are on their way, so neither a call nor its answer waits for the log, and a
 * burst of calls makes one write, not one each. Batched ({@link DecisionLogOptions.batchMs}, as
 * `toolgate proxy` runs it): the lines of many turns wait up to `batchMs` ms, or until
 * `batchLines` of them wait, and go in one write, so that calls made one at a time do not pay a
 * write and a loop turn each. What waits is written by {@link DecisionLog.flush}, which the
 * proxy calls at exit (a signal and an uncaught exception exit through it too): only a process
 * killed outright (SIGKILL, out of memory) loses lines, those of the last `batchMs` ms at most.
 */
import type { Writable } from 'node:stream';
import { sha256 } from '../surface/canonical.js';
import { canonicalJsonDeep } from '../util/json.js';

/** One decision. */
export interface DecisionEntry {
  /** `request`: a client message refused or dropped for what it is (its method, id or form), before any tool is named. */
  event: 'list' | 'call' | 'result' | 'upstream' | 'request';
  tool?: string;
  /** The method of a refused request or notification, as sent (shortened when long). */
  method?: string;
  decision: string;
  reason?: string;
  detail?: string;
}

/** Longest `tool` or `method` written, in UTF-16 units; longer ones are cut and say so. */
const MAX_NAME = 500;
/** Longest `detail` written. */
const MAX_DETAIL = 2000;

/** `text` cut to `max` units, saying how long it was. */
function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}

/** Options of {@link DecisionLog}. */
export interface DecisionLogOptions {
  /**
   * Write each turn's lines once the turn is over (setImmediate), in one write, instead of at each
   * decision. {@link DecisionLog.summary} and {@link DecisionLog.problem} write what waits first.
   */
  deferred?: boolean;
  /**
   * With `deferred`: the longest a line waits (ms) before its batch is written; 0 (the default)
   * writes each turn's lines at the end of the turn.
   */
  batchMs?: number;
  /**
   * With `batchMs`: a batch is written at the end of the turn in which it reached this many lines
   * (default 64). Formatting a line costs a few µs, and a message that comes while a batch is
   * written waits for it: a small batch keeps that wait well under a millisecond.
   */
  batchLines?: number;
}

/** A decision not written yet, and when it was taken (ms since the epoch). */
interface Pending {
  entry: DecisionEntry;
  args: unknown;
  time: number;
}

/** Writes decisions as JSON lines and counts them for the summary. */
export class DecisionLog {
  private readonly counts = new Map<string, number>();
  /** Why writing failed, once it did: later lines are counted, not written. */
  private failure: Error | undefined;
  private lost = 0;
  private readonly deferred: boolean;
  private readonly batchMs: number;
  private readonly batchLines: number;
  private pending: Pending[] = [];
  /** The end of the turn at which the waiting lines are written. */
  private scheduled: NodeJS.Immediate | undefined;
  /** The end of the batch window, when lines wait for it. */
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: Writable,
    private readonly source: string,
    private readonly logArguments: boolean,
    options: DecisionLogOptions = {},
  ) {
    this.deferred = options.deferred ?? false;
    this.batchMs = options.batchMs ?? 0;
    this.batchLines = this.batchMs > 0 ? Math.max(1, options.batchLines ?? 64) : 1;
    // A stream error (ENOSPC, EPIPE) is an event; unheard, it would end the process.
    out.on('error', (e: Error) => (this.failure ??= e));
  }

  /**
   * Logs one decision; `args` are the call's arguments (digested unless values are asked for).
   * Deferred, they are read when the line is written, after this turn: the relay never changes a
   * message it got.
   */
  write(e: DecisionEntry, args?: unknown): void {
    const key = `${e.event}:${e.decision}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    if (!this.deferred) return this.emit(() => this.line(e, args, Date.now()), 1);
    this.pending.push({ entry: e, args, time: Date.now() });
    if (this.pending.length >= this.batchLines) this.scheduled ??= setImmediate(() => this.flush());
    // Unreferenced: a batch window never keeps the process alive (what waits is written at exit).
    else this.timer ??= setTimeout(() => this.flush(), this.batchMs).unref();
  }

  /** Writes the lines still waiting (deferred), all in one write. */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    if (this.timer) clearTimeout(this.timer);
    this.scheduled = undefined;
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.emit(() => batch.map((p) => this.line(p.entry, p.args, p.time)).join(''), batch.length);
  }

  /** The closing line: how many decisions of each kind, and how many lines could not be written. */
  summary(): void {
    this.flush();
    const counts = Object.fromEntries([...this.counts].sort());
    this.emit(() => `${JSON.stringify({ time: new Date().toISOString(), source: this.source, event: 'summary', counts })}\n`, 1);
  }

  /** Why the log could not be written, and how many lines were lost (undefined when none was). */
  problem(): string | undefined {
    this.flush();
    return this.failure ? `${this.lost} decision log line(s) not written: ${this.failure.message}` : undefined;
  }

  /** Writes `lines` lines of text; when the stream cannot take them, counts them as lost. */
  private emit(text: () => string, lines: number): void {
    if (this.failure || this.out.destroyed || this.out.writableEnded) {
      this.failure ??= this.out.errored ?? new Error('the log stream is closed');
      this.lost += lines;
      return;
    }
    try {
      this.out.write(text());
    } catch (e) {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
      this.lost += lines;
      return;
    }
    // A stream that writes synchronously (appendingFile) has failed by now, when it failed.
    if (this.out.errored) {
      this.failure ??= this.out.errored;
      this.lost += lines;
    }
  }

  private line(e: DecisionEntry, args: unknown, time: number): string {
    const line: Record<string, unknown> = { time: new Date(time).toISOString(), source: this.source, ...e };
    if (e.tool !== undefined) line.tool = shorten(e.tool, MAX_NAME);
    if (e.method !== undefined) line.method = shorten(e.method, MAX_NAME);
    if (e.detail !== undefined) line.detail = shorten(e.detail, MAX_DETAIL);
    if (args === undefined) return `${JSON.stringify(line)}\n`;
    let canonical: string | undefined;
    try {
      canonical = canonicalJsonDeep(args);
      line.argumentsSha256 = sha256(canonical);
    } catch (err) {
      line.argumentsUnhashable = `the arguments are no JSON value: ${(err as Error).message}`;
    }
    const text = JSON.stringify(line);
    // The values go in as canonical text: at any depth, where JSON.stringify would throw.
    return this.logArguments && canonical !== undefined ? `${text.slice(0, -1)},"arguments":${canonical}}\n` : `${text}\n`;
  }
}
