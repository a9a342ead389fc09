/** open-arguments: an inputSchema allows unknown arguments (additionalProperties not false). */
import { openapiSurface, readTool, ruleTests } from '../support/surface-builders.js';

const OPEN = { type: 'object', properties: { q: { type: 'string' } } };

ruleTests('open-arguments', {
  fires: [
    {
      name: 'additionalProperties absent',
      head: [readTool('search', { inputSchema: OPEN })],
      expect: [{ ruleId: 'open-arguments', tool: 'search', level: 'notice' }],
    },
    {
      name: 'additionalProperties: true',
      head: [readTool('search', { inputSchema: { ...OPEN, additionalProperties: true } })],
      expect: [{ ruleId: 'open-arguments', tool: 'search' }],
    },
    {
      name: 'a reachable OpenAPI operation with an open schema',
      head: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items', inputSchema: OPEN }]),
      expect: [{ ruleId: 'open-arguments', tool: 'get_items' }],
    },
  ],
  silent: [
    {
      name: 'additionalProperties: false',
      head: [readTool('search', { inputSchema: { ...OPEN, additionalProperties: false } })],
      expect: [],
    },
    {
      name: 'a disabled OpenAPI operation is not reachable',
      head: openapiSurface([{ name: 'delete_item', method: 'DELETE', path: '/items/{id}', inputSchema: OPEN }]),
      expect: [],
    },
    {
      name: 'rules: off',
      head: [readTool('search', { inputSchema: OPEN })],
      policy: 'rules:\n  open-arguments: off\n',
      expect: [],
    },
  ],
});
