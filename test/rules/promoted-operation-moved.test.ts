/** promoted-operation-moved: a promoted operation's method or path changed (error unless reviewed). */
import { openapiSurface, ruleTests } from '../support/surface-builders.js';

const before = openapiSurface([{ name: 'create_quote', method: 'POST', path: '/orders/quote', operationId: 'createQuote', promoted: true }]);
const movedPath = openapiSurface([{ name: 'create_quote', method: 'POST', path: '/orders', operationId: 'createQuote', promoted: true }]);
const movedMethod = openapiSurface([{ name: 'create_quote', method: 'PUT', path: '/orders/quote', operationId: 'createQuote', promoted: true }]);
const MISSING = { approved: false, approvers: [], missing: '1 approving review from someone other than @alice' };

ruleTests('promoted-operation-moved', {
  fires: [
    {
      name: 'a GET operation moved: the read tool now calls an endpoint nobody reviewed',
      base: openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]),
      head: openapiSurface([{ name: 'get_items', method: 'GET', path: '/admin/users/{id}/api-keys' }]),
      expect: [
        {
          ruleId: 'promoted-operation-moved',
          tool: 'get_items',
          level: 'error',
          message: 'operation "get_items" moved from GET /items to GET /admin/users/{id}/api-keys',
        },
      ],
    },
    {
      name: 'the path changed',
      base: before,
      head: movedPath,
      expect: [
        {
          ruleId: 'promoted-operation-moved',
          tool: 'create_quote',
          level: 'error',
          data: { base: { method: 'POST', path: '/orders/quote' }, head: { method: 'POST', path: '/orders' } },
          message: 'moved from POST /orders/quote to POST /orders',
        },
      ],
    },
    {
      name: 'the method changed, on a PR without the review',
      base: before,
      head: movedMethod,
      approval: MISSING,
      expect: [
        { ruleId: 'promoted-operation-moved', tool: 'create_quote', level: 'error', message: 'it needs 1 approving review from someone other than @alice' },
      ],
    },
    {
      name: 'an approving review turns it into a notice that says who approved',
      base: before,
      head: movedMethod,
      approval: { approved: true, approvers: ['bob'], missing: '' },
      expect: [{ ruleId: 'promoted-operation-moved', tool: 'create_quote', level: 'notice', message: /; approved by @bob$/ }],
    },
  ],
  silent: [
    {
      name: 'a disabled DELETE that became a GET is reachable now: tool-added, not a move',
      base: openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items' },
        { name: 'purge', method: 'DELETE', path: '/items/{id}' },
      ]),
      head: openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items' },
        { name: 'purge', method: 'GET', path: '/items/{id}/purge' },
      ]),
      watch: ['tool-added'],
      expect: [
        { ruleId: 'tool-added', tool: 'purge', message: 'tool "purge" is reachable now: read operation GET /items/{id}/purge (it was a disabled operation)' },
      ],
    },
    {
      name: 'unchanged promoted operation',
      base: before,
      head: before,
      expect: [],
    },
    {
      name: 'a disabled operation moved: still not reachable',
      base: openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items' },
        { name: 'drop_items', method: 'DELETE', path: '/items' },
      ]),
      head: openapiSurface([
        { name: 'get_items', method: 'GET', path: '/items' },
        { name: 'drop_items', method: 'DELETE', path: '/v2/items' },
      ]),
      expect: [],
    },
    {
      name: 'a newly promoted operation is read-promotion-unreviewed, not a move',
      base: openapiSurface([{ name: 'create_quote', method: 'POST', path: '/orders/quote', operationId: 'createQuote' }]),
      head: before,
      watch: ['read-promotion-unreviewed'],
      expect: [{ ruleId: 'read-promotion-unreviewed', tool: 'create_quote' }],
    },
  ],
});
