/** partially-annotated-tool: some of the four hints declared, not all. */
import { mcpTool, openapiSurface, readTool, ruleTests } from '../support/surface-builders.js';

ruleTests('partially-annotated-tool', {
  fires: [
    {
      name: 'only readOnlyHint: true declared: openWorldHint is missing (destructive and idempotent mean nothing on a read-only tool)',
      head: [mcpTool('get', { readOnlyHint: true })],
      expect: [{ ruleId: 'partially-annotated-tool', tool: 'get', level: 'notice', data: { missing: ['openWorldHint'] } }],
    },
    {
      name: 'only readOnlyHint: false declared: every other hint is missing',
      head: [mcpTool('put', { readOnlyHint: false })],
      expect: [{ ruleId: 'partially-annotated-tool', tool: 'put', data: { missing: ['destructiveHint', 'idempotentHint', 'openWorldHint'] } }],
    },
    {
      name: 'three of four declared, with a title',
      head: [mcpTool('get', { title: 'Get', readOnlyHint: true, destructiveHint: false, idempotentHint: true })],
      expect: [{ ruleId: 'partially-annotated-tool', tool: 'get', data: { missing: ['openWorldHint'] } }],
    },
  ],
  silent: [
    {
      name: 'a read-only tool that declares readOnlyHint and openWorldHint: nothing that applies is missing',
      head: [mcpTool('get', { readOnlyHint: true, openWorldHint: false })],
      expect: [],
    },
    {
      name: 'all four declared',
      head: [readTool('get')],
      expect: [],
    },
    {
      name: 'none declared: unannotated-tool instead',
      head: [mcpTool('get', { title: 'Get' })],
      watch: ['unannotated-tool'],
      expect: [{ ruleId: 'unannotated-tool', tool: 'get' }],
    },
    {
      name: 'a non-boolean hint value is not a declaration',
      head: [mcpTool('get', { readOnlyHint: 'yes' })],
      watch: ['unannotated-tool'],
      expect: [{ ruleId: 'unannotated-tool', tool: 'get' }],
    },
    {
      name: 'OpenAPI tools',
      head: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]),
      expect: [],
    },
  ],
});
