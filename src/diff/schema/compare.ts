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
 */
import type { Json, JsonObject } from '../../util/json.js';
import { canonicalJson, escapePointerToken, getOwn, isObject, jsonEqual } from '../../util/json.js';
import type { SchemaDelta } from './types.js';

/** A node where our comparison could not decide. */
export interface Undecided {
  /** JSON Pointer of the node. */
  path: string;
  /** Why, in words. */
  reason: string;
  /** True when json-schema-diff can decide it (composition keywords). */
  delegable: boolean;
  /** The two (normalized) subschemas, for the second opinion. */
  before: Json;
  after: Json;
}

/** Result of {@link compareSchemas}. */
export interface CompareResult {
  deltas: SchemaDelta[];
  undecided: Undecided[];
}

type Direction = SchemaDelta['direction'];
type Polarity = 1 | -1; // -1 below `not`: loosening the negated schema narrows the whole

/** Own property only: `o["__proto__"]` must not find Object.prototype. */
const own = getOwn;

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
 * Standard formats whose accepted strings include those of another format
 * (`uri` ⊂ `iri` ⊂ `iri-reference`, ...). Formats are treated as assertions, as validators with
 * format checking on (ajv-formats, most MCP clients) do.
 */
const FORMAT_SUPERSETS: Readonly<Record<string, readonly string[]>> = {
  uri: ['uri-reference', 'iri', 'iri-reference'],
  'uri-reference': ['iri-reference'],
  iri: ['iri-reference'],
  email: ['idn-email'],
  hostname: ['idn-hostname'],
  int32: ['int64'],
  float: ['double'],
  uuid: ['uri-reference', 'iri-reference'],
};
const KNOWN_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
  'int32',
  'int64',
  'float',
  'double',
  'byte',
  'binary',
  'password',
]);

/** Patterns that match every string (JSON Schema patterns are unanchored searches). */
const UNIVERSAL_PATTERNS = new Set(['', '.*', '^.*', '.*$', '[\\s\\S]*', '^[\\s\\S]*$', '^[\\s\\S]*']);

/** Short rendering of a value for `what` texts. */
export function show(value: Json | undefined, max = 60): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Compares two normalized schemas (see normalizeSchema) and lists what changed, by path.
 * Nodes it cannot decide are returned as `undecided`.
 */
export function compareSchemas(before: Json, after: Json): CompareResult {
  const result: CompareResult = { deltas: [], undecided: [] };
  compareNode(before, after, '', 1, result);
  return result;
}

function emit(out: CompareResult, path: string, direction: Direction, polarity: Polarity, what: string): void {
  const d: Direction = polarity === 1 ? direction : direction === 'widened' ? 'narrowed' : 'widened';
  out.deltas.push({ path, direction: d, what: polarity === 1 ? what : `${what} (inside "not")` });
}

function undecided(out: CompareResult, path: string, reason: string, delegable: boolean, before: Json, after: Json): void {
  out.undecided.push({ path, reason, delegable, before, after });
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
    compareItems(a, b, path, pol, out);
    compareContains(a, b, path, pol, out);
  }
  if (relevant('properties')) {
    compareObject(a, b, path, pol, out);
  }
  compareComposition(a, b, path, pol, out);

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

function compareFormat(fa: Json | undefined, fb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(fa, fb)) return;
  if (fb === undefined) return emit(out, path, 'widened', pol, `format ${show(fa)} removed`);
  if (fa === undefined) return emit(out, path, 'narrowed', pol, `format ${show(fb)} added`);
  if (typeof fa !== 'string' || typeof fb !== 'string' || !KNOWN_FORMATS.has(fa) || !KNOWN_FORMATS.has(fb)) {
    undecided(out, path, `format changed from ${show(fa)} to ${show(fb)} at ${path || '/'}; toolgate cannot relate these formats`, false, fa, fb);
    return;
  }
  if (FORMAT_SUPERSETS[fa]?.includes(fb)) return emit(out, path, 'widened', pol, `format widened from "${fa}" to "${fb}"`);
  if (FORMAT_SUPERSETS[fb]?.includes(fa)) return emit(out, path, 'narrowed', pol, `format narrowed from "${fa}" to "${fb}"`);
  // Two unrelated standard formats: each accepts strings the other rejects.
  emit(out, path, 'widened', pol, `format changed from "${fa}" to "${fb}": accepts "${fb}" strings`);
  emit(out, path, 'narrowed', pol, `format changed from "${fa}" to "${fb}": rejects "${fa}" strings`);
}

