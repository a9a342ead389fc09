/**
 * Classification of an `inputSchema` change: normalize both sides, compare keyword by keyword
 * (compare.ts), and only when that leaves composition changes undecided ask json-schema-diff in a
 * worker with a time budget (json-schema-diff-adapter.ts). Anything still undecided makes the
 * verdict `unclassified`, so that callers fail closed.
 */
import type { Json, JsonObject } from '../../util/json.js';
import { compareSchemas } from './compare.js';
import type { Undecided } from './compare-deltas.js';
import { runJsonSchemaDiff, type JsdTask } from './json-schema-diff-adapter.js';
import { normalizeSchema, type NormalizedSchema } from './normalize.js';
import { canonicalJson, isObject, jsonEqual, setOwn } from '../../util/json.js';
import {
  compileInputSchema,
  DIALECT_NAMES,
  keywordsDefinedDifferently,
  keywordsUndefinedIn,
  usesDialectKeywords,
  type CompiledInputSchema,
  type Dialect,
} from '../../surface/schema-validators.js';
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

/**
 * The verdict as the proxy enforces each side: in every dialect it compiles in, the arguments must
 * pass each (surface/schema-validators.ts). Each side is normalized per dialect it runs in
 * (a keyword the dialect does not define constrains nothing there); the change widens nothing
 * when, for each dialect the old schema runs in, some dialect the new one runs in reads it as
 * accepting no more (what passes the new schema passes that reading). Most schemas read alike
 * in every dialect: one comparison.
 */
async function classify(before: Json, after: Json, opts: ClassifyOptions): Promise<SchemaVerdict> {
  const unhandled = usesDialectKeywords(before) || usesDialectKeywords(after) ? unhandledDialectKeywords() : [];
  if (unhandled.length > 0) {
    return {
      kind: 'unclassified',
      reason: `the dialects the proxy checks arguments in define ${unhandled.map((k) => `"${k}"`).join(', ')} differently, and the schema diff does not read it per dialect`,
      deltas: [],
    };
  }
  const [old, neu] = [readings(before), readings(after)];
  const compared = new Map<string, Promise<SchemaVerdict>>();
  const verdictOf = (b: Reading, a: Reading): Promise<SchemaVerdict> => {
    const key = `${b.key}\u0000${a.key}`;
    let v = compared.get(key);
    if (!v) compared.set(key, (v = compareReadings(b.normalized, a.normalized, opts)));
    return v;
  };
  const alike = old.length === 1 && neu.length === 1 && old[0]!.dialects.length === DIALECT_NAMES.length && neu[0]!.dialects.length === DIALECT_NAMES.length;
  const kept: SchemaVerdict[] = [];
  for (const dialect of old.flatMap((r) => r.dialects)) {
    const b = old.find((r) => r.dialects.includes(dialect))!;
    const own = neu.find((r) => r.dialects.includes(dialect)) ?? neu[0]!;
    let found: SchemaVerdict | undefined;
    for (const a of [own, ...neu.filter((r) => r !== own)]) {
      const v = await verdictOf(b, a);
      if (v.kind === 'unchanged' || v.kind === 'narrowed') {
        found = v;
        break;
      }
    }
    if (!found) return enforcedAlike(before, after, alike ? await verdictOf(b, own) : inDialect(await verdictOf(b, own), dialect));
    kept.push(found);
  }
  const narrowed = sortDeltas(kept.flatMap((v) => ('deltas' in v ? v.deltas : [])));
  const verdict: SchemaVerdict = narrowed.length === 0 ? { kind: 'unchanged' } : { kind: 'narrowed', deltas: narrowed };
  return enforcedAlike(before, after, neverEnforced(old, neu) ?? verdict);
}

/**
 * Fails closed when a side has a keyword no dialect it is checked in defines (a `prefixItems`
 * or `$dynamicRef` in a schema that compiles as draft-07 only): what the schema says and what the
 * proxy enforces differ there, and the review reads the former.
 */
function neverEnforced(old: Reading[], neu: Reading[]): SchemaVerdict | undefined {
  const dead = (rs: Reading[]): string[] =>
    rs.reduce<string[]>((acc, r) => acc.filter((k) => r.normalized.undefinedKeywords.includes(k)), rs[0]!.normalized.undefinedKeywords);
  const sides = (
    [
      ['old', old],
      ['new', neu],
    ] as const
  ).map(([side, rs]) => ({ side, keywords: dead(rs), dialects: rs.flatMap((r) => r.dialects) }));
  const found = sides.filter((x) => x.keywords.length > 0);
  if (found.length === 0) return undefined;
  const why = found.map(
    (x) =>
      `the ${x.side} inputSchema uses ${x.keywords.map((k) => `"${k}"`).join(', ')}, which ${x.dialects.join(' and ')} (what the proxy checks it as) does not define`,
  );
  return { kind: 'unclassified', reason: `${why.join('; ')}: that part of the schema is no constraint at all, so the change is not classified`, deltas: [] };
}

