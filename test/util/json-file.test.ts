/** The shared JSON-with-positions helper: values, lines by pointer, and syntax errors people can act on. */
import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseJsonDocument, positionOf } from '../../src/util/json-file.js';
import { pointerSegments, toPointer } from '../../src/util/json.js';
import { ConfigError } from '../../src/util/errors.js';

const FIX = 'fix it here';

function refused(text: string, options = {}): ConfigError {
  try {
    parseJsonDocument(text, 'f.json', FIX, options);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  return expect.unreachable('the document was accepted');
}

describe('parseJsonDocument: values', () => {
  it('parses like JSON.parse', () => {
    const sample = '{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\n\\"",{}],"b":{"c":[]},"__proto__":1}';
    expect(parseJsonDocument(sample, 'f.json', FIX).value).toEqual(JSON.parse(sample));
  });

  it('ignores a leading BOM (lines unchanged)', () => {
    const doc = parseJsonDocument('\ufeff{\n  "a": [\n    1\n  ]\n}', 'f.json', FIX);
    expect(doc.value).toEqual({ a: [1] });
    expect(doc.lineOf('/a/0')).toBe(3);
    expect(parseJsonDocument('\ufeff[]', 'f.json', FIX).value).toEqual([]);
  });
});

describe('parseJsonDocument: lines', () => {
  const text = [
    '{', //                      1
    '  "id": "gh",', //          2
    '  "include": [', //         3
    '    "repos/get",', //       4
    '    "markdown/render"', //  5
    '  ],', //                   6
    '  "policies": {', //        7
    '    "markdown/render": "read",', // 8
    '    "a~b":', //             9
    '      "read",', //          10
    '    "200": {', //           11
    '      "0": true', //        12
    '    }', //                  13
    '  }', //                    14
    '}', //                      15
  ].join('\n');
  const doc = parseJsonDocument(text, 'f.json', FIX);

  it('gives the key line of a member and the value line of an element', () => {
    expect(doc.lineOf('')).toBe(1);
    expect(doc.lineOf('/id')).toBe(2);
    expect(doc.lineOf('/include')).toBe(3);
    expect(doc.lineOf('/include/1')).toBe(5);
    expect(doc.lineOf('/policies/a~0b')).toBe(9); // the key, not the value on line 10
  });

  it('unescapes ~1 and ~0 in pointers', () => {
    expect(doc.lineOf('/policies/markdown~1render')).toBe(8);
    expect(pointerSegments('/policies/markdown~1render/a~0b~01')).toEqual(['policies', 'markdown/render', 'a~b~1']);
    expect(toPointer(['policies', 'markdown/render', 'a~b', 3])).toBe('/policies/markdown~1render/a~0b/3');
  });

  it('finds object keys that look like numbers', () => {
    expect(doc.lineOf('/policies/200')).toBe(11);
    expect(doc.lineOf('/policies/200/0')).toBe(12);
  });

  it('falls back to the nearest existing parent', () => {
    expect(doc.lineOf('/policies/200/missing/deeper')).toBe(11);
    expect(doc.lineOf('/include/7')).toBe(3);
    expect(doc.lineOf('/id/0')).toBe(2); // a string has no children
    expect(doc.lineOf('/nope')).toBe(1);
  });

  it('lists every pointer with its line', () => {
    const lines = doc.lines();
    expect(lines.get('')).toBe(1);
    expect(lines.get('/include/0')).toBe(4);
    expect(lines.get('/policies/markdown~1render')).toBe(8);
    expect(lines.get('/policies/a~0b')).toBe(9);
    expect(lines.get('/policies/200/0')).toBe(12);
    expect([...lines.keys()]).toHaveLength(10);
    lines.clear(); // a copy: the document's own listing is unaffected
    expect(doc.lines().get('/id')).toBe(2);
  });

  it('points at the member JSON.parse keeps when a key is repeated', () => {
    const dup = parseJsonDocument('{\n"a": 1,\n"a": 2\n}', 'f.json', FIX);
    expect(dup.value).toEqual({ a: 2 });
    expect(dup.lineOf('/a')).toBe(3);
    expect(dup.lines().get('/a')).toBe(3);
  });
});

describe('parseJsonDocument: syntax errors', () => {
  it.each([
    ['{"a":1,}', 1, 8, /trailing comma before \}/],
    ['[\n  1,\n  ]', 3, 3, /trailing comma before \]/],
    ['{\n  "a": 1\n  "b": 2\n}', 3, 3, /expected ',' or '\}' after a property value, found "b"/],
    ["{'a':1}", 1, 2, /expected a property name in double quotes/],
    ['{"a" 1}', 1, 6, /expected ':' after a property name, found "1"/],
    ['[1, 2', 1, 6, /expected ',' or '\]' after an array element, found end of input/],
    ['{"a": 1', 1, 8, /expected ',' or '\}' after a property value, found end of input/],
    ['{"a": [1}', 1, 9, /expected ',' or '\]' after an array element, found "\}"/],
    ['[1 2]', 1, 4, /expected ',' or '\]' after an array element/],
    ['{"a": tru}', 1, 7, /expected a value, found "tru"/],
    ['[1,,2]', 1, 4, /expected a value, found ","/],
    ['{"a":1} x', 1, 9, /unexpected "x" after the end of the JSON value/],
    ['{"a": "line\nbreak"}', 1, 12, /control character in a string \(a line break/],
    ['{"a": "x\u0001y"}', 1, 9, /control character in a string \(U\+0001/],
    ['"abc', 1, 1, /unterminated string/],
    ['{"a": "ok \\q"}', 1, 11, /invalid escape in a string/],
    ['["\\u12"]', 1, 3, /invalid escape in a string/],
    ['{"a": 1} // note', 1, 10, /comments are not allowed/],
    ['', 1, 1, /the document is empty/],
    ['\n\n', 1, 1, /the document is empty/],
  ])('%j fails at line %i column %i', (text, line, column, message) => {
    const e = refused(text);
    expect(e.location).toEqual({ file: 'f.json', line, column });
    expect(e.message).toMatch(/^invalid JSON: /);
    expect(e.message).toMatch(message);
    expect(e.fix).toBe(FIX);
    expect(e.describe()).toContain(`f.json:${line}:${column}: invalid JSON`);
  });

  it('counts columns after a BOM from the first visible character', () => {
    expect(refused('\ufeff{"a":1,}').location).toMatchObject({ line: 1, column: 8 });
  });

  it('names the document when given a label', () => {
    expect(refused('[1,]', { label: 'recorded tools/list file' }).message).toBe('recorded tools/list file is not valid JSON: trailing comma before ]');
  });

  it('refuses nesting deeper than the limit instead of exhausting the stack', () => {
    const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
    expect(() => parseJsonDocument(ok, 'f.json', FIX)).not.toThrow();
    const deep = `{"s": "[[[{{{",\n "a": ${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    const e = refused(deep);
    expect(e.message).toMatch(/nested deeper than 512 levels/);
    expect(e.location).toMatchObject({ line: 2, column: 6 + MAX_JSON_DEPTH });
  });
});

describe('parseJsonDocument: hostile texts', () => {
  it('an invalid text whose brackets the depth check read as string content still gets a located error, never a stack overflow', () => {
    // jsonc-parser, which describes the error, ends a string at a raw line break and reads
    // comments as their own tokens: the brackets after them were nesting it recursed into.
    for (const [text, message] of [
      [`["\n${'['.repeat(20_000)}`, /control character in a string/],
      [`[/*"*/${'['.repeat(20_000)}`, /comments are not allowed/],
      [`[${'}'.repeat(10_000)},${'['.repeat(10_000)}`, /expected a value/],
    ] as const) {
      const e = refused(text);
      expect(e.message).toMatch(message);
      expect(e.location).toMatchObject({ file: 'f.json', line: 1 });
    }
  });

  it('pointers over 4,096 characters are not indexed (V8 hashes such strings by length: the map went quadratic); they get the nearest shorter ancestor', () => {
    const key = 'k'.repeat(20_000);
    const doc = parseJsonDocument(`{\n"t": [\n{\n"${key}": [\n${Array(3000).fill(0).join(',\n')}]}]}`, 'f.json', FIX, { lineDepth: 4 });
    const lines = doc.lines();
    expect([...lines.keys()].every((p) => p.length <= 4096)).toBe(true);
    expect(lines.size).toBe(3);
    expect(doc.lineOf(`/t/0/${key}/2999`)).toBe(3);
  });

  it('finds a repeated key over 4,096 characters (compared by digest) and keeps different long keys apart', () => {
    const long = (i: number) => `${'k'.repeat(20_000)}${i}`;
    const e = refused(`{"a": {"${long(1)}": 0, "${long(2)}": 1,\n "${long(1)}": 2}}`, { duplicateKeys: 'error' });
    expect(e.location).toMatchObject({ line: 2, column: 2, pointer: `/a/${long(1)}` });
    expect(() => parseJsonDocument(`{"${long(1)}": 0, "${long(2)}": 1}`, 'f.json', FIX, { duplicateKeys: 'error' })).not.toThrow();
  });
});

