/**
 * One table per keyword: cases that widen, narrow, do both, and stay unchanged. None of these
 * needs json-schema-diff, so they run on the calling thread.
 */
import { describe, expect, it } from 'vitest';
import { classifySchemaChange, type SchemaVerdict } from '../../src/diff/schema/index.js';
import type { Json } from '../../src/util/json.js';

type Kind = SchemaVerdict['kind'];
interface Case {
  name: string;
  before: Json;
  after: Json;
  kind: Kind;
  /** Expected deltas as "direction path: what" substrings, when the text matters. */
  deltas?: string[];
}

const obj = (props: Record<string, Json>, extra: Record<string, Json> = {}): Json => ({ type: 'object', properties: props, ...extra });

function table(title: string, cases: Case[]): void {
  describe(title, () => {
    it.each(cases)('$name → $kind', async ({ before, after, kind, deltas }) => {
      const v = await classifySchemaChange(before, after);
      expect(v.kind, JSON.stringify(v)).toBe(kind);
      if (deltas) {
        const got = 'deltas' in v ? v.deltas.map((d) => `${d.direction} ${d.path}: ${d.what}`) : [];
        expect(got).toHaveLength(deltas.length);
        deltas.forEach((want, i) => expect(got[i]).toContain(want));
      }
    });
  });
}

table('enum', [
  {
    name: 'value added',
    before: obj({ s: { type: 'string', enum: ['a'] } }),
    after: obj({ s: { type: 'string', enum: ['a', 'x'] } }),
    kind: 'widened',
    deltas: ['widened /properties/s: enum value "x" added'],
  },
  {
    name: 'value removed',
    before: obj({ s: { enum: ['a', 'b'] } }),
    after: obj({ s: { enum: ['a'] } }),
    kind: 'narrowed',
    deltas: ['narrowed /properties/s: enum value "b" removed'],
  },
  { name: 'value replaced', before: { enum: ['a', 'b'] }, after: { enum: ['a', 'c'] }, kind: 'both' },
  { name: 'reordered', before: { enum: ['a', 'b', 1] }, after: { enum: [1, 'b', 'a'] }, kind: 'unchanged' },
  {
    name: 'enum added',
    before: { type: 'string' },
    after: { type: 'string', enum: ['a'] },
    kind: 'narrowed',
    deltas: ['narrowed : now restricted to the values "a"'],
  },
  { name: 'enum removed', before: { type: 'string', enum: ['a'] }, after: { type: 'string' }, kind: 'widened' },
  {
    name: 'many values added are summarized',
    before: { enum: ['a'] },
    after: { enum: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] },
    kind: 'widened',
    deltas: ['widened : enum values added: "b", "c", "d", "e", "f", … (+2 more)'],
  },
]);

table('const', [
  { name: 'const changed', before: { const: 'a' }, after: { const: 'b' }, kind: 'both' },
  { name: 'const → enum with more values', before: { const: 'a' }, after: { enum: ['a', 'b'] }, kind: 'widened', deltas: ['enum value "b" added'] },
  { name: 'const added', before: { type: 'string' }, after: { type: 'string', const: 'a' }, kind: 'narrowed' },
  { name: 'const removed', before: { type: 'string', const: 'a' }, after: { type: 'string' }, kind: 'widened' },
  { name: 'const ≡ one-value enum', before: { const: 'a' }, after: { enum: ['a'] }, kind: 'unchanged' },
]);

table('pattern', [
  {
    name: 'pattern added',
    before: { type: 'string' },
    after: { type: 'string', pattern: '^[a-z]+$' },
    kind: 'narrowed',
    deltas: ['narrowed : pattern "^[a-z]+$" added'],
  },
  {
    name: 'pattern removed',
    before: { type: 'string', pattern: '^[a-z]+$' },
    after: { type: 'string' },
    kind: 'widened',
    deltas: ['widened : pattern "^[a-z]+$" removed'],
  },
  { name: 'pattern loosened to .*', before: { type: 'string', pattern: '^a' }, after: { type: 'string', pattern: '.*' }, kind: 'widened' },
  { name: 'anchors removed', before: { pattern: '^[a-z]+$' }, after: { pattern: '[a-z]+' }, kind: 'widened', deltas: ['pattern anchors removed'] },
  { name: 'anchored', before: { pattern: '[a-z]+' }, after: { pattern: '^[a-z]+$' }, kind: 'narrowed' },
  { name: 'pattern rewritten (undecided)', before: { pattern: '^[a-z]+$' }, after: { pattern: '^[a-z0-9]+$' }, kind: 'unclassified' },
  { name: 'same pattern', before: { pattern: '^a$', description: 'x' }, after: { pattern: '^a$' }, kind: 'unchanged' },
  { name: 'pattern on a non-string type is irrelevant', before: { type: 'integer' }, after: { type: 'integer', pattern: '^1' }, kind: 'unchanged' },
]);

