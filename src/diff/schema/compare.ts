/**
 * toolgate's own keyword-by-keyword comparison of two normalized schemas: pure, synchronous and
 * linear in the schema size. It covers what json-schema-diff ignores or reports surprisingly
 * (`enum`, `const`, `pattern`, `format`, tuples, the open-object case) and leaves composition
 * changes it cannot pair up to json-schema-diff (see classify.ts).
 *
 * Reading model: a schema is a conjunction of constraints. Each keyword is compared on its own:
 * loosening one is `widened`, tightening one is `narrowed`. Interactions between keywords are
 * not solved (e.g. a new enum value of a type the schema does not allow is still "added"); that
 * errs towards reporting a change, never towards hiding one.
 *
 * This module is the walk: it pairs up two nodes, compares `type` and `enum` (which apply to
 * every type), hands each keyword family to its module (compare-values.ts for strings and
 * numbers, compare-arrays.ts, compare-objects.ts, compare-composition.ts) and leaves every
 * keyword no module handles undecided.
 */
import type { Json, JsonObject } from '../../util/json.js';
import { canonicalJson, isObject, jsonEqual } from '../../util/json.js';
import { emit, show, undecided, type CompareResult, type Polarity } from './compare-deltas.js';
import { compareFormat, compareLowerBound, compareMultipleOf, compareNumericBounds, comparePattern, compareUpperBound } from './compare-values.js';
import { compareContains, compareItems, compareUniqueItems } from './compare-arrays.js';
import { compareObject } from './compare-objects.js';
import { compareComposition } from './compare-composition.js';

const ALL_TYPES = ['array', 'boolean', 'integer', 'null', 'number', 'object', 'string'] as const;

/** Keywords that only constrain instances of one type: skipped when neither side allows it. */
const TYPE_OF_KEYWORD: Readonly<Record<string, string>> = {
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  items: 'array',
  prefixItems: 'array',
  contains: 'array',
  minContains: 'array',
  maxContains: 'array',
  unevaluatedItems: 'array',
  properties: 'object',
  required: 'object',
  additionalProperties: 'object',
  patternProperties: 'object',
  propertyNames: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  dependentRequired: 'object',
  dependentSchemas: 'object',
  unevaluatedProperties: 'object',
};

/** Keywords this module understands; any other keyword that changed leaves the node undecided. */
const HANDLED = new Set([
  'type',
  'enum',
  'format',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  ...Object.keys(TYPE_OF_KEYWORD).filter((k) => !k.startsWith('unevaluated')),
]);

/**
 * Compares two normalized schemas (see normalizeSchema) and lists what changed, by path.
 * Nodes it cannot decide are returned as `undecided`.
 */
export function compareSchemas(before: Json, after: Json): CompareResult {
  const result: CompareResult = { deltas: [], undecided: [] };
  compareNode(before, after, '', 1, result);
  return result;
}

const asObject = (s: Json): JsonObject | false => (s === false ? false : isObject(s) ? s : {});

function compareNode(before: Json, after: Json, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(before, after)) return;
  const a = asObject(before);
  const b = asObject(after);
  if (a === false && b === false) return;
  if (a === false) {
    if (!isUnsatisfiable(b as JsonObject)) emit(out, path, 'widened', pol, 'now accepts values (was: false, nothing allowed)');
    return;
  }
  if (b === false) {
    if (!isUnsatisfiable(a)) emit(out, path, 'narrowed', pol, 'now rejects every value (schema is false)');
    return;
  }
  if (jsonEqual(a, b)) return; // `true` vs `{}`

  // Remaining circular $refs are handled before we get here; be safe anyway.
  if (a.$ref !== undefined || b.$ref !== undefined) {
    undecided(out, path, `unresolved $ref at ${path || '/'}`, false, a, b);
    return;
  }

  const ta = typeSet(a);
  const tb = typeSet(b);
  const relevant = (kw: string): boolean => {
    const t = TYPE_OF_KEYWORD[kw];
    if (t === undefined) return true;
    return ta.has(t) || tb.has(t) || (t === 'number' && (ta.has('integer') || tb.has('integer')));
  };

  compareType(a, b, ta, tb, path, pol, out);
  compareEnum(a.enum, b.enum, path, pol, out);
  compareFormat(a.format, b.format, path, pol, out);
  if (relevant('pattern')) comparePattern(a.pattern, b.pattern, path, pol, out);
  if (relevant('minLength')) {
    compareLowerBound(a.minLength, b.minLength, 'minLength', path, pol, out);
    compareUpperBound(a.maxLength, b.maxLength, 'maxLength', path, pol, out);
  }
  if (relevant('minimum')) {
    compareNumericBounds(a, b, path, pol, out);
    compareMultipleOf(a.multipleOf, b.multipleOf, path, pol, out);
  }
  if (relevant('items')) {
    compareLowerBound(a.minItems, b.minItems, 'minItems', path, pol, out);
    compareUpperBound(a.maxItems, b.maxItems, 'maxItems', path, pol, out);
    compareUniqueItems(a.uniqueItems, b.uniqueItems, path, pol, out);
    compareItems(a, b, path, pol, out, compareNode);
    compareContains(a, b, path, pol, out, compareNode);
  }
  if (relevant('properties')) {
    compareObject(a, b, path, pol, out, compareNode);
  }
  compareComposition(a, b, path, pol, out, compareNode);

  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (HANDLED.has(key) || jsonEqual(a[key], b[key])) continue;
    if (key === 'unevaluatedProperties' || key === 'unevaluatedItems') {
      if (relevant(key)) undecided(out, path, `"${key}" changed at ${path || '/'}; its reach depends on every applicator and is not compared`, false, a, b);
      continue;
    }
    undecided(out, path, `keyword "${key}" changed at ${path || '/'} and toolgate does not compare it`, false, a, b);
  }
}

