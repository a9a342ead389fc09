/**
 * Every form of reference, resolved as the proxy's validator (Ajv, src/surface/schema-validators.ts)
 * resolves it. Each widening case also asserts what the proxy does with both schemas (the old one
 * refuses `cmd: "rm"`, the new one lets it through), so the expected verdict is the validator's,
 * not toolgate's own reading.
 */
import { describe, expect, it } from 'vitest';
import { classifySchemaChange, normalizeSchema, type SchemaVerdict } from '../../src/diff/schema/index.js';
import { compileInputSchema } from '../../src/surface/schema-validators.js';
import type { Json, JsonObject } from '../../src/util/json.js';

/** What the proxy does with `args` under `schema`: every dialect it compiles in must accept them. */
function proxyAccepts(schema: Json, args: Json): boolean {
  const { validators } = compileInputSchema(schema);
  return validators.length > 0 && validators.every((v) => v.validate(args) === true);
}

const NARROW: JsonObject = { type: 'string', enum: ['ls', 'pwd'] };
const WIDE: JsonObject = { type: 'string' };
/** A tool schema whose `cmd` is `{"$ref": ref}`, with `extra` (the definitions) beside it. */
const tool = (ref: string, extra: JsonObject, at: JsonObject = { $ref: ref }): JsonObject => ({
  type: 'object',
  properties: { cmd: at },
  required: ['cmd'],
  additionalProperties: false,
  ...extra,
});

interface Case {
  name: string;
  /** Builds the schema with `cmd`'s target (NARROW before, WIDE after). */
  schema: (target: JsonObject) => JsonObject;
}

/** Forms a validator resolves: the widened target must be a widening at /properties/cmd. */
const RESOLVED: Case[] = [
  { name: '$anchor', schema: (t) => tool('#c', { $defs: { c: { $anchor: 'c', ...t } } }) },
  { name: 'urn: $id', schema: (t) => tool('urn:x', { $defs: { c: { $id: 'urn:x', ...t } } }) },
  { name: 'urn: $id with an empty fragment', schema: (t) => tool('urn:example:cmd#', { $defs: { c: { $id: 'urn:example:cmd', ...t } } }) },
  { name: 'absolute $id', schema: (t) => tool('https://example.com/cmd.json', { $defs: { c: { $id: 'https://example.com/cmd.json', ...t } } }) },
  {
    name: '$id relative to the root $id',
    schema: (t) => tool('cmd.json', { $id: 'https://example.com/tools/run.json', $defs: { c: { $id: 'cmd.json', ...t } } }),
  },
  {
    name: '$id relative to an enclosing $id (a nested resource)',
    schema: (t) =>
      tool('https://example.com/lib/inner/cmd.json', {
        $defs: { lib: { $id: 'https://example.com/lib/', $defs: { c: { $id: 'inner/cmd.json', ...t } } } },
      }),
  },
  {
    name: 'pointer into an embedded resource',
    schema: (t) => tool('https://example.com/lib.json#/$defs/c', { $defs: { lib: { $id: 'https://example.com/lib.json', $defs: { c: t } } } }),
  },
  {
    name: 'anchor of an embedded resource',
    schema: (t) => tool('https://example.com/lib.json#c', { $defs: { lib: { $id: 'https://example.com/lib.json', $defs: { c: { $anchor: 'c', ...t } } } } }),
  },
  {
    name: '"#/$defs/c" read inside an embedded resource is that resource\'s, not the root\'s',
    schema: (t) =>
      tool('urn:example:lib', {
        $defs: {
          c: { type: 'string', enum: ['ls'] },
          lib: { $id: 'urn:example:lib', type: 'string', $ref: '#/$defs/c', $defs: { c: t } },
        },
      }),
  },
  { name: 'pointer into properties', schema: (t) => tool('#/properties/other', { properties: { cmd: { $ref: '#/properties/other' }, other: t } }) },
  {
    name: 'pointer into allOf and items',
    schema: (t) => tool('#/allOf/0/properties/list/items', { allOf: [{ properties: { list: { type: 'array', items: t } } }] }),
  },
  { name: 'pointer with escaped and percent-encoded tokens', schema: (t) => tool('#/$defs/a~1b/c%20d', { $defs: { 'a/b': { 'c d': t } } }) },
  { name: 'a $ref to a $ref', schema: (t) => tool('#a', { $defs: { a: { $anchor: 'a', $ref: 'urn:example:b' }, b: { $id: 'urn:example:b', ...t } } }) },
  { name: '$ref with siblings', schema: (t) => tool('', {}, { $ref: '#c', minLength: 1, $defs: { c: { $anchor: 'c', ...t } } }) },
  { name: 'an anchor placed in an unknown keyword (Ajv reads it)', schema: (t) => tool('#c', { 'x-hidden': { $anchor: 'c', ...t } }) },
];

