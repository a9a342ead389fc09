/**
 * The JSON toolkit (src/util/json.ts): RFC 8785 canonical form, key sorting, deep copy, own-key
 * access and RFC 6901 pointers, with keys that plain assignment would lose (`__proto__`) or find
 * on Object.prototype (`constructor`, `toString`), and keys outside the BMP or not well formed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json, JsonObject } from '../../src/util/json.js';
import {
  canonicalJson,
  canonicalJsonDeep,
  cloneJson,
  compareUtf16,
  escapePointerToken,
  getOwn,
  hasOwn,
  isObject,
  jsonEqual,
  pointerSegments,
  setOwn,
  sortKeys,
  toPointer,
  unescapePointerToken,
} from '../../src/util/json.js';

/** Names that are special on a plain object: a setter, inherited data, inherited methods. */
const SPECIAL_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', ''];

/** One UTF-16 code unit or code point: ASCII, pointer syntax, controls, a surrogate pair, a lone surrogate. */
const unit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom('~', '/', '~0', '~1', '"', '\\', '\u0000', '\u001f', '\u007f', '\u2028'),
  fc.constantFrom('\ud83d\ude00', '\u{10FFFF}', '\ufb33', '\u20ac', '\u00f6', '\u0080'),
  fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff'),
);
const key = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...SPECIAL_KEYS) }, { weight: 3, arbitrary: fc.string({ unit, maxLength: 4 }) });
const leaf: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-0, 0.1, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 2 ** 53),
  fc.string({ unit, maxLength: 6 }),
);
/** Arbitrary JSON; objects are built with Object.fromEntries (own data properties, as JSON.parse makes them). */
const { json } = fc.letrec<{ json: Json; array: Json[]; object: JsonObject }>((tie) => ({
  json: fc.oneof({ depthSize: 'small', maxDepth: 5 }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('json'), { maxLength: 4 }),
  object: fc.array(fc.tuple(key, tie('json')), { maxLength: 5 }).map((entries) => Object.fromEntries(entries) as JsonObject),
}));

/** A name that JS objects iterate in numeric order, before all others: an array index ("0", "10"). */
const isArrayIndex = (k: string): boolean => /^(0|[1-9]\d*)$/.test(k) && Number(k) < 2 ** 32 - 1;
/** The same JSON, without array-index names (for properties about JS iteration order). */
const jsonNamed = json.filter((x) => !objectsIn(x).some((o) => !Array.isArray(o) && Object.keys(o).some(isArrayIndex)));

/** Every object in `v` (the root included). */
function objectsIn(v: Json, out: object[] = []): object[] {
  if (Array.isArray(v)) {
    out.push(v);
    for (const x of v) objectsIn(x, out);
  } else if (v !== null && typeof v === 'object') {
    out.push(v);
    for (const k of Object.keys(v)) objectsIn(v[k] as Json, out);
  }
  return out;
}

/**
 * Independent check that `b` holds the same JSON as `a`: every object has Object.prototype as
 * its prototype and exactly the same own keys, each an enumerable data property, with equal values.
 */
function expectSameJson(a: Json, b: Json, at = ''): void {
  if (a === null || typeof a !== 'object') {
    expect(Object.is(b, a) || (a === 0 && b === 0), `value at "${at}"`).toBe(true);
    return;
  }
  if (Array.isArray(a)) {
    expect(Array.isArray(b), `array at "${at}"`).toBe(true);
    expect((b as Json[]).length).toBe(a.length);
    a.forEach((x, i) => expectSameJson(x, (b as Json[])[i] as Json, `${at}/${i}`));
    return;
  }
  expect(b !== null && typeof b === 'object' && !Array.isArray(b), `object at "${at}"`).toBe(true);
  const o = b as JsonObject;
  expect(Object.getPrototypeOf(o), `prototype at "${at}"`).toBe(Object.prototype);
  expect(Object.getOwnPropertyNames(o).sort(), `keys at "${at}"`).toEqual(Object.keys(a).sort());
  for (const k of Object.keys(a)) {
    const d = Object.getOwnPropertyDescriptor(o, k);
    expect(d && 'value' in d && d.enumerable && d.writable, `data property ${JSON.stringify(k)} at "${at}"`).toBe(true);
    expectSameJson(a[k] as Json, d?.value as Json, `${at}/${k}`);
  }
}

/** The same value with every object's keys inserted in reverse order. */
function reversed(v: Json): Json {
  if (Array.isArray(v)) return v.map(reversed);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.keys(v)
      .reverse()
      .map((k) => [k, reversed(v[k] as Json)]),
  ) as JsonObject;
}

