/** denied-tool: a tool matching a `deny` pattern is reachable, or classed read when the entry forbids that. */
import { openapiSurface, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

/** Vendor safety fields: deny only what is on the less safe side of one. */
const DENY_PAID =
  'safety-fields:\n  - name: paid\n    pointer: /_meta/com.example~1paid\n    safer: false\ndeny:\n  - tools: "*"\n    less-safe: [paid]\n    reason: no paid generation for agents\n';
const withPaid = (name: string, paid?: boolean) => ({ ...writeTool(name), ...(paid !== undefined ? { _meta: { 'com.example/paid': paid } } : {}) });

const DENY_DELETE = 'deny:\n  - tools: "delete_*"\n    reason: deletes user data\n';
const DENY_READ = 'deny:\n  - tools: ["send_*", "post_*"]\n    when: read\n';

ruleTests('denied-tool', {
  fires: [
    {
      name: 'less-safe: a tool on the less safe side of a safety field (true, or no value at all)',
      head: [withPaid('free_image', false), withPaid('paid_image', true), withPaid('unknown_image')],
      policy: DENY_PAID,
      expect: [
        {
          ruleId: 'denied-tool',
          tool: 'paid_image',
          message: 'tool "paid_image" matches deny pattern "*" and is reachable on the less safe side of paid (no paid generation for agents)',
          data: { lessSafe: ['paid'] },
        },
        { ruleId: 'denied-tool', tool: 'unknown_image' },
      ],
    },
    {
      name: 'a reachable tool matches a deny pattern',
      head: [readTool('get'), writeTool('delete_user')],
      policy: DENY_DELETE,
      expect: [
        { ruleId: 'denied-tool', tool: 'delete_user', level: 'error', data: { pattern: 'delete_*', when: 'reachable' }, message: '(deletes user data)' },
      ],
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
    ...[
      ['run_Shell', 'case'],
      ['RUN_SHELL', 'upper case'],
      ['run_\u0455h\u0435ll', 'Cyrillic look-alikes (ѕ, е)'],
      ['run_\uff53\uff48\uff45\uff4c\uff4c', 'full-width letters'],
      ['run_sh\u200bell', 'a zero-width space splitting the word'],
      ['sys/shell', 'a slash, which is no path separator in a tool name'],
    ].map(([name, how]) => ({
      name: `deny "*shell*" is not dodged by ${how}: ${JSON.stringify(name)}`,
      head: [readTool('get'), writeTool(name as string)],
      policy: 'deny:\n  - tools: ["*shell*"]\n',
      watch: [] as string[],
      expect: [{ ruleId: 'denied-tool', tool: name as string, data: { pattern: '*shell*' } }],
    })),
  ],
  silent: [
    {
      name: 'less-safe: every tool on the safer side',
      head: [withPaid('free_image', false), readTool('get_image')],
      policy:
        'safety-fields:\n  - name: paid\n    pointer: /_meta/com.example~1paid\n    safer: false\n    default: false\ndeny:\n  - tools: "*"\n    less-safe: [paid]\n',
      expect: [],
    },
    {
      name: 'folding finds no deny match where there is none: "shelter_info" does not match "shell_*"',
      head: [readTool('shelter_info')],
      policy: 'deny:\n  - tools: ["shell_*"]\n',
      expect: [],
    },
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
