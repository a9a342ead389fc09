/**
 * operation-request-changed: what an OpenAPI operation's calls send changed (error unless
 * reviewed): a parameter moved to another location, a parameter the client sends (not an
 * argument) added, a request media type added. Surfaces from the Swagger Petstore's own fields,
 * and the real documents edited as a pull request would.
 */
import { documentCase, edit, fixtureText } from '../support/openapi-docs.js';
import { openapiSurface, ruleTests } from '../support/surface-builders.js';

type Call = NonNullable<Parameters<typeof openapiSurface>[0][number]['call']>;
const call = (over: Partial<Call> = {}): Call => ({
  servers: [{ url: 'https://petstore3.swagger.io/api/v3' }],
  security: [],
  parameters: [
    { in: 'path', name: 'petId' },
    { in: 'query', name: 'name' },
    { in: 'query', name: 'status' },
  ],
  requestBody: ['application/json'],
  responses: { '200': ['application/json'] },
  ...over,
});
const update = (c: Call) =>
  openapiSurface([{ name: 'updatePetWithForm', method: 'POST', path: '/pet/{petId}', operationId: 'updatePetWithForm', promoted: true, call: c }]);

const PETSTORE = fixtureText('petstore3/openapi.yaml');
const SWAGGER = fixtureText('petstore2/petstore.yaml');

ruleTests('operation-request-changed', {
  fires: [
    {
      name: 'a parameter moved from the query to a header',
      base: update(call()),
      head: update(
        call({
          parameters: [
            { in: 'path', name: 'petId' },
            { in: 'query', name: 'name' },
            { in: 'header', name: 'status' },
          ],
        }),
      ),
      expect: [
        {
          ruleId: 'operation-request-changed',
          tool: 'updatePetWithForm',
          level: 'error',
          message: 'operation updatePetWithForm (POST /pet/{petId}): what its calls send changed: parameter status moved: query → header',
          data: { differences: [{ field: 'parameters', what: 'parameter-moved', widens: true }] },
        },
      ],
    },
    {
      name: 'a cookie parameter added: data the client sends that no argument shows',
      base: update(call()),
      head: update(call({ parameters: [...call().parameters!, { in: 'cookie', name: 'session' }] })),
      expect: [
        { ruleId: 'operation-request-changed', tool: 'updatePetWithForm', message: 'cookie parameter added: session (not an argument: the client sends it)' },
      ],
    },
    {
      name: 'a request media type added',
      base: update(call()),
      head: update(call({ requestBody: ['application/json', 'application/xml'] })),
      expect: [{ ruleId: 'operation-request-changed', tool: 'updatePetWithForm', message: 'request media type added: application/xml' }],
    },
    {
      name: 'with an approval it is a notice naming the approver',
      base: update(call()),
      head: update(call({ requestBody: ['application/json', 'multipart/form-data'] })),
      approval: { approved: true, approvers: ['bob'], missing: '' },
      expect: [{ ruleId: 'operation-request-changed', tool: 'updatePetWithForm', level: 'notice', message: /approved by @bob$/ }],
    },
    documentCase({
      name: 'real document (Swagger Petstore 3): `in: query` → `in: header` for a parameter',
      spec: 'openapi.yaml',
      base: { 'openapi.yaml': PETSTORE },
      head: { 'openapi.yaml': edit(PETSTORE, /(operationId: findPetsByStatus\n[\s\S]*?- name: status\n {10})in: query/, '$1in: header') },
      include: ['findPetsByStatus'],
      expect: [{ ruleId: 'operation-request-changed', tool: 'findPetsByStatus', message: 'parameter status moved: query → header' }],
    }),
    documentCase({
      name: 'real document (Petstore, Swagger 2.0): `consumes` gains a media type',
      spec: 'petstore.yaml',
      base: { 'petstore.yaml': SWAGGER },
      head: { 'petstore.yaml': edit(SWAGGER, /(operationId: addPet\n {6}consumes:\n)/, '$1        - text/plain\n') },
      include: ['addPet'],
      policies: { addPet: 'read' },
      expect: [{ ruleId: 'operation-request-changed', tool: 'addPet', message: 'request media type added: text/plain' }],
    }),
  ],
  silent: [
    {
      name: 'unchanged',
      base: update(call()),
      head: update(call()),
      expect: [],
    },
    {
      name: 'a query parameter added: an argument, judged by its schema (a notice here)',
      base: update(call()),
      head: update(call({ parameters: [...call().parameters!, { in: 'query', name: 'dryRun' }] })),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'updatePetWithForm', message: 'query parameter added: dryRun (an argument: its schema judges it)' }],
    },
    {
      name: 'a request media type removed narrows',
      base: update(call({ requestBody: ['application/json', 'application/xml'] })),
      head: update(call()),
      watch: ['operation-call-changed'],
      expect: [{ ruleId: 'operation-call-changed', tool: 'updatePetWithForm', message: 'request media type removed: application/xml' }],
    },
    {
      name: 'a disabled operation changes how it sends: not reachable',
      base: openapiSurface([{ name: 'deletePet', method: 'DELETE', path: '/pet/{petId}', call: call() }]),
      head: openapiSurface([{ name: 'deletePet', method: 'DELETE', path: '/pet/{petId}', call: call({ requestBody: ['text/plain'] }) }]),
      expect: [],
    },
  ],
});
