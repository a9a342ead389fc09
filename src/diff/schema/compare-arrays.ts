/**
 * Compares the keywords of arrays: `uniqueItems`, `items` and `prefixItems` position by position,
 * `contains` with its counts. Subschemas go back to the walk (compare.ts).
 *
 * @module
 */
import type { Json, JsonObject } from '../../util/json.js';
import { emit, type CompareNode, type CompareResult, type Polarity } from './compare-deltas.js';
import { compareLowerBound, compareUpperBound } from './compare-values.js';

export function compareUniqueItems(ua: Json | undefined, ub: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  const x = ua === true;
  const y = ub === true;
  if (x && !y) emit(out, path, 'widened', pol, 'duplicate items now allowed (uniqueItems removed)');
  if (!x && y) emit(out, path, 'narrowed', pol, 'items must now be unique (uniqueItems added)');
}

export function compareItems(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  const pa = Array.isArray(a.prefixItems) ? a.prefixItems : [];
  const pb = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const ia = a.items ?? true;
  const ib = b.items ?? true;
  // Tuples: position i is governed by prefixItems[i] when present, else by items (set logic).
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    node(pa[i] ?? ia, pb[i] ?? ib, `${path}/prefixItems/${i}`, pol, out);
  }
  node(ia, ib, `${path}/items`, pol, out);
}

export function compareContains(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  if (a.contains === undefined && b.contains === undefined) return;
  if (a.contains === undefined) return emit(out, path, 'narrowed', pol, 'now must contain a matching item ("contains" added)');
  if (b.contains === undefined) return emit(out, path, 'widened', pol, 'no longer must contain a matching item ("contains" removed)');
  // More items satisfying `contains` makes the constraint easier: same direction.
  node(a.contains, b.contains, `${path}/contains`, pol, out);
  compareLowerBound(a.minContains ?? 1, b.minContains ?? 1, 'minContains', path, pol, out);
  compareUpperBound(a.maxContains, b.maxContains, 'maxContains', path, pol, out);
}