describe('parseJsonDocument: duplicate keys', () => {
  const text = '{\n  "type": "openapi",\n  "x": {"k": 1},\n  "type": "mcp"\n}';

  it('keeps the last one by default, like JSON.parse', () => {
    expect(parseJsonDocument(text, 'f.json', FIX).value).toEqual({ type: 'mcp', x: { k: 1 } });
  });

  it('refuses them on request, naming the second occurrence and its pointer', () => {
    const e = refused(text, { duplicateKeys: 'error', label: 'integration config' });
    expect(e.message).toBe('integration config has a duplicate key "type" (first on line 2)');
    expect(e.location).toEqual({ file: 'f.json', line: 4, column: 3, pointer: '/type' });
    expect(e.fix).toMatch(/remove one of the duplicate keys/);
  });

  it('reports the first repeat in document order, nested ones with an escaped pointer', () => {
    const e = refused('{"a/b": [{"k": 1, "k": 2}], "a/b": 0}', { duplicateKeys: 'error' });
    expect(e.location?.pointer).toBe('/a~1b/0/k');
    expect(e.location).toMatchObject({ line: 1, column: 19 });
  });
});

describe('positionOf', () => {
  it('computes 1-based line and column', () => {
    expect(positionOf('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(positionOf('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('the line index (one pass, no tokenizer) agrees with a jsonc-parser visitor', () => {
  /** The reference: jsonc-parser's visitor, recording the same pointers (the index it replaced). */
  function visitorIndex(text: string, maxDepth: number): Map<string, number> {
    const out = new Map<string, number>([['', 1]]);
    let depth = 0;
    const record = (line: number, path: (string | number)[]) => {
      const p = toPointer(path);
      if (!out.has(p)) out.set(p, line + 1);
    };
    const begin = (_o: number, _l: number, line: number, _c: number, path: () => (string | number)[]) => {
      if (depth > 0 && depth <= maxDepth) record(line, path());
      depth++;
    };
    visit(text, {
      onObjectBegin: begin,
      onArrayBegin: begin,
      onObjectEnd: () => void depth--,
      onArrayEnd: () => void depth--,
      onObjectProperty: (key, _o, _l, line, _c, path) => {
        if (depth <= maxDepth) out.set(toPointer([...path(), key]), line + 1);
      },
      onLiteralValue: (_v, _o, _l, line, _c, path) => {
        if (depth > 0 && depth <= maxDepth) record(line, path());
      },
    });
    return out;
  }

  it('for any JSON, any indentation and any depth limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.constantFrom(0, 1, 2, '\t', ' \r\n'), fc.integer({ min: 0, max: 7 }), (v, indent, depth) => {
        // ' \r\n' as indent is not valid for JSON.stringify: use it as the line break instead.
        const text = indent === ' \r\n' ? JSON.stringify(v, null, 1).replace(/\n/g, '\r\n') : JSON.stringify(v, null, indent);
        const doc = parseJsonDocument(text, 'x.json', 'fix', { lineDepth: depth });
        expect(doc.lines()).toEqual(visitorIndex(text, depth));
      }),
      { numRuns: 500 },
    );
  });

  it('keys with escapes, quotes and brackets inside strings', () => {
    const text = '{\n "a\\"[{": [\n  "x]}\\\\",\n  {"b\\\\": 1}\n ],\n "c": -1.5e3\n}';
    const doc = parseJsonDocument(text, 'x.json', 'fix');
    expect(doc.lines()).toEqual(visitorIndex(text, Infinity));
    expect(doc.lineOf('/a"[{/1/b\\')).toBe(4);
    expect(doc.lineOf('/c')).toBe(6);
  });
});
