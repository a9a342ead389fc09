/**
 * Exports checked by the targets' own engines: Cedar policies by Cedar
 * (@cedar-policy/cedar-wasm, the engine ToolHive embeds through cedar-go's equivalent semantics),
 * agentgateway rules by a CEL implementation (@marcbachmann/cel-js), Envoy's `includeRegex` by
 * RE2 (re2js; Envoy compiles it with Go's RE2 `regexp`), and the toolgate target by toolgate's
 * own policy loader and admission. Requests are built the way each gateway builds them (see the
 * comments of src/export/targets/*.ts for the sources).
 */
import * as cedar from '@cedar-policy/cedar-wasm/nodejs';
import { parse as celParse } from '@marcbachmann/cel-js';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_RUNTIME } from '../../src/config/policy-resolve.js';
import { exportSet } from '../../src/export/export-set.js';
import type { ExportInput } from '../../src/export/model.js';
import { renderExport } from '../../src/export/render.js';
import { agentgatewayK8sTarget, agentgatewayTarget, packedExpressions } from '../../src/export/targets/agentgateway.js';
import { envoyTarget, re2Literal } from '../../src/export/targets/envoy.js';
import { exactPattern, toolgateTarget } from '../../src/export/targets/toolgate.js';
import { toolhiveCedarTarget } from '../../src/export/targets/toolhive-cedar.js';
import { runtimeRefusal } from '../../src/runtime/admission.js';
import { HINT_NAMES, type Surface, type SurfaceTool } from '../../src/surface/model.js';
import type { Json } from '../../src/util/json.js';
import { normalizeSnapshot } from '../../src/surface/normalize.js';
import { CASES, filesystemContract, inputOf, policyOf } from './support.js';

const FS = CASES['server-filesystem'];

/** A contract of the given tools (as a server would list them). */
function contractOf(tools: Json[]): Surface {
  return normalizeSnapshot({ source: { id: 'srv', kind: 'recorded' }, tools: tools.map((tool) => ({ tool })) }).surface;
}

/** Names a hostile server could serve: quotes, backslashes, Unicode, look-alikes, CEL/Cedar/RE2 syntax. */
const HOSTILE_NAMES = [
  'plain',
  'q"uote',
  'back\\slash',
  "it's",
  'dot.star.*',
  'brace{a,b}',
  'nl\nx',
  'bidi\u202eevil',
  'emoji😀',
  'zw\u200bj',
  'ℌ',
  '" || true || "',
  '") when { true };//',
  '^$|.*',
];

function hostileInput(): ExportInput {
  const contract = contractOf(HOSTILE_NAMES.map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } })));
  const { admitted, refused } = exportSet(contract, DEFAULT_RUNTIME);
  return { sourceId: 'srv', server: 'srv', contractFile: 'c', admitted, refused, runtime: DEFAULT_RUNTIME, transport: { command: 'node', args: ['s.js'] } };
}

// ---------------------------------------------------------------- Cedar (ToolHive)

/** The resource attributes ToolHive gives Cedar for a call (pkg/authz/authorizers/cedar/core.go). */
function toolhiveAttrs(hints: Partial<Record<string, boolean>>, args: Record<string, Json>): Record<string, unknown> {
  const attrs: Record<string, unknown> = { name: 'x', operation: 'call', feature: 'tool' };
  for (const h of HINT_NAMES) if (hints[h] !== undefined) attrs[h] = hints[h];
  for (const [k, v] of Object.entries(args)) {
    if (typeof v === 'string' || typeof v === 'boolean') attrs[`arg_${k}`] = v;
    else if (typeof v === 'number') attrs[`arg_${k}`] = { __extn: { fn: 'decimal', arg: v.toFixed(4) } };
    else attrs[`arg_${k}_present`] = true;
  }
  return attrs;
}

function cedarDecision(policies: string[], tool: string, attrs: Record<string, unknown>): string {
  const r = cedar.isAuthorized({
    principal: { type: 'Client', id: 'alice' },
    action: { type: 'Action', id: 'call_tool' },
    resource: { type: 'Tool', id: tool },
    context: {},
    policies: { staticPolicies: policies.join('\n') },
    entities: [{ uid: { type: 'Tool', id: tool }, attrs, parents: [] }],
  } as Parameters<typeof cedar.isAuthorized>[0]);
  if (r.type !== 'success') throw new Error(JSON.stringify(r.errors));
  // ToolHive denies on any evaluation error, whichever policy raised it (core.go IsAuthorized).
  return r.response.diagnostics.errors.length ? 'deny' : r.response.decision;
}