const stripAnchors = (p: string): string => p.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');

function comparePattern(pa: Json | undefined, pb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(pa, pb)) return;
  const universal = (p: Json | undefined): boolean => p === undefined || (typeof p === 'string' && UNIVERSAL_PATTERNS.has(p));
  if (universal(pa) && universal(pb)) return;
  if (universal(pb)) return emit(out, path, 'widened', pol, `pattern ${show(pa)} removed`);
  if (universal(pa)) return emit(out, path, 'narrowed', pol, `pattern ${show(pb)} added`);
  if (typeof pa === 'string' && typeof pb === 'string') {
    // Dropping ^ or $ only lets the same expression match in more places.
    if (stripAnchors(pa) === stripAnchors(pb)) {
      const anchorsA = pa.length - stripAnchors(pa).length;
      const anchorsB = pb.length - stripAnchors(pb).length;
      const aHasAll = (pa.startsWith('^') || !pb.startsWith('^')) && (pa.endsWith('$') || !pb.endsWith('$'));
      const bHasAll = (pb.startsWith('^') || !pa.startsWith('^')) && (pb.endsWith('$') || !pa.endsWith('$'));
      if (aHasAll && anchorsA > anchorsB) return emit(out, path, 'widened', pol, `pattern anchors removed: ${show(pa)} → ${show(pb)}`);
      if (bHasAll && anchorsB > anchorsA) return emit(out, path, 'narrowed', pol, `pattern anchored: ${show(pa)} → ${show(pb)}`);
    }
  }
  // Regular-language inclusion is decidable but not cheaply; do not guess.
  undecided(
    out,
    path,
    `pattern changed from ${show(pa)} to ${show(pb)} at ${path || '/'}; whether it accepts more or fewer strings is not decided`,
    false,
    pa ?? null,
    pb ?? null,
  );
}

const num = (v: Json | undefined): number | undefined => (typeof v === 'number' ? v : undefined);

function compareLowerBound(la: Json | undefined, lb: Json | undefined, kw: string, path: string, pol: Polarity, out: CompareResult): void {
  const x = num(la) ?? 0;
  const y = num(lb) ?? 0;
  if (y < x) emit(out, path, 'widened', pol, lb === undefined ? `${kw} ${x} removed` : `${kw} lowered from ${x} to ${y}`);
  else if (y > x) emit(out, path, 'narrowed', pol, la === undefined ? `${kw} ${y} added` : `${kw} raised from ${x} to ${y}`);
}

function compareUpperBound(ua: Json | undefined, ub: Json | undefined, kw: string, path: string, pol: Polarity, out: CompareResult): void {
  const x = num(ua) ?? Infinity;
  const y = num(ub) ?? Infinity;
  if (y > x) emit(out, path, 'widened', pol, ub === undefined ? `${kw} ${x} removed` : `${kw} raised from ${x} to ${y}`);
  else if (y < x) emit(out, path, 'narrowed', pol, ua === undefined ? `${kw} ${y} added` : `${kw} lowered from ${x} to ${y}`);
}

interface Bound {
  value: number;
  exclusive: boolean;
}

