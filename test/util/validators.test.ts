/**
 * The bundles do not compile toolgate's JSON Schemas: scripts/bundles.mjs (`precompiledValidators`)
 * replaces src/util/validators.ts with Ajv's standalone code for the same schemas and options.
 * Here that module is built as the bundles build it and must agree with the source one (Ajv
 * compiling at run time) on every policy, contract and integration config fixture and on a set
 * of broken ones: same verdict, same error objects (so the same messages and lines).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleOptions } from '../../scripts/bundles.mjs';
import * as source from '../../src/util/validators.js';
import { ROOT } from '../support/mcp-fixtures.js';

type Validators = Pick<typeof source, 'policyValidator' | 'contractValidator' | 'integrationValidator'>;

const out = mkdtempSync(join(tmpdir(), 'toolgate-validators-'));
let built: Validators;

beforeAll(async () => {
  const [main] = await bundleOptions();
  expect(main!.plugins?.map((p) => p.name)).toContain('precompiled-validators');
  // The options of dist/ (plugins, banner, resolution), with this module as the only entry point.
  await build({
    ...main,
    entryPoints: { validators: 'src/util/validators.ts' },
    splitting: false,
    outdir: out,
    entryNames: '[name]',
    write: true,
    logLevel: 'silent',
  });
  built = (await import(pathToFileURL(join(out, 'validators.js')).href)) as Validators;
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Files under `dir` (recursively) whose names match `name`. */
function files(dir: string, name: RegExp): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (name.test(e.name)) found.push(join(d, e.name));
    }
  };
  walk(join(ROOT, dir));
  return found.sort();
}

/** The parsed value of each file that parses (broken syntax is not the validators' business). */
function values(paths: string[], parse: (text: string) => unknown): [string, unknown][] {
  return paths.flatMap((p): [string, unknown][] => {
    try {
      return [[p.slice(ROOT.length + 1), parse(readFileSync(p, 'utf8'))]];
    } catch {
      return [];
    }
  });
}

function agree(pick: (v: Validators) => ValidateFunction, corpus: [string, unknown][]): { valid: number; invalid: number } {
  const counts = { valid: 0, invalid: 0 };
  for (const [name, value] of corpus) {
    const want = pick(source);
    const got = pick(built);
    const ok = want(value);
    expect(got(value), name).toBe(ok);
    expect(got.errors ?? null, name).toEqual(want.errors ?? null);
    counts[ok ? 'valid' : 'invalid']++;
  }
  return counts;
}

describe('the precompiled validators of the bundles agree with the source ones', () => {
  it('is standalone code: the built module holds no Ajv compiler', () => {
    const text = readFileSync(join(out, 'validators.js'), 'utf8');
    expect(text).not.toMatch(/\bcompileSchema\b|new Function\(/);
    expect(Object.keys(built).sort()).toEqual(['contractValidator', 'integrationValidator', 'policyValidator']);
  });

  it('policy (toolgate.yml)', () => {
    const corpus = values(
      [...files('test/fixtures/policies', /\.ya?ml$/), ...files('test/fixtures/bad/policy', /\.ya?ml$/), join(ROOT, 'examples/notes/toolgate.yml')],
      (t) => parseYaml(t) as unknown,
    );
    corpus.push(
      ['a list', []],
      ['sources missing', { rules: {} }],
      ['many problems', { sources: [{ id: 'A', mcp: { comand: 'x' } }], limits: { 'max-tools': -1 }, reviewz: 1 }],
    );
    const { valid, invalid } = agree((v) => v.policyValidator(), corpus);
    expect(valid).toBeGreaterThan(3);
    expect(invalid).toBeGreaterThan(10);
  });

  it('contract', () => {
    const corpus = values(
      [...files('test/fixtures/bad/contract', /\.surface\.json$/), ...files('test/fixtures/contracts', /\.json$/), ...files('examples', /\.surface\.json$/)],
      (t) => JSON.parse(t) as unknown,
    );
    corpus.push(['a list', []], ['empty', {}]);
    const { valid, invalid } = agree((v) => v.contractValidator(), corpus);
    expect(valid).toBeGreaterThan(2);
    expect(invalid).toBeGreaterThan(3);
  });

  it('OpenAPI integration config', () => {
    const configs = files('test/fixtures', /\.json$/).filter((p) => /"type"\s*:\s*"openapi"/.test(readFileSync(p, 'utf8')));
    const corpus = values(configs, (t) => JSON.parse(t) as unknown);
    const base = { type: 'openapi', spec: 'openapi.yaml', include: ['listPets'] };
    corpus.push(
      ['a list', []],
      ['empty', {}],
      ['every key', { $schema: 'x', id: 'pets', ...base, policies: { createPet: 'read' } }],
      ['many problems', { tpye: 'openapi', spec: 42, include: ['a', 7, '', 'a'], policies: { a: 'write', b: ['read'] }, id: 'Pets' }],
      ['spec a URL', { ...base, spec: 'https://example.com/openapi.json' }],
      ['policies an array', { ...base, policies: [] }],
    );
    const { valid, invalid } = agree((v) => v.integrationValidator(), corpus);
    expect(valid).toBeGreaterThanOrEqual(15);
    expect(invalid).toBeGreaterThanOrEqual(6);
  });
});
