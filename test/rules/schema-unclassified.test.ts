/** schema-unclassified: an inputSchema change toolgate could not classify fails closed. */
import { readTool, ruleTests } from '../support/surface-builders.js';

const S = (props: Record<string, unknown>) => ({ type: 'object', properties: props, additionalProperties: false }) as never;

ruleTests('schema-unclassified', {
  fires: [
    {
      name: 'verdict unclassified (e.g. a timed-out comparison)',
      base: [readTool('q', { inputSchema: S({ a: { type: 'string' } }) })],
      head: [readTool('q', { inputSchema: S({ a: { type: 'string', pattern: '^x' } }) })],
      schemaVerdicts: { q: { kind: 'unclassified', reason: 'timed out after 2000 ms', deltas: [] } },
      expect: [
        {
          ruleId: 'schema-unclassified',
          tool: 'q',
          level: 'error',
          data: { reason: 'timed out after 2000 ms' },
          message: 'could not be classified: timed out after 2000 ms',
        },
      ],
    },
    {
      name: 'a changed schema with no verdict at all',
      base: [readTool('q', { inputSchema: S({ a: { type: 'string' } }) })],
      head: [readTool('q', { inputSchema: S({ a: { type: 'number' } }) })],
      expect: [{ ruleId: 'schema-unclassified', tool: 'q', data: { reason: 'the change was not classified' } }],
    },
  ],
  silent: [
    {
      name: 'a classified change',
      base: [readTool('q', { inputSchema: S({ a: { type: 'string' } }) })],
      head: [readTool('q', { inputSchema: S({ a: { type: 'string' }, b: { type: 'string' } }) })],
      schemaVerdicts: { q: { kind: 'widened', deltas: [{ path: '/properties/b', direction: 'widened', what: 'property "b" added' }] } },
      expect: [],
    },
    {
      name: 'an inputSchema that differs only by key order is not a change',
      base: [readTool('q', { inputSchema: S({ a: { type: 'string' } }) })],
      head: [readTool('q', { inputSchema: { additionalProperties: false, properties: { a: { type: 'string' } }, type: 'object' } })],
      expect: [],
    },
  ],
});
