/**
 * What a pull request changes in `toolgate.yml`, judged by the policy it changes (docs/design.md §7): the
 * base commit's policy judges the PR, each relaxation is a `policy-relaxed` finding, each
 * tightening a notice that takes effect after the merge. Pure functions of two parsed policies.
 *
 * @module
 */
import { pointerSegments, toPointer } from '../util/json.js';
import { ConfigError } from '../util/errors.js';
import { loginKey } from './reviewers.js';
import { RULES, ruleById } from '../rules/catalog.js';
import type { DenyEntry, Policy, PolicyLevel, RuleOverride } from './policy.js';
import { displayPath } from '../util/display-path.js';
import { DEFAULT_CONTAINMENT, type CommandSpec, type Containment, type HeaderFromEnv, type SourceConfig } from './source-config.js';
import type { SafetyField } from '../surface/safety-fields.js';

/** One difference between the base and the head policy. */
export interface PolicyChange {
  /** true: the head policy is less strict than the base here (needs approval); false: tightening. */
  relaxed: boolean;
  /**
   * JSON pointer in the HEAD policy where the change is: the changed value when the head file
   * has it, else its closest enclosing value that it has (`/deny` for a removed deny entry, `''`
   * for the document). Use it with `head.lineOf(pointer)`.
   */
  pointer: string;
  /** One plain-text sentence for a reviewer; values from the policy are JSON-quoted and truncated. */
  message: string;
  /**
   * A short stable kind: 'rule-level', 'override', 'deny', 'review', 'limit', 'allow',
   * 'require-explicit-hints', 'source-removed', 'source-contract', 'source-kind',
   * 'source-command', 'source-env', 'source-url', 'source-headers', 'source-file', 'sandbox',
   * 'runtime', 'exports', 'safety-fields'.
   */
  kind: string;
}

/** Everything one comparison needs; `out` collects changes in the order they are found. */
interface Ctx {
  base: Policy;
  head: Policy;
  out: PolicyChange[];
}

/**
 * Every change from `base` to `head` that makes the policy less strict (`relaxed`) or stricter,
 * each located in the head file, in head line order. Both policies come from `parsePolicy` with
 * the same root. Not a change: `schema-budget-ms`, a source's capabilities, timeouts and list
 * limits.
 */
export function diffPolicies(base: Policy, head: Policy): PolicyChange[] {
  const ctx: Ctx = { base, head, out: [] };
  diffRules(ctx);
  diffOverrides(ctx);
  diffLimits(ctx);
  diffRuntime(ctx);
  diffExports(ctx);
  diffDeny(ctx);
  diffSafetyFields(ctx);
  diffReview(ctx);
  diffFlags(ctx);
  diffRunnerEnv(ctx);
  diffSources(ctx);
  const line = new Map(ctx.out.map((c) => [c.pointer, head.lineOf(c.pointer)]));
  // Array.prototype.sort is stable: changes on one line keep the order they were found in.
  return ctx.out.slice().sort((a, b) => (line.get(a.pointer) ?? 0) - (line.get(b.pointer) ?? 0));
}

/**
 * The policy that judges a pull request: base's levels/overrides/deny/review/limits/allow-* keys
 * (and every other setting, `schema-budget-ms` and `sandbox` included) with the head's sources
 * (each MCP source contained as the base's source of that id is, see below), file, root,
 * `lineOf` and `has`. Deny entries point at the head's identical entry, else at the head's
 * `deny` (or the document) when the PR removed or changed it, so findings land in the head file.
 */
