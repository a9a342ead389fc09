/**
 * The policy is judged by construction (docs/design.md §7): every key of schema/toolgate.schema.json
 * and schema/integration.schema.json (every property at every depth, through `$ref`, `items`,
 * `additionalProperties`, `oneOf`/`anyOf`/`allOf`) has a row in src/config/keys.ts that says
 * which change relaxes it; and for every row of toolgate.yml, a change generated from the schema
 * in that direction is judged so by `diffPolicies`, the opposite one as a tightening, and a
 * change of a neutral key as no change.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTEGRATION_KEYS, POLICY_KEYS, parentOf, type PolicyKey } from '../../src/config/keys.js';
import { diffPolicies } from '../../src/config/policy-diff.js';
import { WORDS } from '../../src/config/policy-wording.js';
import { parsePolicy } from '../../src/config/policy.js';
import { isRuleId } from '../../src/rules/catalog.js';
import { ROOT } from '../support/mcp-fixtures.js';

/** A JSON Schema document or subschema, walked by keyword. */
type Schema = Record<string, any>;

/** The rows directly below `parent` (`''` for the document), in table order. */
const childKeys = (table: readonly PolicyKey[], parent: string) => table.filter((k) => parentOf(k.key) === parent);

const readSchema = (name: string): Schema => JSON.parse(readFileSync(join(ROOT, 'schema', name), 'utf8')) as Schema;

/** The node a local `$ref` (`#/definitions/x`) names. */
function deref(root: Schema, node: Schema, seen = new Set<string>()): Schema {
  const ref = node.$ref as string | undefined;
  if (ref === undefined) return node;
  expect(ref.startsWith('#/'), `only local $refs are walked: ${ref}`).toBe(true);
  expect(seen.has(ref), `a $ref cycle at ${ref}`).toBe(false);
  seen.add(ref);
  const target = ref
    .slice(2)
    .split('/')
    .reduce<Schema>((n, seg) => n[seg.replace(/~1/g, '/').replace(/~0/g, '~')] as Schema, root);
  return deref(root, target, seen);
}

/**
 * Every key path of a schema with the schema of its value: names joined by `.`, `[]` for the
 * items of a list, `*` for the keys of a map (the form keys.ts uses). `refs` collects the
 * `$ref`s followed.
 */
function schemaKeys(root: Schema): { keys: Map<string, Schema>; refs: Set<string> } {
  const keys = new Map<string, Schema>();
  const refs = new Set<string>();
  const join = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);
  const walk = (raw: Schema, path: string, depth: number): void => {
    expect(depth, `schema nesting at ${path}`).toBeLessThan(50);
    if (typeof raw.$ref === 'string') refs.add(raw.$ref);
    const node = deref(root, raw);
    for (const k of ['oneOf', 'anyOf', 'allOf'] as const) for (const sub of (node[k] ?? []) as Schema[]) walk(sub, path, depth + 1);
    for (const k of ['if', 'then', 'else'] as const) if (node[k]) walk(node[k] as Schema, path, depth + 1);
    for (const [name, sub] of Object.entries((node.properties ?? {}) as Record<string, Schema>)) {
      const p = join(path, name);
      if (!keys.has(p)) keys.set(p, sub);
      walk(sub, p, depth + 1);
    }
    for (const sub of Object.values((node.patternProperties ?? {}) as Record<string, Schema>)) walk(sub, `${path}.*`, depth + 1);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties as Schema, `${path}.*`, depth + 1);
    if (typeof node.propertyNames === 'object') walk(node.propertyNames as Schema, path, depth + 1);
    const items = [...(Array.isArray(node.items) ? node.items : node.items ? [node.items] : []), ...((node.prefixItems ?? []) as Schema[])] as Schema[];
    for (const sub of items) walk(sub, `${path}[]`, depth + 1);
  };
  walk(root, '', 0);
  return { keys, refs };
}

