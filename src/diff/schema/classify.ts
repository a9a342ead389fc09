/**
 * Classification of an `inputSchema` change: normalize both sides, compare keyword by keyword
 * (compare.ts), and only when that leaves composition changes undecided ask json-schema-diff in a
 * worker with a time budget (json-schema-diff-adapter.ts). Anything still undecided makes the
 * verdict `unclassified`, so that callers fail closed.
 */
import type { Json, JsonObject } from '../../util/json.js';
import { compareSchemas, type Undecided } from './compare.js';
import { runJsonSchemaDiff, type JsdTask } from './json-schema-diff-adapter.js';
import { normalizeSchema } from './normalize.js';
import { isObject, jsonEqual, setOwn } from '../../util/json.js';
import type { ClassifyOptions, SchemaDelta, SchemaVerdict } from './types.js';

/** Default json-schema-diff budget per schema pair, in ms. */
export const DEFAULT_BUDGET_MS = 2000;

/** Keywords json-schema-diff 1.0.0 does not compare (its KEYWORDS.md, and our 2020-12 forms). */
const IGNORED_BY_JSD = new Set([
  'enum',
  'const',
  'pattern',
  'format',
  'prefixItems',
  'if',
  'then',
  'else',
  'multipleOf',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
]);

/**
 * Classifies how `after` differs from `before` in the inputs it accepts.
 *
 * Never rejects: circular or external `$ref`s, a json-schema-diff error or timeout
 * (`reason: "timed out after 2000 ms ..."`) and keywords toolgate cannot relate all come back as
 * `{ kind: 'unclassified', reason, deltas }`.
 */
export async function classifySchemaChange(before: Json, after: Json, opts: ClassifyOptions = {}): Promise<SchemaVerdict> {
  try {
    return await classify(before, after, opts);
  } catch (err) {
    // E.g. a stack overflow on an absurdly deep schema: still a verdict, and still fail closed.
    return { kind: 'unclassified', reason: `schema comparison failed: ${(err as Error).message}`, deltas: [] };
  }
}

