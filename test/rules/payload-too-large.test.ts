/** payload-too-large: limits.max-payload-bytes. */
import { mcpSurface, openapiSurface, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

const TWO = mcpSurface([readTool('get'), writeTool('put')]);
const BYTES = TWO.payloadBytes;
const OPS = openapiSurface([
  { name: 'get_items', method: 'GET', path: '/items' },
  { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
  { name: 'post_item', method: 'POST', path: '/items' },
]);

ruleTests('payload-too-large', {
  fires: [
    {
      name: 'max-payload-bytes one byte below the advertised size',
      head: TWO,
      policy: `limits:\n  max-payload-bytes: ${BYTES - 1}\n`,
      expect: [
        { ruleId: 'payload-too-large', level: 'error', data: { limit: 'max-payload-bytes', value: BYTES, max: BYTES - 1 }, location: { file: 'toolgate.yml' } },
      ],
    },
    {
      name: 'both limits exceeded: this rule reports the bytes only (the count is too-many-tools)',
      head: TWO,
      policy: 'limits:\n  max-tools: 0\n  max-payload-bytes: 0\n',
      expect: [{ ruleId: 'payload-too-large', data: { limit: 'max-payload-bytes' } }],
    },
  ],
  silent: [
    {
      name: 'at the limit exactly',
      head: TWO,
      policy: `limits:\n  max-payload-bytes: ${BYTES}\n`,
      expect: [],
    },
    {
      name: 'a tool count over max-tools is too-many-tools, not this rule',
      head: TWO,
      policy: 'limits:\n  max-tools: 1\n',
      expect: [],
    },
    {
      name: 'disabled OpenAPI operations do not count toward the bytes',
      head: OPS,
      policy: `limits:\n  max-payload-bytes: ${openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]).payloadBytes}\n`,
      expect: [],
    },
    {
      name: 'no limits configured',
      head: TWO,
      expect: [],
    },
  ],
});