/** `{enum: []}`, `{not: {}}`, `{type: []}`: schemas that accept nothing. */
function isUnsatisfiable(s: JsonObject): boolean {
  return (
    (Array.isArray(s.enum) && s.enum.length === 0) ||
    (s.not !== undefined && (s.not === true || (isObject(s.not) && Object.keys(s.not).length === 0))) ||
    (Array.isArray(s.type) && s.type.length === 0)
  );
}

function typeSet(s: JsonObject): Set<string> {
  if (s.type === undefined) return new Set(ALL_TYPES);
  const list = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string');
  const set = new Set(list);
  if (set.has('number')) set.add('integer');
  return set;
}

const COMPOSITION_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'if'];

/** Whether `s`'s anyOf/oneOf branches (or an allOf member) each declare a `type`, or a `$ref` types it. */
function compositionTypes(s: JsonObject): boolean {
  const typed = (x: Json) => isObject(x) && (x.type !== undefined || x.$ref !== undefined);
  const all = (k: string) => Array.isArray(s[k]) && s[k].length > 0 && s[k].every(typed);
  return s.$ref !== undefined || all('anyOf') || all('oneOf') || (Array.isArray(s.allOf) && s.allOf.some(typed));
}

function hasComposition(s: JsonObject): boolean {
  return COMPOSITION_KEYWORDS.some((k) => s[k] !== undefined);
}

function compareType(a: JsonObject, b: JsonObject, ta: Set<string>, tb: Set<string>, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(a.type, b.type)) return;
  const listed = (s: JsonObject): string => show(s.type);
  // A side without `type` but with anyOf/oneOf/allOf/$ref/... may be typed by those subschemas,
  // which the composition comparison judges; "any type" would be wrong there. But when the new
  // side drops `type`, the composition must type every value itself, or the drop widens (fail
  // closed): `not` and an untyped `allOf` member type nothing.
  if (a.type === undefined && hasComposition(a)) return;
  if (b.type === undefined && hasComposition(b) && compositionTypes(b)) return;
  if (b.type === undefined) {
    emit(out, path, 'widened', pol, `any type now accepted (was ${listed(a)})`);
    return;
  }
  if (a.type === undefined) {
    emit(out, path, 'narrowed', pol, `type now restricted to ${listed(b)}`);
    return;
  }
  const label = (t: string): string => (t === 'number' ? 'number' : t);
  for (const t of [...tb].sort()) {
    if (ta.has(t)) continue;
    if (t === 'integer' && tb.has('number')) continue; // reported as "number"
    emit(out, path, 'widened', pol, t === 'number' && ta.has('integer') ? 'type widened from integer to number' : `type "${label(t)}" now accepted`);
  }
  for (const t of [...ta].sort()) {
    if (tb.has(t)) continue;
    if (t === 'integer' && ta.has('number')) continue;
    emit(out, path, 'narrowed', pol, t === 'number' && tb.has('integer') ? 'type narrowed from number to integer' : `type "${label(t)}" no longer accepted`);
  }
}

function listValues(values: Json[]): string {
  const shown = values
    .slice(0, 5)
    .map((v) => show(v, 40))
    .join(', ');
  return values.length > 5 ? `${shown}, … (+${values.length - 5} more)` : shown;
}

function compareEnum(ea: Json | undefined, eb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(ea, eb)) return;
  if (!Array.isArray(eb)) {
    if (Array.isArray(ea)) emit(out, path, 'widened', pol, `no longer restricted to the values ${listValues(ea)}`);
    return;
  }
  if (!Array.isArray(ea)) {
    emit(out, path, 'narrowed', pol, `now restricted to the values ${listValues(eb)}`);
    return;
  }
  const ka = new Set(ea.map((v) => canonicalJson(v)));
  const kb = new Set(eb.map((v) => canonicalJson(v)));
  const added = eb.filter((v) => !ka.has(canonicalJson(v)));
  const removed = ea.filter((v) => !kb.has(canonicalJson(v)));
  const word = (n: number, verb: string): string => (n === 1 ? `enum value ${verb}` : `enum values ${verb}`);
  if (added.length > 0 && added.length <= 5) for (const v of added) emit(out, path, 'widened', pol, `enum value ${show(v, 40)} added`);
  else if (added.length > 5) emit(out, path, 'widened', pol, `${word(added.length, 'added')}: ${listValues(added)}`);
  if (removed.length > 0 && removed.length <= 5) for (const v of removed) emit(out, path, 'narrowed', pol, `enum value ${show(v, 40)} removed`);
  else if (removed.length > 5) emit(out, path, 'narrowed', pol, `${word(removed.length, 'removed')}: ${listValues(removed)}`);
}