export function judgingPolicy(base: Policy, head: Policy): Policy {
  const unused = [...head.deny];
  const deny = base.deny.map((d): DenyEntry => {
    const i = unused.findIndex((h) => denyKey(h) === denyKey(d));
    const pointer = i >= 0 ? unused.splice(i, 1)[0]!.pointer : nearest(head, '/deny');
    return { ...d, pointer };
  });
  const { file, root } = head;
  // The pull request's servers run before any approval: contained as the base says (a source the
  // base does not have gets the strictest containment), never as the head would have it.
  const sources = head.sources.map((s): SourceConfig => {
    if (s.kind !== 'mcp') return s;
    const b = base.sources.find((x) => x.id === s.id);
    const containment = b?.kind === 'mcp' ? (b.mcp.containment ?? DEFAULT_CONTAINMENT) : DEFAULT_CONTAINMENT;
    // An HTTP start command runs with the host's network; only one the base already runs may.
    const startNetwork =
      s.mcp.transport === 'http' && s.mcp.start !== undefined && b?.kind === 'mcp' && b.mcp.transport === 'http' && sameCommand(b.mcp.start, s.mcp.start);
    return { ...s, mcp: { ...s.mcp, containment: { ...containment, startNetwork } } };
  });
  return { ...base, deny, sources, file, root, lineOf: (p) => head.lineOf(p), has: (p) => head.has(p) };
}

function sameCommand(a: CommandSpec | undefined, b: CommandSpec): boolean {
  return a !== undefined && a.command === b.command && a.cwd === b.cwd && a.args.length === b.args.length && a.args.every((x, i) => x === b.args[i]);
}

/**
 * Names of the runner's own secrets and settings that a source must not pass to its server
 * unless allowed by name: GITHUB_TOKEN, and any name starting with ACTIONS_, INPUT_ or RUNNER_
 * (case-insensitive).
 */
export function isRunnerSecretName(name: string): boolean {
  return /^(GITHUB_TOKEN$|ACTIONS_|INPUT_|RUNNER_)/i.test(name);
}

/**
 * Each env entry of `head`'s sources (stdio `env`, HTTP `start.env`, and the `env` a header takes
 * its value from) that names a runner secret ({@link isRunnerSecretName}) not listed, exactly,
 * in `allowed` (the BASE policy's `allowRunnerEnv` when judging a PR, else head's own).
 */
export function runnerSecretsInEnv(head: Policy, allowed: readonly string[]): { sourceId: string; name: string; pointer: string }[] {
  const ok = new Set(allowed);
  return head.sources.flatMap((s, i) =>
    envEntries(s, `/sources/${i}/mcp`)
      .filter((e) => isRunnerSecretName(e.name) && !ok.has(e.name))
      .map((e) => ({ sourceId: s.id, ...e })),
  );
}

/** Every environment variable name an MCP source reads, with its pointer. */
function envEntries(s: SourceConfig, at: string): { name: string; pointer: string }[] {
  if (s.kind !== 'mcp') return [];
  const m = s.mcp;
  const names = (env: readonly string[], ptr: string) => env.map((name, j) => ({ name, pointer: `${ptr}/${j}` }));
  if (m.transport === 'stdio') return names(m.env, `${at}/env`);
  return [
    ...names(m.start?.env ?? [], `${at}/start/env`),
    ...m.headers.map((h) => ({ name: h.env, pointer: `${at}${toPointer(['headers', h.name, 'env'])}` })),
  ];
}

// ---------------------------------------------------------------------------------------------
// Helpers

const RANK: Record<PolicyLevel, number> = { off: 0, notice: 1, warning: 2, error: 3 };
const MAX_QUOTED = 80;
const MAX_LISTED = 10;

/** The pointer itself when the head file has it, else its closest enclosing value that it has. */
function nearest(head: Policy, pointer: string): string {
  const segs = pointerSegments(pointer);
  for (let n = segs.length; n > 0; n--) {
    const p = toPointer(segs.slice(0, n));
    if (head.has(p)) return p;
  }
  return '';
}

function push(ctx: Ctx, relaxed: boolean, kind: string, pointer: string, message: string): void {
  ctx.out.push({ relaxed, kind, pointer: nearest(ctx.head, pointer), message });
}

/**
 * A value from the policy as inert data: at most {@link MAX_QUOTED} code points, JSON-quoted,
 * with invisible, format and line-separator characters escaped too (`\uXXXX`), so it is one line.
 */
function q(value: string): string {
  const cps = Array.from(value);
  const cut = cps.length > MAX_QUOTED ? `${cps.slice(0, MAX_QUOTED - 1).join('')}\u2026` : value;
  return JSON.stringify(cut).replace(/[\p{Default_Ignorable_Code_Point}\p{Cf}\u2028\u2029]/gu, (c) =>
    Array.from(c, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''),
  );
}

