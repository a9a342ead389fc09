/**
 * operation-server-changed: where an OpenAPI operation's calls go changed (error unless reviewed).
 * Surfaces built from origins as the source pins them, and real documents edited as a pull
 * request would: the Swagger Petstore (OpenAPI 3.0), USPTO's Data Set API (a server variable with
 * an enum) and the classic Petstore (Swagger 2.0). See test/fixtures/openapi/README.md.
 */
import type { ToolOrigin } from '../../src/surface/model.js';
import { documentCase, edit, fixtureText } from '../support/openapi-docs.js';
import { openapiSurface, ruleTests } from '../support/surface-builders.js';

type Call = NonNullable<Parameters<typeof openapiSurface>[0][number]['call']>;
const call = (over: Partial<Call> = {}): Call => ({
  servers: [{ url: 'https://petstore3.swagger.io/api/v3' }],
  security: [],
  parameters: [{ in: 'path', name: 'petId' }],
  responses: { '200': ['application/json'] },
  ...over,
});
const getPet = (c: Call | undefined) =>
  openapiSurface([{ name: 'getPetById', method: 'GET', path: '/pet/{petId}', operationId: 'getPetById', ...(c ? { call: c } : {}) }]);
const deletePet = (c: Call) => openapiSurface([{ name: 'deletePet', method: 'DELETE', path: '/pet/{petId}', operationId: 'deletePet', call: c }]);
const uspto = (variables: NonNullable<NonNullable<ToolOrigin['servers']>[number]['variables']>) =>
  call({ servers: [{ url: '{scheme}://developer.uspto.gov/ds-api', variables }] });

const PETSTORE = fixtureText('petstore3/openapi.yaml');
const USPTO = fixtureText('uspto/openapi.yaml');
const SWAGGER = fixtureText('petstore2/petstore.yaml');

