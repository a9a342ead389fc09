/** toolgate.yml: a full valid example, and broken files whose ConfigError names the right line and a fix. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adHocPolicy } from '../../src/config/policy-resolve.js';
import { parsePolicy } from '../../src/config/policy.js';
import { defaultContractPath } from '../../src/config/source-config.js';
import { loadPolicy } from '../../src/config/policy-file.js';
import { displayPath } from '../../src/util/display-path.js';
import { DEFAULT_LIST_LIMITS, DEFAULT_TIMEOUTS } from '../../src/config/source-config.js';
import { ConfigError } from '../../src/util/errors.js';
import { ROOT } from '../support/mcp-fixtures.js';
import { refusedPolicy } from '../support/config-error.js';

const DIR = join(ROOT, 'test/fixtures/policies');
const read = (name: string) => readFileSync(join(DIR, name), 'utf8');
const parse = (name: string) => parsePolicy(read(name), name, '/repo');

function refused(name: string): ConfigError {
  try {
    parse(name);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`${name} was accepted`);
}

describe('a valid policy', () => {
  const p = parse('valid-full.yml');

  it('resolves sources with defaults and absolute paths', () => {
    expect(p.file).toBe('valid-full.yml');
    expect(p.root).toBe('/repo');
    expect(p.sources.map((s) => [s.id, s.kind, s.contract])).toEqual([
      ['notes', 'mcp', '/repo/.toolgate/notes.surface.json'],
      ['remote', 'mcp', '/repo/contracts/remote.json'],
      ['rental', 'openapi', '/repo/.toolgate/rental.surface.json'],
      ['saved', 'recorded', '/repo/.toolgate/saved.surface.json'],
    ]);
    const [notes, remote, rental, saved] = p.sources;
    expect(notes).toMatchObject({
      mcp: {
        transport: 'stdio',
        command: 'node',
        args: ['examples/notes/server.mjs', '--stdio'],
        cwd: '/repo/examples/notes',
        env: ['NOTES_DB', 'NODE_OPTIONS'],
        capabilities: { roots: { listChanged: true } },
        timeouts: { startupMs: 60000, requestMs: 5000, totalMs: 120000 },
        limits: { maxPages: 10, maxBytes: 1048576 },
      },
    });
    expect(remote).toMatchObject({
      mcp: {
        transport: 'http',
        url: 'http://127.0.0.1:3000/mcp',
        start: { command: 'node', args: ['server.mjs', '--port', '3000'], cwd: '/repo', env: ['API_KEY'] },
        headers: [
          { name: 'Authorization', env: 'REMOTE_TOKEN', prefix: 'Bearer ' },
          { name: 'X-Tenant', env: 'TENANT' },
        ],
        capabilities: {},
        timeouts: DEFAULT_TIMEOUTS,
        limits: DEFAULT_LIST_LIMITS,
      },
    });
    expect(rental).toMatchObject({ integration: '/repo/integrations/rental.json' });
    expect(saved).toMatchObject({ file: '/repo/recorded/tools.json' });
  });

  it('several schema problems in one file are reported together, in file order, one per value', () => {
    const e = refusedPolicy(
      'sources:\n  - id: s\n    recorded: t.json\n    colour: blue\nlimits:\n  max-tools: many\noverrides:\n  - tools: 7\n    rules: {}\nreviewz: 1\n',
    );
    expect(e?.message).toBe('unknown key "colour"');
    expect(e?.location?.line).toBe(4);
    expect(e?.others.map((o) => [o.location?.line, o.message])).toEqual([
      [6, 'must be integer'],
      [8, 'must be string'],
      [10, 'unknown key "reviewz"; did you mean "review"?'],
    ]);
    expect(e?.describe()).toContain('\n  also: toolgate.yml:6 (at /limits/max-tools): must be integer');
  });

  it('two sources sharing one contract file, or review.required above the named reviewers, are errors at their line', () => {
    const shared = refusedPolicy('sources:\n  - id: a\n    recorded: t.json\n  - id: b\n    recorded: t.json\n    contract: .toolgate/a.surface.json\n');
    expect(shared.message).toBe('sources "a" and "b" would share the contract .toolgate/a.surface.json');
    expect(shared.location).toMatchObject({ line: 6, pointer: '/sources/1/contract' });
    const required = refusedPolicy('sources:\n  - id: a\n    recorded: t.json\nreview:\n  reviewers: [alice, "@Alice"]\n  required: 2\n');
    expect(required.message).toBe('review.required is 2 but review.reviewers names only 1 person: it can never be met');
    expect(required.location?.line).toBe(6);
    // A team's size is unknown here: no complaint.
    expect(
      parsePolicy('sources:\n  - id: a\n    recorded: t.json\nreview:\n  reviewers: [acme/security]\n  required: 2\n', 'toolgate.yml', '/r').review.required,
    ).toBe(2);
  });

  it('a level for a rule that is a configuration error (unknown-operation) is refused at its line', () => {
    const e = refusedPolicy('sources:\n  - id: s\n    recorded: t.json\nrules:\n  unknown-operation: warning\n');
    expect(e).toMatchObject({
      message: 'rule "unknown-operation" is a configuration error; its level cannot be changed',
      location: { line: 5, pointer: '/rules/unknown-operation' },
    });
  });

  it('runtime: defaults, patterns as lists, and a wrong class refused at its line', () => {
    const base = 'sources:\n  - id: s\n    recorded: t.json\n';
    expect(parsePolicy(base, 'toolgate.yml', '/repo').runtime).toEqual({
      allow: ['read', 'write'],
      deny: [],
      maxResultBytes: 4194304,
      maxMessageBytes: 67108864,
      logArguments: false,
      onDrift: 'hide',
      passMethods: [],
    });
    const r = parsePolicy(
      `${base}runtime:\n  allow: [read]\n  deny: "*delete*"\n  allow-tools: [get_*, list_*]\n  on-drift: refuse-all\n  pass-methods: [vendor/run]\n`,
      'toolgate.yml',
      '/repo',
    ).runtime;
    expect(r).toMatchObject({ allow: ['read'], deny: ['*delete*'], allowTools: ['get_*', 'list_*'], onDrift: 'refuse-all', passMethods: ['vendor/run'] });
    expect(refusedPolicy(`${base}runtime:\n  pass-methods: [""]\n`).location).toMatchObject({ line: 5 });
    const e = refusedPolicy(`${base}runtime:\n  allow: [read, exec]\n`);
    expect(e.location).toMatchObject({ line: 5 });
    expect(e.message).toMatch(/runtime\/allow\/1|allowed values/);
  });

  it('keeps rules, overrides (patterns as lists), limits, deny, review and flags', () => {
    expect(p.rules).toEqual({ 'open-arguments': 'off', 'description-changed': 'error' });
    expect(p.overrides).toEqual([
      { tools: ['admin_*'], rules: { 'unannotated-tool': 'error' } },
      { tools: ['legacy_*', 'old.*'], sources: ['notes'], rules: { 'partially-annotated-tool': 'off' } },
    ]);
    expect(p.limits).toEqual({ maxTools: 40, maxPayloadBytes: 65536 });
    expect(p.deny).toEqual([
      { tools: ['delete_*'], when: 'reachable', reason: 'deletes customer data', pointer: '/deny/0' },
      { tools: ['send_*', 'post_*'], when: 'read', pointer: '/deny/1' },
    ]);
    expect(p.review).toEqual({ reviewers: ['alice', '@bob'], fresh: true, required: 2 });
    expect(p.requireExplicitHints).toBe(true);
    expect(p.allowPullRequestTarget).toBe(false);
    expect(p.allowRemoteRefs).toBe(false);
    expect(p.schemaBudgetMs).toBe(1500);
  });

  it('lineOf gives the line of a key (verified by reading the fixture)', () => {
    expect(p.lineOf('/sources/1')).toBe(17);
    expect(p.lineOf('/sources/1/mcp/headers')).toBe(24);
    expect(p.lineOf('/limits/max-tools')).toBe(44);
    expect(p.lineOf('/limits')).toBe(43);
    expect(p.lineOf('/deny/1')).toBe(49);
    expect(p.lineOf('/overrides/1/rules/partially-annotated-tool')).toBe(42);
    expect(p.lineOf('/rules/open-arguments')).toBe(33);
    // Unknown pointers fall back to the nearest existing parent: here the document (line 2, after the comment).
    expect(p.lineOf('/no/such/key')).toBe(2);
    expect(p.lineOf('/limits/no-such-limit')).toBe(43);
  });

  it('a minimal policy gets the defaults', () => {
    const m = parsePolicy('sources:\n  - id: s\n    recorded: tools.json\n', 'toolgate.yml', '/r');
    expect(m).toMatchObject({
      rules: {},
      overrides: [],
      limits: {},
      deny: [],
      review: { fresh: false, required: 1 },
      requireExplicitHints: false,
      allowPullRequestTarget: false,
      allowRemoteRefs: false,
      allowRunnerEnv: [],
      schemaBudgetMs: 2000,
    });
    expect(m.review.reviewers).toBeUndefined();
    expect(defaultContractPath('s')).toBe('.toolgate/s.surface.json');
  });

  it('loadPolicy reads the file; a missing file says how to start', async () => {
    const loaded = await loadPolicy(join(DIR, 'valid-full.yml'));
    expect(loaded.sources).toHaveLength(4);
    expect(loaded.root).toBe(DIR);
    const e = await loadPolicy(join(DIR, 'missing.yml')).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toBe('policy file not found');
    expect((e as ConfigError).fix).toContain('toolgate audit');
  });

  it('loadPolicy of a directory says which file to pass', async () => {
    const e = await loadPolicy(DIR).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as ConfigError).message).toBe('cannot read the policy file: it is a directory');
    expect((e as ConfigError).fix).toBe(
      `Pass the policy file, not its directory: --config ${join(DIR, 'toolgate.yml')} (in the Action, the \`config\` input).`,
    );
  });

  it('adHocPolicy and displayPath', () => {
    const a = adHocPolicy({ id: 'x', kind: 'recorded', file: '/r/t.json', contract: '/r/.toolgate/x.surface.json' }, '/r');
    expect(a.file).toBe('');
    expect(a.lineOf('/anything')).toBe(1);
    expect(displayPath('/r', '/r/.toolgate/x.surface.json')).toBe('.toolgate/x.surface.json');
    expect(displayPath('/r', '/elsewhere/x.json')).toBe('/elsewhere/x.json');
    expect(displayPath('/r', 'rel/x.json')).toBe('rel/x.json');
  });

  it('allow-runner-env lists environment variable names, each once; a bad or repeated name is an error at its line', () => {
    const ok = parsePolicy('sources:\n  - id: s\n    recorded: t.json\nallow-runner-env: [RUNNER_TEMP, github_token]\n', 'toolgate.yml', '/r');
    expect(ok.allowRunnerEnv).toEqual(['RUNNER_TEMP', 'github_token']);
    const bad = refusedPolicy('sources:\n  - id: s\n    recorded: t.json\nallow-runner-env:\n  - RUNNER_TEMP\n  - INPUT_GITHUB-TOKEN\n');
    expect(bad.message).toBe('must match pattern "^[A-Za-z_][A-Za-z0-9_]*$"');
    expect(bad.location).toMatchObject({ file: 'toolgate.yml', line: 6, pointer: '/allow-runner-env/1' });
    const twice = refusedPolicy('sources:\n  - id: s\n    recorded: t.json\nallow-runner-env: [GITHUB_TOKEN, GITHUB_TOKEN]\n');
    expect(twice.message).toMatch(/duplicate items/);
    expect(twice.location?.line).toBe(4);
    expect(refusedPolicy('sources:\n  - id: s\n    recorded: t.json\nallow-runner-env: GITHUB_TOKEN\n').message).toBe('must be array');
  });

  it('has tells whether the file holds a value at a pointer', () => {
    expect(['', '/sources/0/mcp/env/1', '/limits/max-tools', '/review/fresh', '/deny/1'].map((ptr) => p.has(ptr))).toEqual([true, true, true, true, true]);
    expect(['/deny/2', '/limits/nope', '/review/fresh/x', '/allow-runner-env'].map((ptr) => p.has(ptr))).toEqual([false, false, false, false]);
  });

  it('an empty file is refused: sources are required', () => {
    const e = refusedPolicy('');
    expect(e?.message).toBe('missing required key "sources"');
    expect(e?.location?.line).toBe(1);
  });
});

describe('YAML values: only what JSON can hold', () => {
  const base = 'sources:\n  - id: s\n    mcp:\n      command: node\n';

  it.each([
    { name: '!!binary', yaml: `${base}      capabilities: !!binary aGVsbG8=\n`, pointer: '/sources/0/mcp/capabilities', what: 'a byte array', line: 5 },
    {
      name: '!!timestamp',
      yaml: `${base}      capabilities:\n        when: !!timestamp 2001-12-14\n`,
      pointer: '/sources/0/mcp/capabilities/when',
      what: 'a date',
      line: 6,
    },
    { name: '!!set', yaml: `${base}      capabilities: !!set {a: null}\n`, pointer: '/sources/0/mcp/capabilities', what: 'a set', line: 5 },
    { name: '!!omap', yaml: `${base}      capabilities:\n        x: !!omap [a: 1]\n`, pointer: '/sources/0/mcp/capabilities/x', what: 'a map', line: 6 },
    {
      name: 'a %YAML 1.1 date, untagged',
      yaml: `%YAML 1.1\n---\n${base}      capabilities: 2001-12-14\n`,
      pointer: '/sources/0/mcp/capabilities',
      what: 'a date',
      line: 7,
    },
    {
      name: '.inf',
      yaml: `${base}      capabilities:\n        x: .inf\n`,
      pointer: '/sources/0/mcp/capabilities/x',
      what: 'an infinite number, or not a number',
      line: 6,
    },
    {
      name: '.nan under an escaped key',
      yaml: `${base}      capabilities:\n        "a/b": .nan\n`,
      pointer: '/sources/0/mcp/capabilities/a~1b',
      what: 'an infinite number, or not a number',
      line: 6,
    },
  ])('a value JSON cannot hold is refused at its line: $name', ({ yaml, pointer, what, line }) => {
    const e = refusedPolicy(yaml);
    expect(e.message).toBe(`the value at ${pointer} is not JSON (${what})`);
    expect(e.location).toMatchObject({ line, pointer });
  });

  it("the core schema's own tags read as without them, and a tag of the file's own reads as the plain value", () => {
    const p = parsePolicy(`${base}      args: [!!str 1, !!str true, !custom a]\n      capabilities: !!map {roots: !!map {}}\n`, 'toolgate.yml', '/repo');
    const mcp = (p.sources[0] as { mcp: { args: string[]; capabilities: unknown } }).mcp;
    expect(mcp.args).toEqual(['1', 'true', 'a']);
    expect(mcp.capabilities).toEqual({ roots: {} });
  });
});

describe('duplicate keys and lines (linear: one set per map, one index of lines)', () => {
  const base = 'sources:\n  - id: s\n    recorded: t.json\n';

  it.each([
    { name: 'block map', yaml: `${base}rules:\n  tool-added: error\n  tool-added: off\n`, line: 6, column: 3 },
    { name: 'flow map', yaml: `${base}rules: {tool-added: error, tool-added: off}\n`, line: 4, column: 28 },
    { name: 'inside a sequence item', yaml: 'sources:\n  - id: s\n    recorded: t.json\n    id: t\n', line: 4, column: 5 },
    { name: 'before a later syntax error', yaml: `${base}review:\n  fresh: true\n  fresh: false\nrules: [\n`, line: 6, column: 3 },
  ])('$name: "Map keys must be unique" at the second key', ({ yaml, line, column }) => {
    const e = refusedPolicy(yaml);
    expect(e.message).toBe('YAML syntax error: Map keys must be unique');
    expect(e.location).toMatchObject({ line, column });
  });

  it('a syntax error before a duplicate is reported first; 1 and "1" are different keys, as in YAML', () => {
    expect(refusedPolicy(`${base}rules: [\nreview:\n  fresh: true\n  fresh: false\n`).message).toMatch(/^YAML syntax error: (?!Map keys)/);
    expect(refusedPolicy(`${base}1: a\n"1": b\n`).message).toBe('unknown key "1"');
  });

  it('lineOf: escaped keys, sequence items, the nearest existing parent', () => {
    const p = parsePolicy(
      '# comment\nsources:\n  - id: s\n    mcp:\n      command: node\n      capabilities:\n        "a/b":\n          "c~d": 1\n',
      'toolgate.yml',
      '/r',
    );
    expect(p.lineOf('')).toBe(2);
    expect(p.lineOf('/sources/0')).toBe(3);
    expect(p.lineOf('/sources/0/mcp/capabilities/a~1b')).toBe(7);
    expect(p.lineOf('/sources/0/mcp/capabilities/a~1b/c~0d')).toBe(8);
    expect(p.lineOf('/sources/0/mcp/capabilities/nope/deeper')).toBe(6);
    expect(p.lineOf('/sources/3/id')).toBe(2);
    expect(p.lineOf('/nothing')).toBe(2);
  });
});

/** Each broken fixture: the line (checked by reading the file), pointer and what the message says. */
const BROKEN: { file: string; line: number; column?: number; pointer?: string; message: RegExp; fix?: RegExp }[] = [
  {
    file: 'safety-field-unknown.yml',
    line: 12,
    pointer: '/deny/0/less-safe/0',
    message: /^"paid-generaton" is not a safety field; did you mean "paid-generation"\?$/,
    fix: /Declare it under `safety-fields`/,
  },
  {
    file: 'safety-field-duplicate.yml',
    line: 9,
    pointer: '/safety-fields/1',
    message: /^safety fields 1 and 2 are both named "paid_generation"$/,
    fix: /its own `name`/,
  },
  { file: 'safety-field-pointer.yml', line: 8, pointer: '/safety-fields/0/pointer', message: /has a "~" that is neither "~0" nor "~1"/, fix: /RFC 6901/ },
  { file: 'yaml-syntax.yml', line: 7, column: 13, message: /^YAML syntax error: Nested mappings are not allowed in compact mappings$/ },
  { file: 'yaml-unclosed-flow.yml', line: 6, column: 1, message: /^YAML syntax error: Flow sequence .* end with a \]$/ },
  { file: 'duplicate-key.yml', line: 7, column: 1, message: /YAML syntax error: Map keys must be unique/ },
  { file: 'unknown-top-level-key.yml', line: 7, pointer: '/reviewers', message: /^unknown key "reviewers"; did you mean "review"\?$/ },
  { file: 'unknown-source-key.yml', line: 8, pointer: '/sources/1/timeout', message: /^unknown key "timeout"$/ },
  { file: 'unknown-mcp-key.yml', line: 5, pointer: '/sources/0/mcp/arguments', message: /^unknown key "arguments"$/ },
  { file: 'wrong-type.yml', line: 7, pointer: '/limits/max-payload-bytes', message: /^must be integer$/ },
  { file: 'wrong-type-args.yml', line: 5, pointer: '/sources/0/mcp/args', message: /^must be array$/ },
  {
    file: 'unknown-rule-id.yml',
    line: 7,
    pointer: '/rules/unlisted-tools',
    message: /^unknown rule id "unlisted-tools"; did you mean "unlisted-tool"\?$/,
    fix: /toolgate rules/,
  },
  {
    file: 'unknown-rule-id-override.yml',
    line: 11,
    pointer: '/overrides/1/rules/annotation-droped',
    message: /^unknown rule id "annotation-droped"; did you mean "annotation-dropped"\?$/,
    fix: /docs\/rules\.md/,
  },
  { file: 'duplicate-source-id.yml', line: 7, pointer: '/sources/2/id', message: /^duplicate source id "notes"$/ },
  {
    file: 'mcp-and-openapi.yml',
    line: 5,
    pointer: '/sources/1',
    message: /source "rental" must have exactly one of mcp, openapi, recorded \(has mcp, openapi\)/,
  },
  { file: 'no-kind.yml', line: 2, pointer: '/sources/0', message: /source "notes" must have exactly one of mcp, openapi, recorded \(has none\)/ },
  { file: 'command-and-url.yml', line: 6, pointer: '/sources/1/mcp', message: /mcp source "remote" needs exactly one of command \(stdio\) or url \(HTTP\)/ },
  { file: 'headers-on-stdio.yml', line: 6, pointer: '/sources/0/mcp/headers', message: /`start` and `headers` only apply to an HTTP source \(url\)/ },
  { file: 'http-with-args.yml', line: 5, pointer: '/sources/0/mcp/env', message: /`args`, `env` and `cwd` belong to a stdio source or to `start`/ },
  { file: 'bad-level.yml', line: 7, pointer: '/rules/unlisted-tool', message: /"error", "warning", "notice", "off"/ },
  { file: 'bad-source-id.yml', line: 2, pointer: '/sources/0/id', message: /must match pattern/ },
];

describe('broken policies', () => {
  it.each(BROKEN)('$file → line $line', ({ file, line, column, pointer, message, fix }) => {
    const text = read(file);
    expect(line).toBeLessThanOrEqual(text.split('\n').length);
    const e = refused(file);
    expect(e.message).toMatch(message);
    expect(e.location?.file).toBe(file);
    expect(e.location?.line).toBe(line);
    if (column !== undefined) expect(e.location?.column).toBe(column);
    if (pointer !== undefined) expect(e.location?.pointer).toBe(pointer);
    expect(e.fix).toMatch(fix ?? /policy file at that line; its schema is schema\/toolgate\.schema\.json/);
    expect(e.describe()).toContain(`${file}:${line}`);
    expect(e.exitCode).toBe(2);
  });

  it('every fixture in the folder is covered', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.yml'))
      .sort();
    expect(files).toEqual(['valid-full.yml', ...BROKEN.map((b) => b.file)].sort());
  });
});
