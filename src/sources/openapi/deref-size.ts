/**
 * How large an OpenAPI document becomes once `@readme/openapi-parser`'s `validate()` resolves its
 * `$ref`s: what the reference-bomb guard of validation (document.ts) measures.
 *
 * What the parser builds: `validate()` dereferences with `@apidevtools/json-schema-ref-parser`
 * and `circular: "ignore"`. A `$ref` whose target leads back to itself (through containment and
 * further refs: Stripe's `charge` → `customer` → ... → `charge`) stays a `$ref`, and so does every
 * `$ref` whose target reaches such a cycle. Every other `$ref` is replaced by its target, one
 * shared object for all its uses (a DAG in memory). Ajv (the OpenAPI meta-schema) and the parser's
 * own rules then walk that graph as a tree, visiting a shared target at every place it is used; so
 * does the dereferencing itself, which walks a component once more for each place it sits. The
 * cost of validating is the size of that tree, and a chain of schemas each referring ten times to
 * the next (a "billion laughs" of `$ref`s) multiplies it tenfold per level while the text stays
 * small. Refs into cycles add nothing: they stay one small object each.
 *
 * Two measures, both linear in the number of distinct objects (sizes of shared objects memoized):
 * - {@link estimateDereferencedSize}, before dereferencing: the tree with every `$ref` whose
 *   target does not reach a cycle counted as its target, a `$ref` into a cycle as itself. Refuses
 *   a bomb in milliseconds, naming the `$ref` that multiplies.
 * - {@link dereferencedSize}, after dereferencing and before any walk of the result: the tree the
 *   parser really built, whatever way its resolution differs from the estimate's (a `$id`, a
 *   pointer through a sibling key).
 * Sizes are in the units of {@link expandedSize}: one per value plus one per character of every
 * key and string (about the bytes of the JSON text).
 */
import { toPointer } from '../../util/json.js';
import { getByRefThroughRefs } from './refs.js';
import { expandedSize, type ExpansionStep } from './expanded-size.js';

/** Where a measure passed its limit: the `$ref` (its JSON pointer in the measured document and its value) whose expansion did. */
export interface RefBombSite {
  /** JSON pointer of the `$ref` object (`''` when no `$ref` was on the way). */
  pointer: string;
  /** The `$ref` as written, when known. */
  ref?: string;
}

/** A measure's answer: the size, or where it passed `limit`. */
export type DerefSize = { size: number } | { tooLarge: RefBombSite } | { cycle: true };

/** An object's internal `$ref` string, if it has one. */
function refOf(node: object): string | undefined {
  const ref = (node as { $ref?: unknown }).$ref;
  return typeof ref === 'string' && ref.startsWith('#') ? ref : undefined;
}

/**
 * The objects from which a cycle can be reached in the graph whose edges are containment (object
 * → member, array → element) and `follow` (an object → the target it stands for). Iterative
 * depth-first search, each object and edge visited once: an object reaches a cycle when one of its
 * successors is on the current search path (a back edge) or reaches a cycle itself; a successor
 * finished earlier already has its answer, because every object it reaches was finished before it
 * or is on the path.
 */
export function reachingCycles(root: object, follow: (node: object) => object | undefined): Set<object> {
  const onPath = 1;
  const done = 2;
  const state = new Map<object, number>();
  const cyclic = new Set<object>();
  interface Frame {
    node: object;
    next: object[];
    i: number;
    hit: boolean;
  }
  const successors = (node: object): object[] => {
    const out: object[] = [];
    for (const v of Array.isArray(node) ? (node as unknown[]) : (Object.values(node) as unknown[])) if (v !== null && typeof v === 'object') out.push(v);
    const target = follow(node);
    if (target !== undefined) out.push(target);
    return out;
  };
  const stack: Frame[] = [{ node: root, next: successors(root), i: 0, hit: false }];
  state.set(root, onPath);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.i < f.next.length) {
      const s = f.next[f.i++]!;
      const seen = state.get(s);
      if (seen === onPath || (seen === done && cyclic.has(s))) f.hit = true;
      else if (seen === undefined) {
        state.set(s, onPath);
        stack.push({ node: s, next: successors(s), i: 0, hit: false });
      }
      continue;
    }
    stack.pop();
    state.set(f.node, done);
    if (f.hit) {
      cyclic.add(f.node);
      const parent = stack[stack.length - 1];
      if (parent) parent.hit = true;
    }
  }
  return cyclic;
}