/** Valid arguments for a pinned tool: each declared string, enum and boolean property given. */
function validArgs(t: SurfaceTool): Record<string, Json> {
  const props = (t.inputSchema?.properties ?? {}) as Record<string, Record<string, Json>>;
  const out: Record<string, Json> = {};
  for (const [k, s] of Object.entries(props)) {
    if (Array.isArray(s.enum)) out[k] = s.enum[0] as Json;
    else if (s.type === 'string') out[k] = 'some/path';
    else if (s.type === 'boolean') out[k] = true;
    else if (s.type === 'array') out[k] = ['a'];
    else if (s.type === 'object') out[k] = {};
    else if (s.type === 'number' || s.type === 'integer') out[k] = 3;
  }
  return out;
}

const cedarPolicies = (text: string) => (parseYaml(text) as { cedar: { policies: string[] } }).cedar.policies;

describe('toolhive-cedar, evaluated by Cedar', () => {
  it('parses as a Cedar policy set', async () => {
    const policies = cedarPolicies(renderExport(toolhiveCedarTarget, inputOf(policyOf(FS.policy), await FS.contract())));
    const parsed = cedar.checkParsePolicySet({ staticPolicies: policies.join('\n') });
    expect(parsed.type).toBe('success');
  });

  it('allows every admitted tool called as served; denies an unlisted tool and the refused one', async () => {
    const contract = await FS.contract();
    const input = inputOf(policyOf(FS.policy), contract);
    const policies = cedarPolicies(renderExport(toolhiveCedarTarget, input));
    for (const t of input.admitted) expect(cedarDecision(policies, t.name, toolhiveAttrs(t.declaredHints, validArgs(t))), t.name).toBe('allow');
    // tools/list filtering: call_tool evaluated with the served hints and no arguments.
    for (const t of input.admitted) expect(cedarDecision(policies, t.name, toolhiveAttrs(t.declaredHints, {})), `${t.name} listed`).toBe('allow');
    expect(cedarDecision(policies, 'execute_command', toolhiveAttrs({ readOnlyHint: true }, {}))).toBe('deny');
    const moved = contract.tools.find((t) => t.name === 'move_file') as SurfaceTool;
    expect(cedarDecision(policies, 'move_file', toolhiveAttrs(moved.declaredHints, validArgs(moved)))).toBe('deny');
  });

  it('denies arguments that break a pinned enum or type, and hints that drifted from the pinned ones', async () => {
    const input = inputOf(policyOf(FS.policy), await FS.contract());
    const policies = cedarPolicies(renderExport(toolhiveCedarTarget, input));
    const sized = input.admitted.find((t) => t.name === 'list_directory_with_sizes') as SurfaceTool;
    expect((sized.inputSchema?.properties as Record<string, { enum?: string[] }>).sortBy?.enum).toEqual(['name', 'size']);
    const hints = sized.declaredHints;
    expect(cedarDecision(policies, sized.name, toolhiveAttrs(hints, { path: '/srv', sortBy: 'size' }))).toBe('allow');
    expect(cedarDecision(policies, sized.name, toolhiveAttrs(hints, { path: '/srv', sortBy: 'mtime' }))).toBe('deny');
    // A number where the pinned schema says string.
    expect(cedarDecision(policies, sized.name, toolhiveAttrs(hints, { path: 5 }))).toBe('deny');
    // A scalar where an array is pinned (ToolHive passes arrays as arg_<name>_present only).
    const tree = input.admitted.find((t) => t.name === 'directory_tree') as SurfaceTool;
    expect(cedarDecision(policies, tree.name, toolhiveAttrs(tree.declaredHints, { path: '/', excludePatterns: ['x'] }))).toBe('allow');
    expect(cedarDecision(policies, tree.name, toolhiveAttrs(tree.declaredHints, { path: '/', excludePatterns: 'x' }))).toBe('deny');
    // A boolean argument given as a string.
    const edit = input.admitted.find((t) => t.name === 'edit_file') as SurfaceTool;
    expect(cedarDecision(policies, edit.name, toolhiveAttrs(edit.declaredHints, { path: 'a', dryRun: 'yes' }))).toBe('deny');
    // The server now claims read_file writes, or drops its claims.
    const read = input.admitted.find((t) => t.name === 'read_file') as SurfaceTool;
    expect(cedarDecision(policies, read.name, toolhiveAttrs({ ...read.declaredHints, readOnlyHint: false }, {}))).toBe('deny');
    expect(cedarDecision(policies, read.name, toolhiveAttrs({}, {}))).toBe('deny');
  });

  it('matches hostile names exactly: each allowed by its own name, none by another', () => {
    const input = hostileInput();
    const policies = cedarPolicies(renderExport(toolhiveCedarTarget, input));
    for (const n of HOSTILE_NAMES) expect(cedarDecision(policies, n, toolhiveAttrs({ readOnlyHint: true }, {})), JSON.stringify(n)).toBe('allow');
    for (const n of ['Plain', 'plain ', 'bidievil', 'zwj', 'H', 'q\\"uote', 'dot.star.x', ''])
      expect(cedarDecision(policies, n, toolhiveAttrs({ readOnlyHint: true }, {})), JSON.stringify(n)).toBe('deny');
  });

  it('permits nothing when nothing is admitted, and stays a valid config', async () => {
    const input = inputOf(policyOf(`${FS.policy.replace('  deny: [move_file]\n', '')}  allow-tools: []\n`), await FS.contract());
    expect(input.admitted).toEqual([]);
    const policies = cedarPolicies(renderExport(toolhiveCedarTarget, input));
    expect(policies.length).toBeGreaterThan(0);
    expect(cedarDecision(policies, 'read_file', toolhiveAttrs({ readOnlyHint: true, openWorldHint: false }, {}))).toBe('deny');
  });
});

