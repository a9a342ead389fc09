/**
 * Turns OpenAPI schema objects (with internal `$ref`s) into self-contained JSON Schemas for a
 * tool's `inputSchema`.
 *
 * Rule: a `$ref` is inlined, except where it would recurse. A referenced schema that reaches
 * itself again (a tree `Node` with `children: Node[]`) is emitted once under the tool schema's
 * root `$defs` (named after the last pointer token: `#/components/schemas/Node` and
 * `#/definitions/Node` → `Node`; a taken name gets `_2`, `_3`...), and every use of it becomes
 * `{"$ref": "#/$defs/Node"}`. So every schema is finite, and non-recursive ones read as plain
 * JSON Schema for clients that do not follow `$ref`.
 *
 * Guard: when inlining one tool's schema would produce more than {@link INLINE_NODE_BUDGET}
 * nodes (shared sub-schemas multiply), that tool falls back to putting every referenced schema
 * under `$defs` (each expanded once).
 *
 * Only schema positions are followed (`properties`, `items`, `allOf`... by keyword); data
 * keywords (`example`, `default`, `enum`, `const`, vendor `x-*`...) are copied untouched, so a
 * `$ref` key inside an example stays data. Sibling keys of a `$ref` are dropped for Swagger 2.0
 * and OpenAPI 3.0 (their specs say to ignore them) and merged over the referenced schema for
 * OpenAPI 3.1 (shallow: siblings win, the common use being a local `description`).
 * OpenAPI 3.0 `nullable`, Swagger `x-nullable` and `discriminator` are kept as written.
 */
import { SourceError } from '../source-error.js';
import { cloneJson, compareUtf16, isObject, setOwn, unescapePointerToken } from '../../util/json.js';
import type { Json } from '../../util/json.js';
import { getByRef } from './refs.js';

/** Most JSON nodes one tool's inlined schema may have before falling back to `$defs` for all refs. */
export const INLINE_NODE_BUDGET = 50_000;

const SCHEMA_KEYS = new Set([
  'not',
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
  'contentSchema',
]);
const SCHEMA_ARRAY_KEYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

class BudgetExceeded extends Error {}

/**
 * Builds the schemas of one tool: call {@link SchemaBuilder.schema} for each part, then read
 * {@link SchemaBuilder.defs}. One builder per tool, so each tool's `$defs` holds only what it uses.
 * Schemas are tracked by object identity, so a bundled document's refs into `paths` (the bundler
 * keeps an external schema at its first use and points later uses there) are cycles too.
 */
export class SchemaBuilder {
  private readonly names = new Map<object, string>();
  /** First ref that reached each schema: its name if it turns out to be recursive. */
  private readonly hints = new Map<object, string>();
  private readonly used = new Set<string>();
  private readonly recursive = new Set<object>();
  private readonly defMap = new Map<string, Json>();
  private readonly active = new Set<object>();
  private nodes = 0;

  constructor(
    private readonly doc: unknown,
    private readonly is31: boolean,
    /** False: every `$ref` goes to `$defs` (the fallback mode). */
    private readonly inline = true,
  ) {}

  /** `$defs` collected so far, or undefined when no schema needed one. */
  defs(): { [name: string]: Json } | undefined {
    if (this.defMap.size === 0) return undefined;
    return Object.fromEntries([...this.defMap].sort(([a], [b]) => compareUtf16(a, b)));
  }

  /** Expands one schema (a schema object, a boolean, or a `$ref`). */
  schema(node: unknown): Json {
    if (this.inline && ++this.nodes > INLINE_NODE_BUDGET) throw new BudgetExceeded();
    if (!isObject(node)) return cloneJson(node as Json);
    if (typeof node.$ref === 'string') return this.ref(node as Record<string, unknown> & { $ref: string });
    if (this.active.has(node)) {
      // Reached again without a $ref: a YAML alias that loops. Same treatment as a recursive ref.
      this.recursive.add(node);
      return { $ref: `#/$defs/${this.nameFor(node, this.hints.get(node) ?? '#/schema')}` };
    }
    this.active.add(node);
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(node)) {
      if (SCHEMA_KEYS.has(k)) setOwn(out, k, this.schema(v));
      else if (k === 'items' || SCHEMA_ARRAY_KEYS.has(k)) setOwn(out, k, Array.isArray(v) ? v.map((s) => this.schema(s)) : this.schema(v));
      else if (SCHEMA_MAP_KEYS.has(k) && isObject(v)) setOwn(out, k, this.schemaMap(v));
      else setOwn(out, k, cloneJson(v));
    }
    this.active.delete(node);
    if (this.recursive.has(node)) {
      const name = this.names.get(node)!;
      this.defMap.set(name, out);
      return { $ref: `#/$defs/${name}` };
    }
    return out;
  }

  private schemaMap(map: Record<string, unknown>): Json {
    const out: { [k: string]: Json } = {};
    for (const [k, v] of Object.entries(map)) setOwn(out, k, this.schema(v));
    return out;
  }

  /** `$defs` name of a schema: the last token of the first ref that reached it, made safe and unique. */
  private nameFor(target: object, ref: string): string {
    const known = this.names.get(target);
    if (known !== undefined) return known;
    const last = ref.slice(ref.lastIndexOf('/') + 1);
    let token: string;
    try {
      token = decodeURIComponent(last);
    } catch {
      token = last;
    }
    const base = unescapePointerToken(token).replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
    let name = base;
    for (let n = 2; this.used.has(name); n++) name = `${base}_${n}`;
    this.used.add(name);
    this.names.set(target, name);
    return name;
  }

  private ref(node: Record<string, unknown> & { $ref: string }): Json {
    const ref = node.$ref;
    // After bundling every ref is internal; anything else (a remote ref the caller allowed, a
    // `$id`-relative ref) is kept as written rather than guessed at.
    if (!ref.startsWith('#')) return cloneJson(node as Json);
    const target = getByRef(this.doc, ref);
    if (target === undefined) throw new SourceError(`unresolvable $ref ${JSON.stringify(ref)}`, 'load-failed');
    let result: Json;
    if (!isObject(target)) {
      result = cloneJson(target as Json);
    } else if (this.recursive.has(target) || this.active.has(target)) {
      // A schema that reaches itself: emitted once under $defs when its expansion finishes.
      this.recursive.add(target);
      result = { $ref: `#/$defs/${this.nameFor(target, this.hints.get(target) ?? ref)}` };
    } else if (!this.inline) {
      // Fallback mode: marking it recursive up front makes schema() file it under $defs and
      // makes every other use a $ref.
      this.nameFor(target, ref);
      this.recursive.add(target);
      result = this.schema(target);
    } else {
      if (!this.hints.has(target)) this.hints.set(target, ref);
      result = this.schema(target);
    }
    if (this.is31) {
      const { $ref: _ignored, ...siblings } = node;
      if (Object.keys(siblings).length > 0) {
        const extra = this.schema(siblings) as { [k: string]: Json };
        result = isObject(result) ? { ...result, ...extra } : { allOf: [result], ...extra };
      }
    }
    return result;
  }
}

/**
 * Runs `build` with an inlining {@link SchemaBuilder}, retrying in all-`$defs` mode when the
 * inlined result would exceed {@link INLINE_NODE_BUDGET} nodes.
 */
export function withSchemaBuilder<T>(doc: unknown, is31: boolean, build: (b: SchemaBuilder) => T): T {
  try {
    return build(new SchemaBuilder(doc, is31, true));
  } catch (e) {
    if (!(e instanceof BudgetExceeded)) throw e;
    return build(new SchemaBuilder(doc, is31, false));
  }
}
