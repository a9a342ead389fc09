/**
 * Schema normalization, at two strengths.
 *
 * **Pinned form**: what a contract stores and every digest covers, in surface/pinned-schema.ts
 * (`normalizeEquivalentForms`): it keeps the schema the model is shown, rewriting only spellings
 * JSON Schema defines as the same schema.
 *
 * **Classification form** ({@link normalizeSchema}): for comparing two schemas by the inputs they
 * accept; it goes much further (drops annotations, inlines `$ref`s, merges `allOf`, see there).
 */
import type { Json, JsonObject } from '../../util/json.js';
import { canonicalJson, escapePointerToken, getOwn, isObject, jsonEqual, setOwn, sortKeys, unescapePointerToken } from '../../util/json.js';
import { ARRAY_SCHEMA_KEYWORDS, MAP_SCHEMA_KEYWORDS, SINGLE_SCHEMA_KEYWORDS } from '../../surface/pinned-schema.js';

/** What {@link normalizeSchema} produced, and what it could not resolve. */
export interface NormalizedSchema {
  /** The normalized schema (keys sorted, local `$ref`s inlined, annotations dropped). */
  schema: Json;
  /** `$ref`s left in place because inlining them would loop, as `"<where> -> <ref>"`. */
  circularRefs: string[];
  /** `$ref`s toolgate does not resolve (external documents, `$anchor`s, `$dynamicRef`). */
  unsupportedRefs: string[];
}

/** Options of {@link normalizeSchema}. */
export interface NormalizeOptions {
  /** Keep annotation keywords (`description`, `title`, `default`, `x-*`...). Default false. */
  keepAnnotations?: boolean;
  /**
   * Stop inlining `$ref`s once the schema has this many nodes (default 200,000): a small schema
   * that reuses a definition many times can expand exponentially. Past the cap the remaining
   * refs are reported as unsupported, which makes the classification fail closed.
   */
  maxNodes?: number;
}

/**
 * Keywords that never change which instances validate. `discriminator` (OpenAPI) only helps a
 * validator pick a `oneOf` branch; `readOnly`/`writeOnly` are advisory; `contentMediaType` and
 * `contentEncoding` are annotations since 2019-09 and rarely enforced before.
 */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$comment',
  'externalDocs',
  'xml',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
  '$id',
  'id',
  '$anchor',
  '$dynamicAnchor',
  '$recursiveAnchor',
  '$vocabulary',
]);

