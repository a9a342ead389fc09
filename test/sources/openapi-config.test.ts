/**
 * The OpenAPI integration config's schema (schema/integration.schema.json): every integration
 * config in the repository validates (the broken-on-purpose fixtures fail where they are broken),
 * the schema and the loader accept the same configs, and typical mistakes are reported at their
 * line and pointer with a fix and, for an unknown key, the key it resembles.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { INTEGRATION_KEYS, loadIntegrationConfig } from '../../src/sources/openapi/config.js';
import { SOURCE_ID_PATTERN } from '../../src/config/source-config.js';
import { renderIntegration } from '../../src/init/render.js';
import { ConfigError } from '../../src/util/errors.js';
import { integrationValidator } from '../../src/util/validators.js';
import schema from '../../schema/integration.schema.json' with { type: 'json' };
import { ROOT } from '../support/mcp-fixtures.js';

/** Every JSON file under test/fixtures and examples that is an integration config (by its `"type": "openapi"`). */
function integrationFixtures(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.json') && /"type"\s*:\s*"openapi"/.test(readFileSync(p, 'utf8'))) out.push(relative(ROOT, p));
    }
  };
  for (const dir of ['test/fixtures', 'examples']) walk(join(ROOT, dir));
  return out.sort();
}

/** Fixtures broken on purpose: where the schema refuses them (or that they are not JSON). */
const BROKEN: Record<string, string[] | 'not JSON'> = {
  'test/fixtures/bad/openapi/bad-policy-value/integration.json': ['/policies/createPet'],
  'test/fixtures/bad/openapi/invalid-config/integration.json': 'not JSON',
  'test/fixtures/bad/openapi/several-mistakes/integration.json': ['/polices', '/include'],
  'test/fixtures/bad/openapi/unknown-config-key/integration.json': ['/polices'],
  'test/fixtures/openapi/rules/invalid-policy.json': ['/policies/createItem'],
};

/** Where each Ajv error points (an unknown key: at the key). */
const pointers = (errors: readonly { instancePath: string; keyword: string; params: Record<string, unknown> }[] | null | undefined) =>
  (errors ?? []).map((e) => (e.keyword === 'additionalProperties' ? `${e.instancePath}/${String(e.params.additionalProperty)}` : e.instancePath));

