// Reference bombs in a pull request's OpenAPI document: `$ref` chains that multiply what the
// parser's validation walks (deref-size.ts). Each is refused before the parser runs, by a located
// error naming the `$ref`; what the parser leaves as a `$ref` (a ref into a cycle) is no bomb.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dereference } from '@readme/openapi-parser';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { dereferencedSize, estimateDereferencedSize, reachingCycles, resolvedByPointerAlone } from '../../src/sources/openapi/deref-size.js';
import { getByRef, getByRefThroughRefs } from '../../src/sources/openapi/refs.js';
import { ConfigError } from '../../src/util/errors.js';
import { SourceError } from '../../src/sources/source-error.js';

const CASE_TIMEOUT = 30_000;
const tmp = mkdtempSync(join(tmpdir(), 'toolgate-ref-bomb-'));
mkdirSync(join(tmp, '.git'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A repository file with `doc` and an integration including its one operation; returns the integration's path. */
function integration(doc: object, include = ['op']): { file: string; spec: string } {
  const dir = join(tmp, `case-${++n}`);
  mkdirSync(dir);
  const spec = join(dir, 'openapi.json');
  writeFileSync(spec, JSON.stringify(doc));
  const file = join(dir, 'integration.json');
  writeFileSync(file, JSON.stringify({ id: `case${n}`, type: 'openapi', spec: './openapi.json', include }, null, 2));
  return { file, spec };
}

/** An OpenAPI 3.0 document whose one GET answers with `schema`, with `schemas` as components. */
function withResponse(schema: object, schemas: Record<string, unknown>, extra: Record<string, unknown> = {}): object {
  return {
    openapi: '3.0.3',
    info: { title: 'bomb', version: '1' },
    paths: { '/p': { get: { operationId: 'op', ...extra, responses: { 200: { description: 'ok', content: { 'application/json': { schema } } } } } } },
    components: { schemas },
  };
}

/** Ten properties, each `{ $ref: ref(j) }`. */
const tenRefs = (ref: (j: number) => string) => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`p${j}`, { $ref: ref(j) }])),
});

/** a0 … a{levels}: each level refers ten times to the one below. */
function chain(levels: number, prefix = '#/components/schemas/a', key = (i: number) => `a${i}`): Record<string, unknown> {
  const schemas: Record<string, unknown> = { [key(0)]: { type: 'string' } };
  for (let i = 1; i <= levels; i++) schemas[key(i)] = tenRefs(() => `${prefix}${i - 1}`);
  return schemas;
}

/** A tree that refers to itself (Stripe's and GitHub's documents are full of them). */
const NODE = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } };

