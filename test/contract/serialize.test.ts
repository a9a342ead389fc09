/** Contract serialization: deterministic text and a pointer → line map computed while writing. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contractValue, serializeContract, writeJson } from '../../src/contract/serialize.js';
import type { Json } from '../../src/util/json.js';
import { pointerSegments } from '../../src/util/json.js';
import { mcpSurface, mcpTool, openapiSurface, readTool, writeTool } from '../support/surface-builders.js';

const surface = mcpSurface([
  writeTool('save_note', { title: 'Save', outputSchema: { type: 'object' }, _meta: { 'a/b': 'x~y' } }),
  readTool('list_notes'),
  mcpTool('purge'),
]);

describe('serializeContract', () => {
  it('is JSON.stringify(value, null, 2) plus a trailing newline', () => {
    const { text } = serializeContract(surface);
    expect(text).toBe(JSON.stringify(contractValue(surface), null, 2) + '\n');
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('is deterministic: listing order and key order do not matter', () => {
    const again = mcpSurface([
      mcpTool('purge'),
      readTool('list_notes'),
      writeTool('save_note', { _meta: { 'a/b': 'x~y' }, outputSchema: { type: 'object' }, title: 'Save' }),
    ]);
    expect(serializeContract(again).text).toBe(serializeContract(surface).text);
  });

  it('writes top-level and tool keys in review order and leaves derived-only fields out', () => {
    const v = contractValue(surface);
    expect(Object.keys(v)).toEqual(['formatVersion', 'source', 'server', 'counts', 'payloadBytes', 'digest', 'tools']);
    const tool = (v.tools as Record<string, unknown>[])[2] as Record<string, unknown>;
    expect(Object.keys(tool)).toEqual([
      'name',
      'title',
      'description',
      'safetyClass',
      'annotations',
      'effectiveHints',
      'inputSchema',
      'outputSchema',
      '_meta',
      'digest',
      'inputSchemaDigest',
    ]);
    expect(tool).not.toHaveProperty('declaredHints');
  });

  it('the line map points at the line of each value', () => {
    const { text, lines } = serializeContract(surface);
    const textLines = text.split('\n');
    const at = (pointer: string) => textLines[(lines.get(pointer) as number) - 1] as string;
    // tools are sorted: list_notes, purge, save_note
    expect(at('/tools/0/annotations/readOnlyHint').trim()).toBe('"readOnlyHint": true');
    expect(at('/tools/2/annotations/readOnlyHint').trim()).toBe('"readOnlyHint": false');
    expect(at('/tools/1/effectiveHints/destructiveHint').trim()).toBe('"destructiveHint": true,');
    expect(at('/tools/1/name').trim()).toBe('"name": "purge",');
    expect(at('/counts/toolCount').trim()).toBe('"toolCount": 3,');
    expect(at('/tools/2/_meta/a~1b').trim()).toBe('"a/b": "x~y"');
    expect(lines.get('')).toBe(1);
    expect(lines.get('/tools/1')).toBe(textLines.indexOf('    {', lines.get('/tools/0') as number) + 1);
  });

  it('every pointer in the map names the key written on its line', () => {
    const { text, lines } = serializeContract(surface);
    const textLines = text.split('\n');
    for (const [pointer, line] of lines) {
      const segs = pointerSegments(pointer);
      const last = segs[segs.length - 1];
      if (last === undefined || /^\d+$/.test(last)) continue;
      expect((textLines[line - 1] as string).trimStart().startsWith(`${JSON.stringify(last)}: `), pointer).toBe(true);
    }
  });

  it('writes the same text at any line depth, and the same line for every pointer it records', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }) as fc.Arbitrary<Json>, fc.integer({ min: 0, max: 6 }), (v, depth) => {
        const full = writeJson(v);
        const cut = writeJson(v, depth);
        expect(full.text).toBe(JSON.stringify(v, null, 2) + '\n');
        expect(cut.text).toBe(full.text);
        for (const [pointer, line] of cut.lines) expect(full.lines.get(pointer), pointer).toBe(line);
      }),
      { numRuns: 400 },
    );
  });

  it('handles empty arrays and objects on one line', () => {
    const { text, lines } = writeJson({ a: [], b: {}, c: [1, { d: null }] });
    expect(text).toBe('{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    {\n      "d": null\n    }\n  ]\n}\n');
    expect(lines.get('/c/1/d')).toBe(7);
    expect(lines.get('/b')).toBe(3);
  });

  it('OpenAPI tools carry their origin', () => {
    const s = openapiSurface([{ name: 'post_quote', method: 'POST', path: '/quote', operationId: 'postQuote', promoted: true }]);
    const tool = (contractValue(s).tools as Record<string, unknown>[])[0];
    expect(tool).toMatchObject({ safetyClass: 'read', origin: { method: 'POST', path: '/quote', operationId: 'postQuote', promoted: true } });
  });
});

describe('serializeContract writes tool by tool', () => {
  it('the same text as JSON.stringify of the whole contract value, for any tools and server text', () => {
    const text = fc.string({ unit: 'binary', maxLength: 8 });
    fc.assert(
      fc.property(fc.array(fc.record({ name: text, description: text }), { maxLength: 6 }), text, (tools, serverName) => {
        const seen = new Set<string>();
        const unique = tools.filter((t) => t.name !== '' && !seen.has(t.name) && seen.add(t.name));
        const s = mcpSurface(
          unique.map((t) => readTool(t.name, { description: t.description })),
          { server: { name: serverName, version: '[\n    "\u0000tools"\n  ]', protocolVersion: '2025-11-25' } },
        );
        const out = serializeContract(s);
        expect(out.text).toBe(JSON.stringify(contractValue(s), null, 2) + '\n');
        expect(out.lines.get('/tools')).toBe(writeJson(contractValue(s)).lines.get('/tools'));
      }),
      { numRuns: 200 },
    );
  });
});
