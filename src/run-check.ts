import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { ExportEntry, Policy } from './config/policy-model.js';
import { displayPath } from './util/display-path.js';
import { exportFindings } from './export/verify.js';
import { checkAcrossSources, checkPolicy, checkSource } from './rules/index.js';
import { safetyAudit } from './surface/safety-fields.js';
import { pinnedTokens, tokenFacts, type TokenCost } from './surface/tokens.js';
import type { PolicyChange } from './config/policy-diff.js';
import type { SourceConfig } from './config/source-config.js';
import { readContract, readUnverifiedContract, writeContract, type LoadedContract, type UnverifiedContract } from './contract/store.js';
import { serializeContractInSlices } from './contract/serialize.js';
import { diffSurfaces } from './diff/diff-surfaces.js';
import { buildContext, judge } from './judge/judge.js';
import { policyLocator, sourceLocator } from './judge/locate.js';
import { failsOn, tally, type CheckResult, type FailOn, type Mode, type SourceResult } from './judge/result.js';
import type { Approval } from './rules/context.js';
import { compareFindings, finalize, type Locate } from './rules/evaluate.js';
import type { Finding } from './rules/types.js';
import { snapshotSource } from './sources/index.js';
import type { RawSnapshot } from './sources/types.js';
import { readySources } from './sources/select.js';
import { Launcher } from './sources/launch/index.js';
import { normalizeSnapshotInSlices, type MalformedTool } from './surface/normalize.js';
import type { Surface } from './surface/model.js';
import { ConfigError } from './util/errors.js';
import { SourceError } from './sources/source-error.js';
import type { Logger } from './util/logger.js';
import type { BaseState } from './review/base-state.js';
import { mark } from './util/timing.js';

/** Inputs of {@link runCheck}. Effects come in as arguments so tests and the CLI share it. */
export interface RunOptions {
  policy: Policy;
  mode: Mode;
  /** Workspace root: file paths in findings are relative to it, `/`-separated. */
  root: string;
  /** Only these source ids (all when absent). */
  sourceIds?: string[];
  /**
   * Base contracts from the PR base commit, by source id; `null` = the base has no contract (first
   * adoption). When absent, the committed contract is the base (outside a pull request).
   */
  baseContracts?: ReadonlyMap<string, Surface | null>;
  /**
   * How the head's policy differs from the base's (a pull request, or `check --base`): each
   * relaxation is a `policy-relaxed` finding, each tightening a `policy-tightened` notice.
   */
  policyChanges?: readonly PolicyChange[];
  /** The approval of the pull request; undefined outside one. */
  approval?: Approval;
  /** Release gating: every finding at warning level or above fails (`failOn: 'warning'`). */
  exact?: boolean;
  /** The lowest level that fails the run; wins over `exact` (default: `error`, or `warning` with `exact`). */
  failOn?: FailOn;
  /**
   * Committed exports to verify (`check` only) and the policy whose runtime block they are made
   * from: the head's, even when the base branch's policy judges (so there is no default: the
   * judging policy may be the base's). Absent: no export is checked.
   */
  exports?: { policy: Policy; entries: readonly ExportEntry[] };
  logger: Logger;
  /**
   * Starts the run's servers: its sandbox state and the server the CLI or the Action started early
   * (which the snapshot of the same source config takes). Absent: a new one, nothing started yet.
   */
  launcher?: Launcher;
}

/** What a `check`, `audit` or `update` is asked to do, as the Action and the CLI read it. */
export interface CheckRequest {
  /** The policy checked out (the head's): it names the sources and makes the exports. */
  policy: Policy;
  mode: Mode;
  root: string;
  logger: Logger;
  sourceIds?: readonly string[];
  exact?: boolean;
  failOn?: FailOn;
  /** The base of the change review (a pull request, `check --base REF`): its policy judges. */
  base?: BaseState;
  approval?: Approval;
  /** Committed exports to check besides the policy's `exports:`. */
  extraExports?: readonly ExportEntry[];
  /** Starts the servers (and holds the run's sandbox state, and an early-started server). */
  launcher?: Launcher;
}

/**
 * The one builder of a run's options for the Action and the CLI: with a base, the base's policy
 * judges and its contracts are the change review's base (docs/design.md §7); the exports are
 * made from the head's contracts and runtime block, even when the base judges.
 */
