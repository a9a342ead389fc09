/** schema-widened: an inputSchema accepts inputs it did not accept before. */
import { afterAll } from 'vitest';
import { closeSchemaWorkers } from '../../src/diff/schema/index.js';
import type { Json } from '../../src/util/json.js';
import { classified, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

afterAll(() => closeSchemaWorkers());

const S = (props: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties: props, required, additionalProperties: false }) as never;
const PATH = { type: 'string' };
/** `run`'s `cmd` reached through `ref`, its target in `defs` (a validator resolves each form). */
const viaRef = (ref: string, defs: Record<string, Json>) =>
  ({ type: 'object', properties: { cmd: { $ref: ref } }, required: ['cmd'], additionalProperties: false, ...defs }) as never;
const LS = { type: 'string', enum: ['ls', 'pwd'] };
const ANY = { type: 'string' };
/** A tuple `pair` (draft-07's array `items`): the schema compiles as JSON Schema draft-07 only. */
const PAIR = { pair: { type: 'array', items: [{ type: 'string' }, { type: 'string' }] } };
const REMOVE = {
  type: 'object',
  properties: { path: { type: 'string' }, force: { type: 'boolean' }, confirm: { type: 'boolean' }, mode: { type: 'string' } },
  required: ['path'],
};
/** `remove`'s schema with `extra`, and a draft-07 tuple beside (real zod-to-json-schema output for tuples, target draft-07). */
const draft07Only = (extra: Record<string, Json>) =>
  ({ ...REMOVE, ...extra, properties: { ...REMOVE.properties, ...PAIR, ...(extra.properties as object | undefined) } }) as never;
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
      name: 'real classifier: an enum dropped in a target reached by $anchor',
      base: [writeTool('run', { inputSchema: viaRef('#c', { $defs: { c: { $anchor: 'c', ...LS } } }) })],
      head: [writeTool('run', { inputSchema: viaRef('#c', { $defs: { c: { $anchor: 'c', ...ANY } } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'run', level: 'error', message: '/properties/cmd: no longer restricted to the values "ls", "pwd"' }],
    }),
    classified({
      name: 'real classifier: an enum dropped in a target reached by a urn: $id',
      base: [writeTool('run', { inputSchema: viaRef('urn:x', { $defs: { c: { $id: 'urn:x', ...LS } } }) })],
      head: [writeTool('run', { inputSchema: viaRef('urn:x', { $defs: { c: { $id: 'urn:x', ...ANY } } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'run', message: '/properties/cmd: no longer restricted' }],
    }),
    classified({
      name: 'real classifier: an enum dropped in a target reached by an $id relative to the root $id',
      base: [writeTool('run', { inputSchema: viaRef('cmd.json', { $id: 'https://example.com/run.json', $defs: { c: { $id: 'cmd.json', ...LS } } }) })],
      head: [writeTool('run', { inputSchema: viaRef('cmd.json', { $id: 'https://example.com/run.json', $defs: { c: { $id: 'cmd.json', ...ANY } } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'run', message: '/properties/cmd: no longer restricted' }],
    }),
    classified({
      name: 'real classifier: an enum dropped in a target reached by a pointer into another property',
      base: [writeTool('run', { inputSchema: viaRef('#/properties/mode', { properties: { cmd: { $ref: '#/properties/mode' }, mode: LS } }) })],
      head: [writeTool('run', { inputSchema: viaRef('#/properties/mode', { properties: { cmd: { $ref: '#/properties/mode' }, mode: ANY } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'run', message: '/properties/cmd: no longer restricted' }],
    }),
    classified({
      name: 'real classifier: an enum gains a value',
      base: [readTool('set_mode', { inputSchema: S({ mode: { type: 'string', enum: ['a', 'b'] } }, ['mode']) })],
      head: [readTool('set_mode', { inputSchema: S({ mode: { type: 'string', enum: ['a', 'b', 'c'] } }, ['mode']) })],
      expect: [{ ruleId: 'schema-widened', tool: 'set_mode' }],
    }),
    classified({
      name: 'real classifier: draft-07 only (a tuple beside): "dependencies" renamed "dependentRequired", which draft-07 does not define',
      base: [writeTool('remove', { inputSchema: draft07Only({ dependencies: { force: ['confirm'] } }) })],
      head: [writeTool('remove', { inputSchema: draft07Only({ dependentRequired: { force: ['confirm'] } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'remove', level: 'error', message: 'as JSON Schema draft-07' }],
    }),
    classified({
      name: 'real classifier: draft-07 only: a tuple "items": [...] rewritten "prefixItems", which draft-07 does not define',
      base: [writeTool('run', { inputSchema: draft07Only({ properties: { ...PAIR, args: { type: 'array', items: [{ enum: ['ls', 'pwd'] }] } } }) })],
      head: [writeTool('run', { inputSchema: draft07Only({ properties: { ...PAIR, args: { type: 'array', prefixItems: [{ enum: ['ls', 'pwd'] }] } } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'run', level: 'error', message: '/properties/args' }],
    }),
    classified({
      name: 'real classifier: draft-07 only: "dependencies" with a schema renamed "dependentSchemas", which draft-07 does not define',
      base: [writeTool('run', { inputSchema: draft07Only({ dependencies: { force: { properties: { mode: { enum: ['dry-run'] } } } } }) })],
      head: [writeTool('run', { inputSchema: draft07Only({ dependentSchemas: { force: { properties: { mode: { enum: ['dry-run'] } } } } }) })],
      expect: [{ ruleId: 'schema-widened', tool: 'run', level: 'error', message: 'as JSON Schema draft-07' }],
    }),
  ],
  silent: [
    classified({
      name: 'real classifier: "dependencies" renamed "dependentRequired" in a schema both dialects compile (JSON Schema 2020-12 still enforces it)',
      base: [writeTool('remove', { inputSchema: { ...REMOVE, dependencies: { force: ['confirm'] } } })],
      head: [writeTool('remove', { inputSchema: { ...REMOVE, dependentRequired: { force: ['confirm'] } } })],
      watch: ['schema-unclassified', 'schema-narrowed'],
      expect: [],
    }),
    classified({
      name: 'real classifier: draft-07 only: a description changed beside "dependencies" and a tuple',
      base: [writeTool('remove', { inputSchema: draft07Only({ dependencies: { force: ['confirm'] } }) })],
      head: [writeTool('remove', { inputSchema: draft07Only({ dependencies: { force: ['confirm'] }, description: 'Removes.' }) })],
      watch: ['schema-unclassified', 'schema-narrowed'],
      expect: [],
    }),
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
      name: 'real classifier: only a description changed inside a target reached by $anchor',
      base: [writeTool('run', { inputSchema: viaRef('#c', { $defs: { c: { $anchor: 'c', ...LS } } }) })],
      head: [writeTool('run', { inputSchema: viaRef('#c', { $defs: { c: { $anchor: 'c', ...LS, description: 'The command.' } } }) })],
      watch: ['schema-unclassified', 'schema-narrowed'],
      expect: [],
    }),
    classified({
      name: 'real classifier: the target moved from a pointer to an anchor, accepting the same values',
      base: [writeTool('run', { inputSchema: viaRef('#/$defs/c', { $defs: { c: LS } }) })],
      head: [writeTool('run', { inputSchema: viaRef('#cmd', { $defs: { command: { $anchor: 'cmd', ...LS } } }) })],
      watch: ['schema-unclassified', 'schema-narrowed'],
      expect: [],
    }),
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