/** One side's normal form in the dialects that read it alike. */
interface Reading {
  dialects: Dialect[];
  normalized: NormalizedSchema;
  /** The normal form as canonical JSON: readings are compared once per pair. */
  key: string;
}

/**
 * A schema's readings: one per distinct normal form, over the dialects it compiles in (every
 * dialect when it compiles in none: the old schema's meaning is what was reviewed, and a new one
 * refuses every call). A schema without a keyword the dialects define differently reads alike in
 * every dialect and is not compiled (compiling a large schema costs tens of milliseconds).
 */
function readings(schema: Json): Reading[] {
  let dialects: Dialect[] = [...DIALECT_NAMES];
  if (usesDialectKeywords(schema)) {
    const compiled = compiledOnce(schema).validators.map((v) => v.dialect);
    if (compiled.length > 0) dialects = compiled;
  }
  const out: Reading[] = [];
  for (const dialect of dialects) {
    const normalized = normalizeSchema(schema, { dialect });
    const key = canonicalJson(normalized as unknown as Json);
    const same = out.find((r) => r.key === key);
    if (same) same.dialects.push(dialect);
    else out.push({ dialects: [dialect], normalized, key });
  }
  return out;
}

const compiledSchemas = new WeakMap<object, CompiledInputSchema>();

/** {@link compileInputSchema}, once per schema object (a classification reads each side's dialects twice). */
function compiledOnce(schema: Json): CompiledInputSchema {
  if (!isObject(schema)) return compileInputSchema(schema);
  let c = compiledSchemas.get(schema);
  if (!c) compiledSchemas.set(schema, (c = compileInputSchema(schema)));
  return c;
}

/** `verdict` found comparing the schemas as `dialect` reads them, saying so. */
function inDialect(verdict: SchemaVerdict, dialect: Dialect): SchemaVerdict {
  const note = ` (as ${dialect}, which the proxy checks arguments in, reads the schemas)`;
  if (verdict.kind === 'unchanged') return verdict;
  const deltas = verdict.deltas.map((d) => ({ ...d, what: `${d.what}${note}` }));
  return verdict.kind === 'unclassified' ? { kind: 'unclassified', reason: `${verdict.reason}${note}`, deltas } : { kind: verdict.kind, deltas };
}

/** The verdict from two normal forms, before the dialects are considered. */
async function compareReadings(na: NormalizedSchema, nb: NormalizedSchema, opts: ClassifyOptions): Promise<SchemaVerdict> {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
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
  if (jsonEqual(na.schema, nb.schema)) return { kind: 'unchanged' };
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
  if (!widened) return { kind: 'narrowed', deltas: sorted };
  return { kind: narrowed ? 'both' : 'widened', deltas: sorted };
}

/**
 * `verdict`, unless the proxy would enforce the new schema in fewer dialects.
 * It checks arguments in every dialect a schema compiles in (surface/schema-validators.ts), and
 * they must pass each: a change that makes the schema stop compiling in one drops that dialect's
 * keywords (`prefixItems`, `dependentSchemas`, `$dynamicRef`... for 2020-12) from what is
 * enforced, and the change is not judged across dialects (a widening found stays in the deltas).
 * An old schema that compiled in none (every call refused) counts as enforced in all: what was
 * reviewed is its meaning. A new schema that compiles in every dialect, or in none, is only
 * enforced more strictly. Compiles only what can differ: a new schema without a keyword the
 * dialects define differently compiles alike in both.
 */
function enforcedAlike(before: Json, after: Json, verdict: SchemaVerdict): SchemaVerdict {
  if (!usesDialectKeywords(after)) return verdict;
  const a = compiledOnce(after);
  if (a.validators.length === 0 || a.failures.length === 0) return verdict;
  const b = compiledOnce(before);
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

/** A keyword defined differently in two dialects the normalizer does not read per dialect reads `items` (array: a tuple), and drops what a dialect does not define. */
const READ_PER_DIALECT: ReadonlySet<string> = new Set(['items']);

/**
 * Keywords Ajv's dialects define differently that {@link normalizeSchema} does not read per
 * dialect: none with the Ajv this is built with; a new Ajv that adds one makes such schemas fail
 * closed rather than compare as one dialect reads them.
 */
function unhandledDialectKeywords(): string[] {
  const onlyInSome = new Set(DIALECT_NAMES.flatMap((d) => [...keywordsUndefinedIn(d)]));
  return [...keywordsDefinedDifferently()].filter((k) => !onlyInSome.has(k) && !READ_PER_DIALECT.has(k));
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