export function checkRunOptions(r: CheckRequest): RunOptions {
  return {
    policy: r.base?.policy ?? r.policy,
    mode: r.mode,
    root: r.root,
    logger: r.logger,
    ...(r.launcher ? { launcher: r.launcher } : {}),
    ...(r.sourceIds?.length ? { sourceIds: [...r.sourceIds] } : {}),
    ...(r.exact ? { exact: true } : {}),
    ...(r.failOn ? { failOn: r.failOn } : {}),
    ...(r.base ? { baseContracts: r.base.contracts, policyChanges: r.base.policyChanges } : {}),
    ...(r.approval ? { approval: r.approval } : {}),
    exports: { policy: r.policy, entries: [...r.policy.exports, ...(r.extraExports ?? [])] },
  };
}

/**
 * Runs the pipeline for every selected source: snapshot → normalize → diff → rules → findings.
 * @throws ConfigError (exit 2) for a bad contract, policy, integration config or unknown source id.
 */
export async function runCheck(options: RunOptions): Promise<CheckResult> {
  const opts = { ...options, launcher: options.launcher ?? new Launcher() };
  const sources = await readySources(opts.policy, opts.sourceIds, opts.launcher.sandbox);
  const results: SourceResult[] = [];
  // Sequential on purpose: servers are heavy and CI has two cores; each has its own timeouts.
  const locators = new Map<string, Locate>();
  for (const cfg of sources) results.push(await runSource(cfg, opts, locators));
  addShadowing(opts, results, locators);
  if (opts.mode === 'check') await verifyExports(opts, results);
  const findings = [...policyFindings(opts), ...results.flatMap((r) => r.findings)].sort(compareFindings);
  const counts = tally(findings);
  const failed = results.some((r) => r.failure);
  const failOn = opts.failOn ?? (opts.exact ? 'warning' : 'error');
  const failing = findings.some((f) => failsOn(f.level, failOn));
  const exact = opts.exact === true && failOn === 'warning';
  return {
    mode: opts.mode,
    sources: results,
    findings,
    counts,
    exitCode: failed ? 3 : failing ? 1 : 0,
    ...(exact ? { exact: true } : {}),
    ...(failOn !== 'error' && !exact ? { failOn } : {}),
  };
}

/**
 * `tool-shadowed` across the sources that were listed (docs/design.md §5): each source's
 * findings located on its own contract, as its other findings are.
 */
function addShadowing(opts: RunOptions, results: SourceResult[], locators: ReadonlyMap<string, Locate>): void {
  const listed = results.flatMap((r) => (r.surface ? [{ id: r.id, surface: r.surface }] : []));
  if (listed.length < 2) return;
  for (const [id, raw] of checkAcrossSources(listed)) {
    const r = results.find((x) => x.id === id) as SourceResult;
    const locate = locators.get(id);
    if (!locate) continue;
    const found = finalize(raw, { sourceId: id, policy: opts.policy, ...(opts.approval ? { approval: opts.approval } : {}) }, locate);
    r.findings = [...r.findings, ...found].sort(compareFindings);
  }
}

/**
 * `export-stale` for each export of a checked source, against that source's committed contract
 * (the one `check` read), added to the source's findings.
 */
async function verifyExports(opts: RunOptions, results: SourceResult[]): Promise<void> {
  const spec = opts.exports;
  if (!spec) return;
  const byId = new Map(results.map((r) => [r.id, r]));
  const entries = spec.entries.filter((e) => byId.has(e.source));
  if (entries.length === 0) return;
  const contracts = new Map(results.flatMap((r) => (r.contract ? [[r.id, r.contract] as const] : [])));
  for (const f of await exportFindings(spec.policy, entries, contracts, opts.approval)) {
    const r = byId.get(f.source) as SourceResult;
    r.findings = [...r.findings, f].sort(compareFindings);
  }
}

/** The source id of findings about the policy itself: parentheses keep it apart from any source id. */
export const POLICY_SOURCE = '(policy)';

/** `policy-relaxed` and `policy-tightened` (docs/design.md §7), on the head policy's lines. Pure. */
export function policyFindings(opts: Pick<RunOptions, 'policy' | 'policyChanges' | 'approval' | 'root'>): Finding[] {
  const raw = checkPolicy(opts.policyChanges ?? []);
  return finalize(raw, { sourceId: POLICY_SOURCE, policy: opts.policy, ...(opts.approval ? { approval: opts.approval } : {}) }, policyLocator(opts, ''));
}

/** What one source's run works on: its config, where its entry and contract are, and the run. */
interface SourceRun {
  cfg: SourceConfig;
  opts: RunOptions;
  /** The contract's path as shown (relative to the workspace). */
  contractFile: string;
  /** JSON pointer of the source's entry in toolgate.yml. */
  sourcePointer: string;
  result: SourceResult;
}