/** A list of quoted values, `["a", "b"]`, the first {@link MAX_LISTED} of them. */
function qList(values: readonly string[]): string {
  const more = values.length > MAX_LISTED ? `, and ${values.length - MAX_LISTED} more` : '';
  return `[${values.slice(0, MAX_LISTED).map(q).join(', ')}${more}]`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function levelOf(p: Policy, rule: string): PolicyLevel {
  return p.rules[rule] ?? ruleById(rule)?.level ?? 'error';
}

/** Items of `a` whose key is not among `b`'s keys, each counted as often as it is unmatched. */
function missingFrom<T>(a: readonly T[], b: readonly T[], key: (x: T) => string): { item: T; index: number }[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(key(x), (left.get(key(x)) ?? 0) + 1);
  return a.flatMap((item, index) => {
    const n = left.get(key(item)) ?? 0;
    if (n > 0) {
      left.set(key(item), n - 1);
      return [];
    }
    return [{ item, index }];
  });
}

const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();

// ---------------------------------------------------------------------------------------------
// Rules, overrides, limits

function diffRules(ctx: Ctx): void {
  for (const { id } of RULES) {
    const from = levelOf(ctx.base, id);
    const to = levelOf(ctx.head, id);
    if (from === to) continue;
    const relaxed = RANK[to] < RANK[from];
    push(ctx, relaxed, 'rule-level', toPointer(['rules', id]), `rule "${id}" is ${relaxed ? 'lowered' : 'raised'} from ${from} to ${to}`);
  }
}

function overrideKey(o: RuleOverride): string {
  const rules = Object.entries(o.rules).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([sorted(o.tools), o.sources ? sorted(o.sources) : null, rules]);
}

function describeOverride(o: RuleOverride, p: Policy, verb: string): string {
  const where = o.sources ? ` in sources ${qList(o.sources)}` : '';
  const levels = Object.entries(o.rules).map(([id, level]) => `${id} ${level} (${levelOf(p, id)} without it)`);
  return `override for tools ${qList(o.tools)}${where} is ${verb}: ${levels.join(', ')}`;
}

function diffOverrides(ctx: Ctx): void {
  const { base, head } = ctx;
  for (const { item } of missingFrom(base.overrides, head.overrides, overrideKey)) {
    const relaxed = Object.entries(item.rules).some(([id, level]) => RANK[level] > RANK[levelOf(base, id)]);
    push(ctx, relaxed, 'override', '/overrides', describeOverride(item, base, 'removed'));
  }
  for (const { item, index } of missingFrom(head.overrides, base.overrides, overrideKey)) {
    // Judged against the base: the head's own `rules` lowering the same level must not hide it.
    const relaxed = Object.entries(item.rules).some(([id, level]) => RANK[level] < Math.max(RANK[levelOf(head, id)], RANK[levelOf(base, id)]));
    push(ctx, relaxed, 'override', `/overrides/${index}`, describeOverride(item, head, 'added'));
  }
}

function diffLimits(ctx: Ctx): void {
  const keys = [
    ['maxTools', 'max-tools'],
    ['maxPayloadBytes', 'max-payload-bytes'],
    ['maxTokens', 'max-tokens'],
    ['maxTokensPerTool', 'max-tokens-per-tool'],
  ] as const;
  for (const [key, name] of keys) {
    const from = ctx.base.limits[key];
    const to = ctx.head.limits[key];
    if (from === to) continue;
    const relaxed = to === undefined || (from !== undefined && to > from);
    const what =
      from === undefined
        ? `is added: ${to}`
        : to === undefined
          ? `is removed (was ${from}): no limit`
          : `is ${relaxed ? 'raised' : 'lowered'} from ${from} to ${to}`;
    push(ctx, relaxed, 'limit', `/limits/${name}`, `limits.${name} ${what}`);
  }
}

/**
 * The `runtime` block (docs/design.md §11): what the proxy admits and exports write. Relaxed: a class
 * allowed, a deny pattern removed, `allow-tools` removed or given a new pattern, a result or
 * message bound raised, `on-drift` from refuse-all to hide, argument values logged (they may
 * hold secrets), a method added to `pass-methods` (it reaches the server unjudged). The opposite
 * of each is a tightening.
 */
function diffRuntime(ctx: Ctx): void {
  const [b, h] = [ctx.base.runtime, ctx.head.runtime];
  const at = (k: string) => `/runtime/${k}`;
  const id = (x: string) => x;
  // missingFrom(a, b): the items of a that b lacks, with their index in a.
  for (const { item, index } of missingFrom(h.allow, b.allow, id))
    push(ctx, true, 'runtime', `${at('allow')}/${index}`, `runtime.allow admits ${q(item)} tools`);
  for (const { item } of missingFrom(b.allow, h.allow, id)) push(ctx, false, 'runtime', at('allow'), `runtime.allow no longer admits ${q(item)} tools`);
  for (const { item } of missingFrom(b.deny, h.deny, id)) push(ctx, true, 'runtime', at('deny'), `runtime.deny pattern ${q(item)} is removed`);
  for (const { item } of missingFrom(b.requireSafer ?? [], h.requireSafer ?? [], fieldKey))
    push(ctx, true, 'runtime', at('require-safer'), `runtime.require-safer no longer requires the safer side of ${q(item.name)}`);
  for (const { item, index } of missingFrom(h.requireSafer ?? [], b.requireSafer ?? [], fieldKey))
    push(ctx, false, 'runtime', `${at('require-safer')}/${index}`, `runtime.require-safer requires the safer side of ${q(item.name)}`);
  for (const { item, index } of missingFrom(h.deny, b.deny, id))
    push(ctx, false, 'runtime', `${at('deny')}/${index}`, `runtime.deny pattern ${q(item)} is added`);
  if (b.allowTools && !h.allowTools) push(ctx, true, 'runtime', '/runtime', 'runtime.allow-tools is removed: every pinned tool may be admitted');
  else if (!b.allowTools && h.allowTools) push(ctx, false, 'runtime', at('allow-tools'), `runtime.allow-tools is added: ${qList(h.allowTools)}`);
  else if (b.allowTools && h.allowTools) {
    for (const { item, index } of missingFrom(h.allowTools, b.allowTools, id))
      push(ctx, true, 'runtime', `${at('allow-tools')}/${index}`, `runtime.allow-tools pattern ${q(item)} is added`);
    for (const { item } of missingFrom(b.allowTools, h.allowTools, id))
      push(ctx, false, 'runtime', at('allow-tools'), `runtime.allow-tools pattern ${q(item)} is removed`);
  }
  for (const [key, name] of [
    ['maxResultBytes', 'max-result-bytes'],
    ['maxMessageBytes', 'max-message-bytes'],
  ] as const) {
    if (b[key] !== h[key])
      push(ctx, h[key] > b[key], 'runtime', at(name), `runtime.${name} is ${h[key] > b[key] ? 'raised' : 'lowered'} from ${b[key]} to ${h[key]}`);
  }
  for (const { item, index } of missingFrom(h.passMethods, b.passMethods, id))
    push(ctx, true, 'runtime', `${at('pass-methods')}/${index}`, `runtime.pass-methods passes ${q(item)} to the server unjudged`);
  for (const { item } of missingFrom(b.passMethods, h.passMethods, id))
    push(ctx, false, 'runtime', at('pass-methods'), `runtime.pass-methods no longer passes ${q(item)}`);
  if (b.onDrift !== h.onDrift) push(ctx, h.onDrift === 'hide', 'runtime', at('on-drift'), `runtime.on-drift is ${h.onDrift} (was ${b.onDrift})`);
  if (b.logArguments !== h.logArguments)
    push(
      ctx,
      h.logArguments,
      'runtime',
      at('log-arguments'),
      `runtime.log-arguments is ${h.logArguments ? 'on: argument values (secrets among them) are written to the decision log' : 'off'}`,
    );
}

/**
 * `exports:` (docs/design.md §12): a committed export stops being checked when its entry goes, so a pull
 * request that drops an entry (or retargets it) could leave a gateway allowing what the contract
 * no longer admits: relaxed. An added entry is a tightening.
 */
function diffExports(ctx: Ctx): void {
  const key = (e: Policy['exports'][number]) => JSON.stringify([e.to, displayPath(ctx.head.root, e.file), e.source, e.server, e.gateway ?? null]);
  const what = (e: Policy['exports'][number]) => `exports entry (to ${e.to}, file ${q(displayPath(ctx.head.root, e.file))})`;
  for (const { item } of missingFrom(ctx.base.exports, ctx.head.exports, key))
    push(ctx, true, 'exports', nearest(ctx.head, '/exports'), `${what(item)} is removed or changed: that export is no longer checked against the contract`);
  for (const { item, index } of missingFrom(ctx.head.exports, ctx.base.exports, key))
    push(ctx, false, 'exports', `/exports/${index}`, `${what(item)} is added`);
}

// ---------------------------------------------------------------------------------------------
// Deny, review, flags

function denyKey(d: DenyEntry): string {
  return JSON.stringify([sorted(d.tools), d.when, ...(d.lessSafe ? [sorted(d.lessSafe.map(fieldKey))] : [])]);
}

function describeDeny(d: DenyEntry): string {
  return `deny entry ${qList(d.tools)}${d.when === 'read' ? ' (when: read)' : ''}${d.lessSafe ? ` (less-safe: ${qList(d.lessSafe.map((f) => f.name))})` : ''}`;
}

/** A safety field by what it means (pointer, safer value, default), not by its name. */
function fieldKey(f: SafetyField): string {
  return JSON.stringify([f.pointer, f.safer, f.default ?? null, f.default !== undefined]);
}

/**
 * `safety-fields` (issue 16 §4): a field removed or redefined (another pointer, safer value or
 * default) is relaxed, since the selectors that name it then let through what it held back; a
 * field added is tightened.
 */
function diffSafetyFields(ctx: Ctx): void {
  const describe = (f: SafetyField) =>
    `safety field ${q(f.name)} (${f.pointer}, safer: ${JSON.stringify(f.safer)}${f.default !== undefined ? `, default: ${JSON.stringify(f.default)}` : ''})`;
  for (const { item } of missingFrom(ctx.base.safetyFields, ctx.head.safetyFields, fieldKey))
    push(ctx, true, 'safety-fields', '/safety-fields', `${describe(item)} is removed or redefined`);
  for (const { item, index } of missingFrom(ctx.head.safetyFields, ctx.base.safetyFields, fieldKey))
    push(ctx, false, 'safety-fields', `/safety-fields/${index}`, `${describe(item)} is added`);
}

function diffDeny(ctx: Ctx): void {
  for (const { item } of missingFrom(ctx.base.deny, ctx.head.deny, denyKey)) {
    push(ctx, true, 'deny', '/deny', `${describeDeny(item)} is removed`);
  }
  for (const { item, index } of missingFrom(ctx.head.deny, ctx.base.deny, denyKey)) {
    push(ctx, false, 'deny', `/deny/${index}`, `${describeDeny(item)} is added`);
  }
}

/** `review.reviewers` as written, or undefined when absent or empty (anyone may approve). */
const reviewersOf = (p: Policy) => (p.review.reviewers?.length ? p.review.reviewers : undefined);

function diffReviewers(ctx: Ctx): void {
  const from = reviewersOf(ctx.base);
  const to = reviewersOf(ctx.head);
  if (!from && !to) return;
  if (!to) {
    push(ctx, true, 'review', '/review/reviewers', 'review.reviewers is removed: anyone with write access other than the author may approve');
  } else if (!from) {
    push(ctx, false, 'review', '/review/reviewers', `review.reviewers is added: only ${qList(to)} may approve`);
  } else {
    for (const { item, index } of missingFrom(to, from, loginKey)) {
      push(ctx, true, 'review', `/review/reviewers/${index}`, `reviewer ${q(item)} is added to review.reviewers`);
    }
    for (const { item } of missingFrom(from, to, loginKey)) {
      push(ctx, false, 'review', '/review/reviewers', `reviewer ${q(item)} is removed from review.reviewers`);
    }
  }
}

function diffReview(ctx: Ctx): void {
  diffReviewers(ctx);
  const { base, head } = ctx;
  if (base.review.fresh !== head.review.fresh) {
    const relaxed = !head.review.fresh;
    push(
      ctx,
      relaxed,
      'review',
      '/review/fresh',
      relaxed ? 'review.fresh is turned off: an approval of an earlier commit counts' : 'review.fresh is turned on: the approval must be on the head commit',
    );
  }
  if (base.review.required !== head.review.required) {
    const relaxed = head.review.required < base.review.required;
    push(
      ctx,
      relaxed,
      'review',
      '/review/required',
      `review.required is ${relaxed ? 'lowered' : 'raised'} from ${base.review.required} to ${head.review.required}`,
    );
  }
}

/** A boolean key whose `true` is the less strict setting. */
function flag(ctx: Ctx, kind: string, name: string, get: (p: Policy) => boolean, strictWhenTrue = false): void {
  const from = get(ctx.base);
  const to = get(ctx.head);
  if (from === to) return;
  push(ctx, strictWhenTrue ? !to : to, kind, `/${name}`, `${name} is turned ${to ? 'on' : 'off'}`);
}

function diffFlags(ctx: Ctx): void {
  flag(ctx, 'require-explicit-hints', 'require-explicit-hints', (p) => p.requireExplicitHints, true);
  flag(ctx, 'allow', 'allow-pull-request-target', (p) => p.allowPullRequestTarget);
  flag(ctx, 'allow', 'allow-remote-refs', (p) => p.allowRemoteRefs);
  if (ctx.base.sandbox !== ctx.head.sandbox) {
    const relaxed = ctx.head.sandbox === 'auto';
    push(
      ctx,
      relaxed,
      'sandbox',
      '/sandbox',
      relaxed
        ? 'sandbox is no longer required: servers may run unsandboxed where the machine has no sandbox'
        : 'sandbox is now required: no server runs unsandboxed',
    );
  }
}

function diffRunnerEnv(ctx: Ctx): void {
  const same = (n: string) => n;
  for (const { item, index } of missingFrom(ctx.head.allowRunnerEnv, ctx.base.allowRunnerEnv, same)) {
    push(ctx, true, 'allow', `/allow-runner-env/${index}`, `allow-runner-env now lets sources pass ${item} to their servers`);
  }
  for (const { item } of missingFrom(ctx.base.allowRunnerEnv, ctx.head.allowRunnerEnv, same)) {
    push(ctx, false, 'allow', '/allow-runner-env', `allow-runner-env no longer lets sources pass ${item} to their servers`);
  }
}

// ---------------------------------------------------------------------------------------------
// Sources

/** What a source is, in words. */
function sourceKind(s: SourceConfig): string {
  if (s.kind === 'mcp') return s.mcp.transport === 'stdio' ? 'an MCP server over stdio' : 'an MCP server over HTTP';
  return s.kind === 'openapi' ? 'an OpenAPI integration' : 'a recorded tools/list result';
}

function diffSources(ctx: Ctx): void {
  const { base, head } = ctx;
  for (const b of base.sources) {
    const i = head.sources.findIndex((h) => h.id === b.id);
    if (i < 0) push(ctx, true, 'source-removed', '/sources', `source "${b.id}" is removed: its tools are no longer checked`);
    else diffSource(ctx, b, head.sources[i]!, `/sources/${i}`);
  }
  // A new source is new reach (every tool is new) and a new program CI starts with the names in
  // its env; a job that checks only some sources (a matrix) would never see it.
  head.sources.forEach((h, i) => {
    if (!base.sources.some((b) => b.id === h.id)) push(ctx, true, 'source-added', `/sources/${i}`, `source "${h.id}" is added: ${sourceKind(h)}`);
  });
}

function diffSource(ctx: Ctx, b: SourceConfig, h: SourceConfig, at: string): void {
  const path = (abs: string) => q(displayPath(ctx.head.root, abs) || '.');
  if (b.contract !== h.contract) {
    push(ctx, true, 'source-contract', `${at}/contract`, `source "${h.id}" now keeps its contract in ${path(h.contract)} instead of ${path(b.contract)}`);
  }
  if (sourceKind(b) !== sourceKind(h)) {
    push(ctx, true, 'source-kind', `${at}/${h.kind}`, `source "${h.id}" is now ${sourceKind(h)} instead of ${sourceKind(b)}`);
    return;
  }
  if (b.kind === 'mcp' && h.kind === 'mcp') diffMcp(ctx, h.id, b.mcp, h.mcp, `${at}/mcp`);
  const file = (s: SourceConfig) => (s.kind === 'openapi' ? s.integration : s.kind === 'recorded' ? s.file : '');
  if (file(b) !== file(h)) {
    const what = h.kind === 'openapi' ? 'integration config' : 'recorded tools/list result';
    push(ctx, true, 'source-file', `${at}/${h.kind}`, `source "${h.id}" now reads its ${what} from ${path(file(h))} instead of ${path(file(b))}`);
  }
}

type Mcp = Extract<SourceConfig, { kind: 'mcp' }>['mcp'];

function diffMcp(ctx: Ctx, id: string, b: Mcp, h: Mcp, at: string): void {
  diffContainment(ctx, id, b.containment ?? DEFAULT_CONTAINMENT, h.containment ?? DEFAULT_CONTAINMENT, at);
  if (b.transport === 'stdio' && h.transport === 'stdio') {
    diffCommand(ctx, id, b, h, at, SERVER);
    return;
  }
  if (b.transport !== 'http' || h.transport !== 'http') return;
  if (b.url !== h.url) push(ctx, true, 'source-url', `${at}/url`, `source "${id}" now connects to ${q(h.url)} instead of ${q(b.url)}`);
  diffStart(ctx, id, b.start, h.start, at);
  diffHeaders(ctx, id, b.headers, h.headers, at);
}

/** A source's sandbox settings: off, an open network or a new writable path is a relaxation. */
function diffContainment(ctx: Ctx, id: string, b: Containment, h: Containment, at: string): void {
  if (b.sandbox !== h.sandbox) {
    const relaxed = h.sandbox === 'off';
    push(
      ctx,
      relaxed,
      'sandbox',
      `${at}/sandbox`,
      relaxed ? `source "${id}" now runs its server outside the sandbox` : `source "${id}" runs its server in the sandbox again`,
    );
  }
  if (b.network !== h.network) {
    const relaxed = h.network === 'open';
    push(
      ctx,
      relaxed,
      'sandbox',
      `${at}/network`,
      relaxed ? `source "${id}" now gives its server the host's network` : `source "${id}" no longer gives its server the host's network`,
    );
  }
  const path = (abs: string) => q(displayPath(ctx.head.root, abs) || '.');
  h.writable.forEach((w, i) => {
    if (!b.writable.includes(w)) push(ctx, true, 'sandbox', `${at}/writable/${i}`, `source "${id}" now lets its server write ${path(w)}`);
  });
  for (const w of b.writable)
    if (!h.writable.includes(w)) push(ctx, false, 'sandbox', `${at}/writable`, `source "${id}" no longer lets its server write ${path(w)}`);
}

function diffStart(ctx: Ctx, id: string, b: CommandSpec | undefined, h: CommandSpec | undefined, at: string): void {
  if (!h) {
    if (b) push(ctx, false, 'source-command', at, `source "${id}" no longer runs ${q(b.command)} before connecting`);
    return;
  }
  if (!b) push(ctx, true, 'source-command', `${at}/start`, `source "${id}" now runs ${q(h.command)} before connecting`);
  const none: CommandSpec = { command: h.command, args: h.args, cwd: h.cwd, env: [] };
  diffCommand(ctx, id, b ?? none, h, `${at}/start`, START);
}

/** What a command is to its source, in words: `what` it is and `when` it runs. */
interface Role {
  what: string;
  when: string;
}
const SERVER: Role = { what: 'its server', when: '' };
const START: Role = { what: 'its start command', when: ' before connecting' };

/** `command`, `args`, `cwd` and `env` of a stdio server or an HTTP server's `start`. */
function diffCommand(ctx: Ctx, id: string, b: CommandSpec, h: CommandSpec, at: string, { what, when }: Role): void {
  const dir = (abs: string) => q(displayPath(ctx.head.root, abs) || '.');
  if (b.command !== h.command) push(ctx, true, 'source-command', `${at}/command`, `source "${id}" now runs ${q(h.command)}${when} instead of ${q(b.command)}`);
  if (JSON.stringify(b.args) !== JSON.stringify(h.args)) {
    push(ctx, true, 'source-command', `${at}/args`, `source "${id}" now passes the arguments ${qList(h.args)} to ${what} instead of ${qList(b.args)}`);
  }
  if (b.cwd !== h.cwd) push(ctx, true, 'source-command', `${at}/cwd`, `source "${id}" now runs ${what} in ${dir(h.cwd)} instead of ${dir(b.cwd)}`);
  diffEnv(ctx, id, b.env, h.env, `${at}/env`, what);
}

function diffEnv(ctx: Ctx, id: string, b: readonly string[], h: readonly string[], at: string, what: string): void {
  const added = missingFrom(h, b, (n) => n);
  const removed = missingFrom(b, h, (n) => n).map((r) => r.item);
  if (added.length > 0) {
    const names = added.map((a) => a.item);
    push(
      ctx,
      true,
      'source-env',
      `${at}/${added[0]!.index}`,
      `source "${id}" passes ${plural(names.length, 'more environment variable')} to ${what}: ${names.join(', ')}`,
    );
  }
  if (removed.length > 0) {
    push(ctx, false, 'source-env', at, `source "${id}" no longer passes ${plural(removed.length, 'environment variable')} to ${what}: ${removed.join(', ')}`);
  }
}

function diffHeaders(ctx: Ctx, id: string, b: readonly HeaderFromEnv[], h: readonly HeaderFromEnv[], at: string): void {
  const key = (x: HeaderFromEnv) => x.name.toLowerCase();
  const describe = (x: HeaderFromEnv) => `the value of ${q(x.env)}${x.prefix !== undefined ? ` after ${q(x.prefix)}` : ''}`;
  for (const x of h) {
    const was = b.find((y) => key(y) === key(x));
    if (was && was.env === x.env && was.prefix === x.prefix) continue;
    const now = `header ${q(x.name)} with ${describe(x)}`;
    push(ctx, true, 'source-headers', `${at}${toPointer(['headers', x.name])}`, `source "${id}" now sends ${now}${was ? ` instead of ${describe(was)}` : ''}`);
  }
  for (const x of b.filter((y) => !h.some((z) => key(z) === key(y)))) {
    push(ctx, false, 'source-headers', `${at}/headers`, `source "${id}" no longer sends header ${q(x.name)}`);
  }
}

/**
 * Refuses a policy that hands one of the runner's own secrets to a server. The server is code
 * from the pull request; `ACTIONS_RUNTIME_TOKEN` alone lets it write the workflow's cache.
 * @param allowed names the judging (base) policy's `allow-runner-env` lists.
 * @throws ConfigError at the first offending `env` entry.
 */
export function assertNoRunnerSecrets(policy: Policy, allowed: readonly string[]): void {
  const found = runnerSecretsInEnv(policy, allowed);
  const first = found[0];
  if (!first) return;
  throw new ConfigError(
    `source "${first.sourceId}" passes the runner's own ${JSON.stringify(first.name)} to its server${found.length > 1 ? ` (and ${found.length - 1} more such name${found.length === 2 ? '' : 's'})` : ''}`,
    policy.file ? { file: policy.file, line: policy.lineOf(first.pointer), pointer: first.pointer } : undefined,
    `Remove it from \`env\`. If the server truly needs it, name it in \`allow-runner-env\` in a pull request of its own: the base branch's policy decides.`,
  );
}
