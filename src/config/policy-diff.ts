/**
 * What a pull request changes in `toolgate.yml`, judged by the policy it changes (docs/design.md §7): the
 * base commit's policy judges the PR, each relaxation is a `policy-relaxed` finding, each
 * tightening a notice that takes effect after the merge. Which change relaxes a key is the key's
 * row in keys.ts; the sentences are policy-wording.ts's. Pure functions of two parsed policies.
 *
 * @module
 */
import { resolve } from 'node:path';
import { canonicalJson, escapePointerToken, isObject, jsonEqual, pointerSegments, toPointer, type Json, type JsonObject } from '../util/json.js';
import { ConfigError } from '../util/errors.js';
import { loginKey } from './reviewers.js';
import { RULES } from '../rules/catalog.js';
import type { DenyEntry, Policy } from './policy-model.js';
import { displayPath } from '../util/display-path.js';
import { DEFAULT_CONTAINMENT, type CommandSpec, type Containment, type SourceConfig } from './source-config.js';
import type { SafetyField } from '../surface/safety-fields.js';
import { POLICY_KEYS, nameOf, parentOf, type PolicyKey } from './keys.js';
import { WORDS, genericWords, str, type Said } from './policy-wording.js';
import { LEVEL_ORDER, ruleLevel } from './rule-levels.js';
import { additionsRelax, levelsOf, orderFlips, removalsRelax } from './override-order.js';

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
   * A short stable kind, the `kind` of the key's row in keys.ts: 'rule-level', 'override',
   * 'deny', 'review', 'limit', 'allow', 'require-explicit-hints', 'source-added',
   * 'source-removed', 'source-contract', 'source-kind', 'source-command', 'source-env',
   * 'source-url', 'source-headers', 'source-file', 'sandbox', 'runtime', 'exports',
   * 'safety-fields', or 'policy' for a key whose row names none.
   */
  kind: string;
}

/** Everything one comparison needs; `out` collects changes in the order they are found. */
interface Ctx {
  base: Policy;
  head: Policy;
  out: PolicyChange[];
}

/** Where a value is judged: the source it belongs to, and the list entries that hold it on each side. */
interface Scope {
  source?: string;
  entryB?: JsonObject;
  entryH?: JsonObject;
}

type Side = 'base' | 'head';

/**
 * Every change from `base` to `head` that makes the policy less strict (`relaxed`) or stricter,
 * each located in the head file, in head line order. Both policies come from `parsePolicy` with
 * the same root. Each key is judged by its row in {@link POLICY_KEYS}: `neutral` keys (such as
 * `schema-budget-ms`, a source's capabilities, timeouts and list limits) are no change.
 */
export function diffPolicies(base: Policy, head: Policy): PolicyChange[] {
  const ctx: Ctx = { base, head, out: [] };
  judgeBlock(ctx, '', base.doc, head.doc, '', {});
  const line = new Map(ctx.out.map((c) => [c.pointer, head.lineOf(c.pointer)]));
  // Array.prototype.sort is stable: changes on one line keep the order they were found in.
  return ctx.out.slice().sort((a, b) => (line.get(a.pointer) ?? 0) - (line.get(b.pointer) ?? 0));
}

// ---------------------------------------------------------------------------------------------
// The policy that judges

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
    return { ...s, mcp: { ...s.mcp, containment: judgedContainment(containment, s.mcp.containment, head.root, startNetwork) } };
  });
  return { ...base, deny, sources, file, root, lineOf: (p) => head.lineOf(p), has: (p) => head.has(p) };
}

/**
 * The containment a pull request's server runs with, `judged` (the base's), noting what the head
 * asks for beyond it (`pending`: `network: open`, a new `writable` or `readable` path, `sandbox:
 * off`), so that a server that fails for want of it is explained as such (run-check.ts).
 */
