import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { resolve } from 'node:path';
import { bundle } from '@readme/openapi-parser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { integrationLines } from '../../src/sources/openapi/config.js';
import { parserOptions } from '../../src/sources/openapi/document.js';
import { snapshotOpenApi } from '../../src/sources/openapi/index.js';
import { toolNameFromMethodPath, toolNameFromOperationId } from '../../src/sources/openapi/names.js';
import { INLINE_NODE_BUDGET, SchemaBuilder, withSchemaBuilder } from '../../src/sources/openapi/schema.js';
import { ConfigError } from '../../src/util/errors.js';
import { SourceError } from '../../src/sources/source-error.js';

describe('tool names', () => {
  it('sanitizes operationIds character by character', () => {
    expect(toolNameFromOperationId('repos/get')).toBe('repos_get');
    expect(toolNameFromOperationId('issues/list-for-repo')).toBe('issues_list-for-repo');
    expect(toolNameFromOperationId('get pet by id')).toBe('get_pet_by_id');
    expect(toolNameFromOperationId('café.ok')).toBe('caf_.ok');
    expect(toolNameFromOperationId('getPet')).toBe('getPet');
  });

  it('cuts long names and appends a hash of the full operationId', () => {
    const long = 'actions/list-selected-repositories-enabled-github-actions-organization';
    const name = toolNameFromOperationId(long);
    expect(name).toHaveLength(64);
    expect(name).toMatch(/^actions_list-selected-repositories-enabled-github-actio_[0-9a-f]{8}$/);
    expect(name).toMatch(/^[A-Za-z0-9_.-]{1,64}$/); // a valid tool name (1..64 of `[A-Za-z0-9_.-]`)
    // same prefix, different tail → different names
    expect(toolNameFromOperationId(`${long}-x`)).not.toBe(name);
    expect(toolNameFromOperationId('a'.repeat(64))).toBe('a'.repeat(64));
    expect(toolNameFromOperationId('a'.repeat(65))).toHaveLength(64);
  });

  it('derives names from method and path', () => {
    expect(toolNameFromMethodPath('GET', '/')).toBe('get');
    expect(toolNameFromMethodPath('GET', '/pets/{petId}')).toBe('get_pets_petId');
    expect(toolNameFromMethodPath('delete', '/a//b/{c}.json')).toBe('delete_a_b_c.json');
    expect(toolNameFromMethodPath('POST', `/${'x'.repeat(80)}`)).toMatch(/^post_x{50}_[0-9a-f]{8}$/);
  });
});

describe('integrationLines', () => {
  const text =
    '{\n  "id": "gh",\n  "include": [\n    "repos/get",\n    "markdown/render"\n  ],\n  "policies": {\n    "markdown/render": "read",\n    "a~b": "read"\n  }\n}\n';

  it('maps pointers (RFC 6901 escaped) to lines', () => {
    const lines = integrationLines(text);
    expect(lines.get('')).toBe(1);
    expect(lines.get('/id')).toBe(2);
    expect(lines.get('/include')).toBe(3);
    expect(lines.get('/include/1')).toBe(5);
    expect(lines.get('/policies/markdown~1render')).toBe(8);
    expect(lines.get('/policies/a~0b')).toBe(9);
  });

  it('integrationLines throws a ConfigError on invalid JSON', () => {
    expect(() => integrationLines('{', 'x.json')).toThrow(ConfigError);
  });
});