describe('canonicalJsonDeep (canonicalJson without recursion)', () => {
  it('writes the same text as canonicalJson for every JSON value', () => {
    fc.assert(
      fc.property(json, (x) => {
        expect(canonicalJsonDeep(x)).toBe(canonicalJson(x));
      }),
    );
    const sparse: Json[] = [1];
    sparse[3] = 2;
    expect(canonicalJsonDeep(sparse)).toBe(canonicalJson(sparse));
    const withUndefined = { a: undefined, b: [undefined, Number.NaN, -Infinity], c: -0 } as unknown as Json;
    expect(canonicalJsonDeep(withUndefined)).toBe(canonicalJson(withUndefined));
  });

  it('writes values nested deeper than JSON.stringify can (200,000 levels, as JSON.parse builds them)', () => {
    const depth = 200_000;
    const text = `${'[{"a":'.repeat(depth)}"x"${'}]'.repeat(depth)}`;
    const value = JSON.parse(text) as Json;
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(canonicalJsonDeep(value)).toBe(text);
  });

  it('throws a TypeError for what JSON cannot hold: a cycle, a bigint, a function, a symbol', () => {
    const cycle: Record<string, unknown> = { a: [1] };
    (cycle.a as unknown[]).push(cycle);
    expect(() => canonicalJsonDeep(cycle)).toThrow(/cycle/);
    expect(() => canonicalJsonDeep({ n: 10n })).toThrow(/bigint/);
    expect(() => canonicalJsonDeep([() => 1])).toThrow(/function/);
    expect(() => canonicalJsonDeep({ s: Symbol('s') })).toThrow(/symbol/);
    // The same object twice, side by side, is no cycle.
    const shared = { k: 1 };
    expect(canonicalJsonDeep([shared, shared])).toBe('[{"k":1},{"k":1}]');
  });
});