// ---------------------------------------------------------------- CEL (agentgateway)

/** agentgateway's decision with allow rules only: allowed when any rule is true; an error counts as false. */
function celAllows(rules: string[], target: string, name: string): boolean {
  return rules.some((r) => {
    try {
      return celParse(r)({ mcp: { tool: { target, name } } }) === true;
    } catch {
      return false;
    }
  });
}

const standaloneRules = (text: string) =>
  (parseYaml(text) as { mcp: { policies: { mcpAuthorization: { rules: string[] } } } }).mcp.policies.mcpAuthorization.rules;
const k8sRules = (text: string) =>
  (parseYaml(text) as { spec: { backend: { mcp: { authorization: { policy: { matchExpressions: string[] } } } } } }).spec.backend.mcp.authorization.policy
    .matchExpressions;

describe('agentgateway rules, evaluated by CEL', () => {
  it('allow the admitted tools of the server and nothing else', async () => {
    const input = inputOf(policyOf(FS.policy), await FS.contract());
    for (const rules of [standaloneRules(renderExport(agentgatewayTarget, input)), k8sRules(renderExport(agentgatewayK8sTarget, input))]) {
      for (const t of input.admitted) expect(celAllows(rules, 'filesystem', t.name), t.name).toBe(true);
      expect(celAllows(rules, 'filesystem', 'move_file')).toBe(false);
      expect(celAllows(rules, 'filesystem', 'execute_command')).toBe(false);
      // The same name on another target of the gateway is not this server's tool.
      expect(celAllows(rules, 'other', 'read_file')).toBe(false);
    }
  });

  it('hostile names: no name escapes its string literal', () => {
    const input = hostileInput();
    const rules = standaloneRules(renderExport(agentgatewayTarget, input));
    for (const n of HOSTILE_NAMES) expect(celAllows(rules, 'srv', n), JSON.stringify(n)).toBe(true);
    for (const n of ['anything', 'Plain', 'bidievil', 'dot.star.x', '']) expect(celAllows(rules, 'srv', n), JSON.stringify(n)).toBe(false);
  });

  it('packs 3,000 tools into at most 256 expressions of at most 16,384 characters that allow exactly them', () => {
    const names = Array.from({ length: 3000 }, (_, i) => `tool_${String(i).padStart(4, '0')}_${'x'.repeat(20)}`);
    const contract = contractOf(names.map((name) => ({ name, inputSchema: { type: 'object' } })));
    const { admitted, refused } = exportSet(contract, DEFAULT_RUNTIME);
    const input: ExportInput = { sourceId: 'srv', server: 'srv', contractFile: 'c', admitted, refused, runtime: DEFAULT_RUNTIME };
    const rules = packedExpressions(input);
    expect(rules.length).toBeLessThanOrEqual(256);
    for (const r of rules) expect(r.length).toBeLessThanOrEqual(16_384);
    for (const n of [names[0], names[1499], names[2999]] as string[]) expect(celAllows(rules, 'srv', n)).toBe(true);
    expect(celAllows(rules, 'srv', 'tool_3000')).toBe(false);
  });
});

