/**
 * Where an operation's calls go and what they carry, as the `openapi` source pins them in each
 * tool's origin, on real documents: the Swagger Petstore (OpenAPI 3.0: OAuth 2.0 and API key
 * alternatives), USPTO's Data Set API (a server variable with an enum) and the classic Petstore
 * (Swagger 2.0: `schemes`, `host`, `basePath`, `securityDefinitions`, `consumes`, `produces`).
 * See test/fixtures/openapi/README.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { SourceError } from '../../src/sources/source-error.js';
import type { RawSnapshot } from '../../src/sources/types.js';
import { edit, fixtureText } from '../support/openapi-docs.js';

const fx = (p: string) => resolve('test/fixtures/openapi', p);
const originOf = (s: RawSnapshot, operationId: string) => s.tools.find((t) => t.origin?.operationId === operationId)?.origin;

const OAUTH = {
  type: 'oauth2',
  flows: { implicit: { authorizationUrl: 'https://petstore3.swagger.io/oauth/authorize', scopes: ['read:pets', 'write:pets'] } },
};

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

/** A repository holding `files`, with an integration config including `include`. */
function repoWith(files: Record<string, string>, spec: string, include: string[]): string {
  const repo = mkdtempSync(join(tmpdir(), 'tg-openapi-call-'));
  dirs.push(repo);
  mkdirSync(join(repo, '.git'));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(join(repo, p, '..'), { recursive: true });
    writeFileSync(join(repo, p), text);
  }
  writeFileSync(join(repo, 'integration.json'), JSON.stringify({ id: 'x', type: 'openapi', spec, include }));
  return join(repo, 'integration.json');
}

describe('OpenAPI 3.0: the Swagger Petstore', () => {
  it('pins the servers, the security alternatives with their schemes resolved, parameters and media types', async () => {
    const s = await snapshotOpenApi(fx('petstore3/integration.json'));
    expect(s.source.files).toEqual(['test/fixtures/openapi/petstore3/openapi.yaml']);
    expect(originOf(s, 'getPetById')).toEqual({
      method: 'GET',
      path: '/pet/{petId}',
      operationId: 'getPetById',
      servers: [{ url: 'https://petstore3.swagger.io/api/v3' }],
      // Alternatives sorted; scopes sorted.
      security: [{ api_key: [] }, { petstore_auth: ['read:pets', 'write:pets'] }],
      securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'api_key' }, petstore_auth: OAUTH },
      parameters: [{ in: 'path', name: 'petId' }],
      responses: { '200': ['application/json', 'application/xml'], '400': [], '404': [], default: [] },
    });
    expect(originOf(s, 'addPet')).toMatchObject({
      security: [{ petstore_auth: ['read:pets', 'write:pets'] }],
      securitySchemes: { petstore_auth: OAUTH },
      parameters: [],
      requestBody: ['application/json', 'application/x-www-form-urlencoded', 'application/xml'],
    });
    // Only the schemes its requirements name.
    expect(originOf(s, 'getInventory')?.securitySchemes).toEqual({ api_key: { type: 'apiKey', in: 'header', name: 'api_key' } });
    expect(originOf(s, 'deletePet')?.parameters).toEqual([
      { in: 'path', name: 'petId' },
      { in: 'header', name: 'api_key' },
    ]);
  });

  it('`security: []` removes the document-level requirement; `[{}]` keeps it optional; no `servers` means `/`', async () => {
    const text = [
      'openapi: 3.1.0',
      'info: { title: t, version: "1" }',
      'security: [{ key: [] }]',
      'components: { securitySchemes: { key: { type: http, scheme: bearer, bearerFormat: JWT } } }',
      'paths:',
      '  /a: { get: { operationId: a, security: [], responses: { "200": { description: ok } } } }',
      '  /b: { get: { operationId: b, security: [{}], responses: { "200": { description: ok } } } }',
      '  /c: { get: { operationId: c, responses: { "200": { description: ok } } } }',
    ].join('\n');
    const s = await snapshotOpenApi(repoWith({ 'api.yaml': text }, 'api.yaml', ['a', 'b', 'c']));
    expect(originOf(s, 'a')).toMatchObject({ servers: [{ url: '/' }], security: [] });
    expect(originOf(s, 'a')?.securitySchemes).toBeUndefined();
    expect(originOf(s, 'b')).toMatchObject({ security: [{}] });
    expect(originOf(s, 'c')).toMatchObject({ security: [{ key: [] }], securitySchemes: { key: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } });
  });

  it('a requirement naming a scheme the document does not define fails the load, naming it', async () => {
    const text = edit(fixtureText('petstore3/openapi.yaml'), /(operationId: getInventory\n[\s\S]*?)- api_key: \[\]/, '$1- api_token: []');
    const err = await snapshotOpenApi(repoWith({ 'openapi.yaml': text }, 'openapi.yaml', ['getInventory']), { validate: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('load-failed');
    expect((err as Error).message).toMatch(
      /openapi\.yaml: getInventory: its security requirement names the scheme "api_token", which components\.securitySchemes does not define/,
    );
  });

  it('a scheme or variable named __proto__ is pinned as a key, not as a prototype', async () => {
    const text = [
      'openapi: 3.0.3',
      'info: { title: t, version: "1" }',
      'servers: [{ url: "https://{__proto__}.example.com", variables: { __proto__: { default: eu, enum: [us, eu] } } }]',
      'components: { securitySchemes: { __proto__: { type: apiKey, in: query, name: k } } }',
      'paths:',
      '  /a: { get: { operationId: a, security: [{ __proto__: [] }], responses: { "200": { description: ok } } } }',
    ].join('\n');
    const s = await snapshotOpenApi(repoWith({ 'api.yaml': text }, 'api.yaml', ['a']), { validate: false });
    const o = originOf(s, 'a')!;
    expect(Object.keys(o.servers![0]!.variables!)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(o.servers![0]!.variables!, '__proto__')?.value).toEqual({ default: 'eu', enum: ['eu', 'us'] });
    expect(Object.keys(o.securitySchemes!)).toEqual(['__proto__']);
    expect(Object.keys(o.security![0]!)).toEqual(['__proto__']);
  });
});