const SCHEMAS = [
  { file: 'schema/toolgate.schema.json', table: 'POLICY_KEYS', rows: POLICY_KEYS, schema: readSchema('toolgate.schema.json') },
  { file: 'schema/integration.schema.json', table: 'INTEGRATION_KEYS', rows: INTEGRATION_KEYS, schema: readSchema('integration.schema.json') },
];

describe.each(SCHEMAS)('$file: every key is classed in src/config/keys.ts', ({ file, table, rows, schema }) => {
  const { keys, refs } = schemaKeys(schema);

  it('has a row for every key, at every depth', () => {
    const classed = new Set(rows.map((r) => r.key));
    const missing = [...keys.keys()].filter((k) => !classed.has(k));
    expect(
      missing,
      missing
        .map(
          (k) =>
            `${file} has the key "${k}", which src/config/keys.ts does not class: add a row { key: '${k}', relaxes: …, why: '…' } to ${table}, ` +
            `next to the rows of "${parentOf(k) || 'the document'}" (relaxes: how a change makes the policy less strict, see the Relaxes type, or 'neutral' with why)`,
        )
        .join('\n'),
    ).toEqual([]);
  });

  it('has no row for a key the schema lacks', () => {
    const stale = rows.map((r) => r.key).filter((k) => !keys.has(k));
    expect(stale, `rows of ${table} in src/config/keys.ts for keys ${file} does not have: remove or rename them`).toEqual([]);
  });

  it('reaches every definition through its $refs', () => {
    const defs = Object.keys((schema.definitions ?? schema.$defs ?? {}) as object);
    const unreached = defs.filter((d) => !refs.has(`#/definitions/${d}`) && !refs.has(`#/$defs/${d}`));
    expect(unreached, `definitions of ${file} no key uses`).toEqual([]);
  });

  it('walks the nested keys (sources, mcp, start, headers, runtime, review, limits, deny, overrides, safety-fields, exports)', () => {
    const expected =
      table === 'POLICY_KEYS'
        ? [
            'sources[].mcp.start.env',
            'sources[].mcp.headers.*.prefix',
            'runtime.allow-tools',
            'review.fresh',
            'limits.max-tokens-per-tool',
            'deny[].less-safe',
            'overrides[].rules',
            'safety-fields[].default',
            'exports[].gateway',
          ]
        : ['include', 'policies', 'spec'];
    for (const k of expected) expect(keys.has(k), k).toBe(true);
  });
});

