/** count-mismatch: one of the four pinned counts differs between the contract and the live surface. */
import { mcpTool, openapiSurface, readTool, ruleTests, WRITE_HINTS, writeTool } from '../support/surface-builders.js';

const A = [readTool('get'), writeTool('put')];

ruleTests('count-mismatch', {
  fires: [
    {
      name: 'toolCount: the server serves one more tool than the contract pins',
      head: [...A, writeTool('post')],
      contract: A,
      expect: [{ ruleId: 'count-mismatch', level: 'error', data: { count: 'toolCount', base: 2, head: 3 }, message: 'toolCount is 3; the contract pins 2' }],
    },
    {
      name: 'readOnlyToolCount (and destructive/open-world: the tool turned from a destructive open-world write into a read)',
      head: [readTool('get'), readTool('put')],
      contract: [readTool('get'), mcpTool('put')],
      expect: [
        { ruleId: 'count-mismatch', data: { count: 'destructiveToolCount', base: 1, head: 0 } },
        { ruleId: 'count-mismatch', data: { count: 'openWorldToolCount', base: 1, head: 0 } },
        { ruleId: 'count-mismatch', data: { count: 'readOnlyToolCount', base: 1, head: 2 } },
      ],
    },
    {
      name: 'destructiveToolCount alone',
      head: [readTool('get'), mcpTool('put', { ...WRITE_HINTS, destructiveHint: true })],
      contract: A,
      expect: [{ ruleId: 'count-mismatch', data: { count: 'destructiveToolCount', base: 0, head: 1 } }],
    },
    {
      name: 'openWorldToolCount alone',
      head: [readTool('get'), mcpTool('put', { ...WRITE_HINTS, openWorldHint: true })],
      contract: A,
      expect: [{ ruleId: 'count-mismatch', data: { count: 'openWorldToolCount', base: 0, head: 1 } }],
    },
  ],
  silent: [
    {
      name: 'idempotentToolCount is not pinned',
      head: [readTool('get'), mcpTool('put', { ...WRITE_HINTS, idempotentHint: true })],
      contract: A,
      expect: [],
    },
    {
      name: 'unannotatedToolCount is not pinned',
      head: [readTool('get'), mcpTool('put')],
      contract: [readTool('get'), mcpTool('put', { readOnlyHint: false })],
      expect: [],
    },
    {
      name: 'disabledToolCount is not pinned',
      head: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]),
      contract: openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items' },
        { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
      ]),
      expect: [],
    },
    {
      name: 'a PR that adds a tool and updates its contract (counts differ from the PR base only)',
      base: A,
      head: [...A, writeTool('post')],
      expect: [],
    },
  ],
});
