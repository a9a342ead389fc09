/**
 * Small builders for the pure-core tests: Surfaces are made from tool lists through the real
 * `normalizeTool` / `assembleSurface` (never with hand-written derived fields), and a rule-case
 * harness runs a table of cases through `evaluate()` the way `run-check.ts` builds its context.
 *
 * Rule test convention (checked by test/rules/catalog.test.ts): every `test/rules/<id>.test.ts`
 * calls `ruleTests('<id>', { fires: [ {...}, ... ], silent: [ {...}, ... ] })` with both arrays
 * written inline and non-empty. A `fires` case must expect at least one finding of `<id>`; a
 * `silent` case must expect none (`expect: []`, or only findings of other ids it `watch`es).
 * The harness checks both at run time as well.
 */
import { describe, expect, it } from 'vitest';
import type { Policy } from '../../src/config/policy-model.js';
import { parsePolicy } from '../../src/config/policy.js';
import type { CheckContext, Approval, Target } from '../../src/rules/context.js';
import type { SchemaVerdict } from '../../src/diff/schema/index.js';
import { evaluate, type Locate } from '../../src/rules/evaluate.js';
import { assembleContext, buildContext, judgeNow, type ContextInput, type Judgement } from '../../src/judge/judge.js';
import type { Finding, Level } from '../../src/rules/types.js';
import type { RuleId } from '../../src/rules/catalog.js';
import type { RawTool } from '../../src/sources/types.js';
import type { ServerInfo, Surface, SurfaceSource, SurfaceTool, ToolOrigin } from '../../src/surface/model.js';
import type { Json, JsonObject } from '../../src/util/json.js';
import { assembleSurface, normalizeSnapshot, normalizeTool, type MalformedTool } from '../../src/surface/normalize.js';
import { serializeContract } from '../../src/contract/serialize.js';
import { parseContract } from '../../src/contract/store.js';
import { contractsLocator, policyLocator } from '../../src/judge/locate.js';
import { ConfigError } from '../../src/util/errors.js';
import { diffPolicies, judgingPolicy } from '../../src/config/policy-diff.js';
import { policyFindings } from '../../src/run-check.js';

/** Source id used by every built surface unless given. */
export const SOURCE_ID = 'src';

/** An empty, closed input schema (keeps `open-arguments` quiet). */
export const CLOSED: JsonObject = { type: 'object', properties: {}, additionalProperties: false };

/** All four hints declared: a read-only, non-destructive, idempotent, closed-world tool. */
export const READ_HINTS: JsonObject = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
/** All four hints declared: a write that is additive and closed-world. */
export const WRITE_HINTS: JsonObject = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/**
 * A raw MCP tool as a server lists it: a closed input schema, a description, and the given
 * annotations (none when `annotations` is undefined). `over` replaces or adds top-level keys;
 * a key set to `undefined` in `over` is removed.
 */
export function mcpTool(name: string, annotations?: JsonObject, over: Record<string, Json | undefined> = {}): JsonObject {
  const t: Record<string, Json | undefined> = { name, description: `The ${name} tool.`, inputSchema: CLOSED };
  if (annotations !== undefined) t.annotations = annotations;
  for (const [k, v] of Object.entries(over)) t[k] = v;
  for (const k of Object.keys(t)) if (t[k] === undefined) delete t[k];
  return t as JsonObject;
}

/** A read tool with all four hints declared. */
export const readTool = (name: string, over: Record<string, Json | undefined> = {}) => mcpTool(name, READ_HINTS, over);
/** A write tool with all four hints declared. */
export const writeTool = (name: string, over: Record<string, Json | undefined> = {}) => mcpTool(name, WRITE_HINTS, over);

/** A copy of `o` without the given keys (e.g. a hint no longer declared). */
export function without(o: JsonObject, ...keys: string[]): JsonObject {
  const out: JsonObject = { ...o };
  for (const k of keys) delete out[k];
  return out;
}

/** Normalizes one raw tool with the real `normalizeTool`; fails the test when it cannot be pinned (no name). */
export function pin(raw: RawTool, index = 0): SurfaceTool {
  const t = normalizeTool(raw, index);
  if ('problem' in t) throw new Error(`test tool #${index} is malformed: ${t.problem}`);
  return t;
}

/** Options shared by the surface builders. */
export interface SurfaceOptions {
  id?: string;
  kind?: SurfaceSource['kind'];
  transport?: SurfaceSource['transport'];
  clientCapabilities?: JsonObject;
  server?: ServerInfo;
  /** OpenAPI sources: the files the surface is built from (`source.files`). */
  files?: string[];
}

