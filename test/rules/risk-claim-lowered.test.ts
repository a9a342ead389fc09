/** risk-claim-lowered: an effective hint moves to the less risky side (error unless reviewed). */
import { mcpTool, readTool, ruleTests, WRITE_HINTS, writeTool } from '../support/surface-builders.js';

const RISKY = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

ruleTests('risk-claim-lowered', {
  fires: [
    {
      name: 'destructiveHint true → false',
      base: [mcpTool('put', RISKY)],
      head: [mcpTool('put', { ...RISKY, destructiveHint: false })],
      expect: [
        {
          ruleId: 'risk-claim-lowered',
          tool: 'put',
          level: 'error',
          data: { hint: 'destructiveHint', base: true, head: false },
          message: 'now claims destructiveHint: false (was true)',
        },
      ],
    },
    {
      name: 'openWorldHint never declared (default true) → false: the message says it was the default',
      base: [mcpTool('put', { readOnlyHint: false, destructiveHint: true, idempotentHint: false })],
      head: [mcpTool('put', { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false })],
      expect: [{ ruleId: 'risk-claim-lowered', tool: 'put', message: 'now claims openWorldHint: false (undeclared before: default true)' }],
    },
    {
      name: 'openWorldHint true → false',
      base: [mcpTool('put', RISKY)],
      head: [mcpTool('put', { ...RISKY, openWorldHint: false })],
      expect: [{ ruleId: 'risk-claim-lowered', tool: 'put', data: { hint: 'openWorldHint', base: true, head: false } }],
    },
    {
      name: 'idempotentHint false → true (docs/design.md §7: a client may retry it without asking)',
      base: [writeTool('put')],
      head: [mcpTool('put', { ...WRITE_HINTS, idempotentHint: true })],
      expect: [{ ruleId: 'risk-claim-lowered', tool: 'put', level: 'error', data: { hint: 'idempotentHint', base: false, head: true } }],
    },
    {
      name: 'hints sent as strings and numbers: spec clients ignore them, lenient ones coerce them (pydantic reads "true" as true)',
      base: [mcpTool('put', RISKY)],
      head: [mcpTool('put', { ...RISKY, readOnlyHint: 'true', destructiveHint: 0 })],
      watch: ['invalid-annotation', 'annotation-now-implicit'],
      expect: [
        { ruleId: 'risk-claim-lowered', tool: 'put', level: 'error', data: { hint: 'readOnlyHint', invalid: 'true' }, message: 'not a boolean' },
        { ruleId: 'risk-claim-lowered', tool: 'put', level: 'error', data: { hint: 'destructiveHint', invalid: 0 } },
        { ruleId: 'invalid-annotation', tool: 'put' },
        { ruleId: 'invalid-annotation', tool: 'put' },
      ],
    },
    {
      name: 'undeclared (default true) → declared false',
      base: [mcpTool('put', { readOnlyHint: false })],
      head: [mcpTool('put', { readOnlyHint: false, destructiveHint: false })],
      expect: [{ ruleId: 'risk-claim-lowered', tool: 'put', data: { hint: 'destructiveHint' } }],
    },
    {
      name: 'with an approving review: a notice saying who approved',
      base: [mcpTool('put', RISKY)],
      head: [mcpTool('put', { ...RISKY, openWorldHint: false })],
      approval: { approved: true, approvers: ['bob', 'carol'], missing: '' },
      expect: [{ ruleId: 'risk-claim-lowered', tool: 'put', level: 'notice', message: /approved by @bob, @carol$/ }],
    },
  ],
  silent: [
    {
      name: 'readOnlyHint false → true is read-promotion-unreviewed instead',
      base: [writeTool('get')],
      head: [readTool('get')],
      watch: ['read-promotion-unreviewed'],
      expect: [{ ruleId: 'read-promotion-unreviewed', tool: 'get' }],
    },
    {
      name: 'destructiveHint true → false on a read-only tool (meaningless there)',
      base: [mcpTool('get', { readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: false })],
      head: [readTool('get')],
      expect: [],
    },
    {
      name: 'idempotentHint true → false (a client stops retrying: the riskier side)',
      base: [mcpTool('put', { ...WRITE_HINTS, idempotentHint: true })],
      head: [writeTool('put')],
      expect: [],
    },
    {
      name: 'moving to the riskier side',
      base: [writeTool('put')],
      head: [mcpTool('put', { ...WRITE_HINTS, destructiveHint: true, openWorldHint: true })],
      expect: [],
    },
    {
      name: 'rules: off',
      base: [mcpTool('put', RISKY)],
      head: [mcpTool('put', { ...RISKY, destructiveHint: false })],
      policy: 'rules:\n  risk-claim-lowered: off\n',
      expect: [],
    },
  ],
});
