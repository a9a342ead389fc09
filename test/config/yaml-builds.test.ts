/**
 * dist/ bundles `yaml` from its ESM build (node_modules/yaml/browser, scripts/bundles.mjs: it
 * loads sooner) while the tests run the sources against its CommonJS build (Node's
 * conditions). Both are the same library; this holds them to reading every policy-like document
 * the same way: the same values, the same errors at the same offsets, the same warnings and the
 * same line positions, for every YAML file under test/ and a set of hostile texts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as cjs from 'yaml';
import { REPO } from '../support/run-dist.js';

type YamlModule = typeof cjs;

const esm = (await import(join(REPO, 'node_modules/yaml/browser/index.js'))) as YamlModule;

/** Every .yml/.yaml file under `dir`, recursively. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/**
 * `value` with every part JSON cannot hold (a byte array, a Date, a Set, a Map, a non-finite
 * number) replaced by a marker: config/policy.ts refuses those, so only the rest must agree.
 */
function jsonPart(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : '(not JSON)';
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(jsonPart);
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return '(not JSON)';
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, jsonPart(v)]));
}

/** What toolgate reads of a document (config/policy.ts: parseDocument, then toJS), as plain data. */
function reading(yaml: YamlModule, text: string): unknown {
  const lineCounter = new yaml.LineCounter();
  const doc = yaml.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: false });
  let value: unknown;
  try {
    value = jsonPart(doc.toJS());
  } catch (e) {
    value = { threw: (e as Error).message };
  }
  return {
    value,
    errors: doc.errors.map((e) => [e.code, e.pos, e.message.split('\n')[0]]),
    warnings: doc.warnings.map((w) => [w.code, w.pos]),
    lines: [0, Math.floor(text.length / 2), text.length].map((offset) => lineCounter.linePos(offset)),
    hasSources: doc.hasIn(['sources', 0, 'id']),
  };
}

const HOSTILE = [
  'a: &x [1, 2]\nb: *x\n',
  'a: *missing\n',
  'a: 1\na: 2\n',
  'a: !!binary aGVsbG8=\n',
  'a: !custom 1\n',
  'n: 12345678901234567890\nf: .inf\nz: 0x1F\no: 0o17\nb: yes\nnull_: ~\n',
  'a: "unterminated\n',
  '- a\nb: c\n',
  '\ufeffsources: []\n',
  '%YAML 1.1\n---\nb: yes\n',
  'a:\n  - b: [\n',
  'k: "\\u202e\\u0000"\n',
  `${'- '.repeat(200)}x\n`,
  'x: &a [*a]\n',
  '? [a, b]\n: c\n',
];

/**
 * Bytes of a file compared: the first 256 KiB, to the end of a line. Every policy-like file is far
 * smaller; the two vendors' OpenAPI documents (3 and 4 MB, which dist/ reads with `yaml` only to
 * give a refused `$ref`'s line) take about 10 s of CPU to parse whole in both builds, and their
 * first 256 KiB hold every construct the rest repeats.
 */
const MAX_COMPARED = 256 * 1024;

/** `text` cut after the last line end within {@link MAX_COMPARED} characters (whole when shorter). */
function comparedPart(text: string): string {
  return text.length <= MAX_COMPARED ? text : text.slice(0, text.lastIndexOf('\n', MAX_COMPARED) + 1);
}

describe('yaml: the ESM build in dist/ reads documents as the CommonJS build the tests use', () => {
  it('every YAML file under test/ (its first 256 KiB)', () => {
    const files = yamlFiles(join(REPO, 'test'));
    expect(files.length).toBeGreaterThan(20);
    let large = 0;
    for (const f of files) {
      const text = comparedPart(readFileSync(f, 'utf8'));
      if (text.length > MAX_COMPARED / 2) large++;
      expect(reading(esm, text), f).toEqual(reading(cjs, text));
    }
    // The vendors' documents are compared too, on a part as long as a large policy could be.
    expect(large).toBeGreaterThanOrEqual(2);
  });

  it('hostile texts: aliases, duplicate keys, tags, numbers, syntax errors, deep nesting', () => {
    for (const text of HOSTILE) expect(reading(esm, text), JSON.stringify(text)).toEqual(reading(cjs, text));
  });

  it('is a different copy of the library (the comparison compares something): they differ on !!binary, a value toolgate.yml refuses', () => {
    expect(esm.parseDocument).not.toBe(cjs.parseDocument);
    const text = 'a: !!binary aGVsbG8=\n';
    const [fromCjs, fromEsm] = [cjs, esm].map((y) => (y.parseDocument(text).toJS() as { a: Uint8Array }).a);
    expect(Buffer.isBuffer(fromCjs)).toBe(true);
    expect(Buffer.isBuffer(fromEsm)).toBe(false);
    expect(JSON.stringify(fromCjs)).not.toBe(JSON.stringify(fromEsm));
  });
});
