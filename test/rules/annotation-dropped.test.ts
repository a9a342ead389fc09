/** annotation-dropped: a declared hint disappears and the spec default gives another effective value. */
import { mcpTool, READ_HINTS, ruleTests, without, WRITE_HINTS, writeTool } from '../support/surface-builders.js';

const READ = READ_HINTS;
const readWithoutReadOnly = without(READ, 'readOnlyHint');
const writeWithoutOpenWorld = without(WRITE_HINTS, 'openWorldHint');
const writeWithoutDestructive = without(WRITE_HINTS, 'destructiveHint');

ruleTests('annotation-dropped', {
  fires: [
    {
      name: 'readOnlyHint: true removed: the read tool becomes a write',
      base: [mcpTool('get_doc', READ)],
      head: [mcpTool('get_doc', readWithoutReadOnly)],
      watch: ['read-tool-became-write', 'annotation-now-implicit'],
      expect: [
        {
          ruleId: 'annotation-dropped',
          tool: 'get_doc',
          level: 'error',
          data: { hint: 'readOnlyHint', base: { declared: true, effective: true }, head: { effective: false } },
          message: 'no longer declares readOnlyHint: true',
        },
        { ruleId: 'read-tool-became-write', tool: 'get_doc' },
      ],
    },
    {
      name: 'the whole annotations object removed: destructive and open-world by default',
      base: [writeTool('put_doc')],
      head: [mcpTool('put_doc')],
      watch: ['annotation-now-implicit'],
      expect: [
        {
          ruleId: 'annotation-dropped',
          tool: 'put_doc',
          data: { hint: 'destructiveHint', base: { declared: false, effective: false }, head: { effective: true } },
        },
        {
          ruleId: 'annotation-dropped',
          tool: 'put_doc',
          data: { hint: 'openWorldHint', base: { declared: false, effective: false }, head: { effective: true } },
        },
        // readOnlyHint false and idempotentHint false are the defaults: same effective value.
        { ruleId: 'annotation-now-implicit', tool: 'put_doc', data: { hint: 'readOnlyHint' } },
        { ruleId: 'annotation-now-implicit', tool: 'put_doc', data: { hint: 'idempotentHint' } },
      ],
    },
    {
      name: 'openWorldHint: false removed',
      base: [writeTool('put_doc')],
      head: [mcpTool('put_doc', writeWithoutOpenWorld)],
      expect: [{ ruleId: 'annotation-dropped', tool: 'put_doc', data: { hint: 'openWorldHint' } }],
    },
    {
      name: 'destructiveHint: false removed from a write',
      base: [writeTool('put_doc')],
      head: [mcpTool('put_doc', writeWithoutDestructive)],
      expect: [{ ruleId: 'annotation-dropped', tool: 'put_doc', data: { hint: 'destructiveHint' } }],
    },
  ],
  silent: [
    {
      name: 'destructiveHint: true removed: still destructive (annotation-now-implicit instead)',
      base: [mcpTool('rm', { ...WRITE_HINTS, destructiveHint: true })],
      head: [mcpTool('rm', writeWithoutDestructive)],
      watch: ['annotation-now-implicit'],
      expect: [{ ruleId: 'annotation-now-implicit', tool: 'rm', data: { hint: 'destructiveHint' } }],
    },
    {
      name: 'a hint re-declared with another value is not a drop',
      base: [mcpTool('get_doc', READ)],
      head: [mcpTool('get_doc', { ...READ, readOnlyHint: false })],
      watch: ['read-tool-became-write'],
      expect: [{ ruleId: 'read-tool-became-write', tool: 'get_doc' }],
    },
    {
      name: 'unchanged tool',
      base: [writeTool('put_doc')],
      head: [writeTool('put_doc')],
      expect: [],
    },
    {
      name: 'first adoption (no base): nothing to compare',
      head: [mcpTool('put_doc')],
      expect: [],
    },
  ],
});