function resolvePointer(root: Json, pointer: string): Json | undefined {
  if (pointer === '') return root;
  let node: Json | undefined = root;
  for (const raw of pointer.slice(1).split('/')) {
    let token: string;
    try {
      token = unescapePointerToken(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = getOwn(node, token);
    else return undefined;
  }
  return node;
}

/** Writes `#/definitions/...` as `#/$defs/...` so that both spellings compare equal. */
const canonicalRef = (ref: string): string => ref.replace(/^#\/definitions\//, '#/$defs/');

/**
 * Normalizes a JSON Schema (draft-04 to 2020-12, and OpenAPI 3.0 Schema Objects) for comparison.
 *
 * Rules, all of which keep the set of accepted instances the same:
 * - `$schema`, `$id` and annotation keywords (`title`, `description`, `default`, `examples`,
 *   `deprecated`, `readOnly`, `writeOnly`, `x-*`, ...) are dropped (unless `keepAnnotations`).
 * - Local `$ref`s (`#/...`, including `#/definitions/...` and `#/$defs/...`) are inlined; a `$ref`
 *   with validation siblings becomes `allOf: [target]` next to them (2019-09+ semantics). A `$ref`
 *   that would loop is kept (spelled `#/$defs/...`) and listed in `circularRefs`; the `$defs`
 *   are then kept too. Otherwise `definitions`/`$defs` are dropped once inlined.
 * - OpenAPI 3.0 `nullable: true` adds `"null"` to `type` (only when `type` is present, as OAS
 *   3.0.3 specifies); `nullable` is then dropped.
 * - Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric form.
 * - `type` becomes a sorted, de-duplicated list (a single type is written as a string;
 *   `integer` next to `number` is dropped as redundant); `required` and `enum` are sorted and
 *   de-duplicated; `const` becomes a one-value `enum` (intersected with an `enum` beside it).
 * - Tuples use the 2020-12 spelling: array-form `items` becomes `prefixItems` and
 *   `additionalItems` becomes `items`; draft-07 `dependencies` become `dependentRequired` /
 *   `dependentSchemas`.
 * - `allOf` members whose keywords do not overlap with their parent's (and do not interact with
 *   them, like `properties` with `additionalProperties`) are merged into the parent; a
 *   one-branch `anyOf`/`oneOf` is treated as a one-member `allOf`; empty (`{}`/`true`) members
 *   are dropped.
 * - Object keys are sorted.
 */
export function normalizeSchema(schema: Json, opts: NormalizeOptions = {}): NormalizedSchema {
  const n = new Normalizer(schema, opts.keepAnnotations ?? false, opts.maxNodes ?? 200_000);
  let normalized = n.visit(schema, '', ['']);
  if (n.circularRefs.length > 0 && isObject(normalized) && isObject(schema)) {
    const defs = n.definitions(schema);
    if (Object.keys(defs).length > 0) normalized = { ...normalized, $defs: defs };
  }
  return { schema: sortKeys(normalized), circularRefs: n.circularRefs, unsupportedRefs: n.unsupportedRefs };
}

/**
 * One normalization of `schema` (the root its `$ref`s resolve against): visits its subschemas,
 * inlining refs, and collects the refs it could not inline.
 */
class Normalizer {
  readonly circularRefs: string[] = [];
  readonly unsupportedRefs: string[] = [];
  /** Nodes visited so far: past `maxNodes`, refs are no longer inlined. */
  private nodes = 0;

  constructor(
    private readonly schema: Json,
    private readonly keepAnnotations: boolean,
    private readonly maxNodes: number,
  ) {}

  /** A subschema at `where` (a pointer, for messages), reached through the refs of `refStack`. */
  visit(node: Json, where: string, refStack: readonly string[]): Json {
    this.nodes++;
    if (!isObject(node)) return node; // booleans (and garbage) pass through unchanged
    let working: JsonObject = node;

    const ref = working.$ref;
    if (typeof ref === 'string') {
      const { $ref: _ignored, ...siblings } = working;
      const hasSiblings = Object.keys(siblings).some((k) => k !== '$schema' && (this.keepAnnotations || !isAnnotation(k)));
      if (!hasSiblings) return this.inlineRef(ref, where, refStack);
      // Siblings of $ref apply too (2019-09+); draft-07 ignored them, but tool schemas are 2020-12.
      working = { ...siblings, allOf: [...(Array.isArray(siblings.allOf) ? siblings.allOf : []), { $ref: ref }] };
    }

    const out: JsonObject = {};
    for (const [key, value] of Object.entries(working)) {
      if (key === '$schema') continue;
      if (!this.keepAnnotations && isAnnotation(key)) continue;
      if (key === 'definitions' || key === '$defs') continue; // inlined where referenced
      setOwn(out, key, this.visitKeyword(key, value, `${where}/${escapePointerToken(key)}`, refStack));
    }
    return finishObject(out);
  }

  /** The normalized target of a `$ref` without siblings, or the ref itself when it cannot be inlined. */
  private inlineRef(ref: string, where: string, refStack: readonly string[]): Json {
    if (!ref.startsWith('#') || (ref.length > 1 && !ref.startsWith('#/'))) {
      this.unsupportedRefs.push(`${where || '/'} -> ${ref}`);
      return { $ref: ref };
    }
    const pointer = ref.slice(1);
    if (refStack.includes(pointer) || pointer === '') {
      this.circularRefs.push(`${where || '/'} -> ${ref}`);
      return { $ref: canonicalRef(ref) };
    }
    if (this.nodes > this.maxNodes) {
      this.unsupportedRefs.push(`${where || '/'} -> ${ref} (not inlined: schema exceeds ${this.maxNodes} nodes)`);
      return { $ref: canonicalRef(ref) };
    }
    const target = resolvePointer(this.schema, pointer);
    if (target === undefined) {
      this.unsupportedRefs.push(`${where || '/'} -> ${ref} (target not found)`);
      return { $ref: canonicalRef(ref) };
    }
    return this.visit(target, where, [...refStack, pointer]);
  }

  /** The value of keyword `key`, its subschemas visited. */
  private visitKeyword(key: string, value: Json, where: string, refStack: readonly string[]): Json {
    if ((SINGLE_SCHEMA_KEYWORDS as readonly string[]).includes(key)) return this.visit(value, where, refStack);
    if (key === 'items') {
      return Array.isArray(value) ? value.map((v, i) => this.visit(v, `${where}/${i}`, refStack)) : this.visit(value, where, refStack);
    }
    if ((ARRAY_SCHEMA_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
      return value.map((v, i) => this.visit(v, `${where}/${i}`, refStack));
    }
    if (key === 'dependencies' && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, v] of Object.entries(value)) {
        setOwn(mapped, name, Array.isArray(v) ? v : this.visit(v, `${where}/${escapePointerToken(name)}`, refStack));
      }
      return mapped;
    }
    if ((MAP_SCHEMA_KEYWORDS as readonly string[]).includes(key) && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, v] of Object.entries(value)) setOwn(mapped, name, this.visit(v, `${where}/${escapePointerToken(name)}`, refStack));
      return mapped;
    }
    if (key === '$ref' && typeof value === 'string') return canonicalRef(value);
    return value;
  }

  /**
   * The root's `definitions` and `$defs`, normalized, by name: kept when refs remain, so that
   * equal recursive schemas stay equal and changed ones differ. Visited only then: an unused
   * recursive definition must not make a schema "circular".
   */
  definitions(root: JsonObject): JsonObject {
    const defs: JsonObject = {};
    for (const kw of ['definitions', '$defs'] as const) {
      const source = root[kw];
      if (!isObject(source)) continue;
      for (const [name, def] of Object.entries(source)) {
        const pointer = `/${kw}/${escapePointerToken(name)}`;
        setOwn(defs, name, this.visit(def, `/$defs/${escapePointerToken(name)}`, ['', pointer]));
      }
    }
    return defs;
  }
}