function sourceOf(o: SurfaceOptions, kind: SurfaceSource['kind']): SurfaceSource {
  return {
    id: o.id ?? SOURCE_ID,
    kind: o.kind ?? kind,
    ...(o.transport ? { transport: o.transport } : kind === 'mcp' ? { transport: 'stdio' as const } : {}),
    ...(o.clientCapabilities ? { clientCapabilities: o.clientCapabilities } : kind === 'mcp' ? { clientCapabilities: {} } : {}),
    ...(o.files ? { files: o.files } : {}),
  };
}

/** Result of {@link buildSurface}: the surface and the tools that could not be pinned. */
export interface Built {
  surface: Surface;
  malformed: MalformedTool[];
}

/** Raw tools → Surface through the real `normalizeSnapshot` (malformed entries listed, those with a name pinned). */
export function buildSurface(raw: RawTool[], o: SurfaceOptions = {}, kind: SurfaceSource['kind'] = 'mcp'): Built {
  const server =
    o.server ??
    (kind === 'openapi'
      ? { name: 'Test API', version: '1.0.0', protocolVersion: 'openapi-3.1.0' }
      : { name: 'test-server', version: '1.0.0', protocolVersion: '2025-11-25' });
  return normalizeSnapshot({ source: sourceOf(o, kind), server, tools: raw });
}

/** MCP tool objects → Surface (throws when one is malformed). */
export function mcpSurface(tools: Json[], o: SurfaceOptions = {}): Surface {
  const b = buildSurface(
    tools.map((tool) => ({ tool })),
    o,
  );
  if (b.malformed.length > 0) throw new Error(`malformed test tool: ${b.malformed[0]?.problem}`);
  return b.surface;
}

/** An OpenAPI operation as the openapi source hands it to normalization. */
export interface OpSpec {
  name: string;
  method: string;
  path: string;
  operationId?: string;
  /** A `policies: read` entry on a non-GET/HEAD operation. */
  promoted?: boolean;
  description?: string;
  inputSchema?: JsonObject;
  /**
   * The call fields of its origin (`servers`, `security`, ...) as the source pins them; absent:
   * none, as in a contract of format 1.
   */
  call?: Omit<ToolOrigin, 'method' | 'path' | 'operationId' | 'promoted'>;
}

/** One OpenAPI raw tool: safety class from the verb and the policy, as the source derives it. */
export function openapiRaw(op: OpSpec): RawTool {
  const safe = op.method === 'GET' || op.method === 'HEAD';
  const origin: ToolOrigin = {
    method: op.method,
    path: op.path,
    ...(op.operationId !== undefined ? { operationId: op.operationId } : {}),
    ...(!safe && op.promoted ? { promoted: true } : {}),
    ...op.call,
  };
  return {
    tool: { name: op.name, description: op.description ?? `${op.method} ${op.path}`, inputSchema: op.inputSchema ?? CLOSED },
    origin,
    safetyClass: safe || (!safe && op.promoted) ? 'read' : 'disabled',
  };
}

/** OpenAPI operations → Surface. */
export function openapiSurface(ops: OpSpec[], o: SurfaceOptions = {}): Surface {
  return buildSurface(ops.map(openapiRaw), o, 'openapi').surface;
}

/** The directory {@link policyFrom}'s policies are read from. */
const POLICY_ROOT = '/tmp';

/** A policy from YAML through the real parser; `sources` is added when the text has none. */
export function policyFrom(yaml = ''): Policy {
  const text = /^sources:/m.test(yaml) ? yaml : `sources:\n  - id: ${SOURCE_ID}\n    mcp:\n      command: node\n${yaml}`;
  return parsePolicy(text, 'toolgate.yml', POLICY_ROOT);
}

// ---------------------------------------------------------------------------------------------
// Rule-case harness
// ---------------------------------------------------------------------------------------------

/** What a case expects of one finding (only the given keys are compared, `tool` always). */
export interface Expected {
  ruleId: string;
  tool?: string;
  level?: Level;
  /** Compared with `toMatchObject`. */
  data?: Record<string, unknown>;
  /** Substring or pattern of the message. */
  message?: string | RegExp;
  /** Pattern of the fix (what the reports print under "What to do"). */
  fix?: RegExp;
  /** Compared with `toMatchObject` (e.g. `{file, line}` of a ConfigError). */
  location?: Record<string, unknown>;
}

/** A case run through `evaluate()`. */
export interface EvalCase {
  name: string;
  /**
   * Base of the change review (the PR base contract). Absent: no base (outside a pull request
   * with no contract). `null`: a pull request whose base has no contract (it adopts toolgate);
   * run-check then compares against the head without tools, so every tool is new.
   */
  base?: Surface | Json[] | null;
  head: Surface | Json[];
  /** Committed contract; default: the head (a PR that ran `toolgate update`); `null`: none. */
  contract?: Surface | Json[] | null;
  /** toolgate.yml text (see {@link policyFrom}); in a pull request (`basePolicy` set), the head's. */
  policy?: string;
  /**
   * toolgate.yml text at the base: the case is a pull request, judged by the policy run-check
   * builds from both (`judgingPolicy`: the base's keys, the head's sources with the base's
   * containment), so a rule table can show that the head cannot relax what judges it.
   */
  basePolicy?: string;
  approval?: Approval;
  schemaVerdicts?: Record<string, SchemaVerdict>;
  malformed?: MalformedTool[];
  /** Rule ids compared besides the file's own (default: only the file's). */
  watch?: string[];
  expect: Expected[];
}