table('format', [
  { name: 'format added', before: { type: 'string' }, after: { type: 'string', format: 'email' }, kind: 'narrowed' },
  { name: 'format removed', before: { type: 'string', format: 'uri' }, after: { type: 'string' }, kind: 'widened' },
  { name: 'email → idn-email', before: { format: 'email' }, after: { format: 'idn-email' }, kind: 'widened' },
  { name: 'uri-reference → uri', before: { format: 'uri-reference' }, after: { format: 'uri' }, kind: 'narrowed' },
  { name: 'date → date-time', before: { format: 'date' }, after: { format: 'date-time' }, kind: 'both' },
  { name: 'custom formats', before: { format: 'repo-name' }, after: { format: 'org-name' }, kind: 'unclassified' },
]);

table('required', [
  {
    name: 'no longer required',
    before: obj({ title: { type: 'string' } }, { required: ['title'] }),
    after: obj({ title: { type: 'string' } }),
    kind: 'widened',
    deltas: ['widened : no longer required: "title"'],
  },
  { name: 'now required', before: obj({ t: {} }), after: obj({ t: {} }, { required: ['t'] }), kind: 'narrowed', deltas: ['narrowed : now required: "t"'] },
  { name: 'swapped', before: obj({ a: {}, b: {} }, { required: ['a'] }), after: obj({ a: {}, b: {} }, { required: ['b'] }), kind: 'both' },
  { name: 'reordered', before: { required: ['a', 'b'] }, after: { required: ['b', 'a'] }, kind: 'unchanged' },
]);

table('additionalProperties', [
  {
    name: 'false → absent',
    before: obj({ a: {} }, { additionalProperties: false }),
    after: obj({ a: {} }),
    kind: 'widened',
    deltas: ['widened /additionalProperties: undeclared properties now accepted'],
  },
  { name: 'absent → false', before: obj({ a: {} }), after: obj({ a: {} }, { additionalProperties: false }), kind: 'narrowed' },
  { name: 'true → absent', before: obj({ a: {} }, { additionalProperties: true }), after: obj({ a: {} }), kind: 'unchanged' },
  {
    name: 'schema widened',
    before: { type: 'object', additionalProperties: { type: 'string' } },
    after: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
    kind: 'widened',
    deltas: ['widened /additionalProperties: type "number" now accepted'],
  },
  {
    name: 'false → schema',
    before: { type: 'object', additionalProperties: false },
    after: { type: 'object', additionalProperties: { type: 'string' } },
    kind: 'widened',
  },
]);

table('type', [
  { name: 'null added', before: { type: 'string' }, after: { type: ['string', 'null'] }, kind: 'widened', deltas: ['widened : type "null" now accepted'] },
  { name: 'number dropped', before: { type: ['string', 'number'] }, after: { type: 'string' }, kind: 'narrowed' },
  { name: 'integer → number', before: { type: 'integer' }, after: { type: 'number' }, kind: 'widened', deltas: ['type widened from integer to number'] },
  { name: 'number → integer', before: { type: 'number' }, after: { type: 'integer' }, kind: 'narrowed', deltas: ['type narrowed from number to integer'] },
  { name: 'string → number', before: { type: 'string' }, after: { type: 'number' }, kind: 'both' },
  { name: 'type removed', before: { type: 'string' }, after: {}, kind: 'widened', deltas: ['any type now accepted (was "string")'] },
  { name: 'type added', before: {}, after: { type: 'object' }, kind: 'narrowed' },
  { name: 'array of one', before: { type: ['string'] }, after: { type: 'string' }, kind: 'unchanged' },
]);