describe('OpenAPI 3.0: USPTO Data Set API', () => {
  it("pins the server's variables: default and enum (sorted), not the description", async () => {
    const s = await snapshotOpenApi(fx('uspto/integration.json'));
    for (const id of ['list-data-sets', 'perform-search']) {
      expect(originOf(s, id)?.servers).toEqual([
        { url: '{scheme}://developer.uspto.gov/ds-api', variables: { scheme: { default: 'https', enum: ['http', 'https'] } } },
      ]);
    }
    expect(originOf(s, 'perform-search')).toMatchObject({
      parameters: [
        { in: 'path', name: 'dataset' },
        { in: 'path', name: 'version' },
      ],
      requestBody: ['application/x-www-form-urlencoded'],
    });
  });
});

describe('Swagger 2.0: the classic Petstore', () => {
  it('servers from schemes + host + basePath; securityDefinitions in OpenAPI 3 names; consumes and produces', async () => {
    const s = await snapshotOpenApi(fx('petstore2/integration.json'));
    expect(originOf(s, 'getPetById')).toEqual({
      method: 'GET',
      path: '/pet/{petId}',
      operationId: 'getPetById',
      servers: [{ url: 'http://petstore.swagger.io/v2' }],
      security: [{ api_key: [] }],
      securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'api_key' } },
      parameters: [{ in: 'path', name: 'petId' }],
      // `produces` applies to the responses that have a schema.
      responses: { '200': ['application/json', 'application/xml'], '400': [], '404': [] },
    });
    expect(originOf(s, 'updatePetWithForm')).toMatchObject({
      promoted: true,
      // flow: implicit, authorizationUrl and scopes as written.
      securitySchemes: {
        petstore_auth: {
          type: 'oauth2',
          flows: { implicit: { authorizationUrl: 'http://petstore.swagger.io/api/oauth/dialog', scopes: ['read:pets', 'write:pets'] } },
        },
      },
      parameters: [
        { in: 'path', name: 'petId' },
        { in: 'formData', name: 'name' },
        { in: 'formData', name: 'status' },
      ],
      requestBody: ['application/x-www-form-urlencoded'],
    });
    expect(originOf(s, 'uploadFile')?.requestBody).toEqual(['multipart/form-data']);
  });

  it("an operation's `schemes` override the document's; `basic` is http basic; `accessCode` is authorizationCode", async () => {
    const doc = {
      swagger: '2.0',
      info: { title: 't', version: '1' },
      host: 'api.example.com',
      basePath: '/v1',
      schemes: ['https'],
      securityDefinitions: {
        basicAuth: { type: 'basic' },
        code: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://a.example/auth', tokenUrl: 'https://a.example/token', scopes: { read: 'r' } },
      },
      paths: {
        '/a': {
          get: { operationId: 'a', schemes: ['http', 'https'], security: [{ basicAuth: [] }, { code: ['read'] }], responses: { '200': { description: 'ok' } } },
        },
      },
    };
    const s = await snapshotOpenApi(repoWith({ 'api.json': JSON.stringify(doc) }, 'api.json', ['a']));
    expect(originOf(s, 'a')).toMatchObject({
      servers: [{ url: 'http://api.example.com/v1' }, { url: 'https://api.example.com/v1' }],
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic' },
        code: {
          type: 'oauth2',
          flows: { authorizationCode: { authorizationUrl: 'https://a.example/auth', tokenUrl: 'https://a.example/token', scopes: ['read'] } },
        },
      },
    });
  });
});
