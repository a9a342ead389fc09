/**
 * operation-security-changed: the credentials an OpenAPI operation's calls carry changed (error
 * unless reviewed). Surfaces built from the Swagger Petstore's own security (an OAuth 2.0 implicit
 * flow and an API key), and the real documents edited as a pull request would.
 */
import { documentCase, edit, fixtureText } from '../support/openapi-docs.js';
import { openapiSurface, ruleTests } from '../support/surface-builders.js';

type Call = NonNullable<Parameters<typeof openapiSurface>[0][number]['call']>;
const OAUTH = {
  type: 'oauth2',
  flows: { implicit: { authorizationUrl: 'https://petstore3.swagger.io/oauth/authorize', scopes: ['read:pets', 'write:pets'] } },
};
const API_KEY = { type: 'apiKey', in: 'header', name: 'api_key' };
const call = (over: Partial<Call> = {}): Call => ({
  servers: [{ url: 'https://petstore3.swagger.io/api/v3' }],
  security: [{ api_key: [] }, { petstore_auth: ['read:pets', 'write:pets'] }],
  securitySchemes: { api_key: API_KEY, petstore_auth: OAUTH },
  parameters: [{ in: 'path', name: 'petId' }],
  responses: { '200': ['application/json', 'application/xml'] },
  ...over,
});
const getPet = (c: Call) => openapiSurface([{ name: 'getPetById', method: 'GET', path: '/pet/{petId}', operationId: 'getPetById', call: c }]);
const oauthOnly = (scopes: string[]) => call({ security: [{ petstore_auth: scopes }], securitySchemes: { petstore_auth: OAUTH } });

const PETSTORE = fixtureText('petstore3/openapi.yaml');
const SWAGGER = fixtureText('petstore2/petstore.yaml');