/** Pointers of every `$dynamicRef` / `$recursiveRef` in `schema` (at most 10). */
function dynamicRefs(schema: Json): string[] {
  const found: string[] = [];
  const walk = (node: Json, at: string): void => {
    if (found.length >= 10 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((x, i) => walk(x, `${at}/${i}`));
    for (const [k, v] of Object.entries(node)) {
      if ((k === '$dynamicRef' || k === '$recursiveRef') && found.length < 10) found.push(`${at || '/'} -> ${JSON.stringify(v)}`);
      walk(v, `${at}/${k}`);
    }
  };
  walk(schema, '');
  return found;
}

async function classify(before: Json, after: Json, opts: ClassifyOptions): Promise<SchemaVerdict> {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  // $dynamicRef / $recursiveRef resolve at validation time through $dynamicAnchor scopes, which the
  // normalizer does not model (it would call a widened target "unchanged"): fail closed.
  const dynamic = [...dynamicRefs(before).map((r) => `before: ${r}`), ...dynamicRefs(after).map((r) => `after: ${r}`)];
  if (dynamic.length > 0) {
    return {
      kind: 'unclassified',
      reason: `dynamic reference (${dynamic.slice(0, 3).join('; ')}): $dynamicRef and $recursiveRef are not compared`,
      deltas: [],
    };
  }
  const na = normalizeSchema(before);
  const nb = normalizeSchema(after);
  if (jsonEqual(na.schema, nb.schema)) return { kind: 'unchanged' };

  const unsupported = [...na.unsupportedRefs.map((r) => `before: ${r}`), ...nb.unsupportedRefs.map((r) => `after: ${r}`)];
  if (unsupported.length > 0) {
    return { kind: 'unclassified', reason: `unsupported $ref (${unsupported.slice(0, 3).join('; ')}); only local "#/..." references are resolved`, deltas: [] };
  }
  const circular = [...na.circularRefs.map((r) => `before: ${r}`), ...nb.circularRefs.map((r) => `after: ${r}`)];
  if (circular.length > 0) {
    // Recursive schemas cannot be inlined, and json-schema-diff throws on them: fail closed.
    return {
      kind: 'unclassified',
      reason: `circular $ref (${circular.slice(0, 3).join('; ')}): recursive schemas are not compared, so the change is not classified`,
      deltas: [],
    };
  }

  const { deltas, undecided } = compareSchemas(na.schema, nb.schema);
  const reasons: string[] = [];
  const delegated = dedupeByPath(undecided.filter((u) => u.delegable));
  for (const u of undecided) if (!u.delegable) reasons.push(u.reason);

  if (delegated.length > 0) {
    const tasks: JsdTask[] = delegated.map((u) => ({ path: u.path, before: toDraft07(u.before), after: toDraft07(u.after) }));
    const outcome = await runJsonSchemaDiff(tasks, budgetMs);
    if (!outcome.ok) {
      const where = delegated.map((u) => u.path || '/').join(', ');
      reasons.unshift(`${outcome.reason} (json-schema-diff comparing composition keywords at ${where})`);
    } else {
      for (const r of outcome.results) {
        const u = delegated.find((d) => d.path === r.path) as Undecided;
        const kw = u.reason.match(/^"(\w+)"/)?.[1] ?? 'composition';
        const at = r.path;
        if (r.additionsFound) deltas.push({ path: at, direction: 'widened', what: `accepts new values ("${kw}" changed; set comparison by json-schema-diff)` });
        if (r.removalsFound)
          deltas.push({ path: at, direction: 'narrowed', what: `rejects values it accepted ("${kw}" changed; set comparison by json-schema-diff)` });
        if (!r.additionsFound && !r.removalsFound) {
          const ignored = ignoredKeywordsIn(u.before, u.after);
          if (ignored.length > 0) {
            reasons.push(
              `json-schema-diff found no difference at ${at || '/'}, but the changed "${kw}" involves keywords it does not compare (${ignored.join(', ')})`,
            );
          }
        }
      }
    }
  }

  const sorted = sortDeltas(deltas);
  if (reasons.length > 0) return { kind: 'unclassified', reason: reasons.join('; '), deltas: sorted };
  if (sorted.length === 0) return { kind: 'unchanged' };
  const widened = sorted.some((d) => d.direction === 'widened');
  const narrowed = sorted.some((d) => d.direction === 'narrowed');
  return { kind: widened && narrowed ? 'both' : widened ? 'widened' : 'narrowed', deltas: sorted };
}

/**
 * Classifies many pairs. Our comparison runs on the calling thread; json-schema-diff jobs share a
 * pool of at most two workers (two cores on hosted runners). Each pair gets its own budget, which
 * starts when a worker takes its job. Results are in input order.
 */
export function classifySchemaChanges(pairs: { before: Json; after: Json }[], opts: ClassifyOptions = {}): Promise<SchemaVerdict[]> {
  return Promise.all(pairs.map((p) => classifySchemaChange(p.before, p.after, opts)));
}

function dedupeByPath(items: Undecided[]): Undecided[] {
  const seen = new Map<string, Undecided>();
  for (const u of items) if (!seen.has(u.path)) seen.set(u.path, u);
  return [...seen.values()];
}

function sortDeltas(deltas: SchemaDelta[]): SchemaDelta[] {
  const seen = new Set<string>();
  const unique = deltas.filter((d) => {
    const k = `${d.path}\u0000${d.direction}\u0000${d.what}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return unique.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : x.direction < y.direction ? 1 : x.direction > y.direction ? -1 : 0));
}

/** Keywords json-schema-diff ignores that appear in either subtree. */
function ignoredKeywordsIn(a: Json, b: Json): string[] {
  const found = new Set<string>();
  const walk = (v: Json, parentKey: string | undefined): void => {
    if (Array.isArray(v)) {
      if (parentKey !== 'enum' && parentKey !== 'required') v.forEach((x) => walk(x, undefined));
      return;
    }
    if (!isObject(v)) return;
    const isPropertyMap = parentKey === 'properties' || parentKey === 'patternProperties' || parentKey === 'dependentSchemas';
    for (const [k, x] of Object.entries(v)) {
      if (!isPropertyMap && IGNORED_BY_JSD.has(k)) found.add(k);
      if (k !== 'enum' && k !== 'const') walk(x, isPropertyMap ? undefined : k);
    }
  };
  walk(a, undefined);
  walk(b, undefined);
  return [...found].sort();
}

/**
 * json-schema-diff validates its input as draft-07: write our 2020-12 forms back (tuples,
 * dependencies). Unknown keywords are ignored by it.
 */
export function toDraft07(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(toDraft07);
  if (!isObject(schema)) return schema;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'enum' || k === 'const' || k === 'required') setOwn(out, k, v);
    else if (k === 'properties' || k === 'patternProperties' || k === 'dependentSchemas') {
      const m: JsonObject = {};
      if (isObject(v)) for (const [name, s] of Object.entries(v)) setOwn(m, name, toDraft07(s));
      setOwn(out, k, m);
    } else setOwn(out, k, toDraft07(v));
  }
  if (Array.isArray(out.prefixItems)) {
    const rest = out.items;
    out.items = out.prefixItems;
    if (rest !== undefined) out.additionalItems = rest;
    delete out.prefixItems;
  }
  if (isObject(out.dependentRequired) || isObject(out.dependentSchemas)) {
    out.dependencies = { ...(isObject(out.dependentSchemas) ? out.dependentSchemas : {}), ...(isObject(out.dependentRequired) ? out.dependentRequired : {}) };
    delete out.dependentRequired;
    delete out.dependentSchemas;
  }
  return out;
}