export function judgedContainment(judged: Containment, asked: Containment | undefined, root: string, startNetwork: boolean): Containment {
  const pending: string[] = [];
  const head = asked ?? DEFAULT_CONTAINMENT;
  const rel = (abs: string) => displayPath(root, abs) || '.';
  if (head.sandbox === 'off' && judged.sandbox !== 'off') pending.push('`sandbox: off`');
  if (head.network === 'open' && judged.network !== 'open') pending.push('`network: open`');
  for (const w of head.writable) if (!judged.writable.includes(w)) pending.push(`\`writable: ${rel(w)}\``);
  for (const r of head.readable ?? []) if (!(judged.readable ?? []).includes(r)) pending.push(`\`readable: ${rel(r)}\``);
  return { ...judged, startNetwork, ...(pending.length ? { pending } : {}) };
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

/**
 * Each header of `head`'s HTTP sources whose value (an environment variable) goes to an origin
 * that `base` does not send that same variable to. A header's value is a secret the workflow
 * holds; the URL it goes to is one line of `toolgate.yml`, which a pull request can point at any
 * host. Judged by origin (scheme, host, port: the party that receives it) and variable, across
 * all of the base's sources: a renamed source or a changed path still sends it where it went.
 * A base without a policy (`null`: the pull request adopts toolgate) sends nothing anywhere.
 */
export function headersSentOutsideBase(
  head: Policy,
  base: Policy | null,
): { sourceId: string; env: string; header: string; origin: string; pointer: string }[] {
  const sent = new Set<string>();
  for (const s of base?.sources ?? []) {
    if (s.kind !== 'mcp' || s.mcp.transport !== 'http') continue;
    const origin = originOf(s.mcp.url);
    for (const h of s.mcp.headers) sent.add(`${origin} ${h.env}`);
  }
  return head.sources.flatMap((s, i) => {
    if (s.kind !== 'mcp' || s.mcp.transport !== 'http') return [];
    const origin = originOf(s.mcp.url);
    return s.mcp.headers
      .filter((h) => !sent.has(`${origin} ${h.env}`))
      .map((h) => ({ sourceId: s.id, env: h.env, header: h.name, origin, pointer: `/sources/${i}/mcp/url` }));
  });
}

/** The origin of a source URL (validated when the policy was read); the URL itself when it has none. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Refuses a pull request whose policy sends a header's secret somewhere the base branch does not
 * ({@link headersSentOutsideBase}), before anything connects: no approval can be read before the
 * request would already have left. On first adoption (`base` null) the base sends nothing, so
 * every header is refused: the pull request's own policy would name where its secret goes.
 * @throws ConfigError at the first such source's `url`.
 */
export function assertHeadersStayWithBase(head: Policy, base: Policy | null): void {
  const found = headersSentOutsideBase(head, base);
  const first = found[0];
  if (!first) return;
  const where = base ? "where the base branch's policy does not send it" : 'and the base branch has no toolgate.yml (first adoption) to send it anywhere';
  throw new ConfigError(
    `source "${first.sourceId}" sends ${JSON.stringify(first.env)} (header ${JSON.stringify(first.header)}) to ${first.origin}, ${where}${found.length > 1 ? ` (and ${found.length - 1} more such header${found.length === 2 ? '' : 's'})` : ''}`,
    head.file ? { file: head.file, line: head.lineOf(first.pointer), pointer: first.pointer } : undefined,
    `A pull request cannot send a secret somewhere new: a header's variable goes only to an origin the base branch's policy already sends it to. ${
      base
        ? 'Make this change on the base branch itself'
        : 'Commit toolgate.yml with this source on the base branch itself, or adopt toolgate without the header and add it there'
    } (a push is checked with that branch's own policy); this pull request then passes.`,
  );
}

function denyKey(d: DenyEntry): string {
  return JSON.stringify([sorted(d.tools), d.when, ...(d.lessSafe ? [sorted(d.lessSafe.map(fieldKey))] : [])]);
}

/** A safety field by what it means (pointer, safer value, default), not by its name. */
function fieldKey(f: SafetyField): string {
  return JSON.stringify([f.pointer, f.safer, f.default ?? null, f.default !== undefined]);
}

const sorted = (xs: readonly string[]) => [...new Set(xs)].sort();

// ---------------------------------------------------------------------------------------------
// Walking the table

const ROWS = new Map(POLICY_KEYS.map((k) => [k.key, k]));
/** The rows below each key path, in table order. */
const CHILDREN = groupBy(POLICY_KEYS.map((k) => [parentOf(k.key), k] as const));
const HAS_ROWS = new Set(CHILDREN.keys());
const rowsBelow = (key: string): readonly PolicyKey[] => CHILDREN.get(key) ?? [];

/** Each row directly below `parent`, on the values of that name in `b` and `h` (`at`: the head's pointer of the block). */
function judgeBlock(ctx: Ctx, parent: string, b: JsonObject | undefined, h: JsonObject | undefined, at: string, scope: Scope): void {
  for (const row of rowsBelow(parent)) {
    const name = nameOf(row.key);
    judgeRow(ctx, row, own(b, name), own(h, name), `${at}/${escapePointerToken(name)}`, scope);
  }
}

function judgeRow(ctx: Ctx, row: PolicyKey, b: Json | undefined, h: Json | undefined, at: string, scope: Scope): void {
  if (row.relaxes === 'neutral' || row.relaxes === 'entry') return;
  if (HAS_ROWS.has(`${row.key}[]`)) judgeEntries(ctx, row, asList(b), asList(h), at, scope);
  else if (HAS_ROWS.has(`${row.key}.*`)) judgeMap(ctx, row, asObject(b), asObject(h), at, scope);
  else if (HAS_ROWS.has(row.key)) judgeBlockRow(ctx, row, asObject(b), asObject(h), at, scope);
  else if (row.relaxes === 'lowering-a-level') judgeLevels(ctx, row);
  else judgeLeaf(ctx, row, b, h, at, scope);
}

/** A block: judged key by key; one whose row relaxes by `adding` counts by its presence too (`start`). */
function judgeBlockRow(ctx: Ctx, row: PolicyKey, b: JsonObject | undefined, h: JsonObject | undefined, at: string, scope: Scope): void {
  if (row.relaxes === 'adding' && (b === undefined) !== (h === undefined)) {
    if (h) {
      push(ctx, row, true, 'added', { ...scope, entry: h, policy: ctx.head }, at);
      // What the new block hands over (the names in its env) is listed too.
      for (const child of rowsBelow(row.key).filter((c) => c.relaxes === 'adding'))
        judgeRow(ctx, child, undefined, own(h, nameOf(child.key)), `${at}/${escapePointerToken(nameOf(child.key))}`, scope);
    } else push(ctx, row, false, 'removed', { ...scope, entry: b, policy: ctx.base }, at);
    return;
  }
  judgeBlock(ctx, row.key, b, h, at, scope);
}

/** A value with no rows below it: a scalar (judged by its direction) or a list (by entries). */
function judgeLeaf(ctx: Ctx, row: PolicyKey, b: Json | undefined, h: Json | undefined, at: string, scope: Scope): void {
  const before = valueOf(ctx, row, b, 'base', scope);
  const after = valueOf(ctx, row, h, 'head', scope);
  if (Array.isArray(before) || Array.isArray(after)) {
    if (row.relaxes !== 'adding' && row.relaxes !== 'removing') {
      if (!jsonEqual(before, after)) push(ctx, row, true, 'changed', { ...scope, before, after, policy: ctx.head }, at);
      return;
    }
    judgeList(ctx, row, before as string[] | undefined, after as string[] | undefined, at, scope);
    return;
  }
  if (jsonEqual(before, after)) return;
  push(ctx, row, relaxesTo(row, before, after), 'changed', { ...scope, before, after, policy: ctx.head }, at);
}

/** Whether a scalar moving from `b` to `a` relaxes its key (a direction a scalar cannot have: yes, failing closed). */
function relaxesTo(row: PolicyKey, b: Json | undefined, a: Json | undefined): boolean {
  const r = row.relaxes;
  if (typeof r === 'object') return a === r.towards;
  if (r === 'turning-on') return a === true;
  if (r === 'turning-off') return a !== true;
  if (r === 'raising') return typeof a !== 'number' || (typeof b === 'number' && a > b);
  if (r === 'lowering') return typeof a !== 'number' || (typeof b === 'number' && a < b);
  return true;
}

/**
 * A list of strings, entry by entry, the relaxing half first: entries added (or removed), one
 * change each or one for all (`grouped`). A list whose absence means everything (`absentMeans`)
 * compared with none at all is one change.
 */
function judgeList(ctx: Ctx, row: PolicyKey, b: string[] | undefined, h: string[] | undefined, at: string, scope: Scope): void {
  if (row.absentMeans && (b === undefined) !== (h === undefined)) {
    const removed = h === undefined;
    push(ctx, row, removed === (row.relaxes === 'adding'), removed ? 'removed' : 'added', { ...scope, before: b, after: h, policy: ctx.head }, at);
    return;
  }
  const bl = b ?? [];
  const hl = h ?? [];
  const added = unmatched(keysOf(ctx, row, hl, 'head'), keysOf(ctx, row, bl, 'base'));
  const removed = unmatched(keysOf(ctx, row, bl, 'base'), keysOf(ctx, row, hl, 'head'));
  const halves = [
    { what: 'added' as const, idx: added, list: hl, relaxed: row.relaxes === 'adding' },
    { what: 'removed' as const, idx: removed, list: bl, relaxed: row.relaxes === 'removing' },
  ].sort((x, y) => Number(y.relaxed) - Number(x.relaxed));
  for (const { what, idx, list, relaxed } of halves) {
    if (idx.length === 0) continue;
    const pointerOf = (i: number) => (what === 'added' ? `${at}/${i}` : at);
    if (row.grouped) push(ctx, row, relaxed, what, { ...scope, items: idx.map((i) => list[i]!), policy: ctx.head }, pointerOf(idx[0]!));
    else for (const i of idx) push(ctx, row, relaxed, what, { ...scope, items: [list[i]!], policy: ctx.head }, pointerOf(i));
  }
}

/** `rules`: each rule's level as the policy sets it, before overrides. */
function judgeLevels(ctx: Ctx, row: PolicyKey): void {
  // Both sides read with the base's require-explicit-hints: its own row reports a change of it.
  const rei = ctx.base.requireExplicitHints;
  for (const { id } of RULES) {
    const from = ruleLevel(ctx.base, id);
    const to = ruleLevel({ rules: ctx.head.rules, requireExplicitHints: rei }, id);
    if (from === to) continue;
    push(ctx, row, LEVEL_ORDER[to] < LEVEL_ORDER[from], 'changed', { name: id, before: from, after: to, policy: ctx.head }, toPointer(['rules', id]));
  }
}

/**
 * A list of objects: by `keyedBy` (sources by id: an entry added, removed, or judged key by key),
 * else by what each entry is (its `entry` keys): an entry removed and one added, judged by the
 * list's direction (`overrides` by the levels they set).
 */
function judgeEntries(ctx: Ctx, row: PolicyKey, b: JsonObject[], h: JsonObject[], at: string, scope: Scope): void {
  if (row.keyedBy) return judgeKeyedEntries(ctx, row, row.keyedBy, b, h, at);
  const bKeys = b.map((e) => identity(ctx, `${row.key}[]`, e, 'base'));
  const hKeys = h.map((e) => identity(ctx, `${row.key}[]`, e, 'head'));
  const removed = unmatched(bKeys, hKeys);
  const added = unmatched(hKeys, bKeys);
  const levels = row.relaxes === 'lowering-a-level';
  const removing = levels ? removalsRelax(ctx.base, b, removed) : undefined;
  const adding = levels ? additionsRelax(ctx.base, ctx.head, h, added) : undefined;
  for (const i of removed) push(ctx, row, removing?.get(i) ?? row.relaxes !== 'adding', 'removed', { ...scope, entry: b[i], policy: ctx.base }, at);
  for (const i of added) push(ctx, row, adding?.get(i) ?? row.relaxes !== 'removing', 'added', { ...scope, entry: h[i], policy: ctx.head }, `${at}/${i}`);
  if (levels) judgeOrder(ctx, row, b, h, pairs(bKeys, hKeys, removed), at);
}

function judgeKeyedEntries(ctx: Ctx, row: PolicyKey, by: string, b: JsonObject[], h: JsonObject[], at: string): void {
  const key = (e: JsonObject) => str(e[by]);
  const inHead = firstIndex(h, key);
  const inBase = firstIndex(b, key);
  for (const be of b) {
    const hi = inHead.get(key(be));
    if (hi === undefined) push(ctx, row, row.relaxes !== 'adding', 'removed', { source: key(be), entry: be, policy: ctx.base }, at);
    else judgeEntry(ctx, row, be, h[hi]!, `${at}/${hi}`, { source: key(be), entryB: be, entryH: h[hi]! });
  }
  h.forEach((he, hi) => {
    if (!inBase.has(key(he))) push(ctx, row, row.relaxes !== 'removing', 'added', { source: key(he), entry: he, policy: ctx.head }, `${at}/${hi}`);
  });
}

/** Values by key, each list in the order given. */
function groupBy<K, V>(pairs: readonly (readonly [K, V])[]): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const [k, v] of pairs) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/** The index of the first item of each key. */
function firstIndex<T>(items: readonly T[], key: (x: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  items.forEach((x, i) => {
    if (!out.has(key(x))) out.set(key(x), i);
  });
  return out;
}

/** One entry on both sides: key by key; of another `variant` (a source's kind), one change and its variant keys unjudged. */
function judgeEntry(ctx: Ctx, row: PolicyKey, b: JsonObject, h: JsonObject, at: string, scope: Scope): void {
  const vb = row.variant?.(b);
  const vh = row.variant?.(h);
  const other = vb !== undefined && vh !== undefined && vb.words !== vh.words;
  for (const child of rowsBelow(`${row.key}[]`)) {
    const name = nameOf(child.key);
    if (other && (name === vb.key || name === vh.key)) continue;
    judgeRow(ctx, child, own(b, name), own(h, name), `${at}/${escapePointerToken(name)}`, scope);
  }
  if (other) push(ctx, row, true, 'changed', { ...scope, before: vb.words, after: vh.words, policy: ctx.head }, `${at}/${vh.key}`);
}

/** A map of objects (`headers`): an entry added or changed is one change (relaxed unless the row says removing), one removed another. */
function judgeMap(ctx: Ctx, row: PolicyKey, b: JsonObject | undefined, h: JsonObject | undefined, at: string, scope: Scope): void {
  const norm = (k: string) => (row.as === 'header-name' ? k.toLowerCase() : k);
  const bEntries = Object.entries(b ?? {});
  const hEntries = Object.entries(h ?? {});
  const entryKey = `${row.key}.*`;
  const inBase = firstIndex(bEntries, ([k]) => norm(k));
  const inHead = firstIndex(hEntries, ([k]) => norm(k));
  for (const [name, he] of hEntries) {
    const entry = asObject(he) ?? {};
    const bi = inBase.get(norm(name));
    const was = bi === undefined ? undefined : (asObject(bEntries[bi]![1]) ?? {});
    if (was && identity(ctx, entryKey, was, 'base') === identity(ctx, entryKey, entry, 'head')) continue;
    push(
      ctx,
      row,
      was !== undefined || row.relaxes !== 'removing',
      'added',
      { ...scope, items: [name], entry, ...(was ? { was } : {}), policy: ctx.head },
      `${at}${toPointer([name])}`,
    );
  }
  for (const [name, be] of bEntries) {
    if (inHead.has(norm(name))) continue;
    push(ctx, row, row.relaxes !== 'adding', 'removed', { ...scope, items: [name], entry: asObject(be) ?? {}, policy: ctx.base }, at);
  }
}

/**
 * `overrides` entries kept on both sides whose order flipped: where both match a tool, the one now
 * last decides. One change per rule whose level can move so (override-order.ts).
 */
function judgeOrder(ctx: Ctx, row: PolicyKey, b: JsonObject[], h: JsonObject[], kept: [number, number][], at: string): void {
  for (const { rule, winner, loser, relaxed } of orderFlips(b, kept)) {
    const items = [`${rule} ${str(levelsOf(h[winner])[rule])} instead of ${str(levelsOf(h[loser])[rule])}`];
    push(ctx, row, relaxed, 'moved', { entry: h[winner], was: h[loser], items, policy: ctx.head }, `${at}/${winner}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * A key's value on one side, defaults applied and normalized for comparing: a path relative to
 * the policy's directory, patterns as a list, an empty reviewers list as none.
 */
function valueOf(ctx: Ctx, row: PolicyKey, raw: Json | undefined, side: Side, scope: Scope): Json | undefined {
  const policy = ctx[side];
  let v = raw;
  if (v === undefined && row.default !== undefined) {
    const entry = side === 'base' ? scope.entryB : scope.entryH;
    v = typeof row.default === 'function' ? row.default({ ...(entry ? { entry } : {}), doc: policy.doc }) : row.default;
  }
  if (v === undefined) return undefined;
  if (row.as === 'patterns' && typeof v === 'string') return [v];
  if (row.as === 'logins' && Array.isArray(v) && v.length === 0) return undefined;
  if (row.as === 'path') {
    const shown = (p: Json) => displayPath(policy.root, resolve(policy.root, str(p))) || '.';
    return Array.isArray(v) ? v.map(shown) : shown(v);
  }
  return v;
}

/** What makes two entries of a string list the same: a login case-insensitively, a safety field by its meaning. */
function keysOf(ctx: Ctx, row: PolicyKey, list: readonly string[], side: Side): string[] {
  if (row.as === 'logins') return list.map(loginKey);
  if (row.as === 'safety-fields') return list.map((n) => fieldKeyByName(ctx[side], n));
  return list.map(String);
}

const fieldKeyByName = (p: Policy, name: string): string => {
  const f = p.safetyFields.find((x) => x.name === name);
  return f ? fieldKey(f) : `unknown:${name}`;
};

/** What an entry of a list of objects is: its `entry` keys, normalized, lists as sets. */
function identity(ctx: Ctx, entryKey: string, entry: JsonObject, side: Side): string {
  const scope: Scope = side === 'base' ? { entryB: entry } : { entryH: entry };
  const parts = rowsBelow(entryKey)
    .filter((k) => k.relaxes === 'entry')
    .map((k) => {
      const v = valueOf(ctx, k, own(entry, nameOf(k.key)), side, scope);
      if (v === undefined) return [];
      return [Array.isArray(v) ? [...new Set(keysOf(ctx, k, v.map(String), side))].sort() : isObject(v) ? canonicalJson(v) : v];
    });
  return JSON.stringify(parts);
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** The pointer itself when the head file has it, else its closest enclosing value that it has. */
function nearest(head: Policy, pointer: string): string {
  const segs = pointerSegments(pointer);
  for (let n = segs.length; n > 0; n--) {
    const p = toPointer(segs.slice(0, n));
    if (head.has(p)) return p;
  }
  return '';
}

/** The row that encloses `key` (the list or map for an entry's key), or undefined at the top. */
function enclosing(key: string): PolicyKey | undefined {
  for (let k = parentOf(key); k !== ''; k = parentOf(k)) {
    const row = ROWS.get(k.replace(/(\[\]|\.\*)$/, ''));
    if (row) return row;
  }
  return undefined;
}

function kindOf(row: PolicyKey): string {
  return row.kind ?? (enclosing(row.key) ? kindOf(enclosing(row.key)!) : 'policy');
}

/** Records one change of `row`, in the words policy-wording.ts has for it (or generic ones). */
function push(
  ctx: Ctx,
  row: PolicyKey,
  relaxed: boolean,
  what: 'changed' | 'added' | 'removed' | 'moved',
  said: Omit<Said, 'relaxed' | 'name'> & { name?: string },
  pointer: string,
): void {
  const s: Said = { name: row.key.replace(/^sources\[\]\./, ''), ...said, relaxed };
  const words = WORDS[row.key]?.[what];
  const text = words ? words(s) : genericWords(row, s, what);
  const { kind, message } = typeof text === 'string' ? { kind: kindOf(row), message: text } : text;
  ctx.out.push({ relaxed, kind, pointer: nearest(ctx.head, pointer), message });
}

/** Indices of `a` whose key `b` lacks, each counted as often as it is unmatched. */
function unmatched(a: readonly string[], b: readonly string[]): number[] {
  const left = new Map<string, number>();
  for (const k of b) left.set(k, (left.get(k) ?? 0) + 1);
  return a.flatMap((k, i) => {
    const n = left.get(k) ?? 0;
    if (n > 0) {
      left.set(k, n - 1);
      return [];
    }
    return [i];
  });
}

/** The entries on both sides, as [base index, head index], in base order (each head entry used once). */
function pairs(bKeys: readonly string[], hKeys: readonly string[], removed: readonly number[]): [number, number][] {
  const waiting = groupBy(hKeys.map((k, hi) => [k, hi] as const));
  const next = new Map<string, number>();
  const gone = new Set(removed);
  return bKeys.flatMap((k, bi): [number, number][] => {
    if (gone.has(bi)) return [];
    const n = next.get(k) ?? 0;
    next.set(k, n + 1);
    const hi = waiting.get(k)?.[n];
    return hi === undefined ? [] : [[bi, hi]];
  });
}

const own = (o: JsonObject | undefined, key: string): Json | undefined => (o !== undefined && Object.hasOwn(o, key) ? o[key] : undefined);
const asObject = (v: Json | undefined): JsonObject | undefined => (isObject(v) ? v : undefined);
const asList = (v: Json | undefined): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);
