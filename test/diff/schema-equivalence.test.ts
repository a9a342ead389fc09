/**
 * The pinned form of a schema (normalizeEquivalentForms): spellings JSON Schema defines as the
 * same schema are written one way, so they are no change, no drift and no `contract-stale`.
 * Checked keyword by keyword, against a real validator (ajv, 2020-12) on
 * random schemas and instances, and end to end through the normalizer, the rules and the store.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeContract } from '../../src/contract/serialize.js';
import { parseContract } from '../../src/contract/store.js';
import { diffSurfaces } from '../../src/diff/diff-surfaces.js';
import { normalizeEquivalentForms } from '../../src/surface/pinned-schema.js';
import type { Json, JsonObject } from '../../src/util/json.js';
import { assembleSurface, deriveTool } from '../../src/surface/normalize.js';
import { canonicalJson, getOwn } from '../../src/util/json.js';
import { evaluateCase, mcpSurface, pin, READ_HINTS, readTool } from '../support/surface-builders.js';

const norm = normalizeEquivalentForms;

describe('normalizeEquivalentForms: the equivalences', () => {
  it('required: [] is no required', () => {
    expect(norm({ type: 'object', properties: {}, required: [] })).toEqual({ type: 'object', properties: {} });
  });

  it('required is a set: duplicates dropped, names sorted', () => {
    expect(norm({ required: ['b', 'a', 'b'] })).toEqual({ required: ['a', 'b'] });
  });

  it('type is a set; one type is written as the string', () => {
    expect(norm({ type: ['string'] })).toEqual({ type: 'string' });
    expect(norm({ type: ['string', 'string'] })).toEqual({ type: 'string' });
    expect(norm({ type: ['string', 'null', 'null'] })).toEqual({ type: ['null', 'string'] });
  });

  it('enum duplicates are dropped, the first occurrence keeping its place', () => {
    expect(norm({ enum: ['b', 'a', 'b', { x: 1, y: 2 }, { y: 2, x: 1 }, 1, 1.0] })).toEqual({ enum: ['b', 'a', { x: 1, y: 2 }, 1] });
    expect(norm({ enum: ['b', 'a'] })).toEqual({ enum: ['b', 'a'] });
  });

  it('additionalProperties and items that accept anything are no keyword', () => {
    expect(norm({ type: 'object', additionalProperties: true })).toEqual({ type: 'object' });
    expect(norm({ type: 'object', additionalProperties: {} })).toEqual({ type: 'object' });
    expect(norm({ type: 'array', items: true })).toEqual({ type: 'array' });
    expect(norm({ type: 'array', items: {} })).toEqual({ type: 'array' });
    // A subschema that becomes empty once normalized accepts anything too.
    expect(norm({ additionalProperties: { required: [] } })).toEqual({});
    // Not the same: closed, constrained, or a tuple.
    const kept: JsonObject[] = [
      { additionalProperties: false },
      { additionalProperties: { type: 'string' } },
      { items: false },
      { items: [{}] },
      { items: { description: 'x' } },
    ];
    for (const s of kept) {
      expect(norm(s)).toEqual(s);
    }
  });

  it('keeps additionalProperties/items: true when unevaluated* is used anywhere (they evaluate properties and items)', () => {
    const objects = { allOf: [{ properties: { a: {} }, additionalProperties: true }], unevaluatedProperties: false };
    expect(norm(objects)).toEqual(objects);
    const arrays = { anyOf: [{ items: true }], unevaluatedItems: false };
    expect(norm(arrays)).toEqual(arrays);
  });

  it('applies at every schema position', () => {
    const sub = { type: ['string'], required: [] };
    const schema: JsonObject = {
      properties: { a: sub },
      patternProperties: { '^x': sub },
      items: sub,
      prefixItems: [sub],
      allOf: [sub],
      anyOf: [sub],
      oneOf: [sub],
      not: sub,
      if: sub,
      then: sub,
      else: sub,
      contains: sub,
      propertyNames: sub,
      dependentSchemas: { a: sub },
      dependencies: { a: sub, b: ['b', 'a', 'a'] },
      $defs: { A: sub },
      definitions: { A: sub },
    };
    const out = norm(schema) as JsonObject;
    const text = canonicalJson(out);
    expect(text).not.toContain('"required":[]');
    expect(text).not.toContain('["string"]');
    // dependencies' name lists are data here (not a keyword this form rewrites).
    expect((out.dependencies as JsonObject).b).toEqual(['b', 'a', 'a']);
  });

  it('never rewrites data: enum/const/default/examples values, vendor keys, property names', () => {
    const data = { required: [], type: ['string'], additionalProperties: true };
    const schema: JsonObject = {
      enum: [data],
      const: data,
      default: data,
      examples: [data],
      'x-vendor': data,
      properties: { required: { type: 'string' }, type: { type: 'string' }, enum: {} },
    };
    expect(norm(schema)).toBe(schema);
  });

  it('leaves invalid spellings as written (a non-string in required or type is not ours to reinterpret)', () => {
    const invalid: JsonObject[] = [{ required: [1, 'a', 'a'] }, { type: [1, 'string'] }, { type: [] }, { enum: [] }];
    for (const s of invalid) expect(norm(s)).toEqual(s);
  });

  it('returns the schema itself when nothing changes, shares unchanged subtrees, and is idempotent', () => {
    const same = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
    expect(norm(same)).toBe(same);
    const schema = { properties: { a: { type: 'string' }, b: { type: ['string'] } } };
    const out = norm(schema) as { properties: JsonObject };
    expect(out.properties.a).toBe(schema.properties.a);
    expect(norm(out)).toBe(out);
    expect(schema.properties.b).toEqual({ type: ['string'] }); // input not mutated
  });

  it('keeps __proto__ as a property name through a rewrite', () => {
    const schema = JSON.parse('{"type":"object","required":[],"properties":{"__proto__":{"type":["string"]},"a":{}}}') as JsonObject;
    const out = norm(schema) as { properties: JsonObject };
    expect(Object.keys(out.properties)).toEqual(['__proto__', 'a']);
    expect(getOwn(out.properties, '__proto__')).toEqual({ type: 'string' });
    expect(Object.getPrototypeOf(out.properties)).toBe(Object.prototype);
  });
});

describe('normalizeEquivalentForms against a validator', () => {
  const typeName = fc.constantFrom('string', 'number', 'integer', 'object', 'array', 'boolean', 'null');
  const name = fc.constantFrom('a', 'b', 'c');
  const entries = <T>(value: fc.Arbitrary<T>) => fc.array(fc.tuple(name, value), { maxLength: 3 }).map((e) => Object.fromEntries(e) as Record<string, T>);
  /** `arb` in one node out of `1 + absent`, else no keyword (an `enum` or `type` everywhere would reject most instances). */
  const sometimes = <T>(arb: fc.Arbitrary<T>, absent: number) => fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
  const { schema } = fc.letrec<{ schema: Json; node: JsonObject }>((tie) => ({
    schema: fc.oneof({ maxDepth: 3, depthSize: 'small' }, fc.constantFrom<Json>(true, false, {}), tie('node')),
    node: fc
      .tuple(
        fc.record(
          {
            required: fc.array(name, { maxLength: 3 }),
            properties: entries(tie('schema')),
            additionalProperties: fc.oneof(fc.constantFrom<Json>(true, false, {}), tie('schema')),
            items: fc.oneof(fc.constantFrom<Json>(true, false, {}), tie('schema')),
            prefixItems: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
            allOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
            anyOf: fc.array(tie('schema'), { minLength: 1, maxLength: 2 }),
            unevaluatedProperties: fc.constantFrom<Json>(false, {}),
            unevaluatedItems: fc.constantFrom<Json>(false, {}),
          },
          { requiredKeys: [] },
        ),
        sometimes(fc.oneof(typeName, fc.array(typeName, { minLength: 1, maxLength: 3 })), 2),
        sometimes(fc.array(fc.constantFrom<Json>(1, 1.0, 'a', null, true, { x: 1 }, [1]), { minLength: 1, maxLength: 4 }), 6),
      )
      .map(([node, type, values]) => ({ ...node, ...(type !== undefined ? { type } : {}), ...(values !== undefined ? { enum: values } : {}) }) as JsonObject),
  }));
  const instance = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e'), fc.jsonValue({ maxDepth: 2 })), { maxLength: 4 }).map((e) => Object.fromEntries(e) as Json),
    fc.array(fc.constantFrom<Json>(1, 'a', null, { a: 1 }, []), { maxLength: 4 }),
  );

  it('accepts exactly the instances the schema as written accepts (ajv, JSON Schema 2020-12)', () => {
    // Duplicates in `required`/`type` are invalid per the meta-schema, yet servers send them: validate with them.
    const ajv = new Ajv2020({ strict: false, validateSchema: false });
    fc.assert(
      fc.property(schema, fc.array(instance, { minLength: 1, maxLength: 10 }), (s, instances) => {
        const n = norm(s);
        expect(norm(n)).toBe(n);
        const before = ajv.compile(s as object | boolean);
        const after = ajv.compile(n as object | boolean);
        for (const i of instances) expect(after(i), JSON.stringify({ schema: s, pinned: n, instance: i })).toBe(before(i));
      }),
      { numRuns: 500 },
    );
  });
});

