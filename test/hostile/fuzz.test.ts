/**
 * Property tests (fast-check) of the two parsers that read files people and tools edit:
 * `parsePolicy` (toolgate.yml) and `parseContract` (.toolgate/*.surface.json). For any input they
 * either return a value or throw a ConfigError that names the file and a line: never another
 * exception, never a hang. Run counts are bounded so CI stays fast; a failure prints the seed
 * and the shrunk counterexample (rerun with `fc.assert(..., { seed, path })`).
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../src/config/policy.js';
import { parseContract } from '../../src/contract/store.js';
import { serializeContract } from '../../src/contract/serialize.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import type { Json } from '../../src/util/json.js';
import { ConfigError } from '../../src/util/errors.js';

/** 300 in CI; set FUZZ_RUNS for a deeper local run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Runs `f`; passes when it returns or throws a ConfigError located in `file` at a line ≥ 1. */
function returnsOrConfigError(f: () => unknown, file: string): void {
  try {
    f();
  } catch (e) {
    if (!(e instanceof ConfigError)) throw new Error(`not a ConfigError: ${(e as Error)?.stack ?? String(e)}`, { cause: e });
    expect(e.location?.file).toBe(file);
    expect(e.location?.line).toBeGreaterThanOrEqual(1);
    expect(e.message.length).toBeGreaterThan(0);
    expect(e.describe()).toContain(file);
  }
}

// ---------------------------------------------------------------------------------------------
// toolgate.yml

const POLICY_KEYS = [
  'sources',
  'rules',
  'overrides',
  'limits',
  'deny',
  'review',
  'require-explicit-hints',
  'allow-pull-request-target',
  'allow-remote-refs',
  'schema-budget-ms',
];
const SOURCE_KEYS = ['id', 'mcp', 'openapi', 'recorded', 'contract'];
const MCP_KEYS = [
  'command',
  'args',
  'cwd',
  'env',
  'url',
  'start',
  'headers',
  'capabilities',
  'startup-timeout-ms',
  'request-timeout-ms',
  'total-timeout-ms',
  'max-pages',
  'max-bytes',
];

/** Values of every JSON type, kept small. */
const leaf = fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 100_000 }), fc.boolean(), fc.constant(null), fc.double({ noNaN: true }));
const anyValue = fc.jsonValue({ maxDepth: 3 });
const keyed = (keys: string[], value: fc.Arbitrary<unknown>) =>
  fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 8 })), value, { maxKeys: 5 });

/** Objects shaped like a policy (known keys, wrong or right types), to get past the first check. */
const policyLike = keyed(
  POLICY_KEYS,
  fc.oneof(
    anyValue,
    fc.array(keyed(SOURCE_KEYS, fc.oneof(leaf, keyed(MCP_KEYS, fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }))))), { maxLength: 3 }),
    keyed(['unlisted-tool', 'tool-removed', 'nope'], fc.constantFrom('error', 'warning', 'notice', 'off', 'fatal', 1)),
  ),
);

/** YAML-ish text: fragments of YAML syntax glued together. */
const yamlish = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(
        'sources:',
        '\n',
        '  ',
        '\t',
        '- ',
        'id: x',
        ': ',
        '[',
        ']',
        '{',
        '}',
        '&a ',
        '*a',
        '!!str ',
        '? ',
        '|',
        '>',
        '---',
        '...',
        '#',
        '"',
        "'",
        '%YAML 1.2',
        'mcp:',
        'command: node',
        'recorded: t.json',
        '<<: *a',
        '\u0000',
        '\uFEFF',
      ),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('parsePolicy', () => {
  it('arbitrary text: a Policy or a located ConfigError', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }), yamlish), (text) => {
        returnsOrConfigError(() => parsePolicy(text, 'fuzz.yml', '/tmp'), 'fuzz.yml');
      }),
      { numRuns: RUNS },
    );
  });

  it('arbitrary JSON values serialized to YAML: a Policy or a located ConfigError', () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, policyLike), (value) => {
        returnsOrConfigError(() => parsePolicy(stringify(value), 'fuzz.yml', '/tmp'), 'fuzz.yml');
      }),
      { numRuns: RUNS },
    );
  });

  it('anchors and aliases: undefined anchors and alias bombs are located ConfigErrors', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefg'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefg'[i]}`).join(', ')}]`),
    ].join('\n');
    for (const [text, line] of [
      ['sources: []\nrules: *nowhere\n', 2],
      [bomb, 2],
    ] as const) {
      let err: unknown;
      try {
        parsePolicy(text, 'fuzz.yml', '/tmp');
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).location).toMatchObject({ file: 'fuzz.yml', line });
    }
  });
});

// ---------------------------------------------------------------------------------------------
// contracts

/** A valid contract with a few tools of every kind of annotation. */
function validContract(): string {
  const tools: Json[] = [
    { name: 'get_item', description: 'Reads.', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, annotations: { readOnlyHint: true } },
    {
      name: 'delete_item',
      title: 'Delete',
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    { name: 'bare', inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, _meta: { note: 'x' }, 'x-extra': [1, 2] },
  ];
  const { surface } = normalizeSnapshot({ source: { id: 'fuzz', kind: 'recorded' }, tools: tools.map((tool) => ({ tool })) });
  return serializeContract(surface).text;
}

type Path = (string | number)[];

/** Every path to a value inside `v` (objects and arrays), root excluded. */
function paths(v: unknown, prefix: Path = []): Path[] {
  if (v === null || typeof v !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return entries.flatMap(([k, x]) => [[...prefix, k], ...paths(x, [...prefix, k])]);
}

type Mutation =
  { kind: 'set'; at: number; value: unknown } | { kind: 'delete'; at: number } | { kind: 'cut'; at: number } | { kind: 'splice'; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.oneof(anyValue, leaf) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), text: fc.string({ maxLength: 6 }) }),
);

function mutate(text: string, ms: Mutation[]): string {
  let out = text;
  for (const m of ms) {
    if (m.kind === 'cut') {
      out = out.slice(0, m.at % (out.length + 1));
      continue;
    }
    if (m.kind === 'splice') {
      const i = m.at % (out.length + 1);
      out = out.slice(0, i) + m.text + out.slice(i);
      continue;
    }
    let doc: unknown;
    try {
      doc = JSON.parse(out);
    } catch {
      continue; // already broken text: only text mutations apply
    }
    const all = paths(doc);
    if (all.length === 0) continue;
    const path = all[m.at % all.length]!;
    let parent = doc as Record<string | number, unknown>;
    for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
    const last = path.at(-1)!;
    if (m.kind === 'set') parent[last] = m.value;
    else if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
    out = `${JSON.stringify(doc, null, 2)}\n`;
  }
  return out;
}

describe('parseContract', () => {
  const valid = validContract();

  it('the base contract is valid', () => {
    expect(parseContract(valid, 'fuzz.surface.json').surface.tools).toHaveLength(3);
  });

  it('arbitrary text: a contract or a located ConfigError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc.string({ unit: 'binary', maxLength: 200 }),
          anyValue.map((v) => JSON.stringify(v)),
        ),
        (text) => {
          returnsOrConfigError(() => parseContract(text, 'fuzz.surface.json'), 'fuzz.surface.json');
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('valid contracts with random mutations: a contract or a located ConfigError', () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), (ms) => {
        returnsOrConfigError(() => parseContract(mutate(valid, ms), 'fuzz.surface.json'), 'fuzz.surface.json');
      }),
      { numRuns: RUNS },
    );
  });
});
