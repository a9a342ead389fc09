/**
 * One nesting limit, applied when snapshotting: a tool nested deeper than the
 * contract reader accepts is pinned with its deep values replaced by their sha256, flagged
 * malformed, and the contract written from it reads back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../src/contract/store.js';
import { serializeContract } from '../../src/contract/serialize.js';
import { canonicalDigest, jsonByteLength, limitDepth, TOO_DEEP_MARKER, TOOL_MAX_DEPTH } from '../../src/surface/depth-limit.js';
import { sha256 } from '../../src/surface/canonical.js';
import type { Json } from '../../src/util/json.js';
import { canonicalJson } from '../../src/util/json.js';
import { MAX_JSON_DEPTH } from '../../src/util/json-file.js';
import { buildSurface, pin } from '../support/surface-builders.js';

/** `{"not": ... {} ...}` nested `depth` objects deep, built as text (JSON.stringify cannot). */
const nested = (depth: number, leaf = '{}'): Json => JSON.parse(`${'{"not":'.repeat(depth - 1)}${leaf}${'}'.repeat(depth - 1)}`) as Json;

/** Container nesting of a value (itself at level 1), without recursion. */
function depthOf(v: Json): number {
  let max = 0;
  const stack: [Json, number][] = [[v, 1]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    max = Math.max(max, d);
    for (const c of Array.isArray(x) ? x : Object.values(x)) stack.push([c, d + 1]);
  }
  return max;
}

describe('canonicalDigest and jsonByteLength (no recursion)', () => {
  it('canonicalDigest is the sha256 of canonicalJson, for any JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue() as fc.Arbitrary<Json>, (v) => {
        expect(canonicalDigest(v)).toBe(sha256(canonicalJson(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('jsonByteLength is the UTF-8 length of JSON.stringify, and works where that throws', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        expect(jsonByteLength(v)).toBe(Buffer.byteLength(JSON.stringify(v), 'utf8'));
      }),
      { numRuns: 300 },
    );
    const deep = nested(200_000, '{"é":[1,"x"]}');
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(jsonByteLength(deep)).toBe('{"not":'.length * 199_999 + Buffer.byteLength('{"é":[1,"x"]}') + 199_999);
  });
});

describe('limitDepth', () => {
  it('returns the same value when nothing is deeper than the limit', () => {
    const v = nested(TOOL_MAX_DEPTH);
    expect(limitDepth(v)).toBe(v);
  });

  it('replaces each container below the limit by the marker and the sha256 of its canonical JSON', () => {
    const v = nested(TOOL_MAX_DEPTH + 2);
    const limited = limitDepth(v);
    expect(depthOf(limited)).toBe(TOOL_MAX_DEPTH);
    let node = limited;
    for (let i = 1; i < TOOL_MAX_DEPTH; i++) node = (node as { not: Json }).not;
    expect((node as { not: Json }).not).toBe(`${TOO_DEEP_MARKER}${sha256('{"not":{}}')}`);
    // The input is not modified.
    expect(depthOf(v)).toBe(TOOL_MAX_DEPTH + 2);
  });

  it('keeps a `__proto__` key as a key in the copy it makes', () => {
    const v = JSON.parse(`{"__proto__":{"x":1},"deep":${JSON.stringify(nested(5))}}`) as Json;
    const limited = limitDepth(v, 3) as Record<string, Json>;
    expect(Object.keys(limited)).toEqual(['__proto__', 'deep']);
    expect(Object.getPrototypeOf(limited)).toBe(Object.prototype);
  });

  it('handles 1,000,000 levels without a stack overflow', () => {
    const limited = limitDepth(nested(1_000_000));
    expect(depthOf(limited)).toBe(TOOL_MAX_DEPTH);
  });
});

describe('a tool nested deeper than the limit', () => {
  const deepTool = (depth: number) => ({ name: 'deep', description: 'd', inputSchema: { type: 'object', properties: { q: nested(depth) } } });

  it('is pinned, flagged malformed, and its contract reads back unchanged (not "edited by hand")', () => {
    const b = buildSurface([{ tool: deepTool(5_000) }]);
    const t = b.surface.tools[0]!;
    expect(t.malformed).toBe(`nested deeper than ${TOOL_MAX_DEPTH} levels (the deeper values are pinned by their sha256)`);
    expect(b.malformed).toEqual([{ index: 0, name: 'deep', problem: t.malformed, pinned: true }]);
    const text = serializeContract(b.surface).text;
    const back = parseContract(text, 'deep.surface.json');
    expect(back.surface.tools[0]!.digest).toBe(t.digest);
    expect(back.surface.tools[0]!.malformed).toBe(t.malformed);
    expect(back.surface.digest).toBe(b.surface.digest);
  });

  it('just within the limit it is well formed and its contract is within the reader limit too', () => {
    // The tool object is level 1, `inputSchema` 2, `properties` 3, `q` 4: q's nesting may be the rest.
    const b = buildSurface([{ tool: deepTool(TOOL_MAX_DEPTH - 3) }]);
    expect(b.surface.tools[0]!.malformed).toBeUndefined();
    const text = serializeContract(b.surface).text;
    expect(depthOf(JSON.parse(text) as Json)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
    expect(parseContract(text, 'c.json').surface.tools[0]!.digest).toBe(b.surface.tools[0]!.digest);
  });

  it('a change below the limit changes the digest; the same served value gives the same digest', () => {
    expect(pin({ tool: deepTool(5_000) }).digest).toBe(pin({ tool: deepTool(5_000) }).digest);
    expect(pin({ tool: deepTool(5_000) }).digest).not.toBe(pin({ tool: deepTool(5_001) }).digest);
  });

  it('an unknown top-level key nested to the limit stays readable in the contract (it is kept under `extra`)', () => {
    const b = buildSurface([{ tool: { name: 'x', inputSchema: { type: 'object' }, vendor: nested(TOOL_MAX_DEPTH + 50) } }]);
    const text = serializeContract(b.surface).text;
    expect(depthOf(JSON.parse(text) as Json)).toBeLessThanOrEqual(MAX_JSON_DEPTH);
    expect(parseContract(text, 'c.json').surface.tools[0]!.digest).toBe(b.surface.tools[0]!.digest);
  });
});
