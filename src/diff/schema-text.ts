/**
 * The text inside an `inputSchema` (or `outputSchema`) that a model reads: `description`, `title`,
 * `default`, `examples`, `example`, `$comment`, `externalDocs` and vendor `x-…` keys of the schema
 * and of every subschema (argument descriptions above all). A schema comparison ignores them (they do
 * not change what validates), yet a changed argument description can steer a model as surely as
 * a changed tool description, so the diff reports them as `text-changed`.
 */
import type { Json } from '../util/json.js';
import { escapePointerToken as esc, isObject as isObj, pointerSegments } from '../util/json.js';
import { isDialectUri } from '../surface/pinned-schema.js';

/** Keywords whose value is a map of name → subschema (draft-07 `dependencies` maps to a subschema or a list of names). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
/** Keywords whose value a model may be shown as text besides title and description, compared as JSON text. */
const TEXT_AS_JSON = ['default', 'examples', 'example', '$comment', 'externalDocs'];
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = [
  'contentSchema',
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];

/**
 * `description` and `title` strings, and the other text keywords as JSON text, of `schema` and
 * its subschemas, by JSON pointer relative to the schema (e.g. `/properties/id/description`).
 * Pure; walks `maxDepth` (64) levels, below which each subtree is one text at `<pointer>/…`.
 */
export function schemaTexts(schema: Json | undefined, maxDepth = 64): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (node: Json | undefined, at: string, depth: number): void => {
    if (!isObj(node)) return;
    // Deeper than the walk goes: the whole subtree is one text, so a change down there still shows.
    if (depth > maxDepth) {
      out.set(`${at}/…`, JSON.stringify(node));
      return;
    }
    for (const k of ['title', 'description']) {
      const v = node[k];
      if (typeof v === 'string') out.set(`${at}/${k}`, v);
    }
    // Defaults, examples, comments and vendor keys (`x-…`) reach the model too; compared as JSON text.
    for (const k of Object.keys(node)) {
      if ((TEXT_AS_JSON.includes(k) || k.startsWith('x-')) && node[k] !== undefined) out.set(`${at}/${esc(k)}`, JSON.stringify(node[k]));
    }
    for (const k of SCHEMA_MAPS) {
      const m = node[k];
      if (isObj(m)) for (const [name, sub] of Object.entries(m)) walk(sub, `${at}/${k}/${esc(name)}`, depth + 1);
    }
    for (const k of SCHEMA_ONE) if (isObj(node[k])) walk(node[k], `${at}/${k}`, depth + 1);
    for (const k of SCHEMA_LISTS) {
      const list = node[k];
      if (Array.isArray(list)) list.forEach((sub, i) => walk(sub, `${at}/${k}/${i}`, depth + 1));
    }
  };
  walk(schema, '', 0);
  return out;
}

/**
 * Where a text sits, in reviewer's words: `argument "a.b"` for properties (`[]` for array items),
 * `the input schema` at the root, else the JSON pointer.
 */
export function describeSchemaTextPath(pointer: string): string {
  const segs = pointerSegments(pointer).slice(0, -1);
  if (segs.length === 0) return 'the input schema';
  const names: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    if (segs[i] === 'properties' && i + 1 < segs.length) names.push(segs[++i]!);
    else if (segs[i] === 'items' && names.length > 0 && !/^\d+$/.test(segs[i + 1] ?? '')) names[names.length - 1] += '[]';
    else return `inputSchema${pointer.slice(0, pointer.lastIndexOf('/'))}`;
  }
  return `argument "${names.join('.')}"`;
}

/**
 * Keywords whose string values are structure, not text: type names, references, dialects, and
 * `enum` values (the schema diff reports each value added or removed, quoting it).
 */
const STRUCTURE_KEYS = new Set(['type', '$ref', 'enum']);

/**
 * Every string value in `head` that appears nowhere in `base`, by JSON pointer, except in the
 * keywords {@link schemaTexts} already covers (pointers under one of `covered`) and structural
 * keywords (`type`, `$ref`, `$schema`). Any keyword may carry an instruction to the model (`$id`,
 * `$anchor`, `format`, `const`, `contentMediaType`, `xml`, `discriminator`, a `required` name…);
 * a narrowing that adds one must not pass as a warning. Pure; at most `max` entries.
 */
export function newSchemaStrings(base: Json | undefined, head: Json | undefined, covered: ReadonlySet<string>, max = 50): Map<string, string> {
  const seen = new Set<string>();
  const collect = (node: Json | undefined): void => {
    if (typeof node === 'string') seen.add(node);
    else if (Array.isArray(node)) node.forEach(collect);
    else if (isObj(node)) Object.values(node).forEach(collect);
  };
  collect(base);
  const out = new Map<string, string>();
  // A subtree below the walk's depth is covered whole (`<pointer>/…`).
  // Looked up by ancestor (O(depth) per string), not by scanning every covered pointer: a schema
  // with 100,000 described properties made that quadratic (minutes).
  const prefixes = new Set([...covered].map((c) => (c.endsWith('/…') ? c.slice(0, -2) : c)));
  const isCovered = (at: string) => {
    if (prefixes.has(at) || prefixes.has('')) return true;
    for (let i = at.lastIndexOf('/'); i > 0; i = at.lastIndexOf('/', i - 1)) if (prefixes.has(at.slice(0, i))) return true;
    return false;
  };
  const walk = (node: Json | undefined, at: string, key: string, names?: ReadonlySet<string>): void => {
    if (out.size >= max) return;
    if (typeof node === 'string') {
      // A `required` entry naming a property of its own object is structure: the schema diff says
      // it ("now required", "property added"); any other name is text like the rest.
      const structure = STRUCTURE_KEYS.has(key) || (key === '$schema' && isDialectUri(node)) || (names?.has(node) ?? false);
      if (!seen.has(node) && !structure && !isCovered(at)) out.set(at, node);
      return;
    }
    // Items of `type: [...]` are type names, items of `enum` values: structure as well.
    if (Array.isArray(node)) node.forEach((x, i) => walk(x, `${at}/${i}`, key === 'type' || key === 'enum' ? key : String(i), names));
    else if (isObj(node)) {
      const props = isObj(node.properties) ? new Set(Object.keys(node.properties)) : undefined;
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${esc(k)}`, k, k === 'required' ? props : undefined);
    }
  };
  walk(head, '', '');
  return out;
}
