/**
 * The one shape of every human report (docs/design.md §6): what the terminal, the job summary, the PR
 * comment and `--format markdown` render, each in its medium. Built here, once, from the run's
 * result; renderers only lay it out.
 *
 * 1. the verdict and what it waits for;
 * 2. "needs your attention": every finding that fails the run, riskiest first ({@link RANK}), in
 *    entries (grouping.ts): one change several tools share is one entry naming them; each tool's
 *    own changes of a rule are one entry with a line per tool; a new tool or a read → write flip
 *    is named with its class and hints; never cut by a renderer before the rest;
 * 3. everything else, in entries the same way; notices of one rule as one line unless `verbose`;
 * 4. per source, the audit counts and the digest.
 */
import { failOnOf, failsOn, type CheckResult, type SourceResult } from '../judge/result.js';
import { ruleById } from '../rules/catalog.js';
import type { Finding } from '../rules/types.js';
import type { SurfaceTool } from '../surface/model.js';
import { describeHints, describeReach } from '../rules/checks/additions.js';
import { cmp, groupEntries, type ChangePart, type EntryFacts, type ReviewEntry } from './grouping.js';

/**
 * How risky a failing finding is, lower first: new tools that can write, destroy or reach the
 * open world; a relaxed policy; read tools that became writes (or dropped a hint, so a spec
 * default now claims more risk); read promotions, and OpenAPI calls that go elsewhere or carry
 * other credentials; lowered claims; newly accepted inputs, and OpenAPI calls that send data
 * differently; new read-only tools; changed text; the rest.
 */
const RANK: Record<string, number> = {
  'tool-added': 6,
  'unlisted-tool': 6,
  'policy-relaxed': 1,
  'read-tool-became-write': 2,
  'read-promotion-unreviewed': 3,
  'promoted-operation-moved': 3,
  'operation-server-changed': 3,
  'operation-security-changed': 3,
  'operation-request-changed': 5,
  'risk-claim-lowered': 4,
  'annotation-dropped': 2,
  'schema-widened': 5,
  'schema-unclassified': 5,
  'description-changed': 7,
};
const OTHER_RANK = 8;

/** How much a tool can do, for picking one of several with the same name: write > destroy > open world. */
function reach(t: SurfaceTool): number {
  const e = t.effectiveHints;
  return (e.readOnlyHint ? 0 : 4) + (!e.readOnlyHint && e.destructiveHint ? 2 : 0) + (e.openWorldHint ? 1 : 0);
}

/**
 * Tools by name; where several share a name (`duplicate-tool-name`), the one that can do the
 * most, since findings name a tool only by its name and the block must not look safer than the
 * riskiest of them.
 */
function riskiestByName(tools: readonly SurfaceTool[]): Map<string, SurfaceTool> {
  const m = new Map<string, SurfaceTool>();
  for (const t of tools) {
    const had = m.get(t.name);
    if (!had || reach(t) > reach(had)) m.set(t.name, t);
  }
  return m;
}

/** A new tool's rank: 0 when it can write, destroy or reach the open world, else that of a read tool. */
function rankOf(f: Finding, tool: SurfaceTool | undefined): number {
  if ((f.ruleId === 'tool-added' || f.ruleId === 'unlisted-tool') && tool && (!tool.effectiveHints.readOnlyHint || tool.effectiveHints.openWorldHint)) return 0;
  return RANK[f.ruleId] ?? OTHER_RANK;
}

export type { ReviewEntry } from './grouping.js';

/** Notices of one rule, as one line. */
export interface CollapsedNotices {
  ruleId: string;
  count: number;
  tools: string[];
}

/** The whole report, ready to lay out. */
export interface ReviewReport {
  verdict: Verdict;
  /**
   * Every finding that fails the run, riskiest first: one entry per tool, and one per change that
   * several tools share (grouping.ts).
   */
  attention: ReviewEntry[];
  /** The other findings, by tool name, grouped the same way. */
  rest: ReviewEntry[];
  /** Notices collapsed per rule (empty with `verbose`: they are in `rest`). */
  notices: CollapsedNotices[];
  sources: SourceResult[];
  /** Findings folded into others (counted for the reader, listed in the JSON report). */
  foldedCount: number;
  /**
   * The review clause every failing reviewable finding ends with ("; it needs …"), said once in
   * the verdict: renderers leave it out of each message (grouping.ts `runMessage`).
   */
  clause?: string;
}

