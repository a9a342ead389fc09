/** partially-annotated-tool: some of the four hints declared, not all. */
import { mcpTool, openapiSurface, readTool, ruleTests } from '../support/surface-builders.js';

ruleTests('partially-annotated-tool', {
  fires: [
    {
      name: 'only readOnlyHint declared',
      head: [mcpTool('get', { readOnlyHint: true })],
      expect: [{ ruleId: 'partially-annotated-tool', tool: 'get', level: 'notice', data: { missing: ['destructiveHint', 'idempotentHint', 'openWorldHint'] } }],
    },
    {
      name: 'three of four declared, with a title',
      head: [mcpTool('get', { title: 'Get', readOnlyHint: true, destructiveHint: false, idempotentHint: true })],
      expect: [{ ruleId: 'partially-annotated-tool', tool: 'get', data: { missing: ['openWorldHint'] } }],
    },
  ],
  silent: [
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
