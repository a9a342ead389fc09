/** tool-removed: a tool of the base contract is no longer served. */
import { readTool, ruleTests, writeTool } from '../support/surface-builders.js';

ruleTests('tool-removed', {
  fires: [
    {
      name: 'a tool disappears',
      base: [readTool('get'), writeTool('put')],
      head: [readTool('get')],
      expect: [{ ruleId: 'tool-removed', tool: 'put', level: 'warning', message: 'no longer served' }],
    },
    {
      name: 'a rename is a removal plus a new tool',
      base: [readTool('get')],
      head: [readTool('get_v2')],
      watch: ['read-promotion-unreviewed', 'tool-added'],
      expect: [
        { ruleId: 'tool-removed', tool: 'get' },
        { ruleId: 'tool-added', tool: 'get_v2', data: { safetyClass: 'read' } },
      ],
    },
  ],
  silent: [
    {
      name: 'every base tool is still served',
      base: [readTool('get')],
      head: [readTool('get'), writeTool('put')],
      expect: [],
    },
    {
      name: 'first adoption (no base)',
      head: [readTool('get')],
      expect: [],
    },
  ],
});
