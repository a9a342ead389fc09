/** schema-unclassified: an inputSchema change toolgate could not classify fails closed. */
import { afterAll } from 'vitest';
import { closeSchemaWorkers } from '../../src/diff/schema/index.js';
import type { Json } from '../../src/util/json.js';
import { classified, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

afterAll(() => closeSchemaWorkers());

/** `run`'s `cmd` is `cmd`, with `extra` beside the properties. */
const run = (cmd: Json, extra: Record<string, Json> = {}) =>
  ({ type: 'object', properties: { cmd }, required: ['cmd'], additionalProperties: false, ...extra }) as never;
const LS = { type: 'string', enum: ['ls', 'pwd'] };
/** Row of a tool whose root holds a draft-07 tuple (`items: [{}]`): it compiles as JSON Schema draft-07 only. */
const recursive = (sub: Json, extra: Record<string, Json> = {}) => ({ type: 'object', properties: { cmd: LS, sub }, items: [{}], ...extra }) as never;
const S = (props: Record<string, unknown>) => ({ type: 'object', properties: props, additionalProperties: false }) as never;

ruleTests('schema-unclassified', {
  fires: [
    classified({
      name: 'real classifier: draft-07 only: a recursion by "$ref": "#" rewritten "$recursiveRef", which draft-07 does not define',
      base: [readTool('run', { inputSchema: recursive({ $ref: '#' }, { $id: 'http://x.y/s' }) })],
      head: [readTool('run', { inputSchema: recursive({ $recursiveRef: '#' }, { $id: 'http://x.y/s' }) })],
      expect: [{ ruleId: 'schema-unclassified', tool: 'run', level: 'error', message: 'as JSON Schema draft-07' }],
    }),
    classified({
      name: 'real classifier: draft-07 only: a recursion by "$ref": "#" rewritten "$dynamicRef", which draft-07 does not define',
      base: [readTool('run', { inputSchema: recursive({ $ref: '#' }) })],
      head: [readTool('run', { inputSchema: recursive({ $dynamicRef: '#r' }, { $dynamicAnchor: 'r' }) })],
      expect: [{ ruleId: 'schema-unclassified', tool: 'run', level: 'error', message: 'as JSON Schema draft-07' }],
    }),
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
    classified({
      name: 'real classifier: a reference outside the schema, though only a description changed',
      base: [writeTool('run', { inputSchema: run({ $ref: 'https://example.com/cmd.json' }) })],
      head: [writeTool('run', { inputSchema: run({ $ref: 'https://example.com/cmd.json', description: 'The command.' }) })],
      expect: [
        { ruleId: 'schema-unclassified', tool: 'run', level: 'error', message: 'unsupported $ref (before: /properties/cmd -> https://example.com/cmd.json' },
      ],
    }),
    classified({
      name: 'real classifier: an anchor two schemas declare (which one a validator picks is not certain)',
      base: [writeTool('run', { inputSchema: run({ $ref: '#c' }, { $defs: { c: { $anchor: 'c', ...LS } } }) })],
      head: [writeTool('run', { inputSchema: run({ $ref: '#c' }, { $defs: { c: { $anchor: 'c', ...LS }, d: { $anchor: 'c', type: 'string' } } }) })],
      expect: [{ ruleId: 'schema-unclassified', tool: 'run', message: 'resolves to more than one schema' }],
    }),
    classified({
      name: 'real classifier: a $dynamicRef whose target depends on the dynamic scope',
      base: [writeTool('run', { inputSchema: run({ $dynamicRef: '#c' }, { $defs: { c: { $dynamicAnchor: 'c', ...LS } } }) })],
      head: [writeTool('run', { inputSchema: run({ $dynamicRef: '#c' }, { $defs: { c: { $dynamicAnchor: 'c', type: 'string' } } }) })],
      expect: [{ ruleId: 'schema-unclassified', tool: 'run', message: 'a $dynamicRef resolves through the dynamic scope' }],
    }),
    classified({
      name: 'real classifier: a rewrite the proxy would enforce in draft-07 only (array items), dropping 2020-12 dependentSchemas',
      base: [
        writeTool('run', {
          inputSchema: run(
            { type: 'string' },
            { properties: { cmd: { type: 'string' }, t: { prefixItems: [true] } }, dependentSchemas: { cmd: { properties: { cmd: LS } } } },
          ),
        }),
      ],
      head: [
        writeTool('run', {
          inputSchema: run(
            { type: 'string' },
            { properties: { cmd: { type: 'string' }, t: { items: [true] } }, dependentSchemas: { cmd: { properties: { cmd: LS } } } },
          ),
        }),
      ],
      expect: [{ ruleId: 'schema-unclassified', tool: 'run', message: 'and against the new one as JSON Schema draft-07' }],
    }),
  ],
  silent: [
    {
      name: 'a classified change',
      base: [readTool('q', { inputSchema: S({ a: { type: 'string' } }) })],
      head: [readTool('q', { inputSchema: S({ a: { type: 'string' }, b: { type: 'string' } }) })],
      schemaVerdicts: { q: { kind: 'widened', deltas: [{ path: '/properties/b', direction: 'widened', what: 'property "b" added' }] } },
      expect: [],
    },
    classified({
      name: "real classifier: a recursion through the root's own $dynamicAnchor, only its description changed",
      base: [writeTool('run', { inputSchema: run(LS, { $dynamicAnchor: 'node', properties: { cmd: LS, next: { $dynamicRef: '#node' } } }) })],
      head: [
        writeTool('run', {
          inputSchema: run(LS, { $dynamicAnchor: 'node', description: 'A chain.', properties: { cmd: LS, next: { $dynamicRef: '#node' } } }),
        }),
      ],
      watch: ['schema-widened', 'schema-narrowed'],
      expect: [],
    }),
    {
      name: 'an inputSchema that differs only by key order is not a change',
      base: [readTool('q', { inputSchema: S({ a: { type: 'string' } }) })],
      head: [readTool('q', { inputSchema: { additionalProperties: false, properties: { a: { type: 'string' } }, type: 'object' } })],
      expect: [],
    },
  ],
});
