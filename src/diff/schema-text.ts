/**
 * The text inside an `inputSchema` (or `outputSchema`) that a model reads: `description`, `title`,
 * `default`, `examples`, `example`, `$comment`, `externalDocs` and vendor `x-…` keys of the schema
 * and of every subschema (argument descriptions above all). A schema comparison ignores them (they do
 * not change what validates), yet a changed argument description can steer a model as surely as
 * a changed tool description, so the diff reports them as `text-changed`.
 */
import type { Json } from '../surface/model.js';

type Obj = { [key: string]: Json };
const isObj = (v: Json | undefined): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const esc = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');

/** Keywords whose value is a map of name → subschema (draft-07 `dependencies` maps to a subschema or a list of names). */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
/** Keywords whose value a model may be shown as text besides title and description, compared as JSON text. */
const TEXT_AS_JSON = ['default', 'examples', 'example', '$comment', 'externalDocs'];
/** Keywords whose value is one subschema. */
const SCHEMA_ONE = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalItems'];
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
  const segs = pointer.split('/').slice(1, -1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (segs.length === 0) return 'the input schema';
  const names: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    if (segs[i] === 'properties' && i + 1 < segs.length) names.push(segs[++i]!);
    else if (segs[i] === 'items' && names.length > 0 && !/^\d+$/.test(segs[i + 1] ?? '')) names[names.length - 1] += '[]';
    else return `inputSchema${pointer.slice(0, pointer.lastIndexOf('/'))}`;
  }
  return `argument "${names.join('.')}"`;
}
