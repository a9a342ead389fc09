import { sha256 } from '../surface/canonical.js';
import type { Finding, FindingLocation, Level } from './types.js';
import type { CheckContext, RawFinding, Approval, Target } from './context.js';
import { CHECKS } from './index.js';
import { ruleById } from './catalog.js';
import { levelFor } from './levels.js';
import type { Policy } from '../config/policy-model.js';
import { runInSlices, runToEnd, type Steps } from '../util/slices.js';

/** Places a target in a file: the file people fix and the pointer/line in it. */
export type Locate = (target: Target) => { location?: FindingLocation; pointer: string };

/** Severity rank: 0 is the most severe. */
export const LEVEL_RANK: Record<Level, number> = { error: 0, warning: 1, notice: 2 };

/**
 * Stable id of a finding across runs: sha256(ruleId|source|tool|field), 16 hex chars, where field
 * is the pointer below the tool's entry (or, for a finding about no tool, the pointer in its file).
 */
export function fingerprint(ruleId: string, source: string, tool: string | undefined, pointer: string): string {
  return sha256(`${ruleId}|${source}|${tool ?? ''}|${pointer}`).slice(0, 16);
}

/**
 * Most severe first, then by source, file, line, rule and tool: a stable order for every report.
 * Strings compare by UTF-16 code unit, not `localeCompare`: the order is then the same under
 * every ICU build and locale, and no collator is built (about 9 ms of a run's first sort).
 */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    LEVEL_RANK[a.level] - LEVEL_RANK[b.level] ||
    byCodeUnit(a.source, b.source) ||
    byCodeUnit(a.location?.file ?? '', b.location?.file ?? '') ||
    (a.location?.line ?? 0) - (b.location?.line ?? 0) ||
    byCodeUnit(a.ruleId, b.ruleId) ||
    byCodeUnit(a.tool ?? '', b.tool ?? '')
  );
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What a reviewable finding says about the review: who approved it, or what it still needs. With
 * no pull request (a push, `check --base`) it says what the judging policy will ask for.
 */
function reviewClause(approval: Approval | undefined, policy: Policy): string {
  if (!approval) {
    const { required, reviewers, fresh } = policy.review;
    const who = reviewers?.length ? `from ${reviewers.join(', ')}` : 'from someone with write access who is not its author';
    const count = required === 1 ? 'an approving review' : `${required} approving reviews`;
    return `; it needs ${count} on the pull request (none can be checked outside a pull request): ${who}${fresh ? ', on the head commit' : ''}`;
  }
  return approval.approved ? `; approved by ${approval.approvers.map((a) => `@${a}`).join(', ')}` : `; it needs ${approval.missing}`;
}

/**
 * Completes raw findings: level from the policy (dropping `off`), fix from the catalog, location,
 * fingerprint. A reviewable rule (docs/design.md §7: a widening change) says what review it needs; when
 * the pull request has an eligible approval it becomes a notice that says who approved.
 */
export function finalize(raw: readonly RawFinding[], ctx: Pick<CheckContext, 'sourceId' | 'policy' | 'approval'>, locate: Locate): Finding[] {
  return runToEnd(finalizeSteps(raw, ctx, locate));
}

function* finalizeSteps(raw: readonly RawFinding[], ctx: Pick<CheckContext, 'sourceId' | 'policy' | 'approval'>, locate: Locate): Steps<Finding[]> {
  const out: Finding[] = [];
  for (const r of raw) {
    yield;
    const meta = ruleById(r.ruleId);
    let level = levelFor(ctx.policy, r.ruleId, ctx.sourceId, r.target.tool);
    if (level === 'off') continue;
    let message = r.message;
    const clause = meta?.reviewable ? reviewClause(ctx.approval, ctx.policy) : undefined;
    if (clause !== undefined) {
      message += clause;
      if (ctx.approval?.approved) level = 'notice';
    }
    const { location, pointer } = locate(r.target);
    const f: Finding = {
      ruleId: r.ruleId,
      level,
      source: ctx.sourceId,
      message,
      fix: r.fix ?? meta?.fix ?? '',
      pointer,
      // Keyed on the field within the tool, never on where the tool sits in the contract: adding
      // an unrelated tool must not re-open every code-scanning alert.
      fingerprint: fingerprint(r.ruleId, ctx.sourceId, r.target.tool, r.target.key ?? (r.target.tool !== undefined ? (r.target.sub ?? '') : pointer)),
    };
    if (r.target.tool !== undefined) f.tool = r.target.tool;
    if (location) f.location = location;
    if (r.data) f.data = r.data;
    if (clause !== undefined) f.reviewClause = clause;
    out.push(f);
  }
  return out;
}

/** A finding's message without its review clause ({@link Finding.reviewClause}). */
export function withoutReviewClause(f: Pick<Finding, 'message' | 'reviewClause'>): string {
  return f.reviewClause && f.message.endsWith(f.reviewClause) ? f.message.slice(0, -f.reviewClause.length) : f.message;
}

/** Runs every check on the context. Pure. */
export function evaluate(ctx: CheckContext, locate: Locate): Finding[] {
  return runToEnd(finalizeSteps(runToEnd(checkSteps(ctx)), ctx, locate)).sort(compareFindings);
}

/**
 * {@link evaluate}, letting signals in between checks and findings (100,000 tools: seconds in
 * all). `prepare` runs, once, between the checks and the locating of their findings, only when
 * there are findings: reading a large contract's line index is about a second, needed only then.
 */
export async function evaluateInSlices(ctx: CheckContext, locate: Locate, prepare?: () => Promise<void>): Promise<Finding[]> {
  const raw = await runInSlices(checkSteps(ctx));
  if (raw.length > 0 && prepare) await prepare();
  const findings = await runInSlices(finalizeSteps(raw, ctx, locate));
  return findings.sort(compareFindings);
}

function* checkSteps(ctx: CheckContext): Steps<RawFinding[]> {
  const raw: RawFinding[] = [];
  for (const check of CHECKS) {
    for (const f of check(ctx)) raw.push(f);
    yield;
  }
  return raw;
}
