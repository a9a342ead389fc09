/**
 * Schema normalization before classification: a pure function that removes differences that do
 * not change which inputs a schema accepts, so that the comparison only sees real changes.
 */
import type { Json, JsonObject } from '../../surface/model.js';

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
  'title', 'description', 'default', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly',
  '$comment', 'externalDocs', 'xml', 'discriminator', 'contentMediaType', 'contentEncoding',
  '$id', 'id', '$anchor', '$dynamicAnchor', '$recursiveAnchor', '$vocabulary',
]);

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  'additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then',
  'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema',
] as const;
/** Keywords whose value is an array of subschemas. */
export const ARRAY_SCHEMA_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMA_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'] as const;

const isObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Canonical JSON text: object keys sorted, no whitespace. Used for equality and sorting. */
export function canonicalJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as Json)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Structural equality of two JSON values (key order ignored). */
export function jsonEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return false;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual(a[k], b[k]));
}

/**
 * Sets an own property, also for the name `__proto__` (a plain assignment would change the
 * prototype instead: schemas come from servers and may be hostile).
 */
export function put(o: JsonObject, key: string, value: Json): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Decodes one RFC 6901 reference token. */
const unescapeToken = (t: string): string => t.replace(/~1/g, '/').replace(/~0/g, '~');
/** Encodes one RFC 6901 reference token. */
export const escapeToken = (t: string): string => t.replace(/~/g, '~0').replace(/\//g, '~1');

function resolvePointer(root: Json, pointer: string): Json | undefined {
  if (pointer === '') return root;
  let node: Json | undefined = root;
  for (const raw of pointer.slice(1).split('/')) {
    let token: string;
    try {
      token = unescapeToken(decodeURIComponent(raw));
    } catch {
      return undefined;
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = Object.prototype.hasOwnProperty.call(node, token) ? node[token] : undefined;
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
  const keepAnnotations = opts.keepAnnotations ?? false;
  const maxNodes = opts.maxNodes ?? 200_000;
  const circularRefs: string[] = [];
  const unsupportedRefs: string[] = [];
  let nodes = 0;

  const visit = (node: Json, where: string, refStack: readonly string[]): Json => {
    nodes++;
    if (!isObject(node)) return node; // booleans (and garbage) pass through unchanged
    let working: JsonObject = node;

    const ref = working.$ref;
    if (typeof ref === 'string') {
      const { $ref: _ignored, ...siblings } = working;
      const hasSiblings = Object.keys(siblings).some((k) => k !== '$schema' && (keepAnnotations || !isAnnotation(k)));
      if (!hasSiblings) return inlineRef(ref, where, refStack);
      // Siblings of $ref apply too (2019-09+); draft-07 ignored them, but tool schemas are 2020-12.
      working = { ...siblings, allOf: [...(Array.isArray(siblings.allOf) ? siblings.allOf : []), { $ref: ref }] };
    }

    const out: JsonObject = {};
    for (const [key, value] of Object.entries(working)) {
      if (key === '$schema') continue;
      if (!keepAnnotations && isAnnotation(key)) continue;
      if (key === 'definitions' || key === '$defs') continue; // inlined where referenced
      put(out, key, visitKeyword(key, value, `${where}/${escapeToken(key)}`, refStack));
    }
    return finishObject(out);
  };

  const inlineRef = (ref: string, where: string, refStack: readonly string[]): Json => {
    if (!ref.startsWith('#') || (ref.length > 1 && !ref.startsWith('#/'))) {
      unsupportedRefs.push(`${where || '/'} -> ${ref}`);
      return { $ref: ref };
    }
    const pointer = ref.slice(1);
    if (refStack.includes(pointer) || pointer === '') {
      circularRefs.push(`${where || '/'} -> ${ref}`);
      return { $ref: canonicalRef(ref) };
    }
    if (nodes > maxNodes) {
      unsupportedRefs.push(`${where || '/'} -> ${ref} (not inlined: schema exceeds ${maxNodes} nodes)`);
      return { $ref: canonicalRef(ref) };
    }
    const target = resolvePointer(schema, pointer);
    if (target === undefined) {
      unsupportedRefs.push(`${where || '/'} -> ${ref} (target not found)`);
      return { $ref: canonicalRef(ref) };
    }
    return visit(target, where, [...refStack, pointer]);
  };

  const visitKeyword = (key: string, value: Json, where: string, refStack: readonly string[]): Json => {
    if ((SINGLE_SCHEMA_KEYWORDS as readonly string[]).includes(key)) return visit(value, where, refStack);
    if (key === 'items') {
      return Array.isArray(value)
        ? value.map((v, i) => visit(v, `${where}/${i}`, refStack))
        : visit(value, where, refStack);
    }
    if ((ARRAY_SCHEMA_KEYWORDS as readonly string[]).includes(key) && Array.isArray(value)) {
      return value.map((v, i) => visit(v, `${where}/${i}`, refStack));
    }
    if (key === 'dependencies' && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, v] of Object.entries(value)) {
        put(mapped, name, Array.isArray(v) ? v : visit(v, `${where}/${escapeToken(name)}`, refStack));
      }
      return mapped;
    }
    if ((MAP_SCHEMA_KEYWORDS as readonly string[]).includes(key) && isObject(value)) {
      const mapped: JsonObject = {};
      for (const [name, v] of Object.entries(value)) put(mapped, name, visit(v, `${where}/${escapeToken(name)}`, refStack));
      return mapped;
    }
    if (key === '$ref' && typeof value === 'string') return canonicalRef(value);
    return value;
  };

  let normalized = visit(schema, '', ['']);
  if (circularRefs.length > 0 && isObject(normalized) && isObject(schema)) {
    // Keep the definitions the remaining refs point at, so that equal recursive schemas stay
    // equal and changed ones differ. Visited only now: an unused recursive definition must not
    // make a schema "circular".
    const defs: JsonObject = {};
    for (const kw of ['definitions', '$defs'] as const) {
      const source = schema[kw];
      if (!isObject(source)) continue;
      for (const [name, def] of Object.entries(source)) {
        const pointer = `/${kw}/${escapeToken(name)}`;
        put(defs, name, visit(def, `/$defs/${escapeToken(name)}`, ['', pointer]));
      }
    }
    if (Object.keys(defs).length > 0) normalized = { ...normalized, $defs: defs };
  }
  return { schema: sortKeys(normalized), circularRefs, unsupportedRefs };
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
  for (const [excl, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
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
      put(Array.isArray(v) ? dr : ds, name, v);
    }
    if (Object.keys(dr).length > 0) s.dependentRequired = dr;
    if (Object.keys(ds).length > 0) s.dependentSchemas = ds;
    delete s.dependencies;
  }
  if (isObject(s.dependentRequired)) {
    const dr: JsonObject = {};
    for (const [name, v] of Object.entries(s.dependentRequired)) {
      if (Array.isArray(v)) put(dr, name, [...new Set(v.filter((x): x is string => typeof x === 'string'))].sort());
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

/** Recursively sorts object keys (arrays keep their order). */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const k of Object.keys(value).sort()) put(out, k, sortKeys(value[k] as Json));
  return out;
}
