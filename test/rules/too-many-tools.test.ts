/** too-many-tools: limits.max-tools counts the reachable tools (disabled OpenAPI operations are not reachable). */
import { mcpSurface, openapiSurface, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

const TWO = mcpSurface([readTool('get'), writeTool('put')]);
const OPS = openapiSurface([
  { name: 'get_items', method: 'GET', path: '/items' },
  { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
  { name: 'post_item', method: 'POST', path: '/items' },
]);

ruleTests('too-many-tools', {
  fires: [
    {
      name: 'max-tools: 1 with two reachable tools, located in toolgate.yml',
      head: TWO,
      policy: 'limits:\n  max-tools: 1\n',
      expect: [
        {
          ruleId: 'too-many-tools',
          level: 'error',
          message: '2 tools are reachable; the limit is 1',
          data: { limit: 'max-tools', value: 2, max: 1 },
          location: { file: 'toolgate.yml' },
        },
      ],
    },
    {
      name: 'max-tools: 0 with an OpenAPI surface: only the one reachable operation counts',
      head: OPS,
      policy: 'limits:\n  max-tools: 0\n',
      expect: [{ ruleId: 'too-many-tools', data: { value: 1, max: 0 } }],
    },
    {
      name: 'a pull request that raises max-tools is judged by the base policy',
      head: TWO,
      basePolicy: 'limits:\n  max-tools: 1\n',
      policy: 'limits:\n  max-tools: 50\n',
      expect: [{ ruleId: 'too-many-tools', data: { value: 2, max: 1 } }],
    },
  ],
  silent: [
    {
      name: 'at the limit exactly',
      head: TWO,
      policy: 'limits:\n  max-tools: 2\n',
      expect: [],
    },
    {
      name: 'disabled OpenAPI operations are not counted',
      head: OPS,
      policy: 'limits:\n  max-tools: 1\n',
      expect: [],
    },
    {
      name: 'no limit configured',
      head: TWO,
      expect: [],
    },
  ],
});