/** The JSON pointer of the steps' keys from the root up to (not including) step `end`. */
function pointerTo(path: readonly ExpansionStep[], end: number): string {
  return toPointer(path.slice(1, end).map((s) => s.key ?? ''));
}

/**
 * Estimates, before dereferencing, the size of what the parser's `validate()` builds from `doc` (a
 * bundled document: internal refs only), following pointers as the parser does
 * ({@link getByRefThroughRefs}). A `$ref` that cannot be resolved counts as itself (validation
 * reports it). Gives up above `limit`, naming the outermost `$ref` on the way.
 */
export function estimateDereferencedSize(doc: object, limit: number): DerefSize {
  const targets = new Map<object, object | undefined>();
  const targetOf = (node: object): object | undefined => {
    if (targets.has(node)) return targets.get(node);
    const ref = refOf(node);
    const t = ref === undefined ? undefined : getByRefThroughRefs(doc, ref);
    const target = t !== null && typeof t === 'object' ? t : undefined;
    targets.set(node, target);
    return target;
  };
  const cyclic = reachingCycles(doc, targetOf);
  const follow = (node: object): object | undefined => {
    const target = targetOf(node);
    return target !== undefined && !cyclic.has(target) ? target : undefined;
  };
  const r = expandedSize(doc, { limit, maxDepth: Number.POSITIVE_INFINITY, follow });
  if ('size' in r) return r;
  if (r.kind !== 'too-large') return { cycle: true };
  // The outermost `$ref` on the way that the parser would replace (its target's size may be known
  // already, so the path can end at the `$ref` itself).
  const k = r.path.findIndex((s) => follow(s.node) !== undefined);
  if (k < 0) return { tooLarge: { pointer: pointerTo(r.path, r.path.length) } };
  return { tooLarge: { pointer: pointerTo(r.path, k + 1), ref: refOf(r.path[k]!.node)! } };
}

/**
 * The size of a document the parser has dereferenced (`circular: "ignore"`), as a walk of it
 * visits it: every shared object counted at each place it is used. `inlinedBy` maps each object
 * the dereferencing put in place of a `$ref` to that `$ref` (the parser's `onDereference`).
 * Gives up above `limit`, naming the outermost replaced `$ref` on the way; a graph that contains
 * itself (the parser replaced a `$ref` into a cycle) is a `cycle`.
 */
export function dereferencedSize(doc: object, limit: number, inlinedBy: ReadonlyMap<object, string>): DerefSize {
  const r = expandedSize(doc, { limit, maxDepth: Number.POSITIVE_INFINITY });
  if ('size' in r) return r;
  if (r.kind !== 'too-large') return { cycle: true };
  const k = r.path.findIndex((s, i) => i > 0 && inlinedBy.has(s.node));
  if (k < 0) return { tooLarge: { pointer: pointerTo(r.path, r.path.length) } };
  return { tooLarge: { pointer: pointerTo(r.path, k + 1), ref: inlinedBy.get(r.path[k]!.node)! } };
}

/** Keys that give a schema an address other than its JSON pointer, or change how `$ref`s inside it resolve. */
const ADDRESSING_KEYS: ReadonlySet<string> = new Set(['$id', '$anchor', '$dynamicAnchor', '$schema']);

/**
 * True when the parser resolves every `$ref` of `doc` by JSON pointer alone, as
 * {@link estimateDereferencedSize} does: each `$ref` is `#` or `#/...`, and no object has a `$id`,
 * `$anchor`, `$dynamicAnchor` or `$schema` (which make the parser resolve against schema resources,
 * draft-04's `id` included).
 */
export function resolvedByPointerAlone(doc: object): boolean {
  const seen = new Set<object>();
  const stack: object[] = [doc];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const v of node as unknown[]) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    for (const [k, v] of Object.entries(node) as Array<[string, unknown]>) {
      if (typeof v === 'string') {
        if (ADDRESSING_KEYS.has(k) || (k === '$ref' && v !== '#' && !v.startsWith('#/'))) return false;
      } else if (v !== null && typeof v === 'object') {
        stack.push(v);
      }
    }
  }
  return true;
}
