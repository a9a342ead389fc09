/**
 * operation-call-changed: where an OpenAPI operation's calls go or what they carry changed without
 * widening (a notice): servers or scopes removed, response media types changed. One finding per
 * tool gathers them; a widening difference is judged by its own rule instead.
 */
import { documentCase, edit, fixtureText } from '../support/openapi-docs.js';
import { openapiSurface, ruleTests } from '../support/surface-builders.js';

type Call = NonNullable<Parameters<typeof openapiSurface>[0][number]['call']>;
const call = (over: Partial<Call> = {}): Call => ({
  servers: [{ url: 'https://petstore3.swagger.io/api/v3' }],
  security: [{ petstore_auth: ['read:pets', 'write:pets'] }],
  securitySchemes: {
    petstore_auth: {
      type: 'oauth2',
      flows: { implicit: { authorizationUrl: 'https://petstore3.swagger.io/oauth/authorize', scopes: ['read:pets', 'write:pets'] } },
    },
  },
  parameters: [{ in: 'query', name: 'status' }],
  responses: { '200': ['application/json', 'application/xml'], '400': [] },
  ...over,
});
const find = (c: Call) => openapiSurface([{ name: 'findPetsByStatus', method: 'GET', path: '/pet/findByStatus', operationId: 'findPetsByStatus', call: c }]);

const PETSTORE = fixtureText('petstore3/openapi.yaml');

ruleTests('operation-call-changed', {
  fires: [
    {
      name: 'a response media type dropped and a scope removed: one notice for the tool',
      base: find(call()),
      head: find(call({ security: [{ petstore_auth: ['read:pets'] }], responses: { '200': ['application/json'], '400': [] } })),
      expect: [
        {
          ruleId: 'operation-call-changed',
          tool: 'findPetsByStatus',
          level: 'notice',
          message:
            'operation findPetsByStatus (GET /pet/findByStatus): its calls changed without widening: petstore_auth scopes removed: write:pets; response 200: [application/json, application/xml] → [application/json]',
          data: {
            differences: [
              { field: 'security', what: 'scopes-removed' },
              { field: 'responses', what: 'response-media-changed' },
            ],
          },
        },
      ],
    },
    {
      name: 'a widening and a narrowing together: each judged by its own rule',
      base: find(call({ servers: [{ url: 'https://a.example/v3' }, { url: 'https://b.example/v3' }] })),
      head: find(call({ servers: [{ url: 'https://a.example/v3' }], security: [{ petstore_auth: ['admin:pets', 'read:pets', 'write:pets'] }] })),
      watch: ['operation-security-changed'],
      expect: [
        { ruleId: 'operation-call-changed', tool: 'findPetsByStatus', message: 'server removed: https://b.example/v3' },
        { ruleId: 'operation-security-changed', tool: 'findPetsByStatus', message: 'petstore_auth scopes added: admin:pets' },
      ],
    },
    documentCase({
      name: 'real document (Swagger Petstore 3): the XML response media type removed',
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: {
        'openapi.yaml': edit(
          PETSTORE,
          /(operationId: getPetById\n[\s\S]*?schemas\/Pet'\n)( {12}application\/xml:\n {14}schema:\n {16}\$ref: '#\/components\/schemas\/Pet'\n)/,
          '$1',
        ),
      },
      include: ['getPetById'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'getPetById', message: 'response 200: [application/json, application/xml] → [application/json]' }],
    }),
  ],
  silent: [
    {
      name: 'unchanged',
      base: find(call()),
      head: find(call()),
      expect: [],
    },
    {
      name: 'only widening differences: no notice beside the error',
      base: find(call()),
      head: find(call({ servers: [{ url: 'https://evil.example/v3' }] })),
      watch: ['operation-server-changed'],
      expect: [{ ruleId: 'operation-server-changed', tool: 'findPetsByStatus' }],
    },
    {
      name: 'an MCP surface has no operations',
      base: openapiSurface([]),
      head: openapiSurface([]),
      expect: [],
    },
  ],
});