describe('schema/integration.schema.json', () => {
  const files = integrationFixtures();

  it('is a valid draft-07 schema, closed like the policy schema, with the loader’s keys and id pattern', () => {
    const ajv = new Ajv({ strict: true, allErrors: true });
    expect(ajv.validateSchema(schema), ajv.errorsText()).toBe(true);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(schema.additionalProperties).toBe(false);
    expect(INTEGRATION_KEYS).toEqual(['$schema', 'id', 'type', 'spec', 'include', 'policies']);
    // A source id in toolgate.yml and in an integration config follow the same rule.
    expect(schema.properties.id.pattern).toBe(SOURCE_ID_PATTERN.source);
  });

  it('finds the integration configs of the repository', () => {
    expect(files.length).toBeGreaterThanOrEqual(20);
    for (const f of Object.keys(BROKEN)) expect(files).toContain(f);
  });

  it('every integration config fixture validates, except those broken on purpose, which fail where they are broken', () => {
    const validate = integrationValidator();
    for (const f of files) {
      const text = readFileSync(join(ROOT, f), 'utf8');
      const broken = BROKEN[f];
      if (broken === 'not JSON') {
        expect(() => JSON.parse(text) as unknown, f).toThrow();
        continue;
      }
      const ok = validate(JSON.parse(text));
      expect({ f, ok, at: pointers(validate.errors) }).toEqual({ f, ok: broken === undefined, at: broken ?? [] });
    }
  });

  it('the example of docs/openapi.md, and the starter config `toolgate init` writes, validate', () => {
    const section = readFileSync(join(ROOT, 'docs/openapi.md'), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toBeDefined();
    const validate = integrationValidator();
    expect(validate(JSON.parse(example!)), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(JSON.parse(renderIntegration('../api/openapi.yaml'))), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('the schema and loadIntegrationConfig accept the same configs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-integration-schema-'));
  // A repository of its own, so `spec` is checked against it.
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'openapi.yaml'), 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\n');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const base = { type: 'openapi', spec: 'openapi.yaml', include: ['listPets'] };
  let n = 0;

  it.each<[string, Record<string, unknown>, boolean]>([
    ['the smallest config', base, true],
    [
      'every key',
      { $schema: '../schema/integration.schema.json', id: 'pets-1.v2_x', ...base, policies: { createPet: 'read', 'POST /pets/{id}': 'read' } },
      true,
    ],
    ['an empty include (agents reach nothing)', { ...base, include: [] }, true],
    ['an empty policies map', { ...base, policies: {} }, true],
    ['"METHOD /path" entries, any case', { ...base, include: ['GET /pets', 'post /pets'] }, true],
    ['spec with a leading ./', { ...base, spec: './openapi.yaml' }, true],
    ['no type', { spec: 'openapi.yaml', include: [] }, false],
    ['no spec', { type: 'openapi', include: [] }, false],
    ['no include', { type: 'openapi', spec: 'openapi.yaml' }, false],
    ['type other than openapi', { ...base, type: 'mcp' }, false],
    ['an unknown key', { ...base, polices: {} }, false],
    ['id upper-case', { ...base, id: 'Pets' }, false],
    ['id starting with a dot', { ...base, id: '.pets' }, false],
    ['id a number', { ...base, id: 7 }, false],
    ['spec empty', { ...base, spec: '' }, false],
    ['spec blank', { ...base, spec: ' \t' }, false],
    ['spec an https URL', { ...base, spec: 'https://example.com/openapi.json' }, false],
    ['spec a file URL', { ...base, spec: 'FILE:///etc/passwd' }, false],
    ['spec a number', { ...base, spec: 1 }, false],
    ['include a string', { ...base, include: 'listPets' }, false],
    ['include an empty entry', { ...base, include: [''] }, false],
    ['include a blank entry', { ...base, include: ['  '] }, false],
    ['include a number entry', { ...base, include: [1] }, false],
    ['include the same entry twice', { ...base, include: ['listPets', 'listPets'] }, false],
    ['policies an array', { ...base, policies: ['listPets'] }, false],
    ['a policy other than read', { ...base, policies: { listPets: 'write' } }, false],
    ['a policy true', { ...base, policies: { listPets: true } }, false],
  ])('%s', async (_name, config, accepted) => {
    const validate = integrationValidator();
    expect(validate(config), JSON.stringify(validate.errors)).toBe(accepted);
    const file = join(dir, `c${n++}.json`);
    writeFileSync(file, JSON.stringify(config, null, 2));
    const loaded = await loadIntegrationConfig(file).then(
      () => true,
      (e: unknown) => {
        expect(e).toBeInstanceOf(ConfigError);
        return false;
      },
    );
    expect(loaded).toBe(accepted);
  });
});

describe('loadIntegrationConfig: schema problems name the line, the pointer and a fix', () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-integration-errors-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const refused = async (text: string): Promise<ConfigError> => {
    const file = join(dir, `integration-${n++}.json`);
    writeFileSync(file, text);
    const e = await loadIntegrationConfig(file, { root: dir }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).exitCode).toBe(2);
    expect((e as ConfigError).location?.file).toBe(file);
    return e as ConfigError;
  };

  it.each([
    {
      name: 'a misspelt key → the allowed key it resembles',
      text: '{\n  "type": "openapi",\n  "spec": "openapi.yaml",\n  "include": ["listPets"],\n  "polcies": { "createPet": "read" }\n}\n',
      line: 5,
      pointer: '/polcies',
      message: 'unknown key "polcies" in integration config; did you mean "policies"?',
      fix: /^remove it; allowed keys: \$schema, id, type, spec, include, policies$/,
    },
    {
      name: 'a misspelt key → the allowed key it resembles, whatever its case',
      text: '{\n  "type": "openapi",\n  "Spec": "openapi.yaml",\n  "spec": "openapi.yaml",\n  "include": []\n}\n',
      line: 3,
      pointer: '/Spec',
      message: 'unknown key "Spec" in integration config; did you mean "spec"?',
      fix: /allowed keys/,
    },
    {
      name: 'include as a string',
      text: '{\n  "type": "openapi",\n  "spec": "openapi.yaml",\n  "include": "listPets"\n}\n',
      line: 4,
      pointer: '/include',
      message: '`include` must be an array, found a string',
      fix: /in an array/,
    },
    {
      name: 'an include entry that is not a string',
      text: '{\n  "type": "openapi",\n  "spec": "openapi.yaml",\n  "include": [\n    "listPets",\n    { "operationId": "createPet" }\n  ]\n}\n',
      line: 6,
      pointer: '/include/1',
      message: '`include` entries must be non-empty strings, found an object',
      fix: /operationId or "METHOD \/path"/,
    },
    {
      name: 'a blank spec',
      text: '{\n  "type": "openapi",\n  "spec": " ",\n  "include": []\n}\n',
      line: 3,
      pointer: '/spec',
      message: '`spec` must be a non-empty string, found " "',
      fix: /path of the OpenAPI document/,
    },
    {
      name: 'a missing include',
      text: '{\n  "type": "openapi",\n  "spec": "openapi.yaml"\n}\n',
      line: 1,
      pointer: '',
      message: 'integration config has no `include`',
      fix: /^add "include": \[/,
    },
    {
      name: 'a missing type',
      text: '{\n  "spec": "openapi.yaml",\n  "include": []\n}\n',
      line: 1,
      pointer: '',
      message: 'integration config has no `type`',
      fix: /^set "type": "openapi"$/,
    },
    {
      name: 'a policy with a slash in its key, other than read',
      text: '{\n  "type": "openapi",\n  "spec": "openapi.yaml",\n  "include": ["POST /pets"],\n  "policies": {\n    "POST /pets": "readonly"\n  }\n}\n',
      line: 6,
      pointer: '/policies/POST ~1pets',
      message: 'invalid policy "readonly" for "POST /pets": the only policy is "read"',
      fix: /^use "read"/,
    },
  ])('$name', async ({ text, line, pointer, message, fix }) => {
    const e = await refused(text);
    expect(e.message).toBe(message);
    expect(e.location).toMatchObject({ line, pointer });
    expect(e.fix).toMatch(fix);
    expect(e.others).toEqual([]);
  });

  it('a policy other than read is the rule invalid-policy', async () => {
    const e = await refused('{"type":"openapi","spec":"openapi.yaml","include":["createPet"],\n"policies":{"createPet":"write"}}');
    expect(e.ruleId).toBe('invalid-policy');
    expect(e.location).toMatchObject({ line: 2, pointer: '/policies/createPet' });
  });

  it('every problem of the file at once, the first in file order, the others with their own lines, fixes and did-you-mean', async () => {
    const text = [
      '{',
      '  "tpye": "openapi",',
      '  "spec": 42,',
      '  "include": [',
      '    "listPets",',
      '    7',
      '  ],',
      '  "policy": { "createPet": "read" },',
      '  "id": "Pets"',
      '}',
      '',
    ].join('\n');
    const e = await refused(text);
    expect([e.location?.line, e.location?.pointer, e.message]).toEqual([1, '', 'integration config has no `type`']);
    expect(e.others.map((o) => [o.location?.line, o.location?.pointer, o.message, o.fix])).toEqual([
      [2, '/tpye', 'unknown key "tpye" in integration config; did you mean "type"?', 'remove it; allowed keys: $schema, id, type, spec, include, policies'],
      [3, '/spec', '`spec` must be a non-empty string, found a number', 'set it to the path of the OpenAPI document, relative to this file'],
      [6, '/include/1', '`include` entries must be non-empty strings, found a number', 'write an operationId or "METHOD /path"'],
      [
        8,
        '/policy',
        'unknown key "policy" in integration config; did you mean "policies"?',
        'remove it; allowed keys: $schema, id, type, spec, include, policies',
      ],
      [
        9,
        '/id',
        'integration `id` must be a string matching ^[a-z0-9][a-z0-9._-]*$, found "Pets"',
        'use lower-case letters, digits, ".", "_" and "-", starting with a letter or digit',
      ],
    ]);
    const shown = e.describe();
    expect(shown).toContain(`integration-${n - 1}.json:1: integration config has no \`type\`\n  fix: set "type": "openapi"\n  also: `);
    expect(shown).toContain(`integration-${n - 1}.json:8 (at /policy): unknown key "policy" in integration config; did you mean "policies"?`);
  });

  it('a duplicate include entry is found after the schema passes, at the second entry, naming the first', async () => {
    writeFileSync(join(dir, 'openapi.yaml'), 'openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\n');
    const e = await refused('{\n  "type": "openapi",\n  "spec": "openapi.yaml",\n  "include": [\n    "listPets",\n    "createPet",\n    "listPets"\n  ]\n}\n');
    expect(e.message).toBe('duplicate `include` entry "listPets" (also at /include/0, line 5)');
    expect(e.location).toMatchObject({ line: 7, pointer: '/include/2' });
  });
});