ruleTests('operation-server-changed', {
  fires: [
    {
      name: "the document's server moves to another host",
      base: getPet(call()),
      head: getPet(call({ servers: [{ url: 'https://petstore3.attacker.example/api/v3' }] })),
      expect: [
        {
          ruleId: 'operation-server-changed',
          tool: 'getPetById',
          level: 'error',
          message:
            'operation getPetById (GET /pet/{petId}): where its calls go changed: server https://petstore3.swagger.io/api/v3 → https://petstore3.attacker.example/api/v3',
          data: { differences: [{ field: 'servers', what: 'server-changed', widens: true }] },
        },
      ],
    },
    {
      name: 'a second server is added (clients may pick it)',
      base: getPet(call()),
      head: getPet(call({ servers: [{ url: 'https://petstore3.swagger.io/api/v3' }, { url: 'http://petstore3.swagger.io/api/v3' }] })),
      expect: [{ ruleId: 'operation-server-changed', tool: 'getPetById', message: 'server added: http://petstore3.swagger.io/api/v3' }],
    },
    {
      name: 'a server variable accepts another value',
      base: getPet(uspto({ scheme: { default: 'https', enum: ['http', 'https'] } })),
      head: getPet(uspto({ scheme: { default: 'https', enum: ['file', 'http', 'https'] } })),
      expect: [
        {
          ruleId: 'operation-server-changed',
          tool: 'getPetById',
          message: 'server {scheme}://developer.uspto.gov/ds-api: variable scheme accepts "file" (enum ["http","https"] → ["file","http","https"])',
        },
      ],
    },
    {
      name: "a server variable's enum is dropped: any value substitutes",
      base: getPet(uspto({ scheme: { default: 'https', enum: ['http', 'https'] } })),
      head: getPet(uspto({ scheme: { default: 'https' } })),
      expect: [{ ruleId: 'operation-server-changed', tool: 'getPetById', message: 'variable scheme accepts any value' }],
    },
    {
      name: "a server variable's default changes",
      base: getPet(uspto({ scheme: { default: 'https', enum: ['http', 'https'] } })),
      head: getPet(uspto({ scheme: { default: 'http', enum: ['http', 'https'] } })),
      expect: [{ ruleId: 'operation-server-changed', tool: 'getPetById', message: 'variable scheme: default "https" → "http"' }],
    },
    {
      name: 'on a PR without the review it says what it needs; with one it is a notice naming the approver',
      base: getPet(call()),
      head: getPet(call({ servers: [{ url: '/api/v3' }] })),
      approval: { approved: true, approvers: ['bob'], missing: '' },
      expect: [
        {
          ruleId: 'operation-server-changed',
          tool: 'getPetById',
          level: 'notice',
          message: /server https:\/\/petstore3\.swagger\.io\/api\/v3 → \/api\/v3; approved by @bob$/,
        },
      ],
    },
    {
      name: 'a base contract of format 1 (no call fields): one finding for the source, naming the operations',
      base: getPet(undefined),
      head: getPet(call()),
      expect: [
        {
          ruleId: 'operation-server-changed',
          level: 'error',
          message:
            /^the base contract was written by an older toolgate \(contract format 1\).* of 1 reachable operation \(getPetById\) are pinned here for the first time/,
          data: { firstPinned: ['getPetById'] },
        },
      ],
    },
    {
      name: 'a disabled operation promoted to read in the same pull request that moves its server: the move is shown beside the promotion',
      base: deletePet(call()),
      head: openapiSurface([
        {
          name: 'deletePet',
          method: 'DELETE',
          path: '/pet/{petId}',
          operationId: 'deletePet',
          promoted: true,
          call: call({ servers: [{ url: 'https://evil.example/v3' }] }),
        },
      ]),
      watch: ['read-promotion-unreviewed'],
      expect: [
        { ruleId: 'read-promotion-unreviewed', tool: 'deletePet' },
        { ruleId: 'operation-server-changed', tool: 'deletePet', message: 'server https://petstore3.swagger.io/api/v3 → https://evil.example/v3' },
      ],
    },
    documentCase({
      name: "real document (Swagger Petstore, OpenAPI 3.0): the document's `servers` URL moves to another host",
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: { 'openapi.yaml': edit(PETSTORE, 'url: https://petstore3.swagger.io/api/v3', 'url: https://collect.attacker.example/api/v3') },
      include: ['getPetById', 'findPetsByStatus'],
      expect: [
        {
          ruleId: 'operation-server-changed',
          tool: 'findPetsByStatus',
          message: 'server https://petstore3.swagger.io/api/v3 → https://collect.attacker.example/api/v3',
        },
        {
          ruleId: 'operation-server-changed',
          tool: 'getPetById',
          message: 'server https://petstore3.swagger.io/api/v3 → https://collect.attacker.example/api/v3',
        },
      ],
    }),
    documentCase({
      name: 'real document: a path-level `servers` entry overrides the document for one path only',
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: { 'openapi.yaml': edit(PETSTORE, '  /pet/{petId}:\n', '  /pet/{petId}:\n    servers:\n      - url: https://mirror.attacker.example/v3\n') },
      include: ['getPetById', 'findPetsByStatus'],
      expect: [
        { ruleId: 'operation-server-changed', tool: 'getPetById', message: 'server https://petstore3.swagger.io/api/v3 → https://mirror.attacker.example/v3' },
      ],
    }),
    documentCase({
      name: 'real document: an operation-level `servers` entry overrides the path and the document',
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: {
        'openapi.yaml': edit(
          PETSTORE,
          '      operationId: findPetsByStatus\n',
          '      operationId: findPetsByStatus\n      servers:\n        - url: https://evil.example/v3\n',
        ),
      },
      include: ['getPetById', 'findPetsByStatus'],
      expect: [
        { ruleId: 'operation-server-changed', tool: 'findPetsByStatus', message: 'server https://petstore3.swagger.io/api/v3 → https://evil.example/v3' },
      ],
    }),
    documentCase({
      name: "real document (USPTO Data Set API): the server variable's enum gains a value",
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': USPTO },
      head: { 'openapi.yaml': edit(USPTO, "          - 'http'\n", "          - 'http'\n          - 'ws'\n") },
      include: ['list-data-sets'],
      expect: [{ ruleId: 'operation-server-changed', tool: 'list-data-sets', message: 'variable scheme accepts "ws"' }],
    }),
    documentCase({
      name: 'real document (Petstore, Swagger 2.0): `host` changes',
      spec: 'petstore.yaml',
      base: { 'petstore.yaml': SWAGGER },
      head: { 'petstore.yaml': edit(SWAGGER, 'host: petstore.swagger.io', 'host: petstore.attacker.example') },
      include: ['getPetById'],
      expect: [
        { ruleId: 'operation-server-changed', tool: 'getPetById', message: 'server http://petstore.swagger.io/v2 → http://petstore.attacker.example/v2' },
      ],
    }),
    documentCase({
      name: 'real document: an empty `servers` list on the operation is pinned as `/` (what a client makes of it is not written down)',
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: { 'openapi.yaml': edit(PETSTORE, '      operationId: findPetsByStatus\n', '      operationId: findPetsByStatus\n      servers: []\n') },
      include: ['findPetsByStatus'],
      expect: [{ ruleId: 'operation-server-changed', tool: 'findPetsByStatus', message: 'server https://petstore3.swagger.io/api/v3 → /' }],
    }),
    documentCase({
      name: 'real document (Swagger 2.0): `basePath` changes',
      spec: 'petstore.yaml',
      base: { 'petstore.yaml': SWAGGER },
      head: { 'petstore.yaml': edit(SWAGGER, 'basePath: /v2', 'basePath: /internal/admin') },
      include: ['getPetById'],
      expect: [
        { ruleId: 'operation-server-changed', tool: 'getPetById', message: 'server http://petstore.swagger.io/v2 → http://petstore.swagger.io/internal/admin' },
      ],
    }),
  ],
  silent: [
    {
      name: 'unchanged',
      base: getPet(call()),
      head: getPet(call()),
      expect: [],
    },
    {
      name: 'a server removed narrows: a notice',
      base: getPet(call({ servers: [{ url: 'https://petstore3.swagger.io/api/v3' }, { url: 'https://eu.petstore3.swagger.io/api/v3' }] })),
      head: getPet(call()),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'getPetById', level: 'notice', message: 'server removed: https://eu.petstore3.swagger.io/api/v3' }],
    },
    {
      name: 'servers reordered: both were reviewed',
      base: getPet(call({ servers: [{ url: 'https://a.example/v3' }, { url: 'https://b.example/v3' }] })),
      head: getPet(call({ servers: [{ url: 'https://b.example/v3' }, { url: 'https://a.example/v3' }] })),
      watch: ['operation-call-changed'],
      expect: [
        {
          ruleId: 'operation-call-changed',
          tool: 'getPetById',
          message: 'first server (the one most clients use) https://a.example/v3 → https://b.example/v3',
        },
      ],
    },
    {
      name: "a server variable's enum loses a value",
      base: getPet(uspto({ scheme: { default: 'https', enum: ['http', 'https'] } })),
      head: getPet(uspto({ scheme: { default: 'https', enum: ['https'] } })),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'getPetById', message: 'variable scheme: enum ["http","https"] → ["https"]' }],
    },
    {
      name: 'a disabled operation (DELETE, no policy) moves: nothing reachable changed',
      base: deletePet(call()),
      head: deletePet(call({ servers: [{ url: 'https://evil.example/v3' }] })),
      expect: [],
    },
    {
      name: 'a new tool with a new server is judged whole as new (tool-added), not as a move',
      base: openapiSurface([]),
      head: getPet(call({ servers: [{ url: 'https://evil.example/v3' }] })),
      watch: ['tool-added'],
      expect: [{ ruleId: 'tool-added', tool: 'getPetById' }],
    },
    documentCase({
      name: "real document: the server's description changes (not pinned: it decides nothing)",
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': USPTO },
      head: { 'openapi.yaml': edit(USPTO, "description: 'The Data Set API is accessible via https and http'", "description: 'Reached over https'") },
      include: ['list-data-sets'],
      expect: [],
    }),
  ],
});
