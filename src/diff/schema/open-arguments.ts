/**
 * Support for the `open-arguments` rule: does an `inputSchema` let a caller pass arguments the
 * schema does not declare?
 */
import type { Json, JsonObject } from '../../util/json.js';
import { normalizeSchema } from './normalize.js';
import { isObject } from '../../util/json.js';

/** `false`, or `{not: {}}`: a schema no value satisfies. */
const rejectsAll = (s: Json | undefined): boolean => s === false || (isObject(s) && (s.not === true || (isObject(s.not) && Object.keys(s.not).length === 0)));

/** Closed at this level: undeclared names are rejected by this schema object itself. */
function closedHere(s: JsonObject): boolean {
  if (rejectsAll(s.additionalProperties) || rejectsAll(s.unevaluatedProperties)) return true;
  // `propertyNames` limited to a fixed list of names also closes the object.
  const names = s.propertyNames;
  return isObject(names) && (Array.isArray(names.enum) || names.const !== undefined);
}

/**
 * True when `schema` accepts object arguments with names it does not declare: its
 * `additionalProperties` is absent, `true` or a schema other than `false` (absent counts as open,
 * as in JSON Schema).
 *
 * Decisions for the edge cases (the schema is normalized first, so `$ref`s are inlined and
 * single-member compositions merged):
 * - `true` / `{}` is open; `false` is closed (it accepts nothing at all).
 * - `unevaluatedProperties: false` closes the object like `additionalProperties: false`; so does
 *   `propertyNames` with an `enum`/`const` (a fixed list of names).
 * - `patternProperties` next to `additionalProperties: false` counts as closed: names are
 *   constrained, even if a family of them is allowed.
 * - `allOf`: closed when any member is closed (every member must hold).
 * - `anyOf`/`oneOf`: closed only when every branch is closed; one open branch is a way in.
 * - `not`, `if/then/else`, `dependentSchemas` are not considered.
 * - A schema whose `type` excludes `object` does not take named arguments: false.
 */
export function allowsUnknownArguments(schema: Json): boolean {
  // Normalizing inlines `$ref`s and merges compositions: only needed when the root uses them.
  // Most tool schemas are a plain object schema, decided as they are (this runs for every tool).
  if (isObject(schema) && !NEEDS_NORMALIZING.some((k) => k in schema)) return open(schema);
  const { schema: s } = normalizeSchema(schema);
  return open(s);
}

const NEEDS_NORMALIZING = ['$ref', 'allOf', 'anyOf', 'oneOf'];

function open(s: Json): boolean {
  if (s === true) return true;
  if (!isObject(s)) return false;
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    if (!types.includes('object')) return false;
  }
  if (closedHere(s)) return false;
  if (Array.isArray(s.allOf) && s.allOf.some((m) => !open(m))) return false;
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const branches = s[kw];
    if (Array.isArray(branches) && branches.length > 0 && branches.every((m) => !open(m))) return false;
  }
  return true;
}
