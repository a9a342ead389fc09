/** output-schema-changed: a tool's outputSchema changed. */
import { readTool, ruleTests } from '../support/surface-builders.js';

const OUT = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

ruleTests('output-schema-changed', {
  fires: [
    {
      name: 'outputSchema added',
      base: [readTool('get')],
      head: [readTool('get', { outputSchema: OUT })],
      expect: [{ ruleId: 'output-schema-changed', tool: 'get', level: 'notice' }],
    },
    {
      name: 'a property became optional',
      base: [readTool('get', { outputSchema: OUT })],
      head: [readTool('get', { outputSchema: { ...OUT, required: [] } })],
      expect: [{ ruleId: 'output-schema-changed', tool: 'get' }],
    },
    {
      name: 'outputSchema removed',
      base: [readTool('get', { outputSchema: OUT })],
      head: [readTool('get')],
      expect: [{ ruleId: 'output-schema-changed', tool: 'get' }],
    },
  ],
  silent: [
    {
      name: 'only the root $schema and key order differ',
      base: [readTool('get', { outputSchema: OUT })],
      head: [
        readTool('get', {
          outputSchema: {
            required: ['text'],
            $schema: 'https://json-schema.org/draft/2020-12/schema',
            properties: { text: { type: 'string' } },
            type: 'object',
          },
        }),
      ],
      expect: [],
    },
    {
      name: 'only the inputSchema changed',
      base: [readTool('get', { outputSchema: OUT })],
      head: [readTool('get', { outputSchema: OUT, inputSchema: { type: 'object', additionalProperties: false, properties: { id: { type: 'string' } } } })],
      schemaVerdicts: { get: { kind: 'widened', deltas: [{ path: '/properties/id', direction: 'widened', what: 'property "id" added' }] } },
      expect: [],
    },
  ],
});
