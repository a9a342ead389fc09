/**
 * The proxy's decision log (docs/design.md §11): one JSON line per admission and per call decision, and a
 * summary at exit. Argument values are written only with `runtime.log-arguments: true`; otherwise
 * their sha256 (of the canonical JSON) identifies a call without keeping what it carried.
 */
import type { Writable } from 'node:stream';
import { sha256 } from '../surface/canonical.js';
import { canonicalJson } from '../util/json.js';
import type { Json } from '../util/json.js';

/** One decision. */
export interface DecisionEntry {
  event: 'list' | 'call' | 'result' | 'upstream';
  tool?: string;
  decision: string;
  reason?: string;
  detail?: string;
}

/** Writes decisions as JSON lines and counts them for the summary. */
export class DecisionLog {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly out: Writable,
    private readonly source: string,
    private readonly logArguments: boolean,
  ) {}

  /** Logs one decision; `args` are the call's arguments (digested unless values are asked for). */
  write(e: DecisionEntry, args?: unknown): void {
    const key = `${e.event}:${e.decision}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const line: Record<string, unknown> = { time: new Date().toISOString(), source: this.source, ...e };
    if (args !== undefined) {
      line.argumentsSha256 = sha256(canonicalJson(args as Json));
      if (this.logArguments) line.arguments = args;
    }
    this.out.write(`${JSON.stringify(line)}\n`);
  }

  /** The closing line: how many decisions of each kind. */
  summary(): void {
    this.out.write(
      `${JSON.stringify({ time: new Date().toISOString(), source: this.source, event: 'summary', counts: Object.fromEntries([...this.counts].sort()) })}\n`,
    );
  }
}