table('min/max bounds', [
  {
    name: 'maxLength raised',
    before: { type: 'string', maxLength: 10 },
    after: { type: 'string', maxLength: 20 },
    kind: 'widened',
    deltas: ['maxLength raised from 10 to 20'],
  },
  { name: 'maxLength added', before: { type: 'string' }, after: { type: 'string', maxLength: 20 }, kind: 'narrowed', deltas: ['maxLength 20 added'] },
  { name: 'minLength lowered', before: { type: 'string', minLength: 1 }, after: { type: 'string', minLength: 0 }, kind: 'widened' },
  {
    name: 'minimum lowered, maximum lowered',
    before: { type: 'integer', minimum: 1, maximum: 10 },
    after: { type: 'integer', minimum: 0, maximum: 5 },
    kind: 'both',
    deltas: ['widened : lower bound ≥ 1 → ≥ 0', 'narrowed : upper bound ≤ 10 → ≤ 5'],
  },
  { name: 'maximum removed', before: { type: 'number', maximum: 10 }, after: { type: 'number' }, kind: 'widened' },
  {
    name: 'draft-04 exclusive ≡ numeric exclusive',
    before: { type: 'number', minimum: 5, exclusiveMinimum: true },
    after: { type: 'number', exclusiveMinimum: 5 },
    kind: 'unchanged',
  },
  { name: 'exclusive → inclusive at the same value', before: { type: 'number', exclusiveMinimum: 5 }, after: { type: 'number', minimum: 5 }, kind: 'widened' },
  { name: 'multipleOf 2 → 4', before: { type: 'integer', multipleOf: 2 }, after: { type: 'integer', multipleOf: 4 }, kind: 'narrowed' },
  { name: 'multipleOf 4 → 2', before: { type: 'integer', multipleOf: 4 }, after: { type: 'integer', multipleOf: 2 }, kind: 'widened' },
  {
    name: 'maxItems raised, minItems raised',
    before: { type: 'array', minItems: 1, maxItems: 5 },
    after: { type: 'array', minItems: 2, maxItems: 50 },
    kind: 'both',
  },
  { name: 'maxProperties added', before: { type: 'object' }, after: { type: 'object', maxProperties: 3 }, kind: 'narrowed' },
  { name: 'string bound on a number is irrelevant', before: { type: 'number' }, after: { type: 'number', maxLength: 3 }, kind: 'unchanged' },
]);

table('items / prefixItems', [
  {
    name: 'items widened',
    before: { type: 'array', items: { type: 'string' } },
    after: { type: 'array', items: { type: ['string', 'number'] } },
    kind: 'widened',
    deltas: ['widened /items: type "number" now accepted'],
  },
  {
    name: 'items enum narrowed',
    before: obj({ labels: { type: 'array', items: { enum: ['a', 'b'] } } }),
    after: obj({ labels: { type: 'array', items: { enum: ['a'] } } }),
    kind: 'narrowed',
    deltas: ['narrowed /properties/labels/items: enum value "b" removed'],
  },
  {
    // The old schema compiles as draft-07 only; the new one also as draft-07, which does not
    // define prefixItems and reads `items: false` alone: the proxy now refuses ["x"].
    name: 'draft-07 tuple → prefixItems, in a schema the proxy also checks as draft-07',
    before: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
    after: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    kind: 'narrowed',
    deltas: ['narrowed /prefixItems/0: now rejects every value (schema is false)'],
  },
  {
    name: 'draft-07 tuple ≡ draft-07 tuple with its rest spelled `additionalItems: false` after a description',
    before: { type: 'array', items: [{ type: 'string' }], additionalItems: false },
    after: { type: 'array', description: 'A pair.', additionalItems: false, items: [{ type: 'string' }] },
    kind: 'unchanged',
  },
  {
    name: 'tuple position narrowed',
    before: { type: 'array', prefixItems: [{ type: ['string', 'null'] }] },
    after: { type: 'array', prefixItems: [{ type: 'string' }] },
    kind: 'narrowed',
    deltas: ['narrowed /prefixItems/0: type "null" no longer accepted'],
  },
  {
    name: 'tuple rest opened',
    before: { type: 'array', prefixItems: [{ type: 'string' }], items: false },
    after: { type: 'array', prefixItems: [{ type: 'string' }] },
    kind: 'widened',
  },
  { name: 'uniqueItems added', before: { type: 'array' }, after: { type: 'array', uniqueItems: true }, kind: 'narrowed' },
]);

