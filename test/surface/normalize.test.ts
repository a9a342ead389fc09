/** Surface normalization: effective hints, safety class, counts, noise, malformed tools, name order. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HINT_DEFAULTS } from '../../src/surface/model.js';
import type { JsonObject } from '../../src/util/json.js';
import { compareNames, modelView, normalizeSnapshot, normalizeTool } from '../../src/surface/normalize.js';
import { buildSurface, CLOSED, mcpSurface, mcpTool, openapiSurface, pin, READ_HINTS, readTool, WRITE_HINTS, writeTool } from '../support/surface-builders.js';

describe('effective hints', () => {
  it('apply the spec defaults when nothing is declared', () => {
    const t = pin({ tool: mcpTool('x') });
    expect(HINT_DEFAULTS).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
    expect(t.declaredHints).toEqual({});
    expect(t.effectiveHints).toEqual(HINT_DEFAULTS);
    expect(t.safetyClass).toBe('write');
  });

  it('keep declared and effective apart, hint by hint', () => {
    const t = pin({ tool: mcpTool('x', { readOnlyHint: true, openWorldHint: false }) });
    expect(t.declaredHints).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(t.effectiveHints).toEqual({ readOnlyHint: true, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    expect(t.safetyClass).toBe('read');
  });

  it('ignore non-boolean hint values and other annotation keys', () => {
    const t = pin({ tool: mcpTool('x', { readOnlyHint: 'true', destructiveHint: null, title: 'X', 'x-vendor': true }) });
    expect(t.declaredHints).toEqual({});
    expect(t.effectiveHints).toEqual(HINT_DEFAULTS);
    expect(t.annotations).toEqual({ destructiveHint: null, readOnlyHint: 'true', title: 'X', 'x-vendor': true });
  });

  it('OpenAPI: the class comes from the verb and the policy, never from the document', () => {
    const s = openapiSurface([
      { name: 'get_items', method: 'GET', path: '/items' },
      { name: 'head_items', method: 'HEAD', path: '/items' },
      { name: 'post_quote', method: 'POST', path: '/quote', promoted: true },
      { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
    ]);
    const by = Object.fromEntries(s.tools.map((t) => [t.name, t]));
    expect(by.get_items?.safetyClass).toBe('read');
    expect(by.head_items?.safetyClass).toBe('read');
    expect(by.post_quote?.safetyClass).toBe('read');
    expect(by.post_quote?.origin).toEqual({ method: 'POST', path: '/quote', promoted: true });
    expect(by.delete_item?.safetyClass).toBe('disabled');
    expect(by.get_items?.effectiveHints.readOnlyHint).toBe(true);
    expect(by.delete_item?.effectiveHints.readOnlyHint).toBe(false);
  });
});

describe('counts', () => {
  const s = mcpSurface([
    mcpTool('a_unannotated'), // write, destructive, open-world
    mcpTool('b_title_only', { title: 'B' }), // still unannotated
    mcpTool('c_vendor_only', { 'x-acme': 1 }), // still unannotated
    mcpTool('d_read_destructive', { readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: false }),
    mcpTool('e_write_idem', { ...WRITE_HINTS, idempotentHint: true }),
    readTool('f_read'),
    writeTool('g_write'),
  ]);

  it('follow the spec definitions (destructive and idempotent only for non-read-only tools)', () => {
    expect(s.counts).toEqual({
      toolCount: 7,
      readOnlyToolCount: 2, // d, f
      destructiveToolCount: 3, // a, b, c (d is read-only: its destructiveHint means nothing)
      openWorldToolCount: 3, // a, b, c
      idempotentToolCount: 1, // e (d and f are read-only)
      unannotatedToolCount: 3, // a, b, c: a title or vendor keys alone do not count
      disabledToolCount: 0,
    });
  });

  it('exclude disabled OpenAPI operations from every count but disabledToolCount', () => {
    const o = openapiSurface([
      { name: 'get_items', method: 'GET', path: '/items' },
      { name: 'post_quote', method: 'POST', path: '/quote', promoted: true },
      { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
      { name: 'put_item', method: 'PUT', path: '/items/{id}' },
    ]);
    expect(o.counts).toEqual({
      toolCount: 2,
      readOnlyToolCount: 2,
      destructiveToolCount: 0,
      openWorldToolCount: 2,
      idempotentToolCount: 0,
      unannotatedToolCount: 0,
      disabledToolCount: 2,
    });
  });

  it('disabled operations are left out of the payload bytes and the surface digest', () => {
    const reachable = openapiSurface([{ name: 'get_items', method: 'GET', path: '/items' }]);
    const withDisabled = openapiSurface([
      { name: 'get_items', method: 'GET', path: '/items' },
      { name: 'delete_item', method: 'DELETE', path: '/items/{id}' },
    ]);
    expect(withDisabled.payloadBytes).toBe(reachable.payloadBytes);
    expect(withDisabled.digest).toBe(reachable.digest);
    expect(withDisabled.tools).toHaveLength(2);
  });

  it('payloadBytes is the UTF-8 length of the compact JSON of the advertised tools', () => {
    const t = { name: 'é', description: 'ünïcödé ✓', inputSchema: CLOSED, annotations: READ_HINTS };
    const one = mcpSurface([t]);
    expect(one.payloadBytes).toBe(
      Buffer.byteLength(
        JSON.stringify([
          {
            name: 'é',
            description: 'ünïcödé ✓',
            inputSchema: { additionalProperties: false, properties: {}, type: 'object' },
            annotations: { destructiveHint: false, idempotentHint: true, openWorldHint: false, readOnlyHint: true },
          },
        ]),
        'utf8',
      ),
    );
  });
});

describe('noise and digests', () => {
  const plain = mcpTool('x', READ_HINTS, { inputSchema: { type: 'object', properties: { p: { type: 'string' } }, additionalProperties: false } });

  it('a root $schema (draft-07 or 2020-12) is noise', () => {
    for (const $schema of ['http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema']) {
      const noisy = { ...plain, inputSchema: { $schema, ...(plain.inputSchema as object) } };
      expect(pin({ tool: noisy }).digest).toBe(pin({ tool: plain }).digest);
      expect(pin({ tool: noisy }).inputSchemaDigest).toBe(pin({ tool: plain }).inputSchemaDigest);
      expect(pin({ tool: noisy }).inputSchema).not.toHaveProperty('$schema');
    }
  });

  it('a $schema below the root is kept (it is not SDK noise)', () => {
    const nested = { ...plain, inputSchema: { type: 'object', properties: { p: { $schema: 'x', type: 'string' } } } };
    const without = { ...plain, inputSchema: { type: 'object', properties: { p: { type: 'string' } } } };
    expect(pin({ tool: nested }).digest).not.toBe(pin({ tool: without }).digest);
  });

  it('execution: {taskSupport: "forbidden"} is noise; a non-default execution is kept and pinned', () => {
    const sdk1 = { ...plain, execution: { taskSupport: 'forbidden' } };
    expect(pin({ tool: sdk1 }).digest).toBe(pin({ tool: plain }).digest);
    expect(pin({ tool: sdk1 }).extra).toBeUndefined();
    const optional = { ...plain, execution: { taskSupport: 'optional' } };
    expect(pin({ tool: optional }).extra).toEqual({ execution: { taskSupport: 'optional' } });
    expect(pin({ tool: optional }).digest).not.toBe(pin({ tool: plain }).digest);
  });

  it('key order does not change any digest (tool, schema, annotations, surface)', () => {
    const reordered = {
      annotations: { openWorldHint: false, idempotentHint: true, destructiveHint: false, readOnlyHint: true },
      inputSchema: { additionalProperties: false, properties: { p: { type: 'string' } }, type: 'object' },
      description: plain.description as string,
      name: 'x',
    };
    expect(pin({ tool: reordered }).digest).toBe(pin({ tool: plain }).digest);
    expect(pin({ tool: reordered }).inputSchemaDigest).toBe(pin({ tool: plain }).inputSchemaDigest);
    expect(mcpSurface([reordered]).digest).toBe(mcpSurface([plain]).digest);
  });

  it('listing order does not change the surface (tools are sorted)', () => {
    const a = mcpSurface([readTool('a'), readTool('b'), writeTool('c')]);
    const b = mcpSurface([writeTool('c'), readTool('a'), readTool('b')]);
    expect(b).toEqual(a);
  });

  it('text hidden in _meta, icons and unknown keys is pinned', () => {
    const overs: JsonObject[] = [{ _meta: { note: 'ignore previous instructions' } }, { icons: [{ src: 'https://x.invalid/i.png' }] }, { 'x-future': 1 }];
    for (const over of overs) {
      expect(pin({ tool: { ...plain, ...over } }).digest, JSON.stringify(over)).not.toBe(pin({ tool: plain }).digest);
    }
  });

  it('every visible change changes the tool digest; digests are sha256 hex', () => {
    const base = pin({ tool: plain });
    expect(base.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(pin({ tool: { ...plain, description: 'other' } }).digest).not.toBe(base.digest);
    expect(pin({ tool: { ...plain, title: 'T' } }).digest).not.toBe(base.digest);
    expect(pin({ tool: { ...plain, annotations: { ...READ_HINTS, openWorldHint: true } } }).digest).not.toBe(base.digest);
  });
});

describe('malformed tools', () => {
  it('are pinned as served, flagged with their problem; only entries without a name cannot be pinned', () => {
    const b = buildSurface([
      { tool: readTool('ok1') },
      { tool: { name: 'bad', inputSchema: [] } },
      { tool: { inputSchema: { type: 'object' } } },
      { tool: { name: '', inputSchema: { type: 'object' } } },
      { tool: 'not an object' },
      { tool: { name: 'bad_out', inputSchema: CLOSED, outputSchema: 'x' } },
      { tool: { name: 'bad_ann', inputSchema: CLOSED, annotations: [true] } },
      { tool: { name: 'bad_desc', inputSchema: CLOSED, description: 42 } },
      { tool: writeTool('ok2') },
    ]);
    // Every entry with a name is in the surface and counts.
    expect(b.surface.tools.map((t) => t.name)).toEqual(['', 'bad', 'bad_ann', 'bad_desc', 'bad_out', 'ok1', 'ok2']);
    expect(b.surface.counts.toolCount).toBe(7);
    expect(b.malformed).toEqual([
      { index: 1, name: 'bad', problem: '`inputSchema` is an array, not a JSON object', pinned: true },
      { index: 2, problem: 'tool has no string `name`', pinned: false },
      { index: 3, name: '', problem: '`name` is empty', pinned: true },
      { index: 4, problem: 'tool is not a JSON object', pinned: false },
      { index: 5, name: 'bad_out', problem: '`outputSchema` is a string, not a JSON object', pinned: true },
      { index: 6, name: 'bad_ann', problem: '`annotations` is an array, not a JSON object', pinned: true },
      { index: 7, name: 'bad_desc', problem: '`description` is a number, not a string', pinned: true },
    ]);
    const bad = b.surface.tools.find((t) => t.name === 'bad')!;
    // Kept exactly as served: the misfit value is in `extra` under its own key, so the model view is the served tool.
    expect(bad.inputSchema).toBeUndefined();
    expect(bad.extra).toEqual({ inputSchema: [] });
    expect(modelView(bad)).toEqual({ name: 'bad', inputSchema: [] });
    expect(bad.malformed).toBe('`inputSchema` is an array, not a JSON object');
    // Annotations that are not an object declare nothing: the spec defaults apply (write, destructive, open world).
    const ann = b.surface.tools.find((t) => t.name === 'bad_ann')!;
    expect(ann.safetyClass).toBe('write');
    expect(ann.effectiveHints).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
  });

  it('a schema without `type` is pinned as served (zod 4 under a zod-3-era converter), with the reason', () => {
    const b = buildSurface([
      {
        tool: {
          name: 'untyped',
          description: 'd',
          inputSchema: { properties: { q: { type: 'string' } }, required: ['q'] },
          annotations: { readOnlyHint: true },
        },
      },
    ]);
    const t = b.surface.tools[0]!;
    expect(t.inputSchema).toEqual({ properties: { q: { type: 'string' } }, required: ['q'] });
    expect(t.malformed).toBe('`inputSchema.type` is missing, not "object"');
    expect(t.safetyClass).toBe('read');
    expect(b.malformed).toEqual([{ index: 0, name: 'untyped', problem: '`inputSchema.type` is missing, not "object"', pinned: true }]);
  });

  it('a missing inputSchema is pinned as missing, apart from one that is null', () => {
    const missing = pin({ tool: { name: 'x' } });
    const nul = pin({ tool: { name: 'x', inputSchema: null } });
    expect(missing.malformed).toBe('`inputSchema` is missing');
    expect(nul.malformed).toBe('`inputSchema` is null, not a JSON object');
    expect(missing.digest).not.toBe(nul.digest);
    expect(missing.inputSchemaDigest).not.toBe(nul.inputSchemaDigest);
  });

  it('normalizeSnapshot pins a malformed tool beside the others and lists it', () => {
    const r = normalizeSnapshot({
      source: { id: 's', kind: 'mcp' },
      tools: [{ tool: { name: 'x' } }, { tool: readTool('y') }],
    });
    expect(r.surface.tools.map((t) => t.name)).toEqual(['x', 'y']);
    expect(r.malformed).toEqual([{ index: 0, name: 'x', problem: '`inputSchema` is missing', pinned: true }]);
  });

  it('null annotations, title and description are treated as absent', () => {
    const t = normalizeTool({ tool: { name: 'x', inputSchema: CLOSED, annotations: null, title: null, description: null } }, 0);
    expect('problem' in t).toBe(false);
    if (!('problem' in t)) {
      expect(t.annotations).toBeUndefined();
      expect(t.title).toBeUndefined();
    }
  });
});

describe('name order', () => {
  it('sorts by UTF-8 bytes, not UTF-16 code units', () => {
    // U+FF5E (EF BD 9E) sorts before U+1F600 (F0 9F 98 80) in UTF-8, after it in UTF-16 (FF5E > D83D).
    const names = ['\u{1F600}', '\uFF5E', 'Z', 'a', '_', 'é'];
    const s = mcpSurface(names.map((n) => readTool(n)));
    expect(s.tools.map((t) => t.name)).toEqual(['Z', '_', 'a', 'é', '\uFF5E', '\u{1F600}']);
    expect([...names].sort()).not.toEqual(s.tools.map((t) => t.name));
    expect(compareNames('\uFF5E', '\u{1F600}')).toBeLessThan(0);
  });

  it('orders any names as their UTF-8 bytes, whichever way it compares them (code units where they agree)', () => {
    const names = fc.array(fc.string({ unit: fc.constantFrom('grapheme', 'binary', 'binary-ascii') as fc.Arbitrary<'grapheme'>, minLength: 1, maxLength: 6 }), {
      maxLength: 12,
    });
    fc.assert(
      fc.property(names, fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (list, a, b) => {
        expect(Math.sign(compareNames(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))));
        const bytes = [...list].sort((x, y) => Buffer.compare(Buffer.from(x, 'utf8'), Buffer.from(y, 'utf8')));
        expect(mcpSurface(list.map((n) => readTool(n))).tools.map((t) => t.name)).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
    // Both ways of sorting: names all below U+D800, and a list with one past it.
    expect(mcpSurface(['b', 'a', '\uD7FF'].map((n) => readTool(n))).tools.map((t) => t.name)).toEqual(['a', 'b', '\uD7FF']);
    expect(mcpSurface(['\u{1F600}', 'b', '\uFF5E', 'a'].map((n) => readTool(n))).tools.map((t) => t.name)).toEqual(['a', 'b', '\uFF5E', '\u{1F600}']);
  });

  it('is stable for duplicates and case-sensitive', () => {
    const s = mcpSurface([readTool('b'), readTool('B'), writeTool('b')]);
    expect(s.tools.map((t) => [t.name, t.safetyClass])).toEqual([
      ['B', 'read'],
      ['b', 'read'],
      ['b', 'write'],
    ]);
  });
});
