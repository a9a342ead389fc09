import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import type { RawSnapshot, RawTool } from '../../src/sources/types.js';
import { ConfigError } from '../../src/util/errors.js';
import { SourceError } from '../../src/sources/source-error.js';

const FIX = resolve('test/fixtures/openapi');
const fx = (p: string) => join(FIX, p);

const byName = (s: RawSnapshot, name: string): RawTool => {
  const t = s.tools.find((x) => (x.tool as { name: string }).name === name);
  if (!t) throw new Error(`no tool ${name}`);
  return t;
};
const schemaOf = (t: RawTool) => (t.tool as { inputSchema: Record<string, any> }).inputSchema;

describe('snapshotOpenApi: Swagger 2.0', () => {
  it('derives tools with body and formData bodies, classes, origins and lines (a promoted operation: its policies line)', async () => {
    const s = await snapshotOpenApi(fx('swagger2/integration.json'));
    expect(s.source).toEqual({ id: 'petstore-v2', kind: 'openapi', files: ['test/fixtures/openapi/swagger2/swagger.json'] });
    expect(s.server).toEqual({ name: 'Petstore (Swagger 2.0)', version: '1.0.2', protocolVersion: 'swagger-2.0' });
    expect(s.live).toBe(true);
    expect(s.file).toBe(fx('swagger2/integration.json'));
    expect(s.diagnostics.durationMs).toBeGreaterThanOrEqual(0);
    expect(s.tools.map((t) => [(t.tool as any).name, t.safetyClass, t.location?.line, t.location?.pointer])).toEqual([
      ['findPetsByStatus', 'read', 6, '/include/0'],
      ['getPetById', 'read', 7, '/include/1'],
      ['addPet', 'disabled', 8, '/include/2'],
      ['updatePetWithForm', 'read', 14, '/policies/updatePetWithForm'],
      ['uploadFile', 'disabled', 10, '/include/4'],
      ['deletePet', 'disabled', 11, '/include/5'],
    ]);
    // Where calls go and what they carry: no `schemes`, so the host is scheme-relative; formData
    // parameters and the operation's own `consumes`.
    expect(byName(s, 'updatePetWithForm').origin).toEqual({
      method: 'POST',
      path: '/pet/{petId}',
      operationId: 'updatePetWithForm',
      promoted: true,
      servers: [{ url: '//petstore.example.com/v2' }],
      security: [],
      parameters: [
        { in: 'path', name: 'petId' },
        { in: 'formData', name: 'name' },
        { in: 'formData', name: 'status' },
      ],
      requestBody: ['application/x-www-form-urlencoded'],
      responses: { '200': [] },
    });
    expect(byName(s, 'deletePet').origin).toEqual({
      method: 'DELETE',
      path: '/pet/{petId}',
      operationId: 'deletePet',
      servers: [{ url: '//petstore.example.com/v2' }],
      security: [],
      parameters: [{ in: 'path', name: 'petId' }],
      responses: { '200': [] },
    });
    // The ignored Authorization header is no argument, but it is pinned where it is sent; how
    // `status` is serialized (status=a&status=b, not the default a,b) too.
    expect(byName(s, 'findPetsByStatus').origin?.parameters).toEqual([
      { in: 'query', name: 'status', collectionFormat: 'multi' },
      { in: 'header', name: 'Authorization' },
      { in: 'header', name: 'X-Request-Id' },
    ]);
    expect(byName(s, 'addPet').origin).toMatchObject({ parameters: [{ in: 'body', name: 'pet' }], requestBody: ['application/json'] });

    // in: body → `body`, definitions inlined; x-nullable kept.
    const add = byName(s, 'addPet');
    expect(add.tool).toMatchObject({ title: 'Add a new pet to the store', description: 'Creates a pet record from the JSON body.' });
    expect(schemaOf(add).required).toEqual(['body']);
    expect(schemaOf(add).properties.body.properties.category).toEqual({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } });
    expect(schemaOf(add).properties.body.properties.status['x-nullable']).toBe(true);
    expect(schemaOf(add).additionalProperties).toBe(false);

    // Query array (collectionFormat dropped), header kept, Authorization header skipped.
    expect(schemaOf(byName(s, 'findPetsByStatus'))).toEqual({
      type: 'object',
      properties: {
        status: { type: 'array', items: { type: 'string', enum: ['available', 'pending', 'sold'] } },
        'X-Request-Id': { type: 'string', description: 'Correlation id' },
      },
      required: ['status'],
      additionalProperties: false,
    });
    // Path-level parameter applies; formData → object body; type: file → binary string.
    expect(schemaOf(byName(s, 'updatePetWithForm')).properties).toEqual({
      petId: { type: 'integer', format: 'int64', description: 'ID of the pet' },
      body: { type: 'object', properties: { name: { type: 'string', description: 'New name' }, status: { type: 'string' } }, required: ['name'] },
    });
    expect(schemaOf(byName(s, 'uploadFile')).properties.body.properties.file).toEqual({ type: 'string', format: 'binary' });
    // summary only → description, no title
    expect(byName(s, 'deletePet').tool).toEqual(expect.not.objectContaining({ title: expect.anything() }));
    expect((byName(s, 'deletePet').tool as any).description).toBe('Deletes a pet');
  });
});