/** Effective bound from `minimum` and (numeric) `exclusiveMinimum`, or the max side. */
function bound(s: JsonObject, side: 'min' | 'max'): Bound | undefined {
  const incl = num(side === 'min' ? s.minimum : s.maximum);
  const excl = num(side === 'min' ? s.exclusiveMinimum : s.exclusiveMaximum);
  const candidates: Bound[] = [];
  if (incl !== undefined) candidates.push({ value: incl, exclusive: false });
  if (excl !== undefined) candidates.push({ value: excl, exclusive: true });
  if (candidates.length === 0) return undefined;
  // The tighter of the two applies.
  const tighter = (p: Bound, q: Bound): Bound => {
    if (p.value !== q.value) return side === 'min' ? (p.value > q.value ? p : q) : p.value < q.value ? p : q;
    return p.exclusive ? p : q;
  };
  return candidates.reduce(tighter);
}

const showBound = (b: Bound | undefined, side: 'min' | 'max'): string =>
  b === undefined ? 'none' : `${side === 'min' ? (b.exclusive ? '>' : '≥') : b.exclusive ? '<' : '≤'} ${b.value}`;

function compareNumericBounds(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  for (const side of ['min', 'max'] as const) {
    const x = bound(a, side);
    const y = bound(b, side);
    // Rank: how restrictive; larger is tighter.
    const rank = (v: Bound | undefined): [number, number] => {
      if (v === undefined) return [-Infinity, 0];
      return [side === 'min' ? v.value : -v.value, v.exclusive ? 1 : 0];
    };
    const [rx, ex] = rank(x);
    const [ry, ey] = rank(y);
    const cmp = ry !== rx ? Math.sign(ry - rx) : Math.sign(ey - ex);
    const label = side === 'min' ? 'lower bound' : 'upper bound';
    const what = `${label} ${showBound(x, side)} → ${showBound(y, side)}`;
    if (cmp < 0) emit(out, path, 'widened', pol, what);
    else if (cmp > 0) emit(out, path, 'narrowed', pol, what);
  }
}

function compareMultipleOf(ma: Json | undefined, mb: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  if (jsonEqual(ma, mb)) return;
  const x = num(ma);
  const y = num(mb);
  if (y === undefined) return emit(out, path, 'widened', pol, `multipleOf ${show(ma)} removed`);
  if (x === undefined) return emit(out, path, 'narrowed', pol, `multipleOf ${show(mb)} added`);
  const divides = (d: number, n: number): boolean => Math.abs(n / d - Math.round(n / d)) < 1e-9;
  if (divides(y, x)) emit(out, path, 'widened', pol, `multipleOf relaxed from ${x} to ${y}`);
  else if (divides(x, y)) emit(out, path, 'narrowed', pol, `multipleOf tightened from ${x} to ${y}`);
  else {
    emit(out, path, 'widened', pol, `multipleOf changed from ${x} to ${y}: accepts multiples of ${y}`);
    emit(out, path, 'narrowed', pol, `multipleOf changed from ${x} to ${y}: rejects multiples of ${x}`);
  }
}

function compareUniqueItems(ua: Json | undefined, ub: Json | undefined, path: string, pol: Polarity, out: CompareResult): void {
  const x = ua === true;
  const y = ub === true;
  if (x && !y) emit(out, path, 'widened', pol, 'duplicate items now allowed (uniqueItems removed)');
  if (!x && y) emit(out, path, 'narrowed', pol, 'items must now be unique (uniqueItems added)');
}

function compareItems(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  const pa = Array.isArray(a.prefixItems) ? a.prefixItems : [];
  const pb = Array.isArray(b.prefixItems) ? b.prefixItems : [];
  const ia = a.items ?? true;
  const ib = b.items ?? true;
  // Tuples: position i is governed by prefixItems[i] when present, else by items (set logic).
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    compareNode(pa[i] ?? ia, pb[i] ?? ib, `${path}/prefixItems/${i}`, pol, out);
  }
  compareNode(ia, ib, `${path}/items`, pol, out);
}