async function refused(file: string): Promise<ConfigError> {
  const err = await snapshotOpenApi(file).then(
    (s) => new Error(`expected a refusal, got ${s.tools.length} tools`),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  expect((err as Error).message).toMatch(/expand to more than 64 MiB once their \$refs are resolved \(a reference bomb: /);
  return err as ConfigError;
}

describe('reference bombs are refused before validation, naming the $ref', () => {
  it('a chain of ten levels next to a recursive schema: the chain is named, the recursion is no bomb', { timeout: CASE_TIMEOUT }, async () => {
    const schema = { allOf: [{ $ref: '#/components/schemas/Node' }, { $ref: '#/components/schemas/a10' }] };
    const { file, spec } = integration(withResponse(schema, { Node: NODE, ...chain(10) }));
    const err = await refused(file);
    const at = '/paths/~1p/get/responses/200/content/application~1json/schema/allOf/1';
    expect(err.message).toContain(`the $ref at #${at}, to #/components/schemas/a10,`);
    expect(err.location).toEqual({ file: spec, pointer: at });
  });

  it(
    'refs through an alias (`#/components/schemas/alias/items` where alias is itself a $ref), as the parser resolves them',
    { timeout: CASE_TIMEOUT },
    async () => {
      const schemas: Record<string, unknown> = { box0: { items: { type: 'string' } } };
      for (let i = 0; i <= 10; i++) schemas[`alias${i}`] = { $ref: `#/components/schemas/box${i}` };
      for (let i = 1; i <= 10; i++) schemas[`box${i}`] = { items: tenRefs(() => `#/components/schemas/alias${i - 1}/items`) };
      const { file } = integration(withResponse({ $ref: '#/components/schemas/alias10/items' }, schemas));
      expect((await refused(file)).message).toContain('to #/components/schemas/alias10/items,');
    },
  );

  it(
    'keys holding an unescaped `/` (`#/components/schemas/x/a9` for the key `x/a9`): refused as a $ref that points nowhere',
    { timeout: CASE_TIMEOUT },
    async () => {
      const { file } = integration(
        withResponse(
          { $ref: '#/components/schemas/x/a10' },
          chain(10, '#/components/schemas/x/a', (i) => `x/a${i}`),
        ),
      );
      const err = await snapshotOpenApi(file).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SourceError);
      expect((err as Error).message).toMatch(/is not a valid OpenAPI document: .*\n+Missing \$ref pointer "#\/components\/schemas\/x\/a10"/s);
    },
  );

  it('a $ref in an extension of the operation (the parser resolves $refs anywhere)', { timeout: CASE_TIMEOUT }, async () => {
    const { file } = integration(withResponse({ type: 'string' }, chain(10), { 'x-bomb': { $ref: '#/components/schemas/a10' } }));
    expect((await refused(file)).message).toContain('the $ref at #/paths/~1p/get/x-bomb, to #/components/schemas/a10,');
  });
});

describe('what the parser leaves as $refs is no bomb', () => {
  it(
    'a chain of ten levels ten wide whose bottom refers to a recursive schema: every ref into it stays a ref; it loads',
    { timeout: CASE_TIMEOUT },
    async () => {
      const schemas: Record<string, unknown> = { Node: NODE, ...chain(10) };
      schemas.a0 = { $ref: '#/components/schemas/Node' };
      const doc = withResponse({ $ref: '#/components/schemas/a10' }, schemas);
      const s = await snapshotOpenApi(integration(doc).file);
      expect(s.tools.map((t) => [(t.tool as { name: string }).name, t.safetyClass])).toEqual([['op', 'read']]);
      expect(estimateDereferencedSize(doc, 64 * 1024 * 1024)).toEqual({ size: expect.any(Number) });
    },
  );

  it(
    'an OpenAPI 3.1 document with `$id`s is dereferenced first and measured as built; it loads, and an invalid one still fails',
    { timeout: CASE_TIMEOUT },
    async () => {
      const doc = (valid: boolean) => ({
        openapi: '3.1.0',
        info: { title: 'ids', version: '1' },
        paths: {
          '/p': {
            get: {
              operationId: 'op',
              responses: {
                200: { ...(valid ? { description: 'ok' } : {}), content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
              },
            },
          },
        },
        components: {
          schemas: {
            Node: NODE,
            Pet: { $id: 'https://example.invalid/pet', type: 'object', properties: { tree: { $ref: '#/components/schemas/Node' }, owner: { type: 'string' } } },
          },
        },
      });
      expect(resolvedByPointerAlone(doc(true))).toBe(false);
      const s = await snapshotOpenApi(integration(doc(true)).file);
      expect(s.tools).toHaveLength(1);
      await expect(snapshotOpenApi(integration(doc(false)).file)).rejects.toThrow(/is not a valid OpenAPI document/);
    },
  );
});

describe('the measures', () => {
  it('reachingCycles: what leads into a cycle, through containment and refs', () => {
    const leaf = { type: 'string' };
    const a: Record<string, unknown> = { leaf };
    const b: Record<string, unknown> = { a };
    a.back = { $ref: 'b' };
    const c = { b, leaf };
    const root = { c, leaf, other: { leaf } };
    const targets = new Map<object, object>([[a.back as object, b]]);
    const cyclic = reachingCycles(root, (node) => targets.get(node));
    expect([a, b, a.back, c, root].every((o) => cyclic.has(o as object))).toBe(true);
    expect([leaf, root.other].some((o) => cyclic.has(o))).toBe(false);
  });

  it('getByRefThroughRefs: follows a $ref on the way unless the key is its sibling; bounded', () => {
    const doc = { s: { A: { $ref: '#/s/B', note: 'own' }, B: { note: 'b', properties: { x: { type: 'string' } } }, L: { $ref: '#/s/L' } } };
    expect(getByRef(doc, '#/s/A/properties/x')).toBeUndefined();
    expect(getByRefThroughRefs(doc, '#/s/A/properties/x')).toEqual({ type: 'string' });
    expect(getByRefThroughRefs(doc, '#/s/A/note')).toBe('own');
    expect(getByRefThroughRefs(doc, '#/s/L/x')).toBeUndefined();
  });

  it('dereferencedSize: what the parser built, named by the $ref it replaced', async () => {
    const doc = withResponse({ $ref: '#/components/schemas/a4' }, chain(4));
    const inlinedBy = new Map<object, string>();
    const onDereference = (ref: string, value: unknown) => void (value !== null && typeof value === 'object' && inlinedBy.set(value, ref));
    const built = (await dereference(doc as never, { dereference: { circular: 'ignore', onDereference } })) as object;
    const size = dereferencedSize(built, 1_000_000, inlinedBy);
    expect(size).toEqual({ size: expect.any(Number) });
    // The estimate counts each $ref's own text too: an upper bound.
    const estimate = estimateDereferencedSize(withResponse({ $ref: '#/components/schemas/a4' }, chain(4)), 10_000_000);
    expect((estimate as { size: number }).size).toBeGreaterThanOrEqual((size as { size: number }).size);
    expect((estimate as { size: number }).size).toBeLessThan(4 * (size as { size: number }).size);
    expect(dereferencedSize(built, 10_000, inlinedBy)).toEqual({
      tooLarge: { pointer: '/paths/~1p/get/responses/200/content/application~1json/schema', ref: '#/components/schemas/a4' },
    });
  });
});
