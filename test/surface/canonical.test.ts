/** Canonical JSON and digests. */
import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/surface/canonical.js';
import { canonicalJson, sortKeys } from '../../src/util/json.js';

describe('canonical JSON', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(['b', 'a'])).toBe('["b","a"]');
  });

  it('is independent of insertion order', () => {
    expect(canonicalJson({ x: 1, y: { p: 1, q: 2 } })).toBe(canonicalJson({ y: { q: 2, p: 1 }, x: 1 }));
  });

  it('sortKeys leaves scalars alone and does not mutate its input', () => {
    const input = { b: [{ d: 1, c: 2 }], a: 'x' };
    const copy = JSON.parse(JSON.stringify(input));
    expect(Object.keys(sortKeys(input) as object)).toEqual(['a', 'b']);
    expect(input).toEqual(copy);
    expect(Object.keys(input)).toEqual(['b', 'a']);
    expect(sortKeys(5)).toBe(5);
    expect(sortKeys(null)).toBe(null);
  });

  it('sha256 is lower-case hex of the UTF-8 bytes', () => {
    expect(sha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256('é')).toMatch(/^[0-9a-f]{64}$/);
    expect(sha256('é')).not.toBe(sha256('e\u0301'));
  });
});