ruleTests('operation-security-changed', {
  fires: [
    {
      name: 'security removed: `security: []` on the operation',
      base: getPet(call()),
      head: getPet(call({ security: [], securitySchemes: undefined })),
      expect: [
        {
          ruleId: 'operation-security-changed',
          tool: 'getPetById',
          level: 'error',
          message: 'security api_key | petstore_auth [read:pets, write:pets] → none',
          data: { differences: [{ field: 'security', what: 'security-removed', widens: true }] },
        },
      ],
    },
    {
      name: 'made optional: an empty requirement {} added',
      base: getPet(call()),
      head: getPet(call({ security: [{}, { api_key: [] }, { petstore_auth: ['read:pets', 'write:pets'] }] })),
      expect: [{ ruleId: 'operation-security-changed', tool: 'getPetById', message: 'credentials now optional: an empty security requirement {} was added' }],
    },
    {
      name: 'one requirement removed',
      base: getPet(call()),
      head: getPet(oauthOnly(['read:pets', 'write:pets'])),
      expect: [{ ruleId: 'operation-security-changed', tool: 'getPetById', message: 'security requirement removed: api_key' }],
    },
    {
      name: 'scopes added',
      base: getPet(oauthOnly(['read:pets'])),
      head: getPet(oauthOnly(['admin:pets', 'read:pets'])),
      expect: [
        {
          ruleId: 'operation-security-changed',
          tool: 'getPetById',
          message: 'petstore_auth scopes added: admin:pets ([read:pets] → [admin:pets, read:pets])',
          data: { differences: [{ what: 'scopes-added', widens: true }] },
        },
      ],
    },
    {
      name: 'a requirement added: the call carries another credential',
      base: getPet(oauthOnly(['read:pets'])),
      head: getPet(call({ security: [{ api_key: [], petstore_auth: ['read:pets'] }] })),
      expect: [
        {
          ruleId: 'operation-security-changed',
          tool: 'getPetById',
          message: /security requirement added: api_key \+ petstore_auth \[read:pets\].*security requirement removed: petstore_auth \[read:pets\]/,
        },
      ],
    },
    {
      name: "a scheme's authorization URL changes: consent goes to another party",
      base: getPet(call()),
      head: getPet(
        call({
          securitySchemes: {
            api_key: API_KEY,
            petstore_auth: { ...OAUTH, flows: { implicit: { ...OAUTH.flows.implicit, authorizationUrl: 'https://login.attacker.example/authorize' } } },
          },
        }),
      ),
      expect: [
        {
          ruleId: 'operation-security-changed',
          tool: 'getPetById',
          message:
            'scheme petstore_auth: flow implicit authorizationUrl "https://petstore3.swagger.io/oauth/authorize" → "https://login.attacker.example/authorize"',
        },
      ],
    },
    {
      name: 'an API key moves from a header to the query string (it lands in logs)',
      base: getPet(call()),
      head: getPet(call({ securitySchemes: { api_key: { ...API_KEY, in: 'query' }, petstore_auth: OAUTH } })),
      expect: [{ ruleId: 'operation-security-changed', tool: 'getPetById', message: 'scheme api_key: in "header" → "query"' }],
    },
    {
      name: 'a flow added to a scheme',
      base: getPet(oauthOnly(['read:pets'])),
      head: getPet(
        call({
          security: [{ petstore_auth: ['read:pets'] }],
          securitySchemes: {
            petstore_auth: { ...OAUTH, flows: { ...OAUTH.flows, clientCredentials: { tokenUrl: 'https://t.example/token', scopes: ['read:pets'] } } },
          },
        }),
      ),
      expect: [
        {
          ruleId: 'operation-security-changed',
          tool: 'getPetById',
          message: 'scheme petstore_auth: flow clientCredentials added (tokenUrl https://t.example/token)',
        },
      ],
    },
    documentCase({
      name: 'real document (Swagger Petstore 3): the operation drops its security (`security: []`)',
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: { 'openapi.yaml': edit(PETSTORE, /( {6}operationId: getInventory\n[\s\S]*?)security:\n {8}- api_key: \[\]\n/, '$1security: []\n') },
      include: ['getInventory'],
      expect: [{ ruleId: 'operation-security-changed', tool: 'getInventory', message: 'security api_key → none' }],
    }),
    documentCase({
      name: "real document (Swagger Petstore 3): the scheme's authorizationUrl in components.securitySchemes changes",
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: {
        'openapi.yaml': edit(
          PETSTORE,
          'authorizationUrl: https://petstore3.swagger.io/oauth/authorize',
          'authorizationUrl: https://petstore3.attacker.example/oauth/authorize',
        ),
      },
      include: ['findPetsByStatus', 'getInventory'],
      expect: [
        {
          ruleId: 'operation-security-changed',
          tool: 'findPetsByStatus',
          message: 'authorizationUrl "https://petstore3.swagger.io/oauth/authorize" → "https://petstore3.attacker.example/oauth/authorize"',
        },
      ],
    }),
    documentCase({
      name: 'real document (Petstore, Swagger 2.0): a scope added to the requirement; securityDefinitions resolved',
      spec: 'petstore.yaml',
      base: { 'petstore.yaml': SWAGGER },
      head: { 'petstore.yaml': edit(SWAGGER, /( {6}operationId: findPetsByStatus\n[\s\S]*?- 'write:pets'\n)/, "$1            - 'admin:pets'\n") },
      include: ['findPetsByStatus'],
      expect: [{ ruleId: 'operation-security-changed', tool: 'findPetsByStatus', message: 'petstore_auth scopes added: admin:pets' }],
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
      name: 'scopes removed: the token carries less (a notice)',
      base: getPet(oauthOnly(['read:pets', 'write:pets'])),
      head: getPet(oauthOnly(['read:pets'])),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'getPetById', level: 'notice', message: 'petstore_auth scopes removed: write:pets' }],
    },
    {
      name: "a scheme's list of available scopes grows (the requirement's scopes decide what a token carries)",
      base: getPet(oauthOnly(['read:pets'])),
      head: getPet(
        call({
          security: [{ petstore_auth: ['read:pets'] }],
          securitySchemes: { petstore_auth: { ...OAUTH, flows: { implicit: { ...OAUTH.flows.implicit, scopes: ['admin:pets', 'read:pets', 'write:pets'] } } } },
        }),
      ),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'getPetById', message: 'lists scopes [read:pets, write:pets] → [admin:pets, read:pets, write:pets]' }],
    },
    {
      name: 'the optional requirement {} removed: credentials now required',
      base: getPet(call({ security: [{}, { petstore_auth: ['read:pets'] }], securitySchemes: { petstore_auth: OAUTH } })),
      head: getPet(oauthOnly(['read:pets'])),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'getPetById', message: 'credentials no longer optional' }],
    },
    documentCase({
      name: "real document: a scheme's description changes (not pinned)",
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: { 'openapi.yaml': edit(PETSTORE, '"read:pets": read your pets', '"read:pets": read the pets of your account') },
      include: ['findPetsByStatus'],
      expect: [],
    }),
  ],
});