// ---------------------------------------------------------------- RE2 (Envoy includeRegex)

describe('envoy includeRegex, evaluated by RE2', () => {
  it('past 32 names, one anchored alternation matches exactly the admitted names', () => {
    const input = hostileInput();
    const extra = contractOf(Array.from({ length: 40 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } })));
    const all = [...input.admitted, ...extra.tools];
    const doc = parseYaml(renderExport(envoyTarget, { ...input, admitted: all })) as {
      spec: { backendRefs: { toolSelector: { includeRegex?: string[]; include?: string[] } }[] };
    };
    const sel = doc.spec.backendRefs[0]!.toolSelector;
    expect(sel.include).toBeUndefined();
    expect(sel.includeRegex).toHaveLength(1);
    // Envoy uses Go's regexp MatchString (unanchored): the pattern anchors itself.
    const re = RE2JS.compile(sel.includeRegex![0]!);
    for (const t of all) expect(re.matcher(t.name).find(), JSON.stringify(t.name)).toBe(true);
    for (const n of ['t40', 'xt1', 't1x', 'plainx', 'dot.star.y', 'bidievil', '']) expect(re.matcher(n).find(), JSON.stringify(n)).toBe(false);
  });

  it('re2Literal: any string matches itself and only itself', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        const re = RE2JS.compile(`^(?:${re2Literal(a)})$`);
        expect(re.matcher(a).find()).toBe(true);
        if (a !== b) expect(re.matcher(b).find()).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------- toolgate's own engine

describe('toolgate target, read back by toolgate', () => {
  it('the runtime block loads as a policy and admits exactly the exported set', async () => {
    const input = inputOf(policyOf(FS.policy), await filesystemContract());
    const text = renderExport(toolgateTarget, input);
    const runtime = policyOf(`sources:\n  - id: srv\n    recorded: x.json\n${text}`).runtime;
    const contract = await filesystemContract();
    expect(contract.tools.filter((t) => runtimeRefusal(t, runtime) === undefined).map((t) => t.name)).toEqual(input.admitted.map((t) => t.name));
  });

  it('runtime.pass-methods is carried over when set, and left out when empty', async () => {
    const contract = await filesystemContract();
    expect(renderExport(toolgateTarget, inputOf(policyOf(FS.policy), contract))).not.toContain('pass-methods');
    const passing = inputOf(policyOf(`${FS.policy}  pass-methods: [vendor/run]\n`), contract);
    expect(policyOf(`sources:\n  - id: srv\n    recorded: x.json\n${renderExport(toolgateTarget, passing)}`).runtime.passMethods).toEqual(['vendor/run']);
  });

  it('exactPattern matches its name and no other (minimatch, as runtime.allow-tools uses it)', () => {
    const input = hostileInput();
    const runtime = policyOf(`sources:\n  - id: srv\n    recorded: x.json\n${renderExport(toolgateTarget, input)}`).runtime;
    for (const t of input.admitted) expect(runtimeRefusal(t, runtime), JSON.stringify(t.name)).toBeUndefined();
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const rt = { ...DEFAULT_RUNTIME, allowTools: [exactPattern(a)] };
        const tool = (name: string) => ({ ...(input.admitted[0] as SurfaceTool), name });
        expect(runtimeRefusal(tool(a), rt)).toBeUndefined();
        if (a !== b) expect(runtimeRefusal(tool(b), rt)).toBe('not-in-allow-tools');
      }),
      { numRuns: 500 },
    );
  });
});

describe('toolgate target: names with slashes are names, not paths', () => {
  it('x/../y, a//b and a/b/ each match only themselves', () => {
    const names = ['x/../y', 'x/y', 'y', 'a//b', 'a/b', 'a/b/', '/', '//'];
    const input = hostileInput();
    const tool = (name: string) => ({ ...(input.admitted[0] as SurfaceTool), name });
    for (const a of names) {
      const rt = { ...DEFAULT_RUNTIME, allowTools: [exactPattern(a)] };
      for (const b of names) expect(runtimeRefusal(tool(b), rt) === undefined, `${a} vs ${b}`).toBe(a === b);
    }
  });
});