/** `@modelcontextprotocol/server-filesystem`'s list_allowed_directories, as two releases served it. */
const LIST_DIRS_REQUIRED_EMPTY = { type: 'object', properties: {}, required: [] };
const LIST_DIRS_DRAFT07 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: {} };
const listDirs = (inputSchema: JsonObject) =>
  readTool('list_allowed_directories', { description: 'Returns the list of directories that this server is allowed to access.', inputSchema });

describe('equivalent spellings are no change (end to end)', () => {
  it('server-filesystem style: required: [] vs absent pins the same tool, with the same digests', () => {
    const a = pin({ tool: listDirs(LIST_DIRS_REQUIRED_EMPTY) });
    const b = pin({ tool: listDirs(LIST_DIRS_DRAFT07) });
    expect(a.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(a.inputSchemaDigest).toBe(b.inputSchemaDigest);
    expect(a.digest).toBe(b.digest);
    expect(a.viewBytes).toBe(b.viewBytes);
  });

  it('no change, no drift, no contract-stale', () => {
    const contract = [listDirs(LIST_DIRS_REQUIRED_EMPTY)];
    const head = [listDirs(LIST_DIRS_DRAFT07)];
    expect(diffSurfaces(mcpSurface(contract), mcpSurface(head))).toEqual([]);
    const findings = evaluateCase({ base: contract, head, contract });
    expect(findings.filter((f) => f.ruleId === 'contract-stale')).toEqual([]);
    // Exactly what the same listing on both sides gives (here: open-arguments, about the schema itself).
    const unchanged = evaluateCase({ base: head, head, contract: head });
    expect(findings.map((f) => f.ruleId)).toEqual(unchanged.map((f) => f.ruleId));
  });

  it('every listed equivalence at once, in the inputSchema and the outputSchema', () => {
    const spelled = (variant: 0 | 1) =>
      readTool('search', {
        inputSchema: {
          type: 'object',
          properties: {
            q: { type: variant ? 'string' : ['string', 'string'] },
            mode: { enum: variant ? ['fast', 'deep'] : ['fast', 'deep', 'fast'] },
            tags: { type: 'array', ...(variant ? {} : { items: {} }) },
            filters: { type: variant ? ['object', 'null'] : ['null', 'object', 'null'], ...(variant ? {} : { additionalProperties: true, required: [] }) },
          },
          required: variant ? ['mode', 'q'] : ['q', 'mode', 'q'],
          additionalProperties: false,
        },
        outputSchema: { type: 'object', ...(variant ? {} : { required: [], additionalProperties: {} }) },
      });
    const findings = evaluateCase({ base: [spelled(0)], head: [spelled(1)], contract: [spelled(0)] });
    expect(findings.map((f) => f.ruleId)).toEqual(evaluateCase({ base: [spelled(1)], head: [spelled(1)] }).map((f) => f.ruleId));
    expect(findings.filter((f) => f.ruleId === 'contract-stale')).toEqual([]);
    expect(diffSurfaces(mcpSurface([spelled(0)]), mcpSurface([spelled(1)]))).toEqual([]);
    expect(mcpSurface([spelled(0)]).digest).toBe(mcpSurface([spelled(1)]).digest);
  });

  it('a real difference is still one: required: [] vs required: ["q"]', () => {
    const tool = (required: string[]) => readTool('search', { inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required } });
    expect(diffSurfaces(mcpSurface([tool([])]), mcpSurface([tool(['q'])])).map((c) => c.kind)).toContain('input-schema-changed');
  });
});

