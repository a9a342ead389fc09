/** tool-added: a reachable tool that the base of the change review lacks (docs/design.md §7, widening). */
import { mcpTool, openapiSurface, readTool, ruleTests, WRITE_HINTS, writeTool } from '../support/surface-builders.js';

const MISSING = { approved: false, approvers: [], missing: '1 approving review from someone with write access other than @alice' };
const ops = (...extra: { name: string; method: string; path: string; promoted?: boolean }[]) =>
  openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }, ...extra]);

ruleTests('tool-added', {
  fires: [
    {
      name: 'a new unannotated tool: destructive and open-world by the spec defaults, and the message says so',
      base: [readTool('get')],
      head: [readTool('get'), mcpTool('run_shell')],
      expect: [
        {
          ruleId: 'tool-added',
          tool: 'run_shell',
          level: 'error',
          message:
            'new destructive, open-world write tool "run_shell" (readOnlyHint false (default), destructiveHint true (default), idempotentHint false (default), openWorldHint true (default))',
          data: { safetyClass: 'write', effectiveHints: { readOnlyHint: false, destructiveHint: true, openWorldHint: true }, declaredHints: {} },
        },
      ],
    },
    {
      name: 'a new additive, closed-world write tool (hints declared)',
      base: [readTool('get')],
      head: [readTool('get'), writeTool('put')],
      expect: [{ ruleId: 'tool-added', tool: 'put', message: 'new additive, closed-world write tool "put"' }],
    },
    {
      name: 'a new read tool: one finding (no read-promotion-unreviewed as well)',
      base: [writeTool('put')],
      head: [writeTool('put'), readTool('get')],
      watch: ['read-promotion-unreviewed'],
      expect: [{ ruleId: 'tool-added', tool: 'get', data: { safetyClass: 'read' }, message: 'new read-only, closed-world tool "get"' }],
    },
    {
      name: 'on a pull request without an eligible approval: says what it needs',
      base: [readTool('get')],
      head: [readTool('get'), mcpTool('send', { ...WRITE_HINTS, openWorldHint: true })],
      approval: MISSING,
      expect: [
        {
          ruleId: 'tool-added',
          tool: 'send',
          level: 'error',
          message: /open-world write tool "send" .*; it needs 1 approving review from someone with write access other than @alice$/,
        },
      ],
    },
    {
      name: 'with no pull request to read (check --base): says what the judging policy will ask for',
      base: [readTool('get')],
      head: [readTool('get'), writeTool('put')],
      policy: 'review:\n  reviewers: [sec-lead, carol]\n  required: 2\n  fresh: true\n',
      expect: [
        {
          ruleId: 'tool-added',
          tool: 'put',
          level: 'error',
          message:
            /; it needs 2 approving reviews on the pull request \(none can be checked outside a pull request\): from sec-lead, carol, on the head commit$/,
        },
      ],
    },
    {
      name: 'approved by an eligible reviewer: a notice naming the approver, not an error',
      base: [readTool('get')],
      head: [readTool('get'), writeTool('put')],
      approval: { approved: true, approvers: ['bob'], missing: '' },
      expect: [{ ruleId: 'tool-added', tool: 'put', level: 'notice', message: /approved by @bob$/ }],
    },
    {
      name: 'first adoption (the base has no contract): every tool is new',
      base: null,
      head: [readTool('get'), writeTool('put')],
      expect: [
        { ruleId: 'tool-added', tool: 'get' },
        { ruleId: 'tool-added', tool: 'put' },
      ],
    },
    {
      name: 'a new GET operation of an OpenAPI integration',
      base: ops(),
      head: ops({ name: 'get_item', method: 'GET', path: '/items/{id}' }),
      expect: [{ ruleId: 'tool-added', tool: 'get_item', message: 'new tool "get_item": read operation GET /items/{id}' }],
    },
    {
      name: 'a new POST operation promoted to read in the same pull request',
      base: ops(),
      head: ops({ name: 'create_quote', method: 'POST', path: '/quotes', promoted: true }),
      watch: ['read-promotion-unreviewed'],
      expect: [
        {
          ruleId: 'tool-added',
          tool: 'create_quote',
          message: 'new tool "create_quote": operation POST /quotes promoted to read by a policy',
          data: { origin: { promoted: true } },
        },
      ],
    },
  ],
  silent: [
    {
      name: 'a new POST operation that no policy promotes is disabled: not reachable, nothing added',
      base: ops(),
      head: ops({ name: 'delete_item', method: 'DELETE', path: '/items/{id}' }),
      expect: [],
    },
    {
      name: 'a served tool the committed contract lacks is unlisted-tool only (the contract must name it first)',
      base: [readTool('get')],
      head: [readTool('get'), writeTool('put')],
      contract: [readTool('get')],
      watch: ['unlisted-tool'],
      expect: [{ ruleId: 'unlisted-tool', tool: 'put', message: 'has no entry in the contract: a new additive, closed-world write tool' }],
    },
    {
      name: 'outside a pull request (no base): nothing to add against',
      head: [readTool('get'), writeTool('put')],
      expect: [],
    },
    {
      name: 'rules: off',
      base: [readTool('get')],
      head: [readTool('get'), writeTool('put')],
      policy: 'rules:\n  tool-added: off\n',
      expect: [],
    },
  ],
});
