/** contract-stale: the live surface and the committed contract differ in anything (or there is no contract). */
import { parseContract } from '../../src/contract/store.js';
import { serializeContract } from '../../src/contract/serialize.js';
import { mcpSurface, openapiSurface, readTool, ruleTests, writeTool } from '../support/surface-builders.js';

const HEAD = [readTool('get'), writeTool('put')];
const MOVED = openapiSurface(
  [{ name: 'getPet', method: 'GET', path: '/pets/{id}', call: { servers: [{ url: 'https://evil.example/v3' }], security: [], parameters: [], responses: {} } }],
  { files: ['api/openapi.yaml'] },
);
/** MOVED as committed with the document taken out of `source.files` by hand, read back as the Action reads it. */
const HIDDEN = parseContract(
  serializeContract(MOVED).text.replace(/"files": \[\n\s+"api\/openapi\.yaml"\n\s+\]/, '"files": []'),
  '.toolgate/src.surface.json',
).surface;

ruleTests('contract-stale', {
  fires: [
    {
      name: 'no contract committed yet',
      head: HEAD,
      contract: null,
      expect: [{ ruleId: 'contract-stale', level: 'error', data: { missing: true, differences: 2 }, message: 'no contract' }],
    },
    {
      name: 'an OpenAPI contract of format 1 (no call fields, no files): says an older toolgate wrote it and to run toolgate update',
      head: openapiSurface(
        [{ name: 'getPet', method: 'GET', path: '/pets/{id}', call: { servers: [{ url: '/' }], security: [], parameters: [], responses: {} } }],
        {
          files: ['api/openapi.yaml'],
        },
      ),
      contract: openapiSurface([{ name: 'getPet', method: 'GET', path: '/pets/{id}' }]),
      expect: [
        {
          ruleId: 'contract-stale',
          data: { kinds: ['call-first-pinned', 'source-changed'], olderFormat: true },
          message:
            'an older toolgate wrote it (contract format 1, which pins no OpenAPI servers, security or media types): run `toolgate update` and commit it',
        },
      ],
    },
    {
      name: 'an OpenAPI contract that leaves the document out of `source.files` (hidden from what approvals watch): an approval does not clear it',
      head: MOVED,
      contract: HIDDEN,
      approval: { approved: true, approvers: ['bob'], missing: '' },
      expect: [{ ruleId: 'contract-stale', level: 'error', data: { kinds: ['source-changed'] }, message: 'source-changed' }],
    },
    {
      name: 'a description differs',
      head: HEAD,
      contract: [readTool('get', { description: 'Old text.' }), writeTool('put')],
      expect: [{ ruleId: 'contract-stale', data: { differences: 1, kinds: ['text-changed'] } }],
    },
    {
      name: 'a tool is served that the contract lacks',
      head: HEAD,
      contract: [readTool('get')],
      expect: [{ ruleId: 'contract-stale', data: { kinds: ['count-changed', 'tool-added'] } }],
    },
    {
      name: 'only a vendor annotation key differs',
      head: HEAD,
      contract: [readTool('get', { annotations: { ...(readTool('get').annotations as object), 'x-vendor': 1 } }), writeTool('put')],
      expect: [{ ruleId: 'contract-stale', data: { kinds: ['metadata-changed'] } }],
    },
    {
      name: 'the negotiated protocol version differs',
      head: mcpSurface(HEAD, { server: { name: 'test-server', version: '1.0.0', protocolVersion: '2025-11-25' } }),
      contract: mcpSurface(HEAD, { server: { name: 'test-server', version: '1.0.0', protocolVersion: '2025-06-18' } }),
      expect: [{ ruleId: 'contract-stale', data: { kinds: ['server-changed'] } }],
    },
    {
      name: 'the declared client capabilities differ',
      head: mcpSurface(HEAD, { clientCapabilities: { roots: {} } }),
      contract: mcpSurface(HEAD),
      expect: [{ ruleId: 'contract-stale', data: { kinds: ['source-changed'] } }],
    },
    {
      name: 'the pinned digest matches no live tool list (a hand edit the reader keeps as pinned)',
      head: HEAD,
      contract: { ...mcpSurface(HEAD), digest: '0'.repeat(64) },
      expect: [{ ruleId: 'contract-stale', data: { differences: 1, kinds: ['digest'] }, message: 'the digest pinned in the contract does not match' }],
    },
    {
      name: 'the pinned payloadBytes and digest both differ',
      head: HEAD,
      contract: { ...mcpSurface(HEAD), digest: '0'.repeat(64), payloadBytes: 1 },
      expect: [{ ruleId: 'contract-stale', data: { differences: 2, kinds: ['digest', 'payloadBytes'] } }],
    },
  ],
  silent: [
    {
      name: 'contract equals the live surface',
      head: HEAD,
      expect: [],
    },
    {
      name: 'only SDK noise differs ($schema, default execution, key order)',
      head: [
        readTool('get', {
          inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', additionalProperties: false, properties: {}, type: 'object' },
          execution: { taskSupport: 'forbidden' },
        }),
        writeTool('put'),
      ],
      contract: HEAD,
      expect: [],
    },
    {
      name: 'a server version bump alone is not a change in what agents reach',
      head: mcpSurface(HEAD, { server: { name: 'test-server', version: '2.0.0', protocolVersion: '2025-11-25' } }),
      contract: mcpSurface(HEAD, { server: { name: 'test-server', version: '1.0.0', protocolVersion: '2025-11-25' } }),
      expect: [],
    },
    {
      name: 'the PR base differs but the contract was updated',
      base: [readTool('get')],
      head: HEAD,
      expect: [],
    },
  ],
});