/** The first line of every report. */
export interface Verdict {
  outcome: 'pass' | 'fail' | 'error';
  /** "17 errors need an approving review …", without the medium's decoration. */
  text: string;
}

/** Options of {@link buildReview}. */
export interface ReviewOptions {
  /** List every notice instead of one line per rule. */
  verbose?: boolean;
}

/** Builds the report's shape from a run's result. Pure. */
export function buildReview(result: CheckResult, opts: ReviewOptions = {}): ReviewReport {
  const failOn = failOnOf(result);
  const failing = (f: Finding) => failsOn(f.level, failOn);
  const toolsBySource = new Map(result.sources.map((s) => [s.id, riskiestByName(s.surface?.tools ?? [])]));
  const baseBySource = new Map(result.sources.map((s) => [s.id, riskiestByName(s.contract?.tools ?? [])]));
  const facts: EntryFacts = {
    tool: (f) => (f.tool === undefined ? undefined : (toolsBySource.get(f.source)?.get(f.tool) ?? baseBySource.get(f.source)?.get(f.tool))),
    hints: (t) => `${t.safetyClass} · ${describeHints(t)}`,
    // What a schema change also narrows needs no review of its own: after what does.
    rank: (p, t) => (p.kind === 'narrowed' ? OTHER_RANK : rankOf(p.finding, t)),
    headline: headlineOf,
    ownKind: result.mode === 'audit' ? 'finding' : 'change',
  };

  const attention: Finding[] = [];
  const rest: Finding[] = [];
  const collapsed = new Map<string, CollapsedNotices>();
  for (const f of result.findings) {
    // An approved widening is a notice that names who approved: shown, never collapsed.
    if (f.level === 'notice' && !opts.verbose && !failing(f) && !ruleById(f.ruleId)?.reviewable) {
      const c = collapsed.get(f.ruleId) ?? { ruleId: f.ruleId, count: 0, tools: [] };
      c.count++;
      if (f.tool !== undefined) c.tools.push(f.tool);
      collapsed.set(f.ruleId, c);
      continue;
    }
    (failing(f) ? attention : rest).push(f);
  }
  const first = (e: ReviewEntry) => e.tools[0] ?? '';
  // Within a rank: changes several tools share, the most shared first, then each tool's own.
  const byRank = (a: ReviewEntry, b: ReviewEntry) =>
    a.rank - b.rank ||
    cmp(a.source, b.source) ||
    Number(a.byTool === true) - Number(b.byTool === true) ||
    b.tools.length - a.tools.length ||
    cmp(first(a), first(b));
  const byName = (a: ReviewEntry, b: ReviewEntry) => cmp(a.source, b.source) || cmp(first(a), first(b)) || a.tools.length - b.tools.length;
  const clause = commonClause(result);
  return {
    ...(clause ? { clause } : {}),
    verdict: verdictOf(result),
    attention: groupEntries(attention, facts).sort(byRank),
    rest: groupEntries(rest, facts).sort(byName),
    notices: [...collapsed.values()].sort((a, b) => cmp(a.ruleId, b.ruleId)),
    sources: result.sources,
    foldedCount: result.sources.reduce((n, s) => n + (s.folded?.length ?? 0), 0),
  };
}

