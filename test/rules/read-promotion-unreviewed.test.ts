/** read-promotion-unreviewed: a tool newly classed read without an approving review. */
import { mcpTool, openapiSurface, readTool, ruleTests, WRITE_HINTS, writeTool } from '../support/surface-builders.js';

const MISSING = { approved: false, approvers: [], missing: '1 approving review from someone other than @alice' };
const APPROVED = { approved: true, approvers: ['bob'], missing: '' };
const quote = (promoted: boolean) =>
  openapiSurface([
    { name: 'get_items', method: 'GET', path: '/items' },
    { name: 'create_quote', method: 'POST', path: '/orders/quote', operationId: 'createQuote', promoted },
  ]);

ruleTests('read-promotion-unreviewed', {
  fires: [
    {
      name: 'MCP readOnlyHint false → true (and no risk-claim-lowered for the same change)',
      base: [writeTool('get')],
      head: [readTool('get')],
      watch: ['risk-claim-lowered'],
      expect: [
        {
          ruleId: 'read-promotion-unreviewed',
          tool: 'get',
          level: 'error',
          data: { tool: 'get', promoted: false, new: false },
          message: 'it needs an approving review on the pull request (none can be checked outside a pull request)',
        },
      ],
    },
    {
      name: 'MCP readOnlyHint undeclared → true',
      base: [mcpTool('get', { destructiveHint: false })],
      head: [mcpTool('get', { readOnlyHint: true, destructiveHint: false })],
      expect: [{ ruleId: 'read-promotion-unreviewed', tool: 'get' }],
    },
    {
      name: 'an OpenAPI POST promoted by a policy',
      base: quote(false),
      head: quote(true),
      expect: [
        {
          ruleId: 'read-promotion-unreviewed',
          tool: 'create_quote',
          data: { promoted: true },
          message: 'operation POST /orders/quote is promoted to read by a policy',
        },
      ],
    },
    {
      name: 'on a PR without the review: says what is missing',
      base: [writeTool('get')],
      head: [readTool('get')],
      approval: MISSING,
      expect: [{ ruleId: 'read-promotion-unreviewed', tool: 'get', level: 'error', message: 'it needs 1 approving review from someone other than @alice' }],
    },
    {
      name: 'with an approving review: a notice saying who approved',
      base: quote(false),
      head: quote(true),
      approval: APPROVED,
      expect: [{ ruleId: 'read-promotion-unreviewed', tool: 'create_quote', level: 'notice', message: /is promoted to read by a policy; approved by @bob$/ }],
    },
  ],
  silent: [
    {
      name: 'a new MCP read tool is one tool-added finding, not a promotion as well',
      base: [writeTool('put')],
      head: [writeTool('put'), readTool('get')],
      watch: ['tool-added'],
      expect: [{ ruleId: 'tool-added', tool: 'get', message: 'new read-only, closed-world tool "get"' }],
    },
    {
      name: 'a pull request that adopts toolgate (its base has no contract): every tool is tool-added instead',
      base: null,
      head: [readTool('get'), writeTool('put')],
      watch: ['tool-added'],
      expect: [
        { ruleId: 'tool-added', tool: 'get', data: { safetyClass: 'read' } },
        { ruleId: 'tool-added', tool: 'put', data: { safetyClass: 'write' } },
      ],
    },
    {
      name: 'a new GET operation is read by its verb',
      base: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]),
      head: openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items' },
        { name: 'get_item', method: 'GET', path: '/items/{id}' },
      ]),
      expect: [],
    },
    {
      name: 'an operation promoted in the base already',
      base: quote(true),
      head: quote(true),
      expect: [],
    },
    {
      name: 'a tool that was read already',
      base: [readTool('get', { description: 'old' })],
      head: [readTool('get')],
      expect: [],
    },
    {
      name: 'a write stays a write',
      base: [writeTool('put')],
      head: [mcpTool('put', { ...WRITE_HINTS, idempotentHint: true })],
      expect: [],
    },
    {
      name: 'no base at all (outside a pull request, before the first contract): nothing to compare',
      head: [readTool('get')],
      expect: [],
    },
  ],
});
