/**
 * The json-schema-diff path (worker thread, budget, errors) and the fail-closed cases.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { classifySchemaChange, classifySchemaChanges, closeSchemaWorkers } from '../../src/diff/schema/index.js';
import { setSchemaWorkerUrl } from '../../src/diff/schema/json-schema-diff-adapter.js';
import type { Json } from '../../src/util/json.js';

afterAll(async () => {
  await closeSchemaWorkers();
});

const fixture = (name: string): { before: Json; after: Json } =>
  JSON.parse(readFileSync(new URL(`../fixtures/schemas/synthetic/${name}`, import.meta.url), 'utf8')) as { before: Json; after: Json };

describe('composition keywords go to json-schema-diff', () => {
  it('an anyOf branch added is widened', async () => {
    const v = await classifySchemaChange(
      { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
      { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } } },
    );
    expect(v).toEqual({
      kind: 'widened',
      deltas: [{ path: '/properties/v', direction: 'widened', what: 'accepts new values ("anyOf" changed; set comparison by json-schema-diff)' }],
    });
  });

  it('a typed property moved into anyOf (integer → integer ≥ 0 | string): both ways, with no "any type" claim', async () => {
    const v = await classifySchemaChange(
      { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false },
      { type: 'object', properties: { n: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }] } }, additionalProperties: false },
    );
    expect(v.kind).toBe('both');
    const deltas = 'deltas' in v ? v.deltas : [];
    expect(deltas.map((d) => d.direction).sort()).toEqual(['narrowed', 'widened']);
    expect(deltas.map((d) => d.what).join('\n')).not.toContain('any type');
  });

  it('an anyOf branch removed is narrowed', async () => {
    const v = await classifySchemaChange(
      { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      { anyOf: [{ type: 'string' }, { type: 'number' }] },
    );
    expect(v.kind).toBe('narrowed');
  });

  it('an equivalent regrouping of anyOf is unchanged', async () => {
    const v = await classifySchemaChange(
      { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
      { anyOf: [{ type: ['string', 'number'] }, { type: 'boolean' }] },
    );
    expect(v.kind).toBe('unchanged');
  });

  it('fails closed when json-schema-diff sees no difference but the change is in keywords it ignores', async () => {
    const v = await classifySchemaChange(
      { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'number' }] },
      { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'number' }, { type: 'number', maximum: 3 }] },
    );
    expect(v.kind).toBe('unclassified');
    if (v.kind === 'unclassified') expect(v.reason).toContain('keywords it does not compare (enum)');
  });

  it('a json-schema-diff error is unclassified with its message', async () => {
    const v = await classifySchemaChange(
      { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
      { anyOf: [{ type: 'strin' }, { type: 'number' }, { type: 'null' }] },
    );
    expect(v.kind).toBe('unclassified');
    if (v.kind === 'unclassified') expect(v.reason).toMatch(/^json-schema-diff failed: Destination schema is not a valid json schema/);
  });

  it('a pathological nested oneOf is unclassified by timeout, and the call returns', async () => {
    const { before, after } = fixture('nested-oneof.json');
    const v = await classifySchemaChange(before, after, { budgetMs: 300 });
    expect(v.kind).toBe('unclassified');
    if (v.kind === 'unclassified') expect(v.reason).toMatch(/^timed out after 300 ms \(json-schema-diff comparing composition keywords at \/properties\/x\)$/);
    // The pool replaced the killed worker: the next call still works.
    const next = await classifySchemaChange(
      { oneOf: [{ type: 'string' }, { type: 'number' }] },
      { oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
    );
    expect(next.kind).toBe('widened');
  }, 30_000);

  it('a missing worker script is unclassified, not a crash', async () => {
    setSchemaWorkerUrl(new URL('./does-not-exist.mjs', import.meta.url));
    try {
      await closeSchemaWorkers();
      const v = await classifySchemaChange(
        { anyOf: [{ type: 'string' }, { type: 'number' }] },
        { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }] },
      );
      expect(v.kind).toBe('unclassified');
      if (v.kind === 'unclassified') expect(v.reason).toContain('json-schema-diff worker could not start');
    } finally {
      setSchemaWorkerUrl(undefined);
      await closeSchemaWorkers();
    }
  });
});

describe('fail closed', () => {
  it('a circular pair is unclassified and says why', async () => {
    const tree = (leaf: Json): Json => ({
      type: 'object',
      properties: { root: { $ref: '#/definitions/node' } },
      definitions: { node: { type: 'object', properties: { value: leaf, children: { type: 'array', items: { $ref: '#/definitions/node' } } } } },
    });
    const v = await classifySchemaChange(tree({ type: 'string' }), tree({ type: ['string', 'null'] }));
    expect(v.kind).toBe('unclassified');
    if (v.kind === 'unclassified') {
      expect(v.reason).toMatch(/^circular \$ref \(before: \/properties\/root.* -> #\/definitions\/node/);
      expect(v.reason).toContain('recursive schemas are not compared');
    }
  });

  it('an unchanged circular schema is unchanged', async () => {
    const s: Json = { type: 'object', properties: { self: { $ref: '#' }, n: { type: 'string' } } };
    expect(await classifySchemaChange(s, { ...(s as object), description: 'new text' } as Json)).toEqual({ kind: 'unchanged' });
  });

  it('an external $ref is unclassified', async () => {
    const v = await classifySchemaChange({ properties: { a: { $ref: 'other.json#/x' } } }, { properties: { a: { $ref: 'other.json#/y' } } });
    expect(v.kind).toBe('unclassified');
    if (v.kind === 'unclassified') expect(v.reason).toContain('unsupported $ref');
  });

  it('keeps the decided deltas next to the reason', async () => {
    const v = await classifySchemaChange(
      { type: 'object', properties: { a: { pattern: '^a' }, b: { enum: ['x'] } } },
      { type: 'object', properties: { a: { pattern: '^b' }, b: { enum: ['x', 'y'] } } },
    );
    expect(v).toEqual({
      kind: 'unclassified',
      reason: 'pattern changed from "^a" to "^b" at /properties/a; whether it accepts more or fewer strings is not decided',
      deltas: [{ path: '/properties/b', direction: 'widened', what: 'enum value "y" added' }],
    });
  });
});

describe('classifySchemaChanges', () => {
  it('returns verdicts in input order, each with its own budget', async () => {
    const slow = fixture('nested-oneof.json');
    const pairs = [
      { before: { type: 'string' } as Json, after: { type: ['string', 'null'] } as Json },
      { before: slow.before, after: slow.after },
      { before: { anyOf: [{ type: 'string' }, { type: 'number' }] } as Json, after: { anyOf: [{ type: 'string' }] } as Json },
      { before: { type: 'object' } as Json, after: { type: 'object' } as Json },
      { before: slow.before, after: slow.after },
    ];
    // The slow pair takes minutes in json-schema-diff, so it exceeds any budget; 2 s leaves the
    // fast pairs room on a loaded 2-core machine (their timing belongs in the benchmark).
    const verdicts = await classifySchemaChanges(pairs, { budgetMs: 2000 });
    expect(verdicts.map((v) => v.kind)).toEqual(['widened', 'unclassified', 'narrowed', 'unchanged', 'unclassified']);
  }, 30_000);

  it('handles an empty list', async () => {
    expect(await classifySchemaChanges([])).toEqual([]);
  });
});