const isAnnotation = (key: string): boolean => ANNOTATIONS.has(key) || key.startsWith('x-');

/** Per-node rewrites that only look at one schema object whose children are already normalized. */
function finishObject(input: JsonObject): JsonObject {
  const s: JsonObject = { ...input };

  // OpenAPI 3.0 nullable (OAS 3.0.3: only meaningful next to an explicit type).
  if (s.nullable === true && s.type !== undefined) {
    s.type = [...(Array.isArray(s.type) ? s.type : [s.type]), 'null'];
  }
  delete s.nullable;

  // Draft-04 boolean exclusive bounds -> numeric form (draft-06+).
  for (const [excl, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof s[excl] === 'boolean') {
      if (s[excl] === true && typeof s[bound] === 'number') {
        s[excl] = s[bound];
        delete s[bound];
      } else {
        delete s[excl];
      }
    }
  }

  if (s.type !== undefined) {
    const types = [...new Set((Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string'))];
    const filtered = types.includes('number') ? types.filter((t) => t !== 'integer') : types;
    filtered.sort();
    s.type = filtered.length === 1 ? (filtered[0] as string) : filtered;
  }

  if (Array.isArray(s.required)) {
    const req = [...new Set(s.required.filter((r): r is string => typeof r === 'string'))].sort();
    if (req.length === 0) delete s.required;
    else s.required = req;
  }

  if (s.const !== undefined) {
    const c = s.const;
    s.enum = Array.isArray(s.enum) ? s.enum.filter((v) => jsonEqual(v, c)) : [c];
    delete s.const;
  }
  if (Array.isArray(s.enum)) s.enum = sortUnique(s.enum);

  // Tuples: draft-04..07 `items: [...]` + `additionalItems` -> 2020-12 `prefixItems` + `items`.
  if (Array.isArray(s.items)) {
    s.prefixItems = s.items;
    if (s.additionalItems !== undefined) s.items = s.additionalItems;
    else delete s.items;
  }
  delete s.additionalItems; // ignored by every draft when `items` is a single schema

  if (isObject(s.dependencies)) {
    const dr: JsonObject = isObject(s.dependentRequired) ? { ...s.dependentRequired } : {};
    const ds: JsonObject = isObject(s.dependentSchemas) ? { ...s.dependentSchemas } : {};
    for (const [name, v] of Object.entries(s.dependencies)) {
      setOwn(Array.isArray(v) ? dr : ds, name, v);
    }
    if (Object.keys(dr).length > 0) s.dependentRequired = dr;
    if (Object.keys(ds).length > 0) s.dependentSchemas = ds;
    delete s.dependencies;
  }
  if (isObject(s.dependentRequired)) {
    const dr: JsonObject = {};
    for (const [name, v] of Object.entries(s.dependentRequired)) {
      if (Array.isArray(v)) setOwn(dr, name, [...new Set(v.filter((x): x is string => typeof x === 'string'))].sort());
    }
    s.dependentRequired = dr;
  }

  return flattenComposition(s);
}

/** Keyword pairs that read each other: merging them from different allOf members changes meaning. */
const INTERACTING: readonly (readonly string[])[] = [
  ['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties'],
  ['prefixItems', 'items', 'unevaluatedItems', 'contains', 'minContains', 'maxContains'],
  ['if', 'then', 'else'],
  ['minimum', 'exclusiveMinimum'],
  ['maximum', 'exclusiveMaximum'],
];

function conflicts(parent: JsonObject, member: JsonObject): boolean {
  const pk = Object.keys(parent);
  const mk = Object.keys(member);
  if (mk.some((k) => pk.includes(k))) return true;
  // unevaluated* see every applicator: never merge them across members.
  if (pk.some((k) => k.startsWith('unevaluated')) || mk.some((k) => k.startsWith('unevaluated'))) return true;
  return INTERACTING.some((group) => pk.some((k) => group.includes(k)) && mk.some((k) => group.includes(k)));
}

const isEmptySchema = (v: Json | undefined): boolean => v === true || (isObject(v) && Object.keys(v).length === 0);

function flattenComposition(input: JsonObject): JsonObject {
  let s = input;
  // anyOf/oneOf with exactly one branch is that branch.
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const v = s[kw];
    if (Array.isArray(v) && v.length === 1) {
      const { [kw]: _single, ...rest } = s;
      s = { ...rest, allOf: [...(Array.isArray(rest.allOf) ? rest.allOf : []), v[0] as Json] };
    }
  }
  if (!Array.isArray(s.allOf)) return s;

  // Associativity: a member that is nothing but an allOf contributes its members.
  const members: Json[] = [];
  const pending = [...s.allOf];
  while (pending.length > 0) {
    const m = pending.shift() as Json;
    if (isObject(m) && Object.keys(m).length === 1 && Array.isArray(m.allOf)) pending.unshift(...m.allOf);
    else members.push(m);
  }

  const { allOf: _members, ...rest } = s;
  let merged: JsonObject = rest;
  const remaining: Json[] = [];
  for (const m of members) {
    if (isEmptySchema(m)) continue;
    if (isObject(m) && !conflicts(merged, m)) merged = { ...merged, ...m };
    else remaining.push(m);
  }
  if (remaining.length > 0) merged.allOf = remaining;
  return merged;
}

function sortUnique(values: Json[]): Json[] {
  const byKey = new Map<string, Json>();
  for (const v of values) byKey.set(canonicalJson(v), v);
  return [...byKey.keys()].sort().map((k) => byKey.get(k) as Json);
}
