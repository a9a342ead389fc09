/** annotation-now-implicit: a declared hint disappears but its effective value is unchanged. */
import { mcpTool, ruleTests, without, WRITE_HINTS } from '../support/surface-builders.js';

const DEFAULTS = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
const withoutDestructive = without(DEFAULTS, 'destructiveHint');

ruleTests('annotation-now-implicit', {
  fires: [
    {
      name: 'destructiveHint: true (the default) no longer sent',
      base: [mcpTool('rm', DEFAULTS)],
      head: [mcpTool('rm', withoutDestructive)],
      watch: ['annotation-dropped'],
      expect: [{ ruleId: 'annotation-now-implicit', tool: 'rm', level: 'notice', data: { hint: 'destructiveHint' }, message: 'still true' }],
    },
    {
      name: 'an SDK stops sending all four hints at their defaults: four notices, no risk change',
      base: [mcpTool('rm', DEFAULTS)],
      head: [mcpTool('rm')],
      watch: ['annotation-dropped', 'risk-claim-lowered', 'read-tool-became-write'],
      expect: ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].map((hint) => ({
        ruleId: 'annotation-now-implicit',
        tool: 'rm',
        data: { hint },
      })),
    },
    {
      name: 'a read-only tool stops sending destructiveHint: false (meaningless on a read-only tool)',
      base: [mcpTool('get', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false })],
      head: [mcpTool('get', { readOnlyHint: true, idempotentHint: true, openWorldHint: false })],
      watch: ['annotation-dropped'],
      expect: [{ ruleId: 'annotation-now-implicit', tool: 'get', level: 'notice', data: { hint: 'destructiveHint' } }],
    },
    {
      name: 'require-explicit-hints raises it to error',
      base: [mcpTool('rm', DEFAULTS)],
      head: [mcpTool('rm', withoutDestructive)],
      policy: 'require-explicit-hints: true\n',
      expect: [{ ruleId: 'annotation-now-implicit', tool: 'rm', level: 'error' }],
    },
    {
      name: 'rules: sets another level',
      base: [mcpTool('rm', DEFAULTS)],
      head: [mcpTool('rm', withoutDestructive)],
      policy: 'rules:\n  annotation-now-implicit: warning\n',
      expect: [{ ruleId: 'annotation-now-implicit', tool: 'rm', level: 'warning' }],
    },
  ],
  silent: [
    {
      name: 'the effective value changes: annotation-dropped instead',
      base: [mcpTool('put', WRITE_HINTS)],
      head: [mcpTool('put', without(WRITE_HINTS, 'openWorldHint'))],
      watch: ['annotation-dropped'],
      expect: [{ ruleId: 'annotation-dropped', tool: 'put', data: { hint: 'openWorldHint' } }],
    },
    {
      name: 'a hint newly declared at its default value',
      base: [mcpTool('rm', withoutDestructive)],
      head: [mcpTool('rm', DEFAULTS)],
      expect: [],
    },
    {
      name: 'rules: off silences it',
      base: [mcpTool('rm', DEFAULTS)],
      head: [mcpTool('rm', withoutDestructive)],
      policy: 'require-explicit-hints: true\nrules:\n  annotation-now-implicit: off\n',
      expect: [],
    },
  ],
});
