import { describe, expect, it } from 'vitest';
import { normalizeSchema } from '../../src/diff/schema/normalize.js';
import { canonicalJson } from '../../src/util/json.js';
import type { Json } from '../../src/util/json.js';

const norm = (s: Json): Json => normalizeSchema(s).schema;

describe('normalizeSchema', () => {
  it('drops $schema and annotations, sorts keys', () => {
    const out = norm({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      description: 'd',
      'x-internal': true,
      properties: { b: { type: 'string', title: 't', default: 'x', examples: ['y'] }, a: { type: 'number' } },
    });
    expect(canonicalJson(out)).toBe('{"properties":{"a":{"type":"number"},"b":{"type":"string"}},"type":"object"}');
    expect(Object.keys(out as object)).toEqual(['properties', 'type']);
  });

  it('keeps annotations on request', () => {
    expect(normalizeSchema({ type: 'string', description: 'd' }, { keepAnnotations: true }).schema).toEqual({ description: 'd', type: 'string' });
  });

  it('turns OpenAPI 3.0 nullable into a type list with "null"', () => {
    expect(norm({ type: 'string', nullable: true })).toEqual({ type: ['null', 'string'] });
    expect(norm({ type: 'string', nullable: false })).toEqual({ type: 'string' });
    // OAS 3.0.3: nullable without type has no effect.
    expect(norm({ nullable: true, enum: ['a'] })).toEqual({ enum: ['a'] });
  });

  it('rewrites draft-04 boolean exclusive bounds to the numeric form', () => {
    expect(norm({ type: 'number', minimum: 5, exclusiveMinimum: true })).toEqual({ exclusiveMinimum: 5, type: 'number' });
    expect(norm({ type: 'number', maximum: 9, exclusiveMaximum: false })).toEqual({ maximum: 9, type: 'number' });
  });

  it('normalizes type, required, enum and const', () => {
    expect(norm({ type: ['string'] })).toEqual({ type: 'string' });
    expect(norm({ type: ['string', 'integer', 'number', 'string'] })).toEqual({ type: ['number', 'string'] });
    expect(norm({ required: ['b', 'a', 'b'] })).toEqual({ required: ['a', 'b'] });
    expect(norm({ required: [] })).toEqual({});
    expect(norm({ enum: ['b', 'a', 'b'] })).toEqual({ enum: ['a', 'b'] });
    expect(norm({ const: 'x' })).toEqual({ enum: ['x'] });
    expect(norm({ const: 'x', enum: ['x', 'y'] })).toEqual({ enum: ['x'] });
  });

  it('treats definitions and $defs alike and inlines local refs', () => {
    const viaDefinitions = norm({ type: 'object', properties: { a: { $ref: '#/definitions/s' } }, definitions: { s: { type: 'string' } } });
    const viaDefs = norm({ type: 'object', properties: { a: { $ref: '#/$defs/s' } }, $defs: { s: { type: 'string' } } });
    expect(viaDefinitions).toEqual({ properties: { a: { type: 'string' } }, type: 'object' });
    expect(viaDefs).toEqual(viaDefinitions);
  });

  it('keeps validation siblings of $ref (2019-09+ semantics)', () => {
    expect(norm({ properties: { a: { $ref: '#/$defs/s', maxLength: 3, description: 'x' } }, $defs: { s: { type: 'string' } } })).toEqual({
      properties: { a: { maxLength: 3, type: 'string' } },
    });
  });

  it('reports circular refs and keeps their definitions', () => {
    const r = normalizeSchema({
      type: 'object',
      properties: { child: { $ref: '#/definitions/node' } },
      definitions: { node: { type: 'object', properties: { next: { $ref: '#/definitions/node' } } } },
    });
    expect(r.circularRefs.length).toBeGreaterThan(0);
    expect((r.schema as { $defs?: unknown }).$defs).toBeDefined();
    expect(normalizeSchema({ properties: { self: { $ref: '#' } } }).circularRefs).toEqual(['/properties/self -> #']);
  });

  it('does not call a schema circular for an unused recursive definition', () => {
    const r = normalizeSchema({ type: 'object', $defs: { node: { properties: { next: { $ref: '#/$defs/node' } } } } });
    expect(r.circularRefs).toEqual([]);
    expect(r.schema).toEqual({ type: 'object' });
  });

  it('reports external refs as unsupported', () => {
    expect(normalizeSchema({ $ref: 'https://example.com/s.json' }).unsupportedRefs).toEqual(['/ -> https://example.com/s.json']);
    expect(normalizeSchema({ $ref: '#/$defs/missing' }).unsupportedRefs[0]).toContain('target not found');
  });

  it('writes tuples in the 2020-12 form', () => {
    expect(norm({ items: [{ type: 'string' }], additionalItems: false })).toEqual({ items: false, prefixItems: [{ type: 'string' }] });
    expect(norm({ items: [{ type: 'string' }] })).toEqual({ prefixItems: [{ type: 'string' }] });
    expect(norm({ items: { type: 'string' }, additionalItems: false })).toEqual({ items: { type: 'string' } });
  });

  it('splits draft-07 dependencies', () => {
    expect(norm({ dependencies: { a: ['c', 'b'], d: { required: ['e'] } } })).toEqual({
      dependentRequired: { a: ['b', 'c'] },
      dependentSchemas: { d: { required: ['e'] } },
    });
  });

  it('merges non-overlapping allOf members and one-branch anyOf/oneOf', () => {
    expect(norm({ allOf: [{ type: 'object' }, { required: ['a'] }], description: 'x' })).toEqual({ required: ['a'], type: 'object' });
    expect(norm({ anyOf: [{ type: 'string' }] })).toEqual({ type: 'string' });
    expect(norm({ allOf: [{ allOf: [{ minimum: 1 }] }, {}] })).toEqual({ minimum: 1 });
    // properties + additionalProperties from different members interact: keep them apart.
    expect(norm({ additionalProperties: false, allOf: [{ properties: { a: {} } }] })).toEqual({
      additionalProperties: false,
      allOf: [{ properties: { a: {} } }],
    });
    // Same keyword twice: keep the member.
    expect(norm({ type: 'object', allOf: [{ type: ['object', 'null'] }] })).toEqual({ allOf: [{ type: ['null', 'object'] }], type: 'object' });
  });

  it('is pure: the input is not modified', () => {
    const input: Json = { type: 'string', nullable: true, enum: ['b', 'a'] };
    const copy = JSON.parse(JSON.stringify(input)) as Json;
    norm(input);
    expect(input).toEqual(copy);
  });

  it('leaves property names that look like keywords alone', () => {
    expect(norm({ properties: { description: { type: 'string' }, $schema: { type: 'string' }, nullable: { type: 'boolean' } } })).toEqual({
      properties: { $schema: { type: 'string' }, description: { type: 'string' }, nullable: { type: 'boolean' } },
    });
  });
});