describe('snapshotOpenApi: OpenAPI 3.0 (YAML)', () => {
  it('handles $ref parameters and request bodies, nullable, cookies, form and multipart bodies', async () => {
    const s = await snapshotOpenApi(fx('oas30/integration.json'), { idOverride: 'rentals' });
    expect(s.source.id).toBe('rentals');
    expect(s.server).toEqual({ name: 'Rental App', version: '2.4.0', protocolVersion: 'openapi-3.0.3' });
    expect(s.tools.map((t) => [(t.tool as any).name, t.safetyClass, !!t.origin?.promoted])).toEqual([
      ['getOutfits', 'read', false],
      ['getOutfitById', 'read', false],
      ['getOrders', 'read', false],
      ['postOrdersQuote', 'read', true],
      ['deleteOrder', 'disabled', false],
      ['addOrderNote', 'disabled', false],
      ['putOutfitPhoto', 'disabled', false],
    ]);
    const outfits = schemaOf(byName(s, 'getOutfits'));
    expect(outfits.properties).toEqual({
      limit: { type: 'integer', minimum: 1, maximum: 100, description: 'Page size.' },
      size: { type: 'string', enum: ['XS', 'S', 'M', 'L', 'XL'], nullable: true },
    });
    expect(outfits.required).toBeUndefined();
    expect(s.diagnostics.notes).toContain('getOutfits: cookie parameter(s) not exposed as arguments: session');

    const quote = byName(s, 'postOrdersQuote');
    // No `servers`: one server at `/`; the request body's media types, both of them.
    expect(quote.origin).toEqual({
      method: 'POST',
      path: '/orders/quote',
      operationId: 'postOrdersQuote',
      promoted: true,
      servers: [{ url: '/' }],
      security: [],
      parameters: [],
      requestBody: ['application/json', 'application/xml'],
      responses: { '200': [] },
    });
    // The cookie parameter is no argument, but it is pinned where it is sent.
    expect(byName(s, 'getOutfits').origin?.parameters).toEqual([
      { in: 'query', name: 'limit' },
      { in: 'query', name: 'size' },
      { in: 'cookie', name: 'session' },
    ]);
    expect(quote.tool).toMatchObject({ name: 'postOrdersQuote', title: 'Quote an order', description: 'Computes a price for a basket. Stores nothing.' });
    const qs = schemaOf(quote);
    expect(qs.required).toEqual(['body']);
    expect(qs.properties.body.description).toBe('The basket to price.'); // application/json chosen over xml
    expect(qs.properties.body.properties.coupon).toEqual({ type: 'string', nullable: true });

    expect(schemaOf(byName(s, 'addOrderNote'))).toEqual({
      type: 'object',
      properties: { orderId: { type: 'integer' }, body: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
      required: ['orderId'],
      additionalProperties: false,
    });
    const photo = schemaOf(byName(s, 'putOutfitPhoto'));
    expect(photo.required).toEqual(['outfitId', 'body']);
    expect(photo.properties.body.properties.photo).toEqual({ type: 'string', format: 'binary' });
    expect(schemaOf(byName(s, 'getOutfitById')).properties.outfitId).toEqual({ type: 'string', description: "The outfit's id." });
  });
});

describe('snapshotOpenApi: OpenAPI 3.1', () => {
  it('keeps 2020-12 types, merges $ref siblings, picks +json bodies, treats HEAD as read', async () => {
    const s = await snapshotOpenApi(fx('oas31/integration.json'));
    expect(s.server?.protocolVersion).toBe('openapi-3.1.0');
    const list = schemaOf(byName(s, 'listNotes'));
    expect(list.properties.tag).toEqual({ type: ['string', 'null'] });
    // parameter with `content` instead of `schema`
    expect(list.properties.filter).toEqual({ type: 'object', properties: { since: { type: 'string', format: 'date-time' } }, additionalProperties: false });
    const create = schemaOf(byName(s, 'createNote'));
    expect(create.properties.body.properties.tag).toEqual({ type: 'string', description: 'Tag to file the note under', pattern: '^[a-z]+$' });
    expect(create.properties.body.properties.kind).toEqual({ const: 'note' });
    expect(byName(s, 'noteExists')).toMatchObject({ safetyClass: 'read', origin: { method: 'HEAD', path: '/notes/{id}' } });
  });
});

describe('snapshotOpenApi: circular schemas', () => {
  it('keeps recursion finite with $defs', async () => {
    const s = await snapshotOpenApi(fx('circular/integration.json'));
    const tree = schemaOf(byName(s, 'createTree'));
    expect(tree.properties.body).toEqual({ $ref: '#/$defs/Node' });
    expect(tree.$defs.Node.properties.children).toEqual({ type: 'array', items: { $ref: '#/$defs/Node' } });
    // non-recursive refs are inlined
    expect(tree.$defs.Node.properties.meta).toEqual({ type: 'object', properties: { weight: { type: 'number' } } });
    const forest = schemaOf(byName(s, 'plantForest'));
    expect(forest.properties.body.properties.root).toEqual({ $ref: '#/$defs/Node' });
    expect(forest.properties.body.properties.owner).toEqual({ $ref: '#/$defs/Person' });
    expect(forest.$defs.Person.properties.employer.properties.ceo).toEqual({ $ref: '#/$defs/Person' });
    expect(Object.keys(forest.$defs).sort()).toEqual(['Node', 'Person']);
    expect(JSON.stringify(s.tools).length).toBeLessThan(5000);
    expect(byName(s, 'plantForest')).toMatchObject({ safetyClass: 'read', origin: { promoted: true } });
  });
});

describe('snapshotOpenApi: a document split across files', () => {
  it('resolves relative $refs (parameter and recursive schema) through the parser', async () => {
    const s = await snapshotOpenApi(fx('split/integration.json'));
    // Every file read is recorded by its repository path: the document and the file it refers to.
    expect(s.source.files).toEqual(['test/fixtures/openapi/split/components/common.yaml', 'test/fixtures/openapi/split/openapi.yaml']);
    expect(schemaOf(byName(s, 'listItems')).properties).toEqual({ cursor: { type: 'string', description: 'Opaque page cursor.' } });
    const create = schemaOf(byName(s, 'createItem'));
    const item = create.$defs[create.properties.body.$ref.replace('#/$defs/', '')];
    expect(item.properties.price.properties.currency).toEqual({ type: 'string', minLength: 3, maxLength: 3 });
    expect(item.properties.related.items).toEqual(create.properties.body);
  });
});

describe('snapshotOpenApi: a document without operationIds', () => {
  it('accepts METHOD /path entries and names tools from method and path', async () => {
    const s = await snapshotOpenApi(fx('no-ids/integration.json'));
    // No operationId in any origin; the document has no `servers`, `security` or media types.
    const call = (parameters: { in: string; name: string }[], code: string, body?: string[]) => ({
      servers: [{ url: '/' }],
      security: [],
      parameters,
      ...(body ? { requestBody: body } : {}),
      responses: { [code]: [] },
    });
    expect(s.tools.map((t) => [(t.tool as any).name, t.origin, t.safetyClass])).toEqual([
      ['get', { method: 'GET', path: '/', ...call([], '200') }, 'read'],
      ['get_pets', { method: 'GET', path: '/pets', ...call([], '200') }, 'read'],
      ['post_pets', { method: 'POST', path: '/pets', ...call([], '201', ['application/json']) }, 'disabled'],
      ['get_pets_petId', { method: 'GET', path: '/pets/{petId}', ...call([{ in: 'path', name: 'petId' }], '200') }, 'read'], // entry "get /pets/{id}"
      ['get_owners_ownerId', { method: 'GET', path: '/owners/{ownerId}', ...call([{ in: 'path', name: 'ownerId' }], '200') }, 'read'], // exact path wins
    ]);
  });
});

describe('snapshotOpenApi: remote $refs', () => {
  it('refuses a remote $ref without touching the network', async () => {
    const err = await snapshotOpenApi(fx('remote-ref/integration.json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('load-failed');
    expect((err as SourceError).exitCode).toBe(3);
    expect((err as Error).message).toMatch(/remote \$ref "https:\/\/schemas\.example\.invalid\/pet\.json#\/Pet" at .*openapi\.yaml#\/paths\/~1pets.* refused/);
  });

  it('refuses a protocol-relative remote $ref inside a referenced file', async () => {
    const err = await snapshotOpenApi(fx('remote-ref/nested/integration.json')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as Error).message).toMatch(
      /remote \$ref "\/\/schemas\.example\.invalid\/owner\.json" at .*schemas\.yaml#\/Pet\/properties\/owner\/\$ref refused/,
    );
  });
});

describe('snapshotOpenApi: broken documents fail the load (exit 3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-openapi-broken-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const withSpec = (spec: string) => {
    const file = join(dir, `${spec.replace(/\W/g, '_')}.json`);
    writeFileSync(file, JSON.stringify({ id: 'b', type: 'openapi', spec: fx(`broken/${spec}`), include: ['getX'] }, null, 2));
    return file;
  };
  it.each([
    ['missing.json', /OpenAPI document not found: .*missing\.json/],
    ['unparsable.yaml', /cannot parse .*unparsable\.yaml: .*deficient indentation/s],
    ['invalid.json', /not a valid OpenAPI document: .*must have required property 'version'/s],
    ['dangling.yaml', /Missing \$ref pointer "#\/components\/parameters\/Missing"/],
    ['not-openapi.json', /not an OpenAPI document \(no `openapi` or `swagger` field\)/],
  ])('%s', async (spec, message) => {
    const file = withSpec(spec);
    const err = await snapshotOpenApi(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('load-failed');
    expect((err as Error).message).toContain(`${file}:4 (spec): `);
    expect((err as Error).message).toMatch(message);
  });

  it('a dangling $ref still fails with validation off', async () => {
    const err = await snapshotOpenApi(withSpec('dangling.yaml'), { validate: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as Error).message).toMatch(/unresolvable \$ref "#\/components\/parameters\/Missing"/);
  });
});

describe('snapshotOpenApi: integration config errors (exit 2)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-openapi-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const write = (text: string) => {
    const file = join(dir, `integration-${n++}.json`);
    writeFileSync(file, text);
    return file;
  };
  const oas30 = JSON.stringify(fx('oas30/openapi.yaml'));
  const noIds = JSON.stringify(fx('no-ids/openapi.yaml'));
  const fail = async (file: string, opts = {}) => {
    const err = await snapshotOpenApi(file, opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).exitCode).toBe(2);
    return err as ConfigError;
  };

  it('config not found', async () => {
    const e = await fail(join(dir, 'nope.json'));
    expect(e.message).toBe('integration config not found');
    expect(e.location).toEqual({ file: join(dir, 'nope.json') });
    expect(e.fix).toBeTruthy();
  });

  it('invalid JSON: line and column of the error', async () => {
    const file = write('{\n  "type": "openapi",\n  "spec": "x.yaml"\n  "include": []\n}\n');
    const e = await fail(file);
    expect(e.message).toMatch(/not valid JSON: expected ',' or '}'/);
    expect(e.location).toMatchObject({ file, line: 4, column: 3 });
  });

  it('duplicate JSON key', async () => {
    const e = await fail(write('{\n  "type": "openapi",\n  "type": "openapi"\n}'));
    expect(e.message).toMatch(/duplicate key "type"/);
    expect(e.location).toMatchObject({ line: 3, pointer: '/type' });
  });

  it.each([
    ['unknown key', `{"type":"openapi","spec":${oas30},\n"include":[],\n"polices":{}}`, /unknown key "polices"/, 3, '/polices'],
    ['type not openapi', `{"type":"mcp",\n"spec":${oas30},"include":[]}`, /`type` must be "openapi", found "mcp"/, 1, '/type'],
    ['missing spec', `{"type":"openapi",\n"include":[]}`, /has no `spec`/, 1, ''],
    ['spec wrong type', `{"type":"openapi",\n"spec":42,"include":[]}`, /`spec` must be a non-empty string, found a number/, 2, '/spec'],
    ['spec is a URL', `{"type":"openapi",\n"spec":"https://example.com/openapi.json","include":[]}`, /must be a local file path/, 2, '/spec'],
    ['include not an array', `{"type":"openapi","spec":${oas30},\n"include":"getOutfits"}`, /`include` must be an array, found a string/, 2, '/include'],
    [
      'include entry not a string',
      `{"type":"openapi","spec":${oas30},"include":[\n"getOutfits",\n7]}`,
      /entries must be non-empty strings, found a number/,
      3,
      '/include/1',
    ],
    [
      'duplicate include',
      `{"type":"openapi","spec":${oas30},"include":[\n"getOutfits",\n"getOutfits"]}`,
      /duplicate `include` entry "getOutfits" \(also at \/include\/0, line 2\)/,
      3,
      '/include/1',
    ],
    ['id wrong', `{"type":"openapi",\n"id":"Bad Id","spec":${oas30},"include":[]}`, /`id` must be a string matching/, 2, '/id'],
    ['policies not an object', `{"type":"openapi","spec":${oas30},"include":[],\n"policies":["x"]}`, /`policies` must be an object/, 2, '/policies'],
  ])('%s', async (_name, text, message, line, pointer) => {
    const file = write(text);
    const e = await fail(file, { idOverride: 'x' });
    expect(e.message).toMatch(message);
    expect(e.location).toMatchObject({ file, line, pointer });
    expect(e.fix).toBeTruthy();
  });

  it('invalid policy value → invalid-policy', async () => {
    const file = write(`{"type":"openapi","id":"r","spec":${oas30},"include":["postOrdersQuote"],\n"policies":{\n  "postOrdersQuote": "write"}}`);
    const e = await fail(file);
    expect(e.ruleId).toBe('invalid-policy');
    expect(e.location).toMatchObject({ file, line: 3, pointer: '/policies/postOrdersQuote' });
  });

  it('include entry the document lacks → unknown-operation (spec drift fails at load)', async () => {
    const file = write(`{"type":"openapi","id":"r","spec":${oas30},"include":[\n"getOutfits",\n"getoutfitbyid"]}`);
    const e = await fail(file);
    expect(e.ruleId).toBe('unknown-operation');
    expect(e.message).toMatch(/"getoutfitbyid" names no operation of .*did you mean "getOutfitById"/);
    expect(e.location).toMatchObject({ file, line: 3, pointer: '/include/1' });
  });

  it('a misspelt operationId is suggested by edit distance; an unrelated one gets no suggestion', async () => {
    const typo = await fail(write(`{"type":"openapi","id":"r","spec":${oas30},"include":["getOutfts"]}`));
    expect(typo.message).toMatch(/"getOutfts" names no operation of .*\(did you mean "getOutfits"\?\)/);
    const unrelated = await fail(write(`{"type":"openapi","id":"r","spec":${oas30},"include":["launchRocket"]}`));
    expect(unrelated.message).not.toContain('did you mean');
  });

  it('an unknown key in the integration config gets the allowed key it resembles', async () => {
    const e = await fail(write(`{"type":"openapi","id":"r","spec":${oas30},"include":["getOutfits"],"policy":{}}`));
    expect(e.message).toBe('unknown key "policy" in integration config; did you mean "policies"?');
  });

  it('policies entry the document lacks → unknown-operation', async () => {
    const file = write(`{"type":"openapi","id":"r","spec":${oas30},"include":["getOutfits"],\n"policies":{\n"postGone":"read"}}`);
    const e = await fail(file);
    expect(e.ruleId).toBe('unknown-operation');
    expect(e.location).toMatchObject({ line: 3, pointer: '/policies/postGone' });
  });

  it('policy for an operation not in include → policy-not-included', async () => {
    const file = write(`{"type":"openapi","id":"r","spec":${oas30},"include":["getOutfits"],\n"policies":{\n"POST /orders/quote":"read"}}`);
    const e = await fail(file);
    expect(e.ruleId).toBe('policy-not-included');
    expect(e.message).toMatch(/postOrdersQuote \(POST \/orders\/quote\), which is not in `include`/);
    expect(e.location).toMatchObject({ line: 3, pointer: '/policies/POST ~1orders~1quote' });
  });

  it('ambiguous METHOD /path entry', async () => {
    const file = write(`{"type":"openapi","id":"r","spec":${noIds},"include":[\n"GET /owners/{id}"]}`);
    const e = await fail(file);
    expect(e.message).toMatch(/ambiguous: it names GET \/owners\/\{ownerId\} and GET \/owners\/\{name\}/);
    expect(e.location).toMatchObject({ line: 2, pointer: '/include/0' });
  });

  it('two entries naming one operation', async () => {
    const file = write(`{"type":"openapi","id":"r","spec":${oas30},"include":[\n"getOrders",\n"GET /orders"]}`);
    const e = await fail(file);
    expect(e.message).toMatch(/names the same operation as "getOrders"/);
    expect(e.location).toMatchObject({ line: 3, pointer: '/include/1' });
  });

  it('tool-name collision after sanitization', async () => {
    const spec = join(dir, 'collide.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'c', version: '1' },
        paths: {
          '/a': { get: { operationId: 'repos/get', responses: { 200: { description: 'ok' } } } },
          '/b': { get: { operationId: 'repos_get', responses: { 200: { description: 'ok' } } } },
        },
      }),
    );
    const file = write(`{"type":"openapi","id":"r","spec":${JSON.stringify(spec)},"include":[\n"repos/get",\n"repos_get"]}`);
    const e = await fail(file);
    expect(e.message).toMatch(/tool name "repos_get" of repos_get \(GET \/b\) collides with "repos\/get"/);
    expect(e.location).toMatchObject({ line: 3, pointer: '/include/1' });
  });

  it('no id anywhere', async () => {
    const e = await fail(write(`{"type":"openapi","spec":${oas30},"include":[]}`));
    expect(e.message).toMatch(/no `id`/);
  });
});