async function runSource(cfg: SourceConfig, opts: RunOptions, locators: Map<string, Locate>): Promise<SourceResult> {
  const contractFile = displayPath(opts.root, cfg.contract);
  const result: SourceResult = { id: cfg.id, kind: cfg.kind, contractFile, live: cfg.kind !== 'recorded', malformed: [], findings: [] };
  const run: SourceRun = { cfg, opts, contractFile, sourcePointer: `/sources/${opts.policy.sources.indexOf(cfg)}`, result };
  const started = Date.now();
  opts.logger.info(`toolgate: snapshotting source "${cfg.id}" (${cfg.kind})`);
  const { read, taken } = await snapshotThenRead(run);
  if (taken.status === 'rejected') {
    // A broken contract is a configuration error (exit 2) whatever the source did.
    const loaded = await read?.verify();
    if (loaded) result.contract = loaded.surface;
    return failedSource(run, sourceFailure(run, taken.reason), Date.now() - started);
  }
  const raw = taken.value;
  opts.logger.debug(`toolgate: source "${cfg.id}" listed ${raw.tools.length} tools in ${Date.now() - started} ms`);
  mark(`${cfg.id}: snapshot done`);
  const { surface, malformed } = await normalizeSnapshotInSlices(raw);
  mark(`${cfg.id}: normalized`);
  const loaded = await read?.verify(surface.tools);
  if (loaded) {
    result.contract = loaded.surface;
    mark(`${cfg.id}: contract verified`);
  }
  assertOwnContract(loaded, surface, contractFile);
  Object.assign(result, { surface, malformed, diagnostics: raw.diagnostics, live: raw.live });
  if (opts.policy.safetyFields.length) result.safety = safetyAudit(surface, opts.policy.safetyFields);

  const unpinnable = malformed.filter((m) => !m.pinned);
  let pinned: TokenCost | undefined;
  if (opts.mode !== 'audit' && unpinnable.length > 0) {
    // No contract may hold fewer tools than the server listed, and none can pin this
    // listing: `update` writes nothing, `check` fails (exit 3) whatever the level of malformed-tool.
    result.failure = { message: unpinnableMessage(unpinnable, raw.tools.length), reason: 'unpinnable' };
  } else if (opts.mode === 'update') pinned = await writeUpdatedContract(run, surface);

  const base =
    opts.mode !== 'check' ? undefined : opts.baseContracts?.has(cfg.id) ? (opts.baseContracts.get(cfg.id) ?? firstAdoptionBase(surface)) : loaded?.surface;
  const tokens = opts.mode === 'update' ? pinned : await tokensForJudging(run, surface, loaded, base);
  const ctx = await buildContext({
    sourceId: cfg.id,
    head: surface,
    ...(tokens ? { tokens } : {}),
    malformed,
    policy: opts.policy,
    ...(loaded ? { contract: loaded.surface } : {}),
    ...(base ? { base } : {}),
    ...(opts.approval ? { approval: opts.approval } : {}),
  });
  const { changes, drift } = ctx;
  mark(`${cfg.id}: diffed (${changes.length} changes)`);
  if (changes.length) result.changes = changes;
  // Outside a pull request the base is the contract: the drift is the same list.
  if (drift.length && base !== loaded?.surface) result.drift = drift;
  const locate = sourceLocator({ policy: opts.policy, root: opts.root, sourcePointer: run.sourcePointer, raw, loaded, surface });
  locators.set(cfg.id, locate);
  const judged = await judge(ctx, {
    locate,
    ...(loaded ? { prepare: loaded.indexLines } : {}),
    sourceFindings: finalize(
      checkSource({
        sourcePointer: run.sourcePointer,
        diagnostics: raw.diagnostics,
        ...(raw.protectedResource ? { protectedResource: raw.protectedResource } : {}),
      }),
      ctx,
      policyLocator(opts, run.sourcePointer),
    ),
    contractRules: opts.mode === 'check',
  });
  if (judged.folded.length) result.folded = judged.folded;
  result.findings = judged.findings.sort(compareFindings);
  mark(`${cfg.id}: rules evaluated`);
  return result;
}

/**
 * Takes the snapshot, then, in `check`, reads the contract. Its tools are verified afterwards,
 * against the listed ones (`UnverifiedContract.verify`).
 * @throws ConfigError for a contract that is not a valid document (exit 2), whatever the source
 *   did; the snapshot has settled by then, so no server is left running.
 */
