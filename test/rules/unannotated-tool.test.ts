/** unannotated-tool: a tool declares none of the four hints. */
import { mcpTool, openapiSurface, readTool, ruleTests } from '../support/surface-builders.js';

ruleTests('unannotated-tool', {
  fires: [
    {
      name: 'no annotations at all',
      head: [mcpTool('do_it')],
      expect: [{ ruleId: 'unannotated-tool', tool: 'do_it', level: 'warning', message: 'destructive and open-world' }],
    },
    {
      name: 'a title alone does not count',
      head: [mcpTool('do_it', { title: 'Do it' })],
      expect: [{ ruleId: 'unannotated-tool', tool: 'do_it' }],
    },
    {
      name: 'vendor keys alone do not count',
      head: [mcpTool('do_it', { 'x-acme-risk': 'low', readonly: true })],
      expect: [{ ruleId: 'unannotated-tool', tool: 'do_it' }],
    },
  ],
  silent: [
    {
      name: 'one hint declared: partially-annotated-tool instead',
      head: [mcpTool('do_it', { openWorldHint: false })],
      watch: ['partially-annotated-tool'],
      expect: [{ ruleId: 'partially-annotated-tool', tool: 'do_it' }],
    },
    {
      name: 'fully annotated',
      head: [readTool('get')],
      expect: [],
    },
    {
      name: 'OpenAPI operations (hints derived by toolgate)',
      head: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]),
      expect: [],
    },
    {
      name: 'an override by tool pattern turns it off',
      head: [mcpTool('legacy_do_it')],
      policy: 'overrides:\n  - tools: "legacy_*"\n    rules:\n      unannotated-tool: off\n',
      expect: [],
    },
  ],
});