/** A case whose findings come from elsewhere (run-check, the OpenAPI loader). */
export interface RunCase {
  name: string;
  /** Produces findings; a thrown ConfigError with a `ruleId` counts as one finding of that id. */
  run: () => Promise<Pick<Finding, 'ruleId'>[]> | Pick<Finding, 'ruleId'>[];
  watch?: string[];
  expect: Expected[];
  timeout?: number;
}

/** One row of a rule table. */
export type RuleCase = EvalCase | RunCase;

const asSurface = (s: Surface | Json[]): Surface => (Array.isArray(s) ? mcpSurface(s) : s);

/**
 * Places findings as a run does for a source with a committed contract: a target in toolgate.yml
 * by `policyLocator`, any other by `contractsLocator` in the contract as loaded from the text
 * `toolgate update` writes for `contract` (with its lines). With no contract, an empty one of the
 * same source stands in, where every tool is missing.
 */
export function contractLocate(ctx: Pick<CheckContext, 'contract' | 'head' | 'policy'>, file = '.toolgate/src.surface.json'): Locate {
  const surface = ctx.contract ?? assembleSurface(ctx.head, []);
  const inContract = contractsLocator([parseContract(serializeContract(surface).text, file)]);
  const inPolicy = policyLocator({ policy: ctx.policy, root: POLICY_ROOT }, '');
  return (t: Target) => (t.in === 'policy' ? inPolicy(t) : inContract(t));
}

/** Builds the CheckContext through the judge's own path (changes: base→head, drift: contract→head). */
export function contextFor(c: Omit<EvalCase, 'name' | 'expect'> & { name?: string }): CheckContext {
  return assembleContext(contextInput(c), new Map(Object.entries(c.schemaVerdicts ?? {})));
}

/** The judge's input for a case: a `null` base is first adoption (run-check's empty base). */
function contextInput(c: Omit<EvalCase, 'name' | 'expect'>): ContextInput {
  const head = asSurface(c.head);
  const contract = c.contract === null ? undefined : c.contract === undefined ? head : asSurface(c.contract);
  const base = c.base === undefined ? undefined : c.base === null ? { ...head, tools: [], digest: '' } : asSurface(c.base);
  return {
    sourceId: head.source.id,
    head,
    malformed: c.malformed ?? [],
    policy: c.basePolicy === undefined ? policyFrom(c.policy) : judgingPolicy(policyFrom(c.basePolicy), policyFrom(c.policy)),
    ...(contract ? { contract } : {}),
    ...(base ? { base } : {}),
    ...(c.approval ? { approval: c.approval } : {}),
  };
}

/**
 * One case as a user sees it: every rule, then the folding of restatements (judge/fold.ts).
 * Rule tables use {@link evaluateCase} (each rule on its own, nothing folded).
 */
export function judgeCase(c: Omit<EvalCase, 'name' | 'expect'> & { name?: string }): Judgement {
  const ctx = contextFor(c);
  return judgeNow(ctx, { locate: contractLocate(ctx) });
}

/** Runs one evaluate case: every finding, unfiltered. */
export function evaluateCase(c: Omit<EvalCase, 'name' | 'expect'> & { name?: string }): Finding[] {
  const ctx = contextFor(c);
  return evaluate(ctx, contractLocate(ctx));
}

/**
 * An evaluate case whose schema verdicts come from the real classifier (json-schema-diff in a
 * worker), computed exactly as run-check does for every `input-schema-changed` change.
 */
export function classified(c: Omit<EvalCase, 'schemaVerdicts'> & { timeout?: number }): RunCase {
  return {
    name: c.name,
    ...(c.watch ? { watch: c.watch } : {}),
    expect: c.expect,
    timeout: c.timeout ?? 30_000,
    run: async () => {
      // The schema verdicts from the real classifier, through the judge's own path.
      const ctx = await buildContext(contextInput(c));
      return evaluate(ctx, contractLocate(ctx));
    },
  };
}

/** A thrown ConfigError as a finding-like record (its rule id, message and location). */
export function configErrorAsFinding(e: unknown): Pick<Finding, 'ruleId' | 'message'> & { location?: unknown; fix?: string } {
  if (!(e instanceof ConfigError)) throw e;
  return { ruleId: e.ruleId ?? '(no rule id)', message: e.message, location: e.location, ...(e.fix ? { fix: e.fix } : {}) };
}