async function snapshotThenRead(run: SourceRun): Promise<{ read: UnverifiedContract | undefined; taken: PromiseSettledResult<RawSnapshot> }> {
  const { cfg, opts, contractFile } = run;
  const [taken] = await Promise.allSettled([
    snapshotSource(cfg, {
      allowRemoteRefs: opts.policy.allowRemoteRefs,
      root: opts.root,
      ...(opts.launcher ? { launcher: opts.launcher } : {}),
    }),
  ]);
  if (opts.mode !== 'check') return { read: undefined, taken };
  const read = await readUnverifiedContract(cfg.contract, contractFile);
  mark(`${cfg.id}: contract read`);
  return { read, taken };
}

/**
 * The SourceError a failed snapshot ends with (the source fails, exit 3).
 * @throws ConfigError for what is a configuration mistake: a source file that does not exist, or a
 *   mistake with no file of its own (an unset header variable), located on the source's entry in
 *   toolgate.yml; a source's own file error, with its path relative to the workspace.
 */
function sourceFailure(run: SourceRun, e: unknown): SourceError {
  const { cfg, opts, sourcePointer } = run;
  if (e instanceof ConfigError && opts.policy.file && (!e.location || !existsSync(e.location.file))) {
    const pointer = `${sourcePointer}/${cfg.kind}`;
    const named = e.location ? `${displayPath(opts.root, e.location.file)}: ` : '';
    throw new ConfigError(
      `${named}${e.message}`,
      { file: displayPath(opts.root, opts.policy.file), line: opts.policy.lineOf(pointer), pointer },
      e.fix,
      e.ruleId,
    );
  }
  // Sources name their files as configured (absolute); messages and annotations (`file=`)
  // need the path relative to the workspace, as every other location has.
  if (e instanceof ConfigError && e.location && isAbsolute(e.location.file)) throw relativeError(opts.root, e);
  if (!(e instanceof SourceError)) throw e;
  return e;
}

/**
 * The result of a source whose snapshot failed: `server-failed`, and what is known of its
 * containment and authorization, reported as a listed source's are (its diagnostics have the same
 * shape; `checkSource` reads both).
 */
function failedSource(run: SourceRun, e: SourceError, durationMs: number): SourceResult {
  const { cfg, opts, sourcePointer, result } = run;
  const pending = cfg.kind === 'mcp' ? cfg.mcp.containment?.pending : undefined;
  const message = pending?.length ? `${pendingContainment(cfg.id, pending)}: ${e.message}` : e.message;
  result.failure = { message, reason: e.reason, ...(e.stderrTail ? { stderrTail: e.stderrTail } : {}) };
  result.diagnostics = { durationMs, ...e.diagnostics, ...(e.unauthorized ? { unauthorized: true } : {}) };
  const raw = checkSource({
    sourcePointer,
    failure: { message, reason: e.reason },
    diagnostics: result.diagnostics,
    ...(e.protectedResource ? { protectedResource: e.protectedResource } : {}),
  });
  result.findings = finalize(raw, { sourceId: cfg.id, policy: opts.policy }, policyLocator(opts, sourcePointer));
  return result;
}

/**
 * Why a pull request's server may have failed: the containment its policy asks for (`pending`,
 * see policy-diff.ts `judgedContainment`) applies once merged, and until then the server runs as
 * the base branch contains it. The way forward comes first; the server's own error follows.
 */
export function pendingContainment(id: string, pending: readonly string[]): string {
  return `this pull request gives source "${id}" ${pending.join(', ')}, which applies once it is merged; until then its server runs as the base branch contains it, and it failed so. Merge that containment change first (a \`policy-relaxed\` change to approve; its own check fails the same way for this source), then this pull request runs with it. The server's error`;
}

/**
 * A contract copied from another source would pin the wrong tools without a word.
 * @throws ConfigError on the contract's `source.id` line.
 */
function assertOwnContract(loaded: LoadedContract | undefined, surface: Surface, contractFile: string): void {
  if (!loaded || loaded.surface.source.id === surface.source.id) return;
  throw new ConfigError(
    `the contract is for source "${loaded.surface.source.id}", not "${surface.source.id}"`,
    { file: contractFile, line: loaded.lineOf('/source/id'), pointer: '/source/id' },
    `Point \`contract\` of source "${surface.source.id}" at its own file, or run \`toolgate update --source ${surface.source.id}\` to write one.`,
  );
}

