/** duplicate-tool-name: two listed tools share a name. */
import { readTool, ruleTests, writeTool } from '../support/surface-builders.js';

ruleTests('duplicate-tool-name', {
  fires: [
    {
      name: 'two tools named "get"',
      head: [readTool('get'), writeTool('get')],
      expect: [{ ruleId: 'duplicate-tool-name', tool: 'get', level: 'error', data: { count: 2 } }],
    },
    {
      name: 'three of a kind is one finding',
      head: [readTool('x'), readTool('x'), readTool('x'), readTool('y')],
      expect: [{ ruleId: 'duplicate-tool-name', tool: 'x', data: { count: 3 } }],
    },
  ],
  silent: [
    {
      name: 'names that differ only in case are different names (byte comparison)',
      head: [readTool('get'), readTool('Get')],
      expect: [],
    },
    {
      name: 'distinct names',
      head: [readTool('a'), readTool('b')],
      expect: [],
    },
  ],
});
