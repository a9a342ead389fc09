/**
 * The pinned form of a JSON Schema ({@link normalizeEquivalentForms}): what a contract stores and
 * every digest covers. It rewrites only spellings that JSON Schema (every draft from 04 to
 * 2020-12, and OpenAPI 3.x Schema Objects) defines as the same schema, so the pinned schema is still the one
 * the model is shown, and a server that switches between two such spellings (a real case:
 * `@modelcontextprotocol/server-filesystem` sends `required: []` on some tools) changes no
 * digest and is no `contract-stale`. The equivalences, applied at every schema position
 * (`properties`, `items`, `allOf`, `$defs`, `not`, ...; never inside `enum`, `const`, `default`,
 * `examples` or vendor keys, which are data):
 * - `required: []` is the same as no `required`;
 * - `required` is a set: duplicates are dropped and the names sorted;
 * - `type` is a set: duplicates are dropped and the names sorted; a one-element array is written
 *   as the string (`["string"]` → `"string"`);
 * - `enum` duplicates (equal JSON values) are dropped; the first occurrence keeps its place
 *   (order is left alone: it is what a model reads as the list of choices);
 * - `additionalProperties: true` or `{}` is the same as no `additionalProperties`, and
 *   `items: true` or `{}` the same as no `items` (unless the schema uses
 *   `unevaluatedProperties` / `unevaluatedItems`, which see what those keywords evaluated; then
 *   both spellings are kept);
 * - numbers need nothing: `1.0` and `1` are the same JSON number and serialize alike (RFC 8785).
 * A `required` or `type` array holding a non-string is left as written (invalid, so not ours to
 * reinterpret). Object keys are left in place; the caller sorts them.
 *
 * The comparison form (diff/schema/normalize.ts, `normalizeSchema`) goes much further and walks the
 * same subschema keywords ({@link SINGLE_SCHEMA_KEYWORDS} and the two lists after it).
 */
import type { Json, JsonObject } from '../util/json.js';
import { canonicalJson, hasOwn, isObject, setOwn } from '../util/json.js';

/** A JSON Schema draft's meta-schema URI (a `$schema` that is structure, not text). */
export function isDialectUri(v: unknown): boolean {
  return typeof v === 'string' && /^https?:\/\/json-schema\.org\/(draft-0[3-7]\/schema|draft\/(2019-09|2020-12)\/schema)#?$/.test(v);
}