/**
 * `update`: pins the tokens per turn and writes the contract (atomically; not at all when the
 * text would not change), and lists what the new contract changes for its author.
 * @returns the counted cost, for the token limits.
 */
async function writeUpdatedContract(run: SourceRun, surface: Surface): Promise<TokenCost | undefined> {
  const { cfg, contractFile, result } = run;
  const existing = await readContract(cfg.contract, contractFile).catch(() => undefined);
  // The contract pins the total; the delta against the old contract is what the author commits.
  const { facts, cost } = await tokenFacts({ head: surface, countHead: true, ...(existing ? { base: existing.surface } : {}) });
  if (cost) surface.tokens = pinnedTokens(cost);
  if (facts) result.tokens = facts;
  mark(`${cfg.id}: tokens counted`);
  // Compared as text: a contract in an older pinned form is rewritten, though it reads the same.
  const serialized = await serializeContractInSlices(surface);
  mark(`${cfg.id}: contract serialized`);
  const unchanged = existing !== undefined && existing.text === serialized.text;
  if (!unchanged) await writeContract(cfg.contract, surface, { serialized });
  mark(`${cfg.id}: contract ${unchanged ? 'unchanged' : 'written'}`);
  result.wrote = !unchanged;
  // What the author is about to commit, listed for them: the reviewer will see it as the diff.
  const accepted = existing ? diffSurfaces(existing.surface, surface) : [];
  if (accepted.length) result.changes = accepted;
  return cost;
}

/**
 * Tokens per turn for `check` and `audit`. Outside a pull request the base is the contract: one
 * diff serves as both (buildContext). The tokenizer's tables take ~0.6 s to load: `check` counts
 * for a token limit, or for a pull request whose tools changed (the delta is counted, never taken
 * from the author's contract). Drift outside a pull request shows no delta: `contract-stale`
 * sends the author to `update`.
 */
async function tokensForJudging(
  run: SourceRun,
  surface: Surface,
  loaded: LoadedContract | undefined,
  base: Surface | undefined,
): Promise<TokenCost | undefined> {
  const { cfg, opts, result } = run;
  const { maxTokens, maxTokensPerTool } = opts.policy.limits;
  const countHead = opts.mode === 'audit' || maxTokens !== undefined || maxTokensPerTool !== undefined;
  const reviewBase = opts.baseContracts?.has(cfg.id) ? base : undefined;
  const trusted = !reviewBase && loaded ? { contract: loaded.surface } : {};
  const counted = await tokenFacts({ head: surface, countHead, ...trusted, ...(reviewBase ? { base: reviewBase } : {}) });
  if (counted.facts) result.tokens = counted.facts;
  mark(`${cfg.id}: tokens ${counted.cost ? 'counted' : 'from the contract'}`);
  return counted.cost ?? (counted.facts ? { perTurn: counted.facts.perTurn } : undefined);
}

/**
 * Why no contract is written for a listing with entries that cannot be pinned (not an object, no
 * string name): the contract would hold fewer tools than the server listed.
 */
export function unpinnableMessage(unpinnable: readonly MalformedTool[], listed: number): string {
  const which = unpinnable
    .slice(0, 5)
    .map((m) => `#${m.index + 1} (${m.problem})`)
    .join(', ');
  const more = unpinnable.length > 5 ? ` and ${unpinnable.length - 5} more` : '';
  return `${unpinnable.length} of the ${listed} listed entries cannot be pinned: ${which}${more}; no contract is written, since it would hold fewer tools than the server lists`;
}

/**
 * The base of a pull request that adds the contract: no tools and no instructions, so every tool
 * is new and its read class or promotion is judged, and the server's instructions are new text
 * (`instructions-changed`, `suspicious-text`); counts and the server's name equal to the head's,
 * since there were none to pin.
 */
function firstAdoptionBase(head: Surface): Surface {
  if (!head.server) return { ...head, tools: [], digest: '' };
  const { instructions: _, ...server } = head.server;
  return { ...head, tools: [], digest: '', server };
}

/** The same error with absolute file paths shown relative to the workspace, its `others` (further problems of the file) included. */
function relativeError(root: string, e: ConfigError): ConfigError {
  const loc = e.location;
  const out = new ConfigError(e.message, loc && isAbsolute(loc.file) ? { ...loc, file: displayPath(root, loc.file) } : loc, e.fix, e.ruleId);
  out.others = e.others.map((o) => relativeError(root, o));
  out.othersOmitted = e.othersOmitted;
  return out;
}
