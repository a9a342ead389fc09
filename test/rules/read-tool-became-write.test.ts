/** read-tool-became-write: a tool the base classes read now claims it is not read-only. */
import { mcpTool, openapiSurface, READ_HINTS, readTool, ruleTests, without, writeTool } from '../support/surface-builders.js';

ruleTests('read-tool-became-write', {
  fires: [
    {
      name: 'readOnlyHint true → false',
      base: [readTool('get')],
      head: [mcpTool('get', { ...READ_HINTS, readOnlyHint: false })],
      expect: [{ ruleId: 'read-tool-became-write', tool: 'get', level: 'error' }],
    },
    {
      name: 'readOnlyHint: true removed (also annotation-dropped)',
      base: [readTool('get')],
      head: [mcpTool('get', without(READ_HINTS, 'readOnlyHint'))],
      watch: ['annotation-dropped'],
      expect: [
        { ruleId: 'read-tool-became-write', tool: 'get' },
        { ruleId: 'annotation-dropped', tool: 'get', data: { hint: 'readOnlyHint' } },
      ],
    },
  ],
  silent: [
    {
      name: 'a write stays a write',
      base: [writeTool('put')],
      head: [writeTool('put', { description: 'changed' })],
      expect: [],
    },
    {
      name: 'a promoted OpenAPI operation whose policy was removed is disabled, not a reachable write',
      base: openapiSurface([{ name: 'create_quote', method: 'POST', path: '/orders/quote', promoted: true }]),
      head: openapiSurface([{ name: 'create_quote', method: 'POST', path: '/orders/quote' }]),
      expect: [],
    },
    {
      name: 'a read tool that stays read',
      base: [readTool('get')],
      head: [readTool('get', { title: 'Get' })],
      expect: [],
    },
  ],
});