describe('the rows of src/config/keys.ts', () => {
  const all = [...POLICY_KEYS, ...INTEGRATION_KEYS];

  it('each has a one-line why, and keys are unique', () => {
    for (const r of all) expect(r.why.length > 10 && !r.why.includes('\n'), r.key).toBe(true);
    expect(new Set(POLICY_KEYS.map((r) => r.key)).size).toBe(POLICY_KEYS.length);
  });

  it('`entry` only inside a list or map of objects, `by-key` only on a block with rows below it', () => {
    for (const r of POLICY_KEYS) {
      if (r.relaxes === 'entry') expect(/(\[\]|\.\*)$/.test(parentOf(r.key)), `${r.key}: entry of what?`).toBe(true);
      if (r.relaxes === 'by-key') expect(childKeys(POLICY_KEYS, r.key).length, `${r.key}: by-key with no rows below`).toBeGreaterThan(0);
    }
  });

  it('the words of src/config/policy-wording.ts are for keys the table has (a renamed key keeps its sentences)', () => {
    const keys = new Set(POLICY_KEYS.map((r) => r.key));
    expect(Object.keys(WORDS).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('an integration key with a direction names the rules that judge it through the surface', () => {
    for (const r of INTEGRATION_KEYS) {
      if (r.relaxes === 'neutral') continue;
      expect(r.judgedBy?.length, r.key).toBeGreaterThan(0);
      for (const id of r.judgedBy ?? []) expect(isRuleId(id), `${r.key}: ${id}`).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// Every row is judged by diffPolicies in its direction.

const POLICY_SCHEMA = SCHEMAS[0]!.schema;
const SCHEMA_KEYS = schemaKeys(POLICY_SCHEMA).keys;

/** A policy with one source of each kind and two safety fields, in which each key is set. */
const SKELETON = () => ({
  sources: [
    { id: 'web', mcp: { command: 'node' } },
    { id: 'remote', mcp: { url: 'http://127.0.0.1:9/mcp' } },
    { id: 'api', openapi: 'api.json' },
    { id: 'saved', recorded: 'saved.json' },
  ] as Record<string, unknown>[],
  'safety-fields': [
    { name: 'a', pointer: '/a', safer: true },
    { name: 'b', pointer: '/b', safer: true },
  ],
});

/** Strings tried for a string key, in order: the first that the schema and the parser accept are used. */
const STRINGS = ['a', 'b', 'web', 'remote', 'A_B', 'C_D', 'x-a', 'x-b', '/a', '/b', 'http://127.0.0.1:1/a', 'http://127.0.0.1:2/b', 'c', 'd', 'tool-added'];

/** Values a scalar schema allows, most usual first. */
function scalars(raw: Schema): unknown[] {
  const s = deref(POLICY_SCHEMA, raw);
  if (s.const !== undefined) return [s.const];
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  const options = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
  if (options) return options.flatMap(scalars);
  if (s.type === 'boolean') return [false, true];
  if (s.type === 'integer' || s.type === 'number') {
    const min = (s.minimum as number | undefined) ?? 0;
    return [min + 1, min + 2];
  }
  if (s.type === 'string') {
    const ok = (v: string) =>
      (s.pattern === undefined || new RegExp(s.pattern as string, 'u').test(v)) &&
      v.length >= ((s.minLength as number | undefined) ?? 0) &&
      (s.not?.pattern === undefined || !new RegExp(s.not.pattern as string, 'u').test(v));
    return STRINGS.filter(ok);
  }
  if (s.type === 'array') return [scalars(s.items as Schema).slice(0, 1)];
  return [];
}

const isList = (s: Schema) => deref(POLICY_SCHEMA, s).type === 'array' || ((deref(POLICY_SCHEMA, s).oneOf ?? []) as Schema[]).some((o) => o.type === 'array');

/** Extra keys an entry needs beyond its schema's `required` (the parser asks for an export's source when there are several). */
const EXTRA: Record<string, Record<string, unknown>> = { exports: { source: 'web' } };

/** An object with the required keys of `raw` set, each to its `variant`-th value; `rules` maps lower tool-added to off. */
function fill(raw: Schema, variant = 0, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const s = deref(POLICY_SCHEMA, raw);
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const k of (s.required ?? []) as string[]) {
    const ps = deref(POLICY_SCHEMA, props[k]!);
    out[k] = k === 'rules' ? { 'tool-added': 'off' } : ps.type === 'object' && ps.properties ? fill(ps, variant) : scalars(ps)[variant];
  }
  return { ...out, ...extra };
}

/** The schema of a list's items, or of a map's values. */
const itemsOf = (key: string) => deref(POLICY_SCHEMA, deref(POLICY_SCHEMA, SCHEMA_KEYS.get(key)!).items as Schema);
const valuesOf = (key: string) => deref(POLICY_SCHEMA, deref(POLICY_SCHEMA, SCHEMA_KEYS.get(key)!).additionalProperties as Schema);

/**
 * Candidate pairs of values for a key, [less strict, stricter] for a directed key, two different
 * ones for a neutral or any-change key; the first pair both sides of which parse is used.
 */
function valuePairs(row: PolicyKey, schema: Schema): [unknown, unknown][] {
  const r = row.relaxes;
  const s = deref(POLICY_SCHEMA, schema);
  if (childKeys(POLICY_KEYS, `${row.key}[]`).length > 0 || row.relaxes === 'entry') return [];
  if (childKeys(POLICY_KEYS, `${row.key}.*`).length > 0) return [[{ 'X-A': fill(valuesOf(row.key)) }, {}]];
  if (childKeys(POLICY_KEYS, row.key).length > 0) return r === 'adding' ? [[fill(s), undefined]] : [];
  if (r === 'lowering-a-level') return [[{ 'tool-added': 'warning' }, { 'tool-added': 'error' }]];
  if (s.type === 'object') return [[{ roots: {} }, {}]];
  if (isList(schema)) {
    const items = deref(POLICY_SCHEMA, (s.items ?? (s.oneOf as Schema[]).find((o) => o.type === 'array')!.items) as Schema);
    const [x, y] = scalars(items);
    if (r === 'adding') return [[[x, y], [x]]];
    if (r === 'removing') return [[[x], [x, y]]];
    return [[[x], [y]]];
  }
  const vs = scalars(schema);
  if (typeof r === 'object') return vs.filter((v) => v !== r.towards).map((v) => [r.towards, v]);
  if (r === 'raising' || r === 'turning-on') return [[vs[1], vs[0]]];
  if (r === 'lowering' || r === 'turning-off') return [[vs[0], vs[1]]];
  // A key with one value (a const) can still be written or left out.
  return [...vs.flatMap((a, i) => vs.slice(i + 1).map((b): [unknown, unknown] => [a, b])), [vs[0], undefined]];
}

/** The skeleton with `value` set at `key`: under the `which`-th source for a key of sources, in a first entry for a key of a list. */
function withValue(key: string, value: unknown, which: number): Record<string, unknown> {
  const doc = SKELETON() as Record<string, unknown>;
  const segs = key.split('.');
  let at: Record<string, unknown> = doc;
  let path = '';
  for (const [i, seg] of segs.entries()) {
    const name = seg.replace(/\[\]$/, '');
    path = path === '' ? name : `${path}.${name}`;
    if (i === segs.length - 1) {
      if (value === undefined) delete at[seg];
      else at[seg] = value;
    } else if (seg === 'sources[]') at = (doc.sources as Record<string, unknown>[])[which]!;
    else if (seg.endsWith('[]')) {
      const list = (at[name] ??= [fill(itemsOf(path), 0, EXTRA[path])]) as Record<string, unknown>[];
      at = list[0]!;
    } else if (seg === '*') at = (at['X-A'] ??= {}) as Record<string, unknown>;
    else at = (at[seg] ??= fill(SCHEMA_KEYS.get(path)!)) as Record<string, unknown>;
    if (seg.endsWith('[]')) path = `${path}[]`;
  }
  return doc;
}

/** The first placement and pair of values that both parse as a valid policy, as JSON texts. */
function validPair(key: string, pairs: readonly [unknown, unknown][]): [string, string] | undefined {
  const placements = key.startsWith('sources[].') ? [0, 1, 2, 3] : [0];
  for (const [loose, strict] of pairs) {
    for (const which of placements) {
      const texts = [withValue(key, loose, which), withValue(key, strict, which)].map((d) => JSON.stringify(d));
      try {
        texts.forEach((t) => parsePolicy(t, 'toolgate.yml', '/repo'));
        return texts as [string, string];
      } catch {
        // Not valid here (a key of stdio sources on an HTTP one, a name taken): try the next.
      }
    }
  }
  return undefined;
}

const judged = (from: string, to: string) => diffPolicies(parsePolicy(from, 'toolgate.yml', '/repo'), parsePolicy(to, 'toolgate.yml', '/repo'));

describe('diffPolicies judges every key of toolgate.yml by its row', () => {
  const leaves = POLICY_KEYS.filter((r) => r.relaxes !== 'by-key' && valuePairs(r, SCHEMA_KEYS.get(r.key)!).length > 0);

  it('generates a change for every key that is not a list of entries or part of one', () => {
    const generated = new Set(leaves.map((r) => r.key));
    const without = POLICY_KEYS.filter(
      (r) => !generated.has(r.key) && r.relaxes !== 'by-key' && r.relaxes !== 'entry' && !childKeys(POLICY_KEYS, `${r.key}[]`).length,
    );
    expect(without.map((r) => r.key)).toEqual([]);
  });

  it.each(leaves.map((r) => [r.key, r] as const))('%s', (key, row) => {
    const pairs = valuePairs(row, SCHEMA_KEYS.get(key)!);
    const texts = validPair(key, pairs);
    expect(texts, `no valid policy sets ${key} to any of ${JSON.stringify(pairs)}: add a sample to this test`).toBeDefined();
    const [loose, strict] = texts!;
    const relaxing = judged(strict, loose);
    const tightening = judged(loose, strict);
    if (row.relaxes === 'neutral') {
      expect([...relaxing, ...tightening], `${key} is neutral`).toEqual([]);
      return;
    }
    expect(relaxing.length, `${key}: ${strict} → ${loose} is a change`).toBeGreaterThan(0);
    expect(
      relaxing.every((c) => c.relaxed),
      `${key}: every change of ${JSON.stringify(relaxing)} relaxes`,
    ).toBe(true);
    if (row.relaxes === 'any-change') {
      expect(tightening.length > 0 && tightening.every((c) => c.relaxed), `${key}: ${loose} → ${strict} relaxes too`).toBe(true);
      return;
    }
    expect(tightening.length, `${key}: ${loose} → ${strict} is a change`).toBeGreaterThan(0);
    expect(
      tightening.some((c) => c.relaxed),
      `${key}: none of ${JSON.stringify(tightening)} relaxes`,
    ).toBe(false);
  });

  const entryLists = POLICY_KEYS.filter((r) => childKeys(POLICY_KEYS, `${r.key}[]`).length > 0 && r.key !== 'sources');
  it.each(entryLists.map((r) => [r.key, r] as const))('%s: an entry removed, added or changed', (key, row) => {
    const required = (itemsOf(key).required ?? []) as string[];
    const base = SKELETON() as Record<string, unknown>;
    // Skeleton entries (safety fields a and b) stay; the entry under test is named c or d.
    const make = (variant: number) => fill(itemsOf(key), variant, { ...EXTRA[key], ...(key === 'safety-fields' ? { name: ['c', 'd'][variant] } : {}) });
    const list = (entries: unknown[]) => JSON.stringify({ ...base, [key]: [...((base[key] as unknown[]) ?? []), ...entries] });
    const [none, one, other] = [list([]), list([make(0)]), list([make(1)])];
    const removed = judged(one, none);
    expect(removed.length, `${key}: an entry removed`).toBeGreaterThan(0);
    const added = judged(none, one);
    expect(added.length, `${key}: an entry added`).toBeGreaterThan(0);
    if (row.relaxes === 'removing') {
      expect(removed.every((c) => c.relaxed) && added.every((c) => !c.relaxed), key).toBe(true);
    }
    for (const k of childKeys(POLICY_KEYS, `${key}[]`).filter((c) => c.relaxes === 'entry')) {
      const name = k.key.slice(k.key.lastIndexOf('.') + 1);
      if (!required.includes(name)) continue;
      const changed = judged(one, other);
      expect(changed.length, `${k.key}: a changed entry is a change`).toBeGreaterThan(0);
    }
  });

  it('sources: a source added and one removed both relax; its id is what it is known by', () => {
    const base = JSON.stringify(SKELETON());
    const more = JSON.stringify({ ...SKELETON(), sources: [...SKELETON().sources, { id: 'new', recorded: 'new.json' }] });
    expect(judged(base, more).map((c) => [c.relaxed, c.kind])).toEqual([[true, 'source-added']]);
    expect(judged(more, base).map((c) => [c.relaxed, c.kind])).toEqual([[true, 'source-removed']]);
    const renamed = JSON.stringify({ ...SKELETON(), sources: SKELETON().sources.map((s) => (s.id === 'saved' ? { ...s, id: 'kept' } : s)) });
    expect(
      judged(base, renamed)
        .map((c) => [c.relaxed, c.kind])
        .sort(),
    ).toEqual([
      [true, 'source-added'],
      [true, 'source-removed'],
    ]);
  });
});