describe('references resolved as the validator resolves them', () => {
  it.each(RESOLVED)('$name: a widened target is a widening', async ({ schema }) => {
    const before = schema(NARROW);
    const after = schema(WIDE);
    expect(proxyAccepts(before, { cmd: 'ls' })).toBe(true);
    expect(proxyAccepts(before, { cmd: 'rm' })).toBe(false);
    expect(proxyAccepts(after, { cmd: 'rm' })).toBe(true);
    const v = await classifySchemaChange(before, after);
    expect(v.kind, JSON.stringify(v)).toBe('widened');
    // A target that is itself a property (or an item) is widened there too; one with siblings, in an allOf.
    const deltas = v.kind === 'widened' ? v.deltas.map((d) => `${d.path}: ${d.what}`) : [];
    expect(
      deltas.filter((d) => /^\/properties\/cmd(\/allOf\/0)?: no longer restricted to the values "ls", "pwd"$/.test(d)),
      deltas.join('\n'),
    ).toHaveLength(1);
  });

  it.each(RESOLVED)('$name: a description changed beside it is no change', async ({ schema }) => {
    const v = await classifySchemaChange(schema(NARROW), { ...schema(NARROW), description: 'Runs a command.' });
    expect(v).toEqual({ kind: 'unchanged' });
  });

  it('a decoy with the same name elsewhere is not what is compared', async () => {
    // The root's $defs/c is never reached: `#/$defs/c` inside urn:example:lib is the resource's own.
    const s = (decoy: JsonObject, real: JsonObject): JsonObject =>
      tool('urn:example:lib', { $defs: { c: decoy, lib: { $id: 'urn:example:lib', type: 'string', $ref: '#/$defs/c', $defs: { c: real } } } });
    expect(await classifySchemaChange(s(NARROW, NARROW), s(WIDE, NARROW))).toEqual({ kind: 'unchanged' });
    expect((await classifySchemaChange(s(NARROW, NARROW), s(NARROW, WIDE))).kind).toBe('widened');
  });

  it('the normalized form inlines the target and drops what named it', () => {
    const { schema, unsupportedRefs, circularRefs } = normalizeSchema(RESOLVED[1]!.schema(NARROW));
    expect({ unsupportedRefs, circularRefs }).toEqual({ unsupportedRefs: [], circularRefs: [] });
    expect(schema).toEqual({ additionalProperties: false, properties: { cmd: { enum: ['ls', 'pwd'], type: 'string' } }, required: ['cmd'], type: 'object' });
  });
});