describe('a contract written before these equivalences were normalized', () => {
  /** What an earlier toolgate pinned: the schema as served (only `$schema` dropped, keys sorted). */
  const written = () => {
    const tool = deriveTool({
      name: 'list_allowed_directories',
      description: 'Returns the list of directories that this server is allowed to access.',
      annotations: READ_HINTS,
      inputSchema: { properties: {}, required: ['b', 'a'], type: ['object'] },
      outputSchema: { additionalProperties: true, type: 'object' },
    });
    return assembleSurface(
      {
        source: { id: 'src', kind: 'mcp', transport: 'stdio', clientCapabilities: {} },
        server: { name: 'test-server', version: '1.0.0', protocolVersion: '2025-11-25' },
      },
      [tool],
    );
  };
  const live = () =>
    mcpSurface([
      readTool('list_allowed_directories', {
        description: 'Returns the list of directories that this server is allowed to access.',
        inputSchema: { type: 'object', properties: {}, required: ['b', 'a'] },
        outputSchema: { type: 'object', additionalProperties: true },
      }),
    ]);

  it('still verifies, and is read in the current pinned form: the same server is no drift', () => {
    const old = written();
    const text = serializeContract(old).text;
    expect(text).toContain('"type": [');
    const loaded = parseContract(text, '.toolgate/src.surface.json').surface;
    const head = live();
    expect(loaded.tools[0]?.inputSchema).toEqual({ properties: {}, required: ['a', 'b'], type: 'object' });
    expect(loaded.tools[0]?.digest).toBe(head.tools[0]?.digest);
    // Aggregates that matched the tools as written move with them.
    expect(loaded.digest).toBe(head.digest);
    expect(loaded.payloadBytes).toBe(head.payloadBytes);
    expect(diffSurfaces(loaded, head)).toEqual([]);
    expect(evaluateCase({ head, contract: loaded }).filter((f) => f.ruleId === 'contract-stale')).toEqual([]);
  });

  it('a hand-edited aggregate stays as pinned (and is still contract-stale)', () => {
    const old = { ...written(), digest: '0'.repeat(64) };
    const loaded = parseContract(serializeContract(old).text, '.toolgate/src.surface.json').surface;
    expect(loaded.digest).toBe('0'.repeat(64));
    expect(evaluateCase({ head: live(), contract: loaded }).map((f) => f.ruleId)).toContain('contract-stale');
  });
});