function compareContains(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  if (a.contains === undefined && b.contains === undefined) return;
  if (a.contains === undefined) return emit(out, path, 'narrowed', pol, 'now must contain a matching item ("contains" added)');
  if (b.contains === undefined) return emit(out, path, 'widened', pol, 'no longer must contain a matching item ("contains" removed)');
  // More items satisfying `contains` makes the constraint easier: same direction.
  compareNode(a.contains, b.contains, `${path}/contains`, pol, out);
  compareLowerBound(a.minContains ?? 1, b.minContains ?? 1, 'minContains', path, pol, out);
  compareUpperBound(a.maxContains, b.maxContains, 'maxContains', path, pol, out);
}

/** ECMA-262 regex test, with the `u` flag when the pattern allows it; invalid patterns match nothing. */
function patternMatches(pattern: string, text: string): boolean {
  for (const flags of ['u', '']) {
    try {
      return new RegExp(pattern, flags).test(text);
    } catch {
      // try the next flag set
    }
  }
  return false;
}

/** The subschema that judged property `name` when it was not listed in `properties`. */
function governing(s: JsonObject, name: string): Json {
  if (isObject(s.patternProperties)) {
    for (const [pattern, schema] of Object.entries(s.patternProperties)) {
      if (patternMatches(pattern, name)) return schema;
    }
  }
  return s.additionalProperties ?? true;
}

const isOpen = (s: Json): boolean => s === true || (isObject(s) && Object.keys(s).length === 0);