describe('SchemaBuilder', () => {
  const doc = {
    components: {
      schemas: {
        Leaf: { type: 'string', example: { $ref: 'not a ref: example data' } },
        Pair: {
          type: 'object',
          properties: { a: { $ref: '#/components/schemas/Leaf' }, b: { $ref: '#/components/schemas/Leaf' }, default: { type: 'integer' } },
        },
        Loop: { type: 'object', properties: { next: { $ref: '#/components/schemas/Loop' } } },
      },
    },
  };

  it('inlines shared refs, keeps data keywords as data and recursion in $defs', () => {
    const b = new SchemaBuilder(doc, false);
    expect(b.schema({ $ref: '#/components/schemas/Pair' })).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string', example: { $ref: 'not a ref: example data' } },
        b: { type: 'string', example: { $ref: 'not a ref: example data' } },
        default: { type: 'integer' },
      },
    });
    expect(b.defs()).toBeUndefined();
    expect(b.schema({ $ref: '#/components/schemas/Loop' })).toEqual({ $ref: '#/$defs/Loop' });
    expect(b.defs()).toEqual({ Loop: { type: 'object', properties: { next: { $ref: '#/$defs/Loop' } } } });
  });

  it('ignores $ref siblings before 3.1 and merges them in 3.1', () => {
    const ref = { $ref: '#/components/schemas/Leaf', description: 'local' };
    expect(new SchemaBuilder(doc, false).schema(ref)).not.toHaveProperty('description');
    expect(new SchemaBuilder(doc, true).schema(ref)).toMatchObject({ type: 'string', description: 'local' });
  });

  it('throws load-failed on a dangling ref', () => {
    expect(() => new SchemaBuilder(doc, false).schema({ $ref: '#/components/schemas/Nope' })).toThrow(SourceError);
  });

  it('falls back to $defs for every ref when inlining would explode', () => {
    // Each level references the previous one twice: inlining doubles per level.
    const schemas: Record<string, unknown> = { L0: { type: 'string' } };
    for (let i = 1; i <= 20; i++) {
      schemas[`L${i}`] = { type: 'object', properties: { x: { $ref: `#/components/schemas/L${i - 1}` }, y: { $ref: `#/components/schemas/L${i - 1}` } } };
    }
    const big = { components: { schemas } };
    const { root, defs } = withSchemaBuilder(big, false, (b) => ({ root: b.schema({ $ref: '#/components/schemas/L20' }), defs: b.defs() }));
    expect(root).toEqual({ $ref: '#/$defs/L20' });
    expect(Object.keys(defs!)).toHaveLength(21);
    expect(defs!.L5).toEqual({ type: 'object', properties: { x: { $ref: '#/$defs/L4' }, y: { $ref: '#/$defs/L4' } } });
    expect(JSON.stringify(defs).length).toBeLessThan(INLINE_NODE_BUDGET);
  });
});

describe('remote $ref guard: no network', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    syncBuiltinESMExports();
  });

  // The parser looks hosts up (node:dns/promises) before fetching: watching lookup and fetch
  // shows whether a network access was attempted. The lookup is made to fail (offline).
  const watchNetwork = () => {
    const lookup = vi.spyOn(dns.promises, 'lookup').mockRejectedValue(new Error('offline (test)'));
    syncBuiltinESMExports();
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('offline (test)'));
    return { lookup, fetchSpy };
  };

  it('snapshotOpenApi refuses before any lookup', async () => {
    const { lookup, fetchSpy } = watchNetwork();
    await expect(snapshotOpenApi(resolve('test/fixtures/openapi/remote-ref/integration.json'))).rejects.toThrow(/refused/);
    expect(lookup).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it("second guard: the parser's HTTP resolver cannot read with toolgate's options", async () => {
    const { lookup, fetchSpy } = watchNetwork();
    await expect(bundle(resolve('test/fixtures/openapi/remote-ref/openapi.yaml'), parserOptions(false))).rejects.toThrow(
      /Unable to resolve \$ref pointer "https:\/\/schemas\.example\.invalid\/pet\.json"/,
    );
    expect(lookup).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('allowRemoteRefs lets the parser try the network (here: offline → load-failed)', async () => {
    const { lookup } = watchNetwork();
    const err = await snapshotOpenApi(resolve('test/fixtures/openapi/remote-ref/integration.json'), { allowRemoteRefs: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).reason).toBe('load-failed');
    expect(lookup).toHaveBeenCalled();
  });
});
