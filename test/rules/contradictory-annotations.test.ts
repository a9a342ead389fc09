/** contradictory-annotations: readOnlyHint true declared together with destructiveHint true. */
import { mcpTool, openapiSurface, ruleTests } from '../support/surface-builders.js';

ruleTests('contradictory-annotations', {
  fires: [
    {
      name: 'readOnlyHint: true and destructiveHint: true',
      head: [mcpTool('odd', { readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: false })],
      expect: [{ ruleId: 'contradictory-annotations', tool: 'odd', level: 'warning' }],
    },
    {
      name: 'also when other hints are missing',
      head: [mcpTool('odd', { readOnlyHint: true, destructiveHint: true })],
      expect: [{ ruleId: 'contradictory-annotations', tool: 'odd' }],
    },
  ],
  silent: [
    {
      name: 'read-only with destructiveHint undeclared (effective true, but nothing is claimed)',
      head: [mcpTool('get', { readOnlyHint: true, idempotentHint: true, openWorldHint: false })],
      expect: [],
    },
    {
      name: 'a destructive write',
      head: [mcpTool('rm', { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false })],
      expect: [],
    },
    {
      name: 'OpenAPI tools: hints are derived by toolgate',
      head: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]),
      expect: [],
    },
  ],
});