describe('canonicalJson (RFC 8785)', () => {
  it('is a fixed point through JSON.parse: canonicalJson(JSON.parse(canonicalJson(x))) === canonicalJson(x)', () => {
    fc.assert(
      fc.property(json, (x) => {
        const c = canonicalJson(x);
        expect(canonicalJson(JSON.parse(c) as Json)).toBe(c);
      }),
      { numRuns: 500 },
    );
  });

  it('equals JSON.stringify(sortKeys(x)) (for names that are not array indices, see below)', () => {
    fc.assert(
      fc.property(jsonNamed, (x) => {
        expect(canonicalJson(x)).toBe(JSON.stringify(sortKeys(x)));
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on key insertion order', () => {
    fc.assert(
      fc.property(json, (x) => {
        expect(canonicalJson(reversed(x))).toBe(canonicalJson(x));
      }),
      { numRuns: 300 },
    );
  });

  it('escapes names exactly as JSON.stringify does (quotes, backslashes, controls, lone surrogates; not U+2028 or paired surrogates)', () => {
    const names = ['a"b', 'a\\b', '\u0000', '\u001f', '\n', '\u007f', '\u2028', '\ud83d\ude00', '\ud83d', '\ude00x', 'é', ''];
    const x = Object.fromEntries(names.map((n, i) => [n, i])) as JsonObject;
    expect(canonicalJson(x)).toBe(JSON.stringify(sortKeys(x)));
    expect(canonicalJson({ '\ud83d': { 'x"': [1] } })).toBe('{"\\ud83d":{"x\\"":[1]}}');
  });

  it('serializes every own key, __proto__ and constructor included, and nothing inherited', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"readOnlyHint":true},"constructor":2,"prototype":[3]}') as Json;
    expect(canonicalJson(parsed)).toBe('{"__proto__":{"readOnlyHint":true},"b":1,"constructor":2,"prototype":[3]}');
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson(Object.create({ inherited: 1 }) as Json)).toBe('{}');
  });

  it('reuses known text by object identity (and gives the same text as without it)', () => {
    fc.assert(
      fc.property(json, (x) => {
        const known = new Map<object, string>();
        for (const o of objectsIn(x).slice(1)) known.set(o, canonicalJson(o as Json));
        expect(canonicalJson(x, known)).toBe(canonicalJson(x));
      }),
      { numRuns: 200 },
    );
    const schema = { type: 'object' };
    expect(canonicalJson({ inputSchema: schema }, new Map([[schema, '"KNOWN"']]))).toBe('{"inputSchema":"KNOWN"}');
  });

  it('RFC 8785 §3.2.2: the sample with numbers, escapes and literals', () => {
    const input = String.raw`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
      "literals": [null, true, false]
    }`;
    expect(canonicalJson(JSON.parse(input) as Json)).toBe(
      String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
    );
  });

  it('RFC 8785 §3.2.3: properties sorted by UTF-16 code units, not code points', () => {
    const input = String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`;
    expect(canonicalJson(JSON.parse(input) as Json)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
    expect(compareUtf16('\ud83d\ude00', '\ufb33')).toBeLessThan(0);
  });

  it('sorts integer-like names as strings too ("10" before "9"), where JS objects iterate them by number', () => {
    const x = JSON.parse('{"9":1,"10":2,"a":3}') as Json;
    expect(canonicalJson(x)).toBe('{"10":2,"9":1,"a":3}');
    expect(JSON.stringify(sortKeys(x))).toBe('{"9":1,"10":2,"a":3}');
  });

  it('RFC 8785 Appendix B: numbers in ECMAScript form', () => {
    const samples: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [hex, text] of samples) expect(canonicalJson(Buffer.from(hex, 'hex').readDoubleBE(0)), hex).toBe(text);
  });

  it('writes a lone surrogate as its escape, so the text is well-formed UTF-16 and hashes one way', () => {
    expect(canonicalJson({ '\ud800': '\udfff' })).toBe('{"\\ud800":"\\udfff"}');
    expect(canonicalJson('\ud83d\ude00')).toBe('"\ud83d\ude00"');
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    fc.assert(
      fc.property(json, (x) => {
        expect(loneSurrogate.test(canonicalJson(x))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sortKeys', () => {
  it('keeps every own key (as an own data property) and value, and sorts keys at every depth', () => {
    fc.assert(
      fc.property(json, (x) => {
        const s = sortKeys(x);
        expectSameJson(x, s);
        for (const o of objectsIn(s)) {
          if (Array.isArray(o)) continue;
          const keys = Object.getOwnPropertyNames(o);
          // Integer-like names iterate first in JS whatever the insertion order; the rest follow it.
          const named = keys.filter((k) => !isArrayIndex(k));
          expect(named).toEqual([...named].sort());
        }
      }),
      { numRuns: 500 },
    );
  });

  it('does not mutate its input', () => {
    fc.assert(
      fc.property(json, (x) => {
        const before = canonicalJson(x);
        sortKeys(x);
        expect(canonicalJson(x)).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps __proto__ as a key: the copy has no new prototype and declares nothing through it', () => {
    const parsed = JSON.parse('{"z":1,"__proto__":{"readOnlyHint":true}}') as JsonObject;
    const s = sortKeys(parsed) as JsonObject;
    expect(Object.keys(s)).toEqual(['__proto__', 'z']);
    expect(Object.getPrototypeOf(s)).toBe(Object.prototype);
    expect((s as { readOnlyHint?: unknown }).readOnlyHint).toBeUndefined();
    expect(getOwn(s, '__proto__')).toEqual({ readOnlyHint: true });
  });
});

describe('cloneJson', () => {
  it('is deep (no shared object) and equal, keys in the same order', () => {
    fc.assert(
      fc.property(json, (x) => {
        const c = cloneJson(x);
        expectSameJson(x, c);
        expect(JSON.stringify(c)).toBe(JSON.stringify(x));
        const originals = new Set(objectsIn(x));
        for (const o of objectsIn(c)) expect(originals.has(o)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('copies a shared subtree apart', () => {
    const shared = { a: [1] };
    const c = cloneJson({ x: shared, y: shared });
    expect(c.x).toEqual(shared);
    expect(c.x).not.toBe(c.y);
  });
});

describe('own-key access', () => {
  it('isObject: plain objects only', () => {
    expect([{}, JSON.parse('{"__proto__":1}'), Object.create(null)].every(isObject)).toBe(true);
    expect([null, [], 'x', 1, true, undefined].some(isObject)).toBe(false);
  });

  it('getOwn and hasOwn never find Object.prototype', () => {
    for (const k of SPECIAL_KEYS) {
      expect(getOwn({}, k), k).toBeUndefined();
      expect(hasOwn({}, k), k).toBe(false);
    }
    expect(getOwn(JSON.parse('{"constructor":"c"}') as JsonObject, 'constructor')).toBe('c');
  });

  it('setOwn makes a data property for every name, including those of Object.prototype', () => {
    for (const k of [...SPECIAL_KEYS, 'plain']) {
      const o: JsonObject = {};
      setOwn(o, k, { v: k });
      expect(Object.getPrototypeOf(o), k).toBe(Object.prototype);
      expect(Object.keys(o), k).toEqual([k]);
      expect(Object.getOwnPropertyDescriptor(o, k)?.value, k).toEqual({ v: k });
    }
  });

  it('jsonEqual: own keys only, key order ignored', () => {
    expect(jsonEqual({}, JSON.parse('{"__proto__":{}}') as Json)).toBe(false);
    expect(jsonEqual(JSON.parse('{"__proto__":{}}') as Json, {})).toBe(false);
    expect(jsonEqual({ constructor: 1 }, {})).toBe(false);
    fc.assert(
      fc.property(json, (x) => {
        expect(jsonEqual(x, sortKeys(x))).toBe(true);
        expect(jsonEqual(x, reversed(x))).toBe(true);
        expect(jsonEqual(x, cloneJson(x))).toBe(true);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(json, json, (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonicalJson(a) === canonicalJson(b));
      }),
      { numRuns: 300 },
    );
  });
});

describe('JSON pointers (RFC 6901)', () => {
  it('escape and unescape tokens (~ first on the way in, ~1 first on the way out)', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(unescapePointerToken('~01')).toBe('~1');
    expect(toPointer(['a/b', 0, '~', ''])).toBe('/a~1b/0/~0/');
    expect(toPointer([])).toBe('');
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/')).toEqual(['']);
    expect(pointerSegments('/m~0n/a~1b')).toEqual(['m~n', 'a/b']);
  });

  it('round-trips any list of segments', () => {
    fc.assert(
      fc.property(fc.array(key, { maxLength: 6 }), (segs) => {
        expect(pointerSegments(toPointer(segs))).toEqual(segs);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(key, (k) => {
        expect(unescapePointerToken(escapePointerToken(k))).toBe(k);
      }),
      { numRuns: 300 },
    );
  });
});
