// Validation covers the included operations and everything they reference, not the whole document
// (src/sources/openapi/prune.ts). Fixtures: test/fixtures/openapi/pruned/.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, validate } from '@readme/openapi-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { parserOptions } from '../../src/sources/openapi/document.js';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { indexOperations } from '../../src/sources/openapi/operations.js';
import { pruneForValidation } from '../../src/sources/openapi/prune.js';
import { cloneJson } from '../../src/util/json.js';
import { ConfigError } from '../../src/util/errors.js';
import { SourceError } from '../../src/sources/source-error.js';

const FIX = resolve('test/fixtures/openapi/pruned');
const OAS30 = join(FIX, 'openapi.yaml');
const OAS31 = join(FIX, 'oas31.json');
const SWAGGER = join(FIX, 'swagger.json');

const dir = mkdtempSync(join(tmpdir(), 'toolgate-openapi-pruned-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const integration = (spec: string, include: string[]): string => {
  const file = join(dir, `integration-${n++}.json`);
  writeFileSync(file, JSON.stringify({ id: 'pruned', type: 'openapi', spec, include }, null, 2));
  return file;
};
const names = async (spec: string, include: string[]) =>
  (await snapshotOpenApi(integration(spec, include))).tools.map((t) => (t.tool as { name: string }).name);
const failure = async (spec: string, include: string[]): Promise<SourceError> => {
  const file = integration(spec, include);
  const err = await snapshotOpenApi(file).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(SourceError);
  expect((err as SourceError).reason).toBe('load-failed');
  expect((err as SourceError).exitCode).toBe(3);
  expect((err as Error).message).toContain(`${file}:4 (spec): `);
  return err as SourceError;
};
/** The parser on the whole document, as toolgate validated it before pruning. */
const wholeIsValid = async (spec: string) => (await validate(spec, parserOptions(false))).valid;

describe.each([
  {
    version: 'OpenAPI 3.0 (YAML)',
    spec: OAS30,
    valid: ['listWidgets'],
    sibling: 'replaceWidgets', // invalid, same path item as listWidgets
    invalidOperation: ['getWidget', /not a valid OpenAPI document: OpenAPI schema validation failed\..*"required": "yes".*must be boolean/s],
    invalidChained: ['getReport', /not a valid OpenAPI document: .*must be equal to one of the allowed values.*"type": "money"/s],
  },
  {
    version: 'Swagger 2.0',
    spec: SWAGGER,
    valid: ['listThings'],
    sibling: 'replaceThings',
    invalidOperation: ['getThing', /not a valid Swagger document: Swagger schema validation failed\..*must have required property 'description'/s],
    invalidChained: ['getAudit', /not a valid Swagger document: .*must be equal to one of the allowed values.*"type": "timestamp"/s],
  },
  {
    version: 'OpenAPI 3.1',
    spec: OAS31,
    valid: ['listNotes'],
    sibling: 'createNote',
    invalidOperation: [
      'getNote',
      /not a valid OpenAPI document: OpenAPI schema validation failed\..*must have required property 'description'.*description is missing here/s,
    ],
    invalidChained: ['getArchive', /not a valid OpenAPI document: .*must have required property 'description'.*"ArchivePage"/s],
  },
] as const)('pruned validation: $version', ({ spec, valid, sibling, invalidOperation, invalidChained }) => {
  it('the whole document is invalid (so the passes below are the pruning)', async () => {
    expect(await wholeIsValid(spec)).toBe(false);
  });

  it('an invalid operation, component or sibling method no integration includes does not fail', async () => {
    expect(await names(spec, [...valid])).toEqual([...valid]);
  });

  it('an invalid included operation fails with load-failed naming the problem', async () => {
    const [op, message] = invalidOperation;
    expect((await failure(spec, [...valid, op])).message).toMatch(message);
  });

  it('an invalid component reached through a chain of refs (with a cycle) fails', async () => {
    const [op, message] = invalidChained;
    expect((await failure(spec, [op])).message).toMatch(message);
  });

  it('the invalid sibling method fails once included', async () => {
    await failure(spec, [...valid, sibling]);
  });

  it('validate: false still skips validation', async () => {
    const s = await snapshotOpenApi(integration(spec, [invalidOperation[0]]), { validate: false });
    expect(s.tools).toHaveLength(1);
  });
});

describe('pruned validation: edges', () => {
  it('a 3.1 integration that keeps no path, webhook or component validates the whole document', async () => {
    // the parser requires one entry in a 3.1 document; the invalid webhook then fails the check
    expect((await failure(OAS31, [])).message).toMatch(/"operationId": "createNote".*"in": "nowhere"/s);
  });

  it('config errors come before validation (what is validated depends on include)', async () => {
    const err = await snapshotOpenApi(integration(OAS30, ['getWidget', 'getWidgetz'])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).ruleId).toBe('unknown-operation');
  });

  it('validation does not dereference the document the tools are derived from', async () => {
    const s = await snapshotOpenApi(integration(OAS30, ['listWidgets']));
    const schema = (s.tools[0]!.tool as { inputSchema: Record<string, unknown> }).inputSchema;
    expect(schema.properties).toEqual({ tenant: { type: 'string' } });
    expect(s.diagnostics.notes).toBeUndefined();
  });
});

