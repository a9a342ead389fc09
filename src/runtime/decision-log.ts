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

/** Writes decisions as JSON lines and counts them for the summary. */
export class DecisionLog {
  private readonly counts = new Map<string, number>();
  /** Why writing failed, once it did: later lines are counted, not written. */
  private failure: Error | undefined;
  private lost = 0;

  constructor(
    private readonly out: Writable,
    private readonly source: string,
    private readonly logArguments: boolean,
  ) {
    // A stream error (ENOSPC, EPIPE) is an event; unheard, it would end the process.
    out.on('error', (e: Error) => (this.failure ??= e));
  }

  /** Logs one decision; `args` are the call's arguments (digested unless values are asked for). */
  write(e: DecisionEntry, args?: unknown): void {
    const key = `${e.event}:${e.decision}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.emit(() => this.line(e, args));
  }

  /** The closing line: how many decisions of each kind, and how many lines could not be written. */
  summary(): void {
    const counts = Object.fromEntries([...this.counts].sort());
    this.emit(() => `${JSON.stringify({ time: new Date().toISOString(), source: this.source, event: 'summary', counts })}\n`);
  }

  /** Why the log could not be written, and how many lines were lost (undefined when none was). */
  problem(): string | undefined {
    return this.failure ? `${this.lost} decision log line(s) not written: ${this.failure.message}` : undefined;
  }

  private emit(text: () => string): void {
    if (this.failure || this.out.destroyed || this.out.writableEnded) {
      this.failure ??= new Error('the log stream is closed');
      this.lost++;
      return;
    }
    try {
      this.out.write(text());
    } catch (e) {
      this.failure ??= e instanceof Error ? e : new Error(String(e));
      this.lost++;
    }
  }

  private line(e: DecisionEntry, args: unknown): string {
    const line: Record<string, unknown> = { time: new Date().toISOString(), source: this.source, ...e };
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
