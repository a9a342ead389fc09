/**
 * Compares the keywords of objects: declared properties (an argument added or removed, judged by
 * what governed it on the other side), `required`, `additionalProperties`, `patternProperties`,
 * `propertyNames`, the property counts, `dependentRequired` and `dependentSchemas`. Subschemas go
 * back to the walk (compare.ts).
 *
 * @module
 */
import type { Json, JsonObject } from '../../util/json.js';
import { escapePointerToken, getOwn, isObject, jsonEqual } from '../../util/json.js';
import { emit, type CompareNode, type CompareResult, type Polarity } from './compare-deltas.js';
import { compareLowerBound, compareUpperBound } from './compare-values.js';

/** Own property only: `o["__proto__"]` must not find Object.prototype. */
const own = getOwn;

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
export function compareObject(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  compareProperties(a, b, path, pol, out, node);
  compareRequired(a, b, path, pol, out);
  compareAdditionalProperties(a, b, path, pol, out, node);
  comparePatternProperties(a, b, path, pol, out, node);
  if (!jsonEqual(a.propertyNames, b.propertyNames)) {
    node(a.propertyNames ?? true, b.propertyNames ?? true, `${path}/propertyNames`, pol, out);
  }
  compareLowerBound(a.minProperties, b.minProperties, 'minProperties', path, pol, out);
  compareUpperBound(a.maxProperties, b.maxProperties, 'maxProperties', path, pol, out);
  compareDependentRequired(a, b, path, pol, out);
  const dsA = isObject(a.dependentSchemas) ? a.dependentSchemas : {};
  const dsB = isObject(b.dependentSchemas) ? b.dependentSchemas : {};
  for (const key of unionSorted(dsA, dsB)) {
    node(own(dsA, key) ?? true, own(dsB, key) ?? true, `${path}/dependentSchemas/${escapePointerToken(key)}`, pol, out);
  }
}

/** The keys of two objects, once each, sorted. */
function unionSorted(a: JsonObject, b: JsonObject): string[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
}

/** `properties`: each declared property compared, added or removed. */
function compareProperties(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  const propsA = isObject(a.properties) ? a.properties : {};
  const propsB = isObject(b.properties) ? b.properties : {};
  for (const name of unionSorted(propsA, propsB)) {
    const p = `${path}/properties/${escapePointerToken(name)}`;
    const sa = own(propsA, name);
    const sb = own(propsB, name);
    if (sa !== undefined && sb !== undefined) node(sa, sb, p, pol, out);
    else if (sb !== undefined) propertyAdded(a, name, sb, p, pol, out, node);
    else if (sa !== undefined) propertyRemoved(b, name, sa, p, pol, out, node);
  }
}

/** Property `name` (schema `sb`) is declared in the new schema only; `a` is the old object schema. */
function propertyAdded(a: JsonObject, name: string, sb: Json, p: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
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
    node(gov, sb, p, pol, out);
  }
}

/** Property `name` (schema `sa`) was declared in the old schema only; `b` is the new object schema. */
function propertyRemoved(b: JsonObject, name: string, sa: Json, p: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  const gov = governing(b, name);
  if (gov === false) emit(out, p, 'narrowed', pol, `property "${name}" removed; the object is closed, so it is now rejected`);
  else if (isOpen(gov)) {
    emit(out, p, 'narrowed', pol, `property "${name}" removed (the object is open: it is still accepted but no longer declared)`);
    // Its values are no longer checked: whatever its schema rejected is accepted now.
    if (!acceptsAnything(sa)) emit(out, p, 'widened', pol, `values of "${name}" are no longer checked (the object is open; its removed schema rejected some)`);
  } else {
    emit(out, p, 'narrowed', pol, `property "${name}" removed (now judged by additionalProperties/patternProperties)`);
    node(sa, gov, p, pol, out);
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
function compareAdditionalProperties(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  const apA = a.additionalProperties ?? true;
  const apB = b.additionalProperties ?? true;
  if (jsonEqual(apA, apB)) return;
  const ap = `${path}/additionalProperties`;
  if (apA === false && isOpen(apB)) emit(out, ap, 'widened', pol, 'undeclared properties now accepted (additionalProperties: false removed)');
  else if (isOpen(apA) && apB === false) emit(out, ap, 'narrowed', pol, 'undeclared properties now rejected (additionalProperties: false)');
  else node(apA, apB, ap, pol, out);
}

/** `patternProperties`: each pattern compared, declared or no longer declared. */
function comparePatternProperties(a: JsonObject, b: JsonObject, path: string, pol: Polarity, out: CompareResult, node: CompareNode): void {
  const ppA = isObject(a.patternProperties) ? a.patternProperties : {};
  const ppB = isObject(b.patternProperties) ? b.patternProperties : {};
  for (const pattern of unionSorted(ppA, ppB)) {
    const p = `${path}/patternProperties/${escapePointerToken(pattern)}`;
    const sa = own(ppA, pattern);
    const sb = own(ppB, pattern);
    if (sa !== undefined && sb !== undefined) node(sa, sb, p, pol, out);
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
