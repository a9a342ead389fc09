/** denied-tool: a tool matching a `deny` pattern is reachable, or classed read when the entry forbids that. */
import { openapiSurface, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

const DENY_DELETE = 'deny:\n  - tools: "delete_*"\n    reason: deletes user data\n';
const DENY_READ = 'deny:\n  - tools: ["send_*", "post_*"]\n    when: read\n';

ruleTests('denied-tool', {
  fires: [
    {
      name: 'a reachable tool matches a deny pattern',
      head: [readTool('get'), writeTool('delete_user')],
      policy: DENY_DELETE,
      expect: [{ ruleId: 'denied-tool', tool: 'delete_user', level: 'error', data: { pattern: 'delete_*', when: 'reachable' }, message: '(deletes user data)' }],
    },
    {
      name: 'when: read and the tool is classed read',
      head: [readTool('send_mail'), writeTool('get')],
      policy: DENY_READ,
      expect: [{ ruleId: 'denied-tool', tool: 'send_mail', data: { pattern: 'send_*', when: 'read' }, message: 'classed read' }],
    },
    {
      name: 'when: read and an OpenAPI operation is promoted to read',
      head: openapiSurface([{ name: 'post_message', method: 'POST', path: '/messages', promoted: true }]),
      policy: DENY_READ,
      expect: [{ ruleId: 'denied-tool', tool: 'post_message', data: { pattern: 'post_*' } }],
    },
  ],
  silent: [
    {
      name: 'when: read and the tool is a write',
      head: [writeTool('send_mail')],
      policy: DENY_READ,
      expect: [],
    },
    {
      name: 'a disabled OpenAPI operation is not reachable',
      head: openapiSurface([{ name: 'delete_item', method: 'DELETE', path: '/items/{id}' }]),
      policy: DENY_DELETE,
      expect: [],
    },
    {
      name: 'no name matches',
      head: [readTool('get'), writeTool('remove_user')],
      policy: DENY_DELETE,
      expect: [],
    },
    {
      name: 'no deny entries',
      head: [writeTool('delete_user')],
      expect: [],
    },
  ],
});