/** What an entry is about, from its riskiest part; `count` tools share it. */
function headlineOf(first: ChangePart, t: SurfaceTool | undefined, count: number): string {
  const f = first.finding;
  const s = count > 1 ? 's' : '';
  if (f.tool === undefined) {
    if (f.source === '(policy)') return 'the policy';
    // An audit has no toolgate.yml and no contract; the server's instructions are its own text.
    return f.pointer === '/server/instructions' ? "the server's instructions" : 'the source itself (its entry in toolgate.yml, its contract)';
  }
  switch (f.ruleId) {
    case 'tool-added':
    case 'unlisted-tool':
      return t ? `new ${describeReach(t)}${s}${f.ruleId === 'unlisted-tool' ? ', not in the contract' : ''}` : `new tool${s}`;
    case 'read-tool-became-write':
      if (count > 1) return t ? `read tools that became ${describeReach(t)}s` : 'read tools that became writes';
      return t ? `read tool that became ${article(describeReach(t))}` : 'read tool that became a write';
    case 'read-promotion-unreviewed':
      return 'newly classed read';
    case 'promoted-operation-moved':
      return 'promoted operation moved';
    case 'operation-server-changed':
      return 'calls go to a server nobody reviewed';
    case 'operation-security-changed':
      return 'calls carry other credentials or scopes';
    case 'operation-request-changed':
      return 'calls send data differently';
    case 'risk-claim-lowered':
      return count > 1 ? 'claim less risk' : 'claims less risk';
    case 'annotation-dropped':
      return 'dropped a declared hint: the spec default claims more risk';
    case 'schema-widened':
    case 'schema-unclassified':
      // The narrowed part of a change that also widens: said where it is shared, but not a widening.
      if (first.kind === 'narrowed') return count > 1 ? 'accept or declare less' : 'accepts or declares less';
      return count > 1 ? 'accept new inputs' : 'accepts new inputs';
    case 'schema-narrowed':
      return count > 1 ? 'accept or declare less' : 'accepts or declares less';
    case 'description-changed':
      return 'changed text';
    case 'tool-removed':
      return 'removed';
    default:
      return f.ruleId;
  }
}

/** "an additive, …" / "a destructive, …". */
const article = (phrase: string) => `${/^[aeiou]/i.test(phrase) ? 'an' : 'a'} ${phrase}`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const NEEDS = '; it needs ';

/** Errors that wait for a review (their review clause says what they need). */
const waitingForReview = (result: CheckResult) => result.findings.filter((f) => f.level === 'error' && f.reviewClause?.startsWith(NEEDS));

/** The "; it needs …" clause shared by every error that has one, or undefined. */
function commonClause(result: CheckResult): string | undefined {
  const clauses = new Set(waitingForReview(result).map((f) => f.reviewClause));
  return clauses.size === 1 ? [...clauses][0] : undefined;
}

/** The verdict and what it waits for. */
export function verdictOf(result: CheckResult): Verdict {
  const { error, warning, notice } = result.counts;
  const failed = result.sources.filter((s) => s.failure);
  const tail = `${plural(warning, 'warning')}, ${plural(notice, 'notice')}`;
  const stale = result.sources.some((s) => s.findings.concat(s.folded ?? []).some((f) => f.ruleId === 'contract-stale'));
  const staleNote = stale ? '; the contract is stale: run `toolgate update` and commit it' : '';
  if (failed.length)
    return { outcome: 'error', text: `${plural(failed.length, 'source')} failed: ${failed.map((s) => s.id).join(', ')} · ${plural(error, 'error')}, ${tail}` };
  const failOn = failOnOf(result);
  const failing = (failsOn('error', failOn) ? error : 0) + (failsOn('warning', failOn) ? warning : 0) + (failsOn('notice', failOn) ? notice : 0);
  if (failing > 0) {
    const reviewable = waitingForReview(result);
    const clause = commonClause(result);
    const needs = clause?.slice(NEEDS.length);
    const waits =
      reviewable.length === error && needs
        ? `: waits for ${needs}`
        : reviewable.length
          ? `; ${reviewable.length} of them ${reviewable.length === 1 ? 'waits' : 'wait'} for ${needs ?? 'a review'}`
          : '';
    const also = [failOn !== 'error' && warning ? plural(warning, 'warning') : '', failOn === 'notice' && notice ? plural(notice, 'notice') : ''].filter(
      Boolean,
    );
    const gate = result.exact ? 'exact' : `fail-on: ${failOn}`;
    return { outcome: 'fail', text: `${plural(error, 'error')}${also.length ? ` and ${also.join(' and ')} (${gate})` : ''}${waits}${staleNote} · ${tail}` };
  }
  if (failOn === 'never' && error + warning > 0) return { outcome: 'pass', text: `${plural(error, 'error')}, not failing (fail-on: never) · ${tail}` };
  if (error + warning + notice === 0) return { outcome: 'pass', text: 'no findings' };
  return { outcome: 'pass', text: `no errors · ${tail}` };
}
