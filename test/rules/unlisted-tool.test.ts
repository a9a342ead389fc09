/** unlisted-tool: a reachable tool has no entry in the committed contract (the allowlist). */
import { openapiSurface, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

const op = (name: string, method: string, path: string) => ({ name, method, path });

ruleTests('unlisted-tool', {
  fires: [
    {
      name: 'a served tool is missing from the contract',
      head: [readTool('get'), writeTool('put')],
      contract: [readTool('get')],
      expect: [{ ruleId: 'unlisted-tool', tool: 'put', level: 'error', data: { safetyClass: 'write' } }],
    },
    {
      name: 'no contract: every reachable tool is unlisted',
      head: [readTool('get'), writeTool('put')],
      contract: null,
      expect: [
        { ruleId: 'unlisted-tool', tool: 'get', data: { safetyClass: 'read' } },
        { ruleId: 'unlisted-tool', tool: 'put' },
      ],
    },
    {
      name: 'an included GET operation missing from the contract',
      head: openapiSurface([op('get_items', 'GET', '/items'), op('get_item', 'GET', '/items/{id}')]),
      contract: openapiSurface([op('get_items', 'GET', '/items')]),
      expect: [{ ruleId: 'unlisted-tool', tool: 'get_item', data: { safetyClass: 'read' } }],
    },
    {
      name: 'names are compared byte for byte (a look-alike is unlisted)',
      head: [readTool('g\u0435t')],
      contract: [readTool('get')],
      expect: [{ ruleId: 'unlisted-tool', tool: 'g\u0435t' }],
    },
  ],
  silent: [
    {
      name: 'a disabled OpenAPI operation missing from the contract is not reachable',
      head: openapiSurface([op('get_items', 'GET', '/items'), op('delete_item', 'DELETE', '/items/{id}')]),
      contract: openapiSurface([op('get_items', 'GET', '/items')]),
      expect: [],
    },
    {
      name: 'every tool is listed',
      head: [readTool('get'), writeTool('put')],
      expect: [],
    },
    {
      name: 'a contract tool no longer served is not unlisted',
      head: [readTool('get')],
      contract: [readTool('get'), writeTool('put')],
      expect: [],
    },
  ],
});
