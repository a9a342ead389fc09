import { describe, expect, it } from 'vitest';
import { allowsUnknownArguments } from '../../src/diff/schema/index.js';
import type { Json } from '../../src/util/json.js';

const cases: [string, Json, boolean][] = [
  ['additionalProperties absent', { type: 'object', properties: { a: { type: 'string' } } }, true],
  ['additionalProperties true', { type: 'object', additionalProperties: true }, true],
  ['additionalProperties schema', { type: 'object', additionalProperties: { type: 'string' } }, true],
  ['additionalProperties false', { type: 'object', properties: { a: {} }, additionalProperties: false }, false],
  ['additionalProperties {not: {}}', { type: 'object', additionalProperties: { not: {} } }, false],
  ['unevaluatedProperties false', { type: 'object', unevaluatedProperties: false }, false],
  ['patternProperties with additionalProperties false', { type: 'object', patternProperties: { '^x-': {} }, additionalProperties: false }, false],
  ['propertyNames enum', { type: 'object', propertyNames: { enum: ['a', 'b'] } }, false],
  ['true schema', true, true],
  ['empty schema', {}, true],
  ['false schema', false, false],
  ['not an object type', { type: 'string' }, false],
  ['closed via $ref', { $ref: '#/$defs/args', $defs: { args: { type: 'object', additionalProperties: false } } }, false],
  ['closed via $schema noise and nullable', { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', additionalProperties: false }, false],
  ['allOf with a closed member', { type: 'object', allOf: [{ properties: { a: {} }, additionalProperties: false }, { required: ['a'] }] }, false],
  ['anyOf with one open branch', { type: 'object', anyOf: [{ additionalProperties: false, properties: { a: {} } }, { properties: { b: {} } }] }, true],
  [
    'oneOf with all branches closed',
    {
      type: 'object',
      oneOf: [
        { additionalProperties: false, properties: { a: {} } },
        { additionalProperties: false, properties: { b: {} } },
      ],
    },
    false,
  ],
];

describe('allowsUnknownArguments', () => {
  it.each(cases)('%s → %s', (_name, schema, expected) => {
    expect(allowsUnknownArguments(schema)).toBe(expected);
  });
});
