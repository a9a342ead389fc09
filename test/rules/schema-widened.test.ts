/** schema-widened: an inputSchema accepts inputs it did not accept before. */
import { afterAll } from 'vitest';
import { closeSchemaWorkers } from '../../src/diff/schema/index.js';
import { classified, readTool, ruleTests } from '../support/surface-builders.js';

afterAll(() => closeSchemaWorkers());

const S = (props: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties: props, required, additionalProperties: false }) as never;
const PATH = { type: 'string' };
const WIDENED = { kind: 'widened' as const, deltas: [{ path: '/properties/force', direction: 'widened' as const, what: 'property "force" added' }] };

ruleTests('schema-widened', {
  fires: [
    {
      name: 'verdict widened',
      base: [readTool('rm', { inputSchema: S({ path: PATH }, ['path']) })],
      head: [readTool('rm', { inputSchema: S({ path: PATH, force: { type: 'boolean' } }, ['path']) })],
      schemaVerdicts: { rm: WIDENED },
      expect: [
        { ruleId: 'schema-widened', tool: 'rm', level: 'error', data: { deltas: WIDENED.deltas }, message: '/properties/force: property "force" added' },
      ],
    },
    {
      name: 'verdict both: one schema-widened finding that also says what was narrowed (one change, one finding)',
      base: [readTool('rm', { inputSchema: S({ path: PATH }) })],
      head: [readTool('rm', { inputSchema: S({ file: PATH }) })],
      schemaVerdicts: {
        rm: {
          kind: 'both',
          deltas: [
            { path: '/properties/file', direction: 'widened', what: 'property "file" added' },
            { path: '/properties/path', direction: 'narrowed', what: 'property "path" removed' },
          ],
        },
      },
      watch: ['schema-narrowed'],
      expect: [
        {
          ruleId: 'schema-widened',
          tool: 'rm',
          message:
            'tool "rm" accepts new inputs: /properties/file: property "file" added; it also accepts or declares less: /properties/path: property "path" removed',
          data: { deltas: [{ path: '/properties/file' }], narrowed: [{ path: '/properties/path' }] },
        },
      ],
    },
    classified({
      name: 'real classifier: an enum gains a value',
      base: [readTool('set_mode', { inputSchema: S({ mode: { type: 'string', enum: ['a', 'b'] } }, ['mode']) })],
      head: [readTool('set_mode', { inputSchema: S({ mode: { type: 'string', enum: ['a', 'b', 'c'] } }, ['mode']) })],
      expect: [{ ruleId: 'schema-widened', tool: 'set_mode' }],
    }),
  ],
  silent: [
    {
      name: 'verdict narrowed',
      base: [readTool('rm', { inputSchema: S({ path: PATH }) })],
      head: [readTool('rm', { inputSchema: S({ path: PATH }, ['path']) })],
      schemaVerdicts: { rm: { kind: 'narrowed', deltas: [{ path: '', direction: 'narrowed', what: 'now required: "path"' }] } },
      expect: [],
    },
    {
      name: 'verdict unchanged (e.g. only a description inside the schema changed)',
      base: [readTool('rm', { inputSchema: S({ path: { type: 'string', description: 'a' } }) })],
      head: [readTool('rm', { inputSchema: S({ path: { type: 'string', description: 'b' } }) })],
      schemaVerdicts: { rm: { kind: 'unchanged' } },
      watch: ['schema-unclassified', 'schema-narrowed'],
      expect: [],
    },
    classified({
      name: 'real classifier: only key order and the root $schema differ (no change at all)',
      base: [readTool('rm', { inputSchema: S({ path: PATH }) })],
      head: [
        readTool('rm', {
          inputSchema: {
            $schema: 'http://json-schema.org/draft-07/schema#',
            additionalProperties: false,
            required: [],
            properties: { path: PATH },
            type: 'object',
          },
        }),
      ],
      watch: ['schema-unclassified', 'schema-narrowed'],
      expect: [],
    }),
  ],
});