/** Forms that cannot be resolved with certainty: unclassified (an error until approved), never unchanged. */
const UNRESOLVED: { name: string; schema: (t: JsonObject) => JsonObject; reason: RegExp }[] = [
  { name: 'an external URL', schema: (t) => tool('https://example.com/cmd.json', { $defs: { c: t } }), reason: /-> https:\/\/example\.com\/cmd\.json/ },
  { name: 'a relative file', schema: (t) => tool('cmd.json#/x', { $defs: { c: t } }), reason: /-> cmd\.json#\/x/ },
  { name: 'a meta-schema', schema: (t) => tool('https://json-schema.org/draft/2020-12/schema', { $defs: { c: t } }), reason: /draft\/2020-12\/schema/ },
  {
    name: 'an anchor two schemas declare',
    schema: (t) => tool('#c', { $defs: { c: { $anchor: 'c', ...t }, d: { $anchor: 'c', type: 'string', enum: ['ls'] } } }),
    reason: /resolves to more than one schema/,
  },
  {
    name: 'an $id two schemas declare',
    schema: (t) => tool('urn:example:c', { $defs: { c: { $id: 'urn:example:c', ...t }, d: { $id: 'urn:example:c', type: 'string' } } }),
    reason: /resolves to more than one schema/,
  },
  {
    name: 'a resource that is only a $ref to a pointer inside itself (Ajv recurses without end)',
    schema: (t) => tool('urn:example:lib', { $defs: { lib: { $id: 'urn:example:lib', $ref: '#/$defs/c', $defs: { c: t } } } }),
    reason: /schemas that are only a \$ref \(they loop\)/,
  },
  {
    name: '$ids with JSON pointer fragments that name each other (Ajv loops)',
    schema: (t) =>
      tool('urn:example:r#/$defs/a', {
        $id: 'urn:example:r',
        $defs: { a: { $id: 'urn:example:r#/$defs/b', ...t }, b: { $id: 'urn:example:r#/$defs/a', type: 'string' } },
      }),
    reason: /the \$id chain loops/,
  },
  {
    name: 'two definitions that are only a $ref to each other',
    schema: (t) => tool('#/$defs/a', { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' }, c: t } }),
    reason: /schemas that are only a \$ref \(they loop\)/,
  },
  { name: 'a missing target', schema: (t) => tool('#/$defs/missing', { $defs: { c: t } }), reason: /target not found/ },
  { name: "the root's own $anchor (Ajv does not register it)", schema: (t) => ({ ...tool('#top', { $defs: { c: t } }), $anchor: 'top' }), reason: /#top/ },
  {
    name: 'a $dynamicRef whose target depends on the dynamic scope',
    schema: (t) => tool('', { $defs: { c: { $dynamicAnchor: 'c', ...t } } }, { $dynamicRef: '#c' }),
    reason: /\$dynamicRef resolves through the dynamic scope/,
  },
  {
    name: 'a $dynamicRef to another resource (Ajv refuses it; draft-07 ignores it)',
    schema: (t) => tool('', { $defs: { c: { $id: 'urn:example:c', $dynamicAnchor: 'c', ...t } } }, { $dynamicRef: 'urn:example:c#c' }),
    reason: /\$dynamicRef/,
  },
  {
    name: 'a $recursiveRef other than "#"',
    schema: (t) => tool('', { $defs: { c: t } }, { $recursiveRef: '#/$defs/c' }),
    reason: /\$recursiveRef resolves through the dynamic scope/,
  },
];

describe('references that cannot be resolved with certainty', () => {
  it.each(UNRESOLVED)('$name: unclassified, also when only a description changed', async ({ schema, reason }) => {
    for (const after of [schema(WIDE), { ...schema(NARROW), description: 'Runs a command.' }]) {
      const v: SchemaVerdict = await classifySchemaChange(schema(NARROW), after);
      expect(v.kind, JSON.stringify(v)).toBe('unclassified');
      expect(v.kind === 'unclassified' && v.reason).toMatch(reason);
    }
  });
});

describe('recursive references', () => {
  /** A tree whose nodes reach themselves through `ref` (an anchor, an $id, a pointer, the root). */
  const tree = (leaf: JsonObject): JsonObject => ({
    type: 'object',
    properties: { root: { $ref: '#node' } },
    $defs: { node: { $anchor: 'node', type: 'object', properties: { value: leaf, children: { type: 'array', items: { $ref: '#node' } } } } },
  });

  it('an unchanged recursive schema reached by anchor is unchanged; a changed one is unclassified', async () => {
    expect(await classifySchemaChange(tree(NARROW), { ...tree(NARROW), description: 'x' })).toEqual({ kind: 'unchanged' });
    const v = await classifySchemaChange(tree(NARROW), tree(WIDE));
    expect(v.kind).toBe('unclassified');
    expect(v.kind === 'unclassified' && v.reason).toMatch(/^circular \$ref \(before: .* -> #node/);
  });

  it('two recursive schemas that read alike but loop to different targets are not equal', async () => {
    // Anchors are dropped in the normalized form: the loops must still say where they go.
    const s = (a: string, b: string): JsonObject => ({
      type: 'object',
      properties: {
        p: { $anchor: a, type: 'object', properties: { next: { $ref: '#p' } }, additionalProperties: false },
        q: { $anchor: b, type: 'object', properties: { next: { $ref: '#p' } } },
      },
    });
    const v = await classifySchemaChange(s('p', 'q'), s('q', 'p'));
    expect(v.kind).not.toBe('unchanged');
  });

  it('a loop target merged into its site stays distinguishable', async () => {
    // The site's sibling and the target's keyword swap places: the merged site reads alike, the target does not.
    const s = (site: JsonObject, target: JsonObject): JsonObject => ({
      type: 'object',
      properties: { n: { $ref: '#/$defs/n', ...site } },
      $defs: { n: { ...target, properties: { next: { $ref: '#/$defs/n' } } } },
    });
    const v = await classifySchemaChange(s({ maxProperties: 3 }, { minProperties: 1 }), s({ minProperties: 1 }, { maxProperties: 3 }));
    expect(v.kind).not.toBe('unchanged');
  });

  it("a $dynamicRef to the root's own $dynamicAnchor is a recursion: equal when unchanged, unclassified when changed", async () => {
    const s = (leaf: JsonObject): JsonObject => ({
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { value: leaf, children: { type: 'array', items: { $dynamicRef: '#node' } } },
    });
    expect(proxyAccepts(s(NARROW), { children: [{ value: 'rm' }] })).toBe(false);
    expect(await classifySchemaChange(s(NARROW), { ...s(NARROW), description: 'x' })).toEqual({ kind: 'unchanged' });
    const v = await classifySchemaChange(s(NARROW), s(WIDE));
    expect(v.kind === 'unclassified' && v.reason).toMatch(/^circular \$ref .*-> #node/);
  });

  it('a $recursiveRef "#" under $recursiveAnchor: true is a recursion to the root', async () => {
    const s = (leaf: JsonObject): JsonObject => ({
      $recursiveAnchor: true,
      type: 'object',
      properties: { value: leaf, children: { type: 'array', items: { $recursiveRef: '#' } } },
    });
    expect(proxyAccepts(s(NARROW), { children: [{ value: 'rm' }] })).toBe(false);
    expect(await classifySchemaChange(s(NARROW), { ...s(NARROW), description: 'x' })).toEqual({ kind: 'unchanged' });
    expect((await classifySchemaChange(s(NARROW), s(WIDE))).kind).toBe('unclassified');
  });
});

describe('the dialects the proxy enforces a schema in', () => {
  // 2020-12 enforces `dependentSchemas`; draft-07 ignores it. Array-form `items` (draft-07's
  // tuple, the same as `prefixItems`) does not compile as 2020-12, so the proxy would drop it.
  const s = (tuple: JsonObject): JsonObject => ({
    type: 'object',
    properties: { cmd: { type: 'string' }, t: tuple },
    dependentSchemas: { cmd: { properties: { cmd: { enum: ['ls'] } } } },
  });
  const prefixItems = { type: 'array', prefixItems: [{ type: 'string' }] };
  const arrayItems = { type: 'array', items: [{ type: 'string' }] };

  it('a rewrite that makes the schema stop compiling in a dialect is unclassified, though the two read alike', async () => {
    expect(proxyAccepts(s(prefixItems), { cmd: 'rm' })).toBe(false);
    expect(proxyAccepts(s(arrayItems), { cmd: 'rm' })).toBe(true);
    const v = await classifySchemaChange(s(prefixItems), s(arrayItems));
    expect(v.kind).toBe('unclassified');
    expect(v.kind === 'unclassified' && v.reason).toContain(
      'against the old inputSchema as JSON Schema 2020-12 and JSON Schema draft-07 and against the new one as JSON Schema draft-07',
    );
  });

  it('the other way round, the dependentSchemas draft-07 never enforced now applies (as 2020-12): reviewed', async () => {
    // The old schema compiles as draft-07 only, which does not define dependentSchemas; the new one
    // compiles in both, and 2020-12 now enforces it: compared like dependentSchemas written anew.
    expect(proxyAccepts(s(arrayItems), { cmd: 'rm' })).toBe(true);
    expect(proxyAccepts(s(prefixItems), { cmd: 'rm' })).toBe(false);
    const v = await classifySchemaChange(s(arrayItems), s(prefixItems));
    // Each dialect's reading of the new schema alone accepts something the old one refused (draft-07's
    // drops the tuple, 2020-12's declares "cmd" in dependentSchemas): it goes to review.
    expect(['widened', 'both', 'unclassified'], JSON.stringify(v)).toContain(v.kind);
  });
});