/** Keywords whose value is one subschema. */
export const SINGLE_SCHEMA_KEYWORDS = [
  'additionalProperties',
  'additionalItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;
/** Keywords whose value is an array of subschemas. */
export const ARRAY_SCHEMA_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords whose value maps names to subschemas. */
export const MAP_SCHEMA_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs'] as const;

/**
 * The pinned form of a JSON Schema: the equivalences listed in this module's comment, at every
 * schema position. Pure; returns `schema` itself when nothing changes (and shares unchanged
 * subtrees otherwise), so calling it on an already pinned schema costs one walk and no copy.
 * Keys are kept where they are (own data properties, `__proto__` included); sort them after.
 */
export function normalizeEquivalentForms(schema: Json): Json {
  // Only computed when an `additionalProperties`/`items` that could go is found.
  let unevaluated: boolean | undefined;
  const usesUnevaluated = (): boolean => (unevaluated ??= hasKey(schema, UNEVALUATED));

  const mapList = (list: Json[], f: (v: Json) => Json): Json[] => {
    let out: Json[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const v = list[i] as Json;
      const nv = f(v);
      if (nv !== v) (out ??= list.slice())[i] = nv;
    }
    return out ?? list;
  };
  const mapObject = (map: JsonObject, f: (v: Json) => Json): JsonObject => {
    let out: JsonObject | undefined;
    for (const name of Object.keys(map)) {
      const v = map[name] as Json;
      const nv = f(v);
      if (nv !== v) setOwn((out ??= { ...map }), name, nv);
    }
    return out ?? map;
  };

  const visit = (node: Json): Json => {
    if (!isObject(node)) return node;
    let out: JsonObject | undefined;
    let emptyRequired = false;
    for (const key of Object.keys(node)) {
      const v = node[key] as Json;
      let nv = v;
      if (SINGLE_SET.has(key)) nv = visit(v);
      else if (key === 'items') nv = Array.isArray(v) ? mapList(v, visit) : visit(v);
      else if (ARRAY_SET.has(key)) nv = Array.isArray(v) ? mapList(v, visit) : v;
      else if (MAP_SET.has(key)) nv = isObject(v) ? mapObject(v, visit) : v;
      else if (key === 'dependencies') nv = isObject(v) ? mapObject(v, visitDependency) : v;
      else if (key === 'required' && Array.isArray(v)) {
        if (v.length === 0) emptyRequired = true;
        else nv = asSet(v, false);
      } else if (key === 'type' && Array.isArray(v)) nv = asSet(v, true);
      else if (key === 'enum' && Array.isArray(v)) nv = withoutDuplicates(v);
      if (nv !== v) setOwn((out ??= { ...node }), key, nv);
    }
    const result = out ?? node;
    let dropOpen = false;
    for (const key of OPEN_SCHEMA_KEYS) if (hasOwn(result, key) && isOpenSchema(result[key])) dropOpen = true;
    dropOpen &&= !usesUnevaluated();
    if (!emptyRequired && !dropOpen) return result;
    const trimmed: JsonObject = {};
    for (const key of Object.keys(result)) {
      const v = result[key] as Json;
      if (key === 'required' && emptyRequired) continue;
      if (dropOpen && OPEN_SCHEMA_KEYS.includes(key) && isOpenSchema(v)) continue;
      setOwn(trimmed, key, v);
    }
    return trimmed;
  };
  const visitDependency = (d: Json): Json => (Array.isArray(d) ? d : visit(d));
  return visit(schema);
}

const SINGLE_SET: ReadonlySet<string> = new Set(SINGLE_SCHEMA_KEYWORDS);
const ARRAY_SET: ReadonlySet<string> = new Set(ARRAY_SCHEMA_KEYWORDS);
/** Schema maps, draft-07 `definitions` included (only `$defs` is a keyword of 2020-12). */
const MAP_SET: ReadonlySet<string> = new Set([...MAP_SCHEMA_KEYWORDS, 'definitions']);
const UNEVALUATED: ReadonlySet<string> = new Set(['unevaluatedProperties', 'unevaluatedItems']);
/** Keywords whose `true`/`{}` value is the same as no keyword (without unevaluated*). */
const OPEN_SCHEMA_KEYS: readonly string[] = ['additionalProperties', 'items'];

/** `true` or `{}`: the schema every value satisfies. */
const isOpenSchema = (v: Json | undefined): boolean => v === true || (isObject(v) && Object.keys(v).length === 0);

/** Whether any object in `value` has one of `keys` (data included: erring towards keeping spellings, or resolving). */
export function hasKey(value: Json, keys: ReadonlySet<string>): boolean {
  if (Array.isArray(value)) return value.some((v) => hasKey(v, keys));
  if (!isObject(value)) return false;
  for (const k of Object.keys(value)) if (keys.has(k) || hasKey(value[k] as Json, keys)) return true;
  return false;
}

/**
 * A non-empty `required` or `type` as a set: the names sorted and de-duplicated, a one-element
 * `type` as the string. `list` itself when already in that form or when it holds a non-string
 * (invalid: left as written).
 */
function asSet(list: Json[], isType: boolean): Json {
  let sorted = true;
  for (let i = 0; i < list.length; i++) {
    const x = list[i];
    if (typeof x !== 'string') return list;
    if (i > 0 && (list[i - 1] as string) >= x) sorted = false;
  }
  const names = sorted ? list : [...new Set(list as string[])].sort();
  return isType && names.length === 1 ? (names[0] as string) : names;
}

/** `values` without repeated JSON values, first occurrences in place; `values` itself when none repeats. */
function withoutDuplicates(values: Json[]): Json[] {
  if (values.length < 2) return values;
  const seen = new Set<unknown>();
  let unique: Json[] | undefined;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as Json;
    // Scalars are their own key (`1.0` is `1` once parsed); objects and arrays go by canonical text.
    const key = v !== null && typeof v === 'object' ? `\u0000${canonicalJson(v)}` : v;
    if (seen.has(key)) unique ??= values.slice(0, i);
    else {
      seen.add(key);
      unique?.push(v);
    }
  }
  return unique ?? values;
}
