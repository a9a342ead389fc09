/**
 * What a keyword comparison of two schemas records: each change it decides as a delta that widens
 * or narrows (turned around below a `not`), and each node it cannot decide, with why. The walk
 * (compare.ts) and the comparisons of each keyword family share these.
 *
 * @module
 */
import type { Json } from '../../util/json.js';
import type { SchemaDelta } from './types.js';

/** A node where our comparison could not decide. */
export interface Undecided {
  /** JSON Pointer of the node. */
  path: string;
  /** Why, in words. */
  reason: string;
  /** True when json-schema-diff can decide it (composition keywords). */
  delegable: boolean;
  /** The two (normalized) subschemas, for the second opinion. */
  before: Json;
  after: Json;
}

/** Result of `compareSchemas` (compare.ts). */
export interface CompareResult {
  deltas: SchemaDelta[];
  undecided: Undecided[];
}

type Direction = SchemaDelta['direction'];
export type Polarity = 1 | -1; // -1 below `not`: loosening the negated schema narrows the whole

/** The walk of compare.ts, which a keyword family calls back on the subschemas it pairs up. */
export type CompareNode = (before: Json, after: Json, path: string, pol: Polarity, out: CompareResult) => void;

/** Short rendering of a value for `what` texts. */
export function show(value: Json | undefined, max = 60): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Records a delta, turned around when `polarity` is -1 (below a `not`). */
export function emit(out: CompareResult, path: string, direction: Direction, polarity: Polarity, what: string): void {
  const d: Direction = polarity === 1 ? direction : direction === 'widened' ? 'narrowed' : 'widened';
  out.deltas.push({ path, direction: d, what: polarity === 1 ? what : `${what} (inside "not")` });
}

/** Records a node the comparison cannot decide (`delegable`: json-schema-diff can). */
export function undecided(out: CompareResult, path: string, reason: string, delegable: boolean, before: Json, after: Json): void {
  out.undecided.push({ path, reason, delegable, before, after });
}