type Actual = Pick<Finding, 'ruleId'> & Partial<Pick<Finding, 'tool' | 'level' | 'data' | 'message' | 'fix'>> & { location?: unknown };

function compare(ruleId: string, watch: string[] | undefined, actual: Actual[], expected: Expected[]): void {
  const ids = new Set([ruleId, ...(watch ?? [])]);
  const order = (a: { ruleId: string; tool?: string }, b: { ruleId: string; tool?: string }) =>
    a.ruleId.localeCompare(b.ruleId) || (a.tool ?? '').localeCompare(b.tool ?? '');
  const got = actual.filter((f) => ids.has(f.ruleId)).sort(order);
  const want = [...expected].sort(order);
  const summary = (xs: { ruleId: string; tool?: string }[]) => xs.map((x) => `${x.ruleId}${x.tool !== undefined ? `(${x.tool})` : ''}`);
  expect(summary(got), 'rule ids and tools of the findings').toEqual(summary(want));
  // Same rule and tool several times (e.g. one finding per hint): pair each expectation with the
  // first unused finding that satisfies it, so the table need not follow the evaluation order.
  const used = new Set<number>();
  for (const w of want) {
    const failures: string[] = [];
    const idx = got.findIndex((g, i) => {
      if (used.has(i) || g.ruleId !== w.ruleId || g.tool !== w.tool) return false;
      try {
        if (w.level !== undefined) expect(g.level, `level of ${w.ruleId}`).toBe(w.level);
        if (w.data !== undefined) expect(g.data ?? {}, `data of ${w.ruleId}`).toMatchObject(w.data);
        if (w.location !== undefined) expect(g.location ?? {}, `location of ${w.ruleId}`).toMatchObject(w.location);
        if (typeof w.message === 'string') expect(g.message, `message of ${w.ruleId}`).toContain(w.message);
        else if (w.message) expect(g.message, `message of ${w.ruleId}`).toMatch(w.message);
        if (w.fix) expect(g.fix, `fix of ${w.ruleId}`).toMatch(w.fix);
        return true;
      } catch (e) {
        failures.push((e as Error).message);
        return false;
      }
    });
    if (idx < 0)
      throw new Error(
        `no finding matches ${JSON.stringify(w, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v))}:\n${failures.join('\n')}\nfindings: ${JSON.stringify(got, null, 2)}`,
      );
    used.add(idx);
  }
}

async function runCase(ruleId: string, c: RuleCase): Promise<void> {
  if ('run' in c) {
    let actual: Actual[];
    try {
      actual = await c.run();
    } catch (e) {
      actual = [configErrorAsFinding(e)];
    }
    compare(ruleId, c.watch, actual, c.expect);
    return;
  }
  compare(ruleId, c.watch, evaluateCase(c), c.expect);
}

/**
 * Declares the tests of one rule: each `fires` case must expect at least one finding of
 * `ruleId`, each `silent` case none. Both tables must be non-empty.
 */
export function ruleTests(ruleId: RuleId, tables: { fires: RuleCase[]; silent: RuleCase[] }): void {
  describe(ruleId, () => {
    it('has at least one case that fires and one that stays silent', () => {
      expect(tables.fires.length).toBeGreaterThan(0);
      expect(tables.silent.length).toBeGreaterThan(0);
      for (const c of tables.fires)
        expect(
          c.expect.some((e) => e.ruleId === ruleId),
          `fires case "${c.name}" expects ${ruleId}`,
        ).toBe(true);
      for (const c of tables.silent)
        expect(
          c.expect.some((e) => e.ruleId === ruleId),
          `silent case "${c.name}" expects no ${ruleId}`,
        ).toBe(false);
    });
    describe('fires', () => {
      for (const c of tables.fires) it(c.name, () => runCase(ruleId, c), 'timeout' in c ? c.timeout : undefined);
    });
    describe('silent', () => {
      for (const c of tables.silent) it(c.name, () => runCase(ruleId, c), 'timeout' in c ? c.timeout : undefined);
    });
  });
}

/**
 * The findings of a pull request that changes toolgate.yml from `base` to `head` (YAML texts),
 * judged as the Action judges it: the base policy's settings, the head's lines.
 */
export function policyReview(base: string, head: string, approval?: Approval): () => Finding[] {
  return () => {
    const b = parsePolicy(base, 'toolgate.yml', '/repo');
    const h = parsePolicy(head, 'toolgate.yml', '/repo');
    return policyFindings({ policy: judgingPolicy(b, h), policyChanges: diffPolicies(b, h), root: '/repo', ...(approval ? { approval } : {}) });
  };
}