table('nested properties', [
  {
    name: 'deep enum value added',
    before: obj({ a: obj({ b: { enum: ['x'] } }) }),
    after: obj({ a: obj({ b: { enum: ['x', 'y'] } }) }),
    kind: 'widened',
    deltas: ['widened /properties/a/properties/b: enum value "y" added'],
  },
  {
    name: 'property added to a closed object',
    before: obj({ a: {} }, { additionalProperties: false }),
    after: obj({ a: {}, force: { type: 'boolean' } }, { additionalProperties: false }),
    kind: 'widened',
    deltas: ['widened /properties/force: property "force" added to a closed object'],
  },
  {
    name: 'optional property added to an open object (read as a new input)',
    before: obj({ a: {} }),
    after: obj({ a: {}, force: { type: 'boolean' } }),
    kind: 'widened',
    deltas: ['widened /properties/force: property "force" added (the object was open'],
  },
  {
    name: 'required property added to a closed object',
    before: obj({ a: {} }, { additionalProperties: false }),
    after: obj({ a: {}, b: {} }, { additionalProperties: false, required: ['b'] }),
    kind: 'both',
  },
  {
    name: 'property removed from a closed object',
    before: obj({ a: {}, b: {} }, { additionalProperties: false }),
    after: obj({ a: {} }, { additionalProperties: false }),
    kind: 'narrowed',
    deltas: ['the object is closed, so it is now rejected'],
  },
  {
    name: 'property removed from an open object',
    before: obj({ a: {}, b: {} }),
    after: obj({ a: {} }),
    kind: 'narrowed',
    deltas: ['still accepted but no longer declared'],
  },
  {
    name: 'constrained property removed from an open object: no longer declared, and its values no longer checked',
    before: obj({ mode: { type: 'string', enum: ['dry-run'], description: 'Only dry runs.' } }),
    after: obj({}),
    kind: 'both',
    deltas: ['widened /properties/mode: values of "mode" are no longer checked', 'narrowed /properties/mode: property "mode" removed (the object is open'],
  },
  { name: 'property type changed', before: obj({ a: { type: 'string' } }), after: obj({ a: { type: 'integer' } }), kind: 'both' },
  {
    name: 'property name with a slash is escaped',
    before: obj({ 'a/b': { type: 'string' } }),
    after: obj({ 'a/b': { type: ['string', 'null'] } }),
    kind: 'widened',
    deltas: ['widened /properties/a~1b: type "null" now accepted'],
  },
  {
    name: 'property named __proto__ (hostile input)',
    before: JSON.parse('{"type":"object","properties":{"a":{}},"additionalProperties":false}') as Json,
    after: JSON.parse('{"type":"object","properties":{"a":{},"__proto__":{"type":"string"}},"additionalProperties":false}') as Json,
    kind: 'widened',
    deltas: ['widened /properties/__proto__: property "__proto__" added to a closed object'],
  },
  {
    name: 'property now matched by patternProperties',
    before: { type: 'object', patternProperties: { '^x-': { type: 'string' } }, additionalProperties: false },
    after: {
      type: 'object',
      properties: { 'x-a': { type: ['string', 'number'] } },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: false,
    },
    kind: 'widened',
  },
]);

table('nullable (OpenAPI 3.0)', [
  {
    name: 'nullable added',
    before: obj({ a: { type: 'string' } }),
    after: obj({ a: { type: 'string', nullable: true } }),
    kind: 'widened',
    deltas: ['widened /properties/a: type "null" now accepted'],
  },
  { name: 'nullable removed', before: { type: 'string', nullable: true }, after: { type: 'string' }, kind: 'narrowed' },
  { name: 'nullable ≡ type list', before: { type: 'string', nullable: true }, after: { type: ['string', 'null'] }, kind: 'unchanged' },
  { name: 'nullable without type has no effect', before: { enum: ['a'] }, after: { enum: ['a'], nullable: true }, kind: 'unchanged' },
]);

table('unchanged spellings', [
  {
    name: 'key reorder',
    before: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] },
    after: { required: ['a'], properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' },
    kind: 'unchanged',
  },
  {
    name: '$schema only (draft-07 → 2020-12)',
    before: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
    after: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' },
    kind: 'unchanged',
  },
  {
    name: 'descriptions and examples only',
    before: obj({ a: { type: 'string', description: 'old' } }),
    after: obj({ a: { type: 'string', description: 'new', examples: ['x'] } }),
    kind: 'unchanged',
  },
  {
    name: 'definitions → $defs',
    before: { properties: { a: { $ref: '#/definitions/s' } }, definitions: { s: { type: 'string' } } },
    after: { properties: { a: { $ref: '#/$defs/s' } }, $defs: { s: { type: 'string' } } },
    kind: 'unchanged',
  },
  { name: 'true ≡ {}', before: obj({ a: true }), after: obj({ a: {} }), kind: 'unchanged' },
  {
    name: 'allOf wrapper around the same schema',
    before: obj({ a: { type: 'object', nullable: true, properties: { x: { type: 'string' } } } }),
    after: obj({ a: { allOf: [{ type: 'object', nullable: true, properties: { x: { type: 'string' } } }], description: 'd' } }),
    kind: 'unchanged',
  },
]);

