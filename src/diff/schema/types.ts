/**
 * Result types of schema change classification.
 *
 * Paths are JSON Pointers (RFC 6901) into the *normalized, dereferenced* schema: `""` is the
 * root, `/properties/labels/items` the items of the `labels` property. Where a `$ref` was
 * inlined, the pointer follows the referencing location (there is no `/$defs/...` segment), so a
 * caller that needs a line in the original document should walk up to the nearest existing
 * prefix.
 */

/** One way in which the set of accepted inputs changed. */
export interface SchemaDelta {
  /** JSON Pointer into the normalized schema, `""` for the root (see module doc). */
  path: string;
  /** `widened`: accepts inputs it did not accept before; `narrowed`: rejects inputs it accepted. */
  direction: 'widened' | 'narrowed';
  /** Short human text, e.g. `enum value "x" added`, `no longer required: "title"`. */
  what: string;
}

/**
 * How an `inputSchema` changed.
 * - `unchanged`: the same inputs are accepted (e.g. only key order, `$schema`, descriptions or the
 *   spelling of a constraint changed).
 * - `widened` / `narrowed` / `both`: the deltas say where and how.
 * - `unclassified`: toolgate could not decide (circular `$ref`, a timed-out or failed
 *   json-schema-diff run, a changed `pattern`, an unknown keyword...). `reason` says why; `deltas`
 *   holds what was decided anyway. Callers should fail closed.
 */
export type SchemaVerdict =
  { kind: 'unchanged' } | { kind: 'widened' | 'narrowed' | 'both'; deltas: SchemaDelta[] } | { kind: 'unclassified'; reason: string; deltas: SchemaDelta[] };

/** Options of {@link classifySchemaChange}. */
export interface ClassifyOptions {
  /**
   * Wall-clock budget in milliseconds for the json-schema-diff second opinion of one pair
   * (default 2000). It starts when the job reaches a worker, not while it waits in the queue.
   * Our own keyword comparison is synchronous and not bounded by it.
   */
  budgetMs?: number;
}
