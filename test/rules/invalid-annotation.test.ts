/** invalid-annotation: a hint declared with a value that is not a boolean (clients ignore it). */
import { readTool, ruleTests, writeTool, READ_HINTS } from '../support/surface-builders.js';

ruleTests('invalid-annotation', {
  fires: [
    {
      name: 'readOnlyHint "true" (a string): the tool is effectively a write',
      base: [],
      head: [writeTool('get', { annotations: { ...READ_HINTS, readOnlyHint: 'true' } })],
      expect: [
        {
          ruleId: 'invalid-annotation',
          tool: 'get',
          level: 'warning',
          message: 'tool "get" declares readOnlyHint as "true", not a boolean: clients treat it as undeclared (effective false)',
          data: { hint: 'readOnlyHint', value: 'true' },
        },
      ],
    },
    {
      name: 'two hints with numbers',
      base: [],
      head: [writeTool('put', { annotations: { readOnlyHint: false, destructiveHint: 0, idempotentHint: 1, openWorldHint: false } })],
      expect: [
        { ruleId: 'invalid-annotation', tool: 'put', data: { hint: 'destructiveHint', value: 0 } },
        { ruleId: 'invalid-annotation', tool: 'put', data: { hint: 'idempotentHint', value: 1 } },
      ],
    },
  ],
  silent: [
    {
      name: 'boolean hints, and hints left out',
      base: [],
      head: [readTool('get'), writeTool('put', { annotations: { readOnlyHint: false } })],
      expect: [],
      watch: ['invalid-annotation'],
    },
  ],
});
