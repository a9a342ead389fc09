/** schema-narrowed: an inputSchema rejects inputs it accepted before. */
import { afterAll } from 'vitest';
import { closeSchemaWorkers } from '../../src/diff/schema/index.js';
import { classified, readTool, ruleTests } from '../support/surface-builders.js';

afterAll(() => closeSchemaWorkers());

const S = (props: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties: props, required, additionalProperties: false }) as never;
const PATH = { type: 'string' };

ruleTests('schema-narrowed', {
  fires: [
    {
      name: 'verdict narrowed',
      base: [readTool('rm', { inputSchema: S({ path: PATH }) })],
      head: [readTool('rm', { inputSchema: S({ path: PATH }, ['path']) })],
      schemaVerdicts: { rm: { kind: 'narrowed', deltas: [{ path: '', direction: 'narrowed', what: 'now required: "path"' }] } },
      expect: [
        {
          ruleId: 'schema-narrowed',
          tool: 'rm',
          level: 'warning',
          data: { deltas: [{ path: '', what: 'now required: "path"' }] },
          message: '/: now required: "path"',
        },
      ],
    },
    classified({
      name: 'real classifier: a property becomes required',
      base: [readTool('rm', { inputSchema: S({ path: PATH }) })],
      head: [readTool('rm', { inputSchema: S({ path: PATH }, ['path']) })],
      expect: [{ ruleId: 'schema-narrowed', tool: 'rm' }],
    }),
  ],
  silent: [
    {
      name: 'verdict widened',
      base: [readTool('rm', { inputSchema: S({ path: PATH }, ['path']) })],
      head: [readTool('rm', { inputSchema: S({ path: PATH }) })],
      schemaVerdicts: { rm: { kind: 'widened', deltas: [{ path: '', direction: 'widened', what: 'no longer required: "path"' }] } },
      expect: [],
    },
    {
      name: 'no inputSchema change',
      base: [readTool('rm', { description: 'x' })],
      head: [readTool('rm')],
      expect: [],
    },
  ],
});