table('composition paired by toolgate', [
  {
    name: 'anyOf branch changed in place',
    before: { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'number' }] },
    after: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'number' }] },
    kind: 'widened',
    deltas: ['widened /anyOf/0: enum value "b" added'],
  },
  {
    name: 'allOf member added',
    before: { type: 'object', allOf: [{ required: ['a'] }, { required: ['b'], properties: { b: {} } }] },
    after: { type: 'object', allOf: [{ required: ['a'] }, { required: ['b'], properties: { b: {} } }, { required: ['c'], properties: { c: {} } }] },
    kind: 'both',
  },
  { name: 'not widened → narrowed', before: { not: { enum: ['a'] } }, after: { not: { enum: ['a', 'b'] } }, kind: 'narrowed', deltas: ['inside "not"'] },
  { name: 'not added', before: { type: 'string' }, after: { type: 'string', not: { enum: ['x'] } }, kind: 'narrowed' },
  // Found by an attack on the gate: each was reported as a narrowing (or not at all) while ajv accepts new inputs.
  {
    name: 'a property constrained inside "not" widens the whole',
    before: { type: 'object', not: { required: ['force'] } },
    after: { type: 'object', not: { required: ['force'], properties: { force: { const: true } } } },
    kind: 'widened',
    deltas: ['inside "not"'],
  },
  {
    name: 'a oneOf branch that requires more can widen (exclusivity): set logic decides',
    before: { type: 'object', oneOf: [{ required: ['id'] }, { required: ['query'] }] },
    after: { type: 'object', oneOf: [{ required: ['id'] }, { required: ['query', 'force'] }] },
    kind: 'both',
  },
  {
    name: 'type dropped beside an unchanged anyOf of patterns: any type now accepted',
    before: obj({ p: { type: 'string', anyOf: [{ pattern: '^/srv/' }, { pattern: '^/tmp/' }] } }),
    after: obj({ p: { anyOf: [{ pattern: '^/srv/' }, { pattern: '^/tmp/' }] } }),
    kind: 'widened',
    deltas: ['any type now accepted'],
  },
  {
    name: 'type dropped beside a changed "not": any type now accepted',
    before: obj({ mode: { type: 'string', not: { const: 'admin' } } }),
    after: obj({ mode: { not: { enum: ['admin', 'root'] } } }),
    kind: 'both',
    deltas: ['widened /properties/mode: any type now accepted', 'narrowed /properties/mode/not: enum value "root" added'],
  },
  {
    name: 'type dropped beside a changed untyped allOf member: any type now accepted',
    before: obj({ s: { type: 'string', minLength: 1, allOf: [{ minLength: 2 }] } }),
    after: obj({ s: { minLength: 1, allOf: [{ minLength: 3 }] } }),
    kind: 'both',
    deltas: ['widened /properties/s: any type now accepted', 'narrowed /properties/s/allOf/0'],
  },
  {
    name: 'a $dynamicRef target loosened: not compared, unclassified (fails closed)',
    before: obj({ sql: { $dynamicRef: '#q' } }, { $defs: { q: { $dynamicAnchor: 'q', type: 'string', maxLength: 40 } } }),
    after: obj({ sql: { $dynamicRef: '#q' } }, { $defs: { q: { $dynamicAnchor: 'q' } } }),
    kind: 'unclassified',
  },
  {
    name: 'type dropped where every anyOf branch is typed: unchanged',
    before: {
      type: 'string',
      anyOf: [
        { type: 'string', maxLength: 3 },
        { type: 'string', pattern: '^a' },
      ],
    },
    after: {
      anyOf: [
        { type: 'string', maxLength: 3 },
        { type: 'string', pattern: '^a' },
      ],
    },
    kind: 'unchanged',
  },
  {
    name: 'then widened under the same if',
    before: { if: { required: ['a'] }, then: { required: ['b'] } },
    after: { if: { required: ['a'] }, then: {} },
    kind: 'widened',
  },
  {
    name: 'if changed',
    before: { if: { required: ['a'] }, then: { required: ['b'] } },
    after: { if: { required: ['c'] }, then: { required: ['b'] } },
    kind: 'unclassified',
  },
]);

table('false schemas and unknown keywords', [
  { name: 'false → schema', before: obj({ a: false }), after: obj({ a: { type: 'string' } }), kind: 'widened' },
  { name: 'schema → false', before: obj({ a: { type: 'string' } }), after: obj({ a: false }), kind: 'narrowed' },
  { name: 'unknown keyword changed', before: { type: 'string', contentSchemaX: 1 }, after: { type: 'string', contentSchemaX: 2 }, kind: 'unclassified' },
  { name: 'unevaluatedProperties changed', before: { type: 'object', unevaluatedProperties: false }, after: { type: 'object' }, kind: 'unclassified' },
]);