/** Keywords that describe a value without constraining it. */
const ANNOTATION_ONLY = new Set(['title', 'description', 'examples', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly']);

/** True for a schema that accepts every value (`true`, `{}`, or annotations only). */
const acceptsAnything = (s: Json): boolean => s === true || (isObject(s) && Object.keys(s).every((k) => ANNOTATION_ONLY.has(k)));

/** Object keywords, in the order their differences are reported. */
function compareObject(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  compareProperties(a, b, path, pol, out);
  compareRequired(a, b, path, pol, out);
  compareAdditionalProperties(a, b, path, pol, out);
  comparePatternProperties(a, b, path, pol, out);
  if (!jsonEqual(a.propertyNames, b.propertyNames)) {
    compareNode(a.propertyNames ?? true, b.propertyNames ?? true, `${path}/propertyNames`, pol, out);
  }
  compareLowerBound(a.minProperties, b.minProperties, 'minProperties', path, pol, out);
  compareUpperBound(a.maxProperties, b.maxProperties, 'maxProperties', path, pol, out);
  compareDependentRequired(a, b, path, pol, out);
  const dsA = isObject(a.dependentSchemas) ? a.dependentSchemas : {};
  const dsB = isObject(b.dependentSchemas) ? b.dependentSchemas : {};
  for (const key of unionSorted(dsA, dsB)) {
    compareNode(own(dsA, key) ?? true, own(dsB, key) ?? true, `${path}/dependentSchemas/${escapePointerToken(key)}`, pol, out);
  }
}

/** The keys of two objects, once each, sorted. */
function unionSorted(a: JsonObject, b: JsonObject): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

/** `properties`: each declared property compared, added or removed. */
function compareProperties(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  const propsA = isObject(a.properties) ? a.properties : {};
  const propsB = isObject(b.properties) ? b.properties : {};
  for (const name of unionSorted(propsA, propsB)) {
    const p = `${path}/properties/${escapePointerToken(name)}`;
    const sa = own(propsA, name);
    const sb = own(propsB, name);
    if (sa !== undefined && sb !== undefined) compareNode(sa, sb, p, pol, out);
    else if (sb !== undefined) propertyAdded(a, name, sb, p, pol, out);
    else if (sa !== undefined) propertyRemoved(b, name, sa, p, pol, out);
  }
}

/** Property `name` (schema `sb`) is declared in the new schema only; `a` is the old object schema. */
function propertyAdded(a: JsonObject, name: string, sb: Json, p: string, pol: Polarity, out: CompareResult): void {
  // Declared properties are the tool's argument list. A new one is a new input even on an
  // open object, where set logic calls it a narrowing (its values are now checked): report
  // it as widened, as reviewers read it (docs/design.md §14, json-schema-diff).
  const gov = governing(a, name);
  if (gov === false) emit(out, p, 'widened', pol, `property "${name}" added to a closed object`);
  // Inside "not" a declared property is no argument the model is told about: set logic only
  // (constraining a negated schema's property narrows it, so the whole widens).
  else if (isOpen(gov))
    emit(
      out,
      p,
      pol === 1 ? 'widened' : 'narrowed',
      pol,
      `property "${name}" ${pol === 1 ? 'added (the object was open: it was accepted but undeclared)' : 'declared, so its values are now checked'}`,
    );
  else {
    if (pol === 1) emit(out, p, 'widened', pol, `property "${name}" added (previously matched by additionalProperties/patternProperties)`);
    compareNode(gov, sb, p, pol, out);
  }
}

/** Property `name` (schema `sa`) was declared in the old schema only; `b` is the new object schema. */
function propertyRemoved(b: JsonObject, name: string, sa: Json, p: string, pol: Polarity, out: CompareResult): void {
  const gov = governing(b, name);
  if (gov === false) emit(out, p, 'narrowed', pol, `property "${name}" removed; the object is closed, so it is now rejected`);
  else if (isOpen(gov)) {
    emit(out, p, 'narrowed', pol, `property "${name}" removed (the object is open: it is still accepted but no longer declared)`);
    // Its values are no longer checked: whatever its schema rejected is accepted now.
    if (!acceptsAnything(sa)) emit(out, p, 'widened', pol, `values of "${name}" are no longer checked (the object is open; its removed schema rejected some)`);
  } else {
    emit(out, p, 'narrowed', pol, `property "${name}" removed (now judged by additionalProperties/patternProperties)`);
    compareNode(sa, gov, p, pol, out);
  }
}

/** `required`: names now required narrow, names no longer required widen. */
function compareRequired(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  const ra = new Set(Array.isArray(a.required) ? a.required.filter((r): r is string => typeof r === 'string') : []);
  const rb = new Set(Array.isArray(b.required) ? b.required.filter((r): r is string => typeof r === 'string') : []);
  for (const r of [...rb].sort()) if (!ra.has(r)) emit(out, path, 'narrowed', pol, `now required: "${r}"`);
  for (const r of [...ra].sort()) if (!rb.has(r)) emit(out, path, 'widened', pol, `no longer required: "${r}"`);
}

/** `additionalProperties`: closing or opening the object, else the two schemas compared. */
function compareAdditionalProperties(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  const apA = a.additionalProperties ?? true;
  const apB = b.additionalProperties ?? true;
  if (jsonEqual(apA, apB)) return;
  const ap = `${path}/additionalProperties`;
  if (apA === false && isOpen(apB)) emit(out, ap, 'widened', pol, 'undeclared properties now accepted (additionalProperties: false removed)');
  else if (isOpen(apA) && apB === false) emit(out, ap, 'narrowed', pol, 'undeclared properties now rejected (additionalProperties: false)');
  else compareNode(apA, apB, ap, pol, out);
}

/** `patternProperties`: each pattern compared, declared or no longer declared. */
function comparePatternProperties(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  const ppA = isObject(a.patternProperties) ? a.patternProperties : {};
  const ppB = isObject(b.patternProperties) ? b.patternProperties : {};
  for (const pattern of unionSorted(ppA, ppB)) {
    const p = `${path}/patternProperties/${escapePointerToken(pattern)}`;
    const sa = own(ppA, pattern);
    const sb = own(ppB, pattern);
    if (sa !== undefined && sb !== undefined) compareNode(sa, sb, p, pol, out);
    else if (sb !== undefined) emit(out, p, 'widened', pol, `properties matching /${pattern}/ now declared`);
    else if (sa !== undefined) emit(out, p, 'narrowed', pol, `properties matching /${pattern}/ no longer declared`);
  }
}

/** `dependentRequired`: names now required with a key narrow, names no longer required widen. */
function compareDependentRequired(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  const drA = isObject(a.dependentRequired) ? a.dependentRequired : {};
  const drB = isObject(b.dependentRequired) ? b.dependentRequired : {};
  for (const key of unionSorted(drA, drB)) {
    const la = new Set(Array.isArray(own(drA, key)) ? (own(drA, key) as Json[]).map(String) : []);
    const lb = new Set(Array.isArray(own(drB, key)) ? (own(drB, key) as Json[]).map(String) : []);
    for (const n of [...lb].sort()) if (!la.has(n)) emit(out, path, 'narrowed', pol, `"${n}" now required when "${key}" is present`);
    for (const n of [...la].sort()) if (!lb.has(n)) emit(out, path, 'widened', pol, `"${n}" no longer required when "${key}" is present`);
  }
}

/**
 * allOf/anyOf/oneOf: identical members are matched first; when the remaining members are equally
 * many on both sides they are paired in order and compared keyword by keyword (each keyword is
 * monotone: a looser member makes allOf/anyOf looser; for oneOf this assumes disjoint branches).
 * Added or removed members are a set question (is the new branch already covered?) left to
 * json-schema-diff.
 */
function compareComposition(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult): void {
  for (const kw of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (jsonEqual(a[kw], b[kw])) continue;
    const ma = Array.isArray(a[kw]) ? a[kw] : [];
    const mb = Array.isArray(b[kw]) ? b[kw] : [];
    const restA = ma.map((s, i) => ({ s, i }));
    const restB = mb.map((s, i) => ({ s, i }));
    for (let i = restA.length - 1; i >= 0; i--) {
      const j = restB.findIndex((x) => jsonEqual(x.s, (restA[i] as { s: Json }).s));
      if (j >= 0) {
        restA.splice(i, 1);
        restB.splice(j, 1);
      }
    }
    if (kw === 'allOf') {
      // allOf is a conjunction: an extra member is a constraint added (or removed) next to `true`.
      const n = Math.max(restA.length, restB.length);
      for (let k = 0; k < n; k++) {
        const x = restA[k];
        const y = restB[k];
        compareNode(x?.s ?? true, y?.s ?? true, `${path}/allOf/${y?.i ?? x?.i ?? k}`, pol, out);
      }
    } else if (kw === 'anyOf' && restA.length === restB.length && restA.length > 0) {
      restA.forEach((x, k) => {
        const y = restB[k] as { s: Json; i: number };
        compareNode(x.s, y.s, `${path}/${kw}/${y.i}`, pol, out);
      });
    } else {
      // oneOf: a branch that narrows can widen the whole (a value matching two branches was
      // rejected), so oneOf, like added or removed members, is a set question for json-schema-diff.
      undecided(out, path, `"${kw}" members changed at ${path || '/'} (${ma.length} → ${mb.length})`, true, a, b);
    }
  }
  if (!jsonEqual(a.not, b.not)) {
    if (a.not === undefined) emit(out, `${path}/not`, 'narrowed', pol, '"not" added: values matching it are now rejected');
    else if (b.not === undefined) emit(out, `${path}/not`, 'widened', pol, '"not" removed: values matching it are accepted again');
    else compareNode(a.not, b.not, `${path}/not`, pol === 1 ? -1 : 1, out);
  }
  if (!jsonEqual(a.if, b.if)) {
    if (a.if !== undefined || b.if !== undefined) {
      undecided(out, path, `"if" changed at ${path || '/'}; conditional schemas are not compared`, false, a, b);
    }
  } else if (a.if !== undefined) {
    compareNode(a.then ?? true, b.then ?? true, `${path}/then`, pol, out);
    compareNode(a.else ?? true, b.else ?? true, `${path}/else`, pol, out);
  }
}
