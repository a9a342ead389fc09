/**
 * The size a parsed JSON or YAML value takes once its shared objects (YAML aliases) or its
 * references are expanded, measured without expanding them: the guard against a "billion laughs"
 * file (repo-files.ts, step 5) and against a reference bomb (deref-size.ts).
 * @module
 */
import { MAX_JSON_DEPTH } from '../../util/json-file.js';

/** The per-file byte cap of repo-files.ts (64 MiB): text without aliases never exceeds it. */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Largest size of a parsed file with YAML aliases expanded, in units of one per value plus one per
 * character of every key and string. Text without aliases never exceeds its byte count.
 */
export const MAX_EXPANDED_SIZE = MAX_FILE_BYTES;

/**
 * One object on the way to where {@link expandedSize} passed its limit: `key` is the member of the
 * previous step that holds it (an array index as a string), absent for the root and for the
 * target a `follow`ed object stands for (`viaRef`).
 */
export interface ExpansionStep {
  node: object;
  key?: string;
  viaRef?: true;
}

/** Why {@link expandedSize} gave up; past the limit, with the objects it was inside at the time. */
export type ExpansionProblem = { kind: 'too-large'; path: ExpansionStep[] } | { kind: 'too-deep' } | { kind: 'cycle' };

/** Options of {@link expandedSize}. */
export interface ExpandedSizeOptions {
  /** Give up above this size (default {@link MAX_EXPANDED_SIZE}). */
  limit?: number;
  /** Give up below this nesting (default {@link MAX_JSON_DEPTH}). */
  maxDepth?: number;
  /**
   * The object an object stands for besides its own members (an internal `$ref`'s target): counted
   * as one more child. Meeting an object again on the current path through it is a circular
   * reference (legal in OpenAPI): counted as 1, not a cycle.
   */
  follow?: (node: object) => object | undefined;
}

/**
 * Size of a parsed JSON/YAML value with shared objects (YAML aliases) counted at every place they
 * appear: one per value, plus the length of every key and string. Linear in the number of distinct
 * objects (sizes of shared objects are memoized); stops at `limit`, at `maxDepth` nesting, and at
 * a value that contains itself. With `follow`, the size once references are resolved.
 */
export function expandedSize(value: unknown, opts: ExpandedSizeOptions = {}): { size: number } | ExpansionProblem {
  const limit = opts.limit ?? MAX_EXPANDED_SIZE;
  const maxDepth = opts.maxDepth ?? MAX_JSON_DEPTH;
  const follow = opts.follow;
  const scalar = (v: unknown) => (typeof v === 'string' ? 1 + v.length : 1);
  if (value === null || typeof value !== 'object') return { size: scalar(value) };
  // -1 marks an object being measured (on the current path): meeting it again is a cycle.
  const memo = new Map<object, number>();
  interface Frame {
    node: object;
    keys: string[] | undefined;
    values: unknown[];
    /** Index of the followed target in `values`, or -1. */
    targetAt: number;
    i: number;
    acc: number;
  }
  const stack: Frame[] = [];
  const enter = (node: object): void => {
    const isArray = Array.isArray(node);
    const values: unknown[] = isArray ? (node as unknown[]) : Object.values(node);
    const target = follow?.(node);
    const targetAt = target ? values.length : -1;
    stack.push({ node, keys: isArray ? undefined : Object.keys(node), values: target ? [...values, target] : values, targetAt, i: 0, acc: 1 });
    memo.set(node, -1);
  };
  const tooLarge = (): ExpansionProblem => ({ kind: 'too-large', path: expansionPath(stack) });
  enter(value);
  for (;;) {
    const f = stack[stack.length - 1]!;
    if (f.i < f.values.length) {
      const i = f.i++;
      const key = f.keys?.[i];
      if (key !== undefined) f.acc += key.length;
      const v = f.values[i];
      if (v !== null && typeof v === 'object') {
        const known = memo.get(v);
        if (known === -1) {
          if (!follow) return { kind: 'cycle' };
          f.acc += 1;
        } else if (known === undefined) {
          if (stack.length >= maxDepth) return { kind: 'too-deep' };
          enter(v);
          continue;
        } else {
          f.acc += known;
        }
      } else {
        f.acc += scalar(v);
      }
      if (f.acc > limit) return tooLarge();
      continue;
    }
    const parent = stack[stack.length - 2];
    if (!parent) return { size: f.acc };
    // Checked before popping, so that the path names the object that passed the limit.
    if (parent.acc + f.acc > limit) return tooLarge();
    stack.pop();
    memo.set(f.node, f.acc);
    parent.acc += f.acc;
  }
}

/** The frames of {@link expandedSize}'s stack as steps, each named by how its parent holds it. */
function expansionPath(stack: ReadonlyArray<{ node: object; keys: string[] | undefined; targetAt: number; i: number }>): ExpansionStep[] {
  return stack.map((f, depth) => {
    if (depth === 0) return { node: f.node };
    const parent = stack[depth - 1]!;
    const at = parent.i - 1;
    return at === parent.targetAt ? { node: f.node, viaRef: true } : { node: f.node, key: parent.keys?.[at] ?? String(at) };
  });
}