describe('pruneForValidation', () => {
  const load = async (spec: string) => (await parse(spec, { resolve: { external: false } })) as unknown as Record<string, any>;
  const ops = (doc: Record<string, unknown>, ids: string[]) => indexOperations(doc).all.filter((o) => ids.includes(o.operationId!));

  it('3.0: included methods with their path items, the components they reach, no unused x-*', async () => {
    const doc = await load(OAS30);
    doc['x-unused'] = { $ref: '#/components/schemas/Unused' };
    const before = JSON.stringify(doc);
    const { doc: pruned, whole } = pruneForValidation(doc, ops(doc, ['listWidgets', 'getReport']));
    expect(whole).toBe(false);
    expect(JSON.stringify(doc)).toBe(before); // input untouched
    expect(Object.keys(pruned)).toEqual(['openapi', 'info', 'security', 'paths', 'components']);
    expect(Object.keys(pruned.paths as object)).toEqual(['/widgets', '/reports']);
    expect(Object.keys((pruned.paths as any)['/widgets'])).toEqual(['parameters', 'get']); // not `put`
    const c = pruned.components as Record<string, object>;
    expect(Object.keys(c)).toEqual(['securitySchemes', 'parameters', 'schemas']);
    expect(Object.keys(c.securitySchemes!)).toEqual(['apiKey']); // named by the top-level `security`
    expect(Object.keys(c.parameters!)).toEqual(['Tenant']);
    expect(Object.keys(c.schemas!)).toEqual(['Widget', 'Part', 'Report', 'Section', 'Entry']);
    // kept subtrees are shared, not copied
    expect((pruned.components as any).schemas.Widget).toBe(doc.components.schemas.Widget);
  });

  it('2.0: definitions, parameters, responses and security definitions by use', async () => {
    const doc = await load(SWAGGER);
    const { doc: pruned } = pruneForValidation(doc, ops(doc, ['listThings', 'getAudit']));
    expect(Object.keys(pruned)).toEqual(['swagger', 'info', 'basePath', 'securityDefinitions', 'paths', 'parameters', 'responses', 'definitions']);
    expect(Object.keys(pruned.securityDefinitions as object)).toEqual(['key']);
    expect(Object.keys(pruned.parameters as object)).toEqual(['Limit']);
    expect(Object.keys(pruned.responses as object)).toEqual(['AuditLog']);
    expect(Object.keys(pruned.definitions as object)).toEqual(['Thing', 'Owner', 'Log', 'Line']);
  });

  it('3.1: response ref chains; webhooks only when referenced', async () => {
    const doc = await load(OAS31);
    const { doc: pruned } = pruneForValidation(doc, ops(doc, ['getArchive']));
    expect(pruned.webhooks).toEqual({});
    expect(Object.keys((pruned.components as any).responses)).toEqual(['Archive', 'ArchivePage']);
    expect(Object.keys((pruned.components as any).schemas)).toEqual(['Note', 'Folder']);
  });

  const tiny = (extra: Record<string, unknown>) => ({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {
      '/a': {
        get: { operationId: 'a', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } },
      },
      '/b': {
        parameters: [{ name: 'x', in: 'query', schema: { type: 'string' } }],
        get: { operationId: 'b', responses: { 200: { description: 'ok' } } },
        post: { operationId: 'c', responses: { 200: { description: 'ok' } } },
      },
    },
    components: { schemas: { A: { type: 'object' }, B: { type: 'string' }, Unused: {} }, ...extra },
  });

  it('refs into paths keep the operation pointed into; mappings keep their schemas', () => {
    const doc = tiny({});
    (doc.components.schemas.A as Record<string, unknown>).properties = {
      p: { $ref: '#/paths/~1b/post/responses/200' },
      q: { $ref: '#/paths/~1b/parameters/0/schema' },
      r: { oneOf: [{ $ref: '#/components/schemas/B' }], discriminator: { propertyName: 'k', mapping: { b: 'B', u: '#/components/schemas/Unused' } } },
    };
    const { doc: pruned } = pruneForValidation(doc, ops(doc, ['a']));
    expect(Object.keys((pruned.paths as any)['/b'])).toEqual(['parameters', 'post']);
    expect(Object.keys((pruned.components as any).schemas)).toEqual(['A', 'B', 'Unused']);
  });

  it.each([
    ['a ref to the root', { $ref: '#' }],
    ['a plain-name fragment', { $ref: '#thing' }],
    ['a $id', { $id: 'https://example.invalid/a', type: 'object' }],
    ['an $anchor', { $anchor: 'thing' }],
  ])('falls back to the whole document on %s', (_what, schema) => {
    const doc = tiny({});
    doc.components.schemas.A = schema as never;
    const r = pruneForValidation(doc, ops(doc, ['a']));
    expect(r.whole).toBe(true);
    expect(r.doc).toBe(doc);
  });

  it('cycles end; dangling refs are left for the parser to report', () => {
    const doc = tiny({});
    doc.components.schemas.A = {
      type: 'object',
      properties: { self: { $ref: '#/components/schemas/A' }, gone: { $ref: '#/components/schemas/Gone' } },
    } as never;
    const { doc: pruned } = pruneForValidation(doc, ops(doc, ['a']));
    expect(Object.keys((pruned.components as any).schemas)).toEqual(['A']);
  });

  it('cloneJson copies deeply and keeps __proto__ as data', () => {
    const shared = { a: [1, { b: 2 }] };
    const input = JSON.parse('{"__proto__": {"polluted": true}, "x": null}') as Record<string, unknown>;
    input.one = shared;
    input.two = shared;
    const copy = cloneJson(input);
    expect(copy).toEqual(input);
    expect(copy.one).not.toBe(shared);
    expect(copy.one).not.toBe(copy.two);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.hasOwn(copy, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
