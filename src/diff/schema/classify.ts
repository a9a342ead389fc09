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
import { compileInputSchema, usesDialectKeywords } from '../../surface/schema-validators.js';
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
 * Never rejects: circular references or ones that do not resolve within the schema, a
 * json-schema-diff error or timeout (`reason: "timed out after 2000 ms ..."`), keywords toolgate
 * cannot relate and a change in the dialects the proxy enforces a schema in all come back as
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

async function classify(before: Json, after: Json, opts: ClassifyOptions): Promise<SchemaVerdict> {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const na = normalizeSchema(before);
  const nb = normalizeSchema(after);
  // Before equality: what a reference leads to is not in the normalized form when it does not
  // resolve, so two schemas that differ only there would compare equal.
  const unsupported = [...na.unsupportedRefs.map((r) => `before: ${r}`), ...nb.unsupportedRefs.map((r) => `after: ${r}`)];
  if (unsupported.length > 0) {
    return {
      kind: 'unclassified',
      reason: `unsupported $ref (${unsupported.slice(0, 3).join('; ')}${unsupported.length > 3 ? `; and ${unsupported.length - 3} more` : ''}): references are resolved as the validator resolves them, within the schema, and this one does not resolve there`,
      deltas: [],
    };
  }
  if (jsonEqual(na.schema, nb.schema)) return enforcedAlike(before, after, { kind: 'unchanged' });
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
  if (sorted.length === 0) return enforcedAlike(before, after, { kind: 'unchanged' });
  const widened = sorted.some((d) => d.direction === 'widened');
  const narrowed = sorted.some((d) => d.direction === 'narrowed');
  if (!widened) return enforcedAlike(before, after, { kind: 'narrowed', deltas: sorted });
  return { kind: narrowed ? 'both' : 'widened', deltas: sorted };
}

/**
 * `verdict` (no widening found), unless the proxy would enforce the new schema in fewer dialects.
 * It checks arguments in every dialect a schema compiles in (surface/schema-validators.ts), and
 * they must pass each: a change that makes the schema stop compiling in one drops that dialect's
 * keywords (`prefixItems`, `dependentSchemas`, `$dynamicRef`... for 2020-12) from what is
 * enforced, while the comparison above still reads them. An old schema that compiled in none
 * (every call refused) counts as enforced in all: what was reviewed is its meaning. A new schema
 * that compiles in every dialect, or in none, is only enforced more strictly. Only run where the
 * verdict would let the change pass, and compiles only what can differ: a new schema without a
 * keyword the dialects define differently compiles alike in both (compiling a large schema costs
 * tens of milliseconds).
 */
function enforcedAlike(before: Json, after: Json, verdict: SchemaVerdict): SchemaVerdict {
  if (!usesDialectKeywords(after)) return verdict;
  const a = compileInputSchema(after);
  if (a.validators.length === 0 || a.failures.length === 0) return verdict;
  const b = compileInputSchema(before);
  const [nb, na] = [b.validators.map((v) => v.dialect), a.validators.map((v) => v.dialect)];
  const lost = a.failures.filter((f) => nb.length === 0 || nb.includes(f.dialect));
  if (lost.length === 0) return verdict;
  const list = (l: string[]) => (l.length === 0 ? 'in no dialect (every call refused)' : `as ${l.join(' and ')}`);
  const why = lost.map((f) => ` (${f.dialect}: ${f.error.message.slice(0, 200)})`).join('');
  return {
    kind: 'unclassified',
    reason: `the proxy checks arguments against the old inputSchema ${list(nb)} and against the new one ${list(na)}${why}: what only the other dialect enforces is not checked`,
    deltas: 'deltas' in verdict ? verdict.deltas : [],
  };
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
