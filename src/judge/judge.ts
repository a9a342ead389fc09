/**
 * The judging step of the pipeline (source → surface → diff → **judge** → reports): the rules'
 * context from two surfaces, every rule, and the folding of restatements. `run-check`,
 * `run-diff` and the rule tests share it, so what a test sees is what a user sees.
 */
import type { TokenCost } from '../surface/tokens.js';
import type { Policy } from '../config/policy-model.js';
import { diffSurfaces } from '../diff/diff-surfaces.js';
import type { Change } from '../diff/change.js';
import { classifySchemaChanges } from '../diff/schema/index.js';
import type { CheckContext, Approval } from '../rules/context.js';
import type { SchemaVerdict } from '../diff/schema/index.js';
import { compareFindings, evaluate, evaluateInSlices, type Locate } from '../rules/evaluate.js';
import type { Finding } from '../rules/types.js';
import type { MalformedTool } from '../surface/normalize.js';
import type { Surface } from '../surface/model.js';
import { foldRestatements } from './fold.js';
import type { FoldedFinding } from './result.js';

/** Inputs of {@link buildContext}. */
export interface ContextInput {
  sourceId: string;
  /** The live (or recorded) surface. */
  head: Surface;
  /** The committed contract; absent before the first `toolgate update`. */
  contract?: Surface;
  /** Base of the change review; absent when there is none (`audit`, `update`). */
  base?: Surface;
  malformed?: MalformedTool[];
  policy: Policy;
  approval?: Approval;
  /**
   * The change review, when the caller has it already (outside a pull request the base is the
   * contract and one diff serves both: 100,000 tools cost ~0.4 s a diff).
   */
  changes?: Change[];
  /** Tokens per turn of the head, counted by the caller (the tokenizer loads lazily) or as a trusted contract pins them. */
  tokens?: TokenCost;
}

/**
 * The rules' context: `changes` = diff(base → head), `drift` = diff(contract → head), and the
 * classifier's verdict for every changed `inputSchema` (json-schema-diff in a worker, bounded by
 * the policy's `schema-budget-ms`).
 */
export async function buildContext(input: ContextInput): Promise<CheckContext> {
  const changes = input.changes ?? (input.base ? diffSurfaces(input.base, input.head) : []);
  return assembleContext({ ...input, changes }, await classifyChanges(changes, input.policy.schemaBudgetMs));
}

/**
 * {@link buildContext} with the schema verdicts given (rule tests give them by hand; `buildContext`
 * asks the classifier). Pure but for the diffs.
 */
export function assembleContext(input: ContextInput, schemaVerdicts: ReadonlyMap<string, SchemaVerdict>): CheckContext {
  const { head, contract, base } = input;
  const changes = input.changes ?? (base ? diffSurfaces(base, head) : []);
  const drift = !contract ? [] : contract === base ? changes : diffSurfaces(contract, head);
  return {
    sourceId: input.sourceId,
    head,
    changes,
    drift,
    malformed: input.malformed ?? [],
    policy: input.policy,
    schemaVerdicts,
    ...(contract ? { contract } : {}),
    ...(base ? { base } : {}),
    ...(input.approval ? { approval: input.approval } : {}),
    ...(input.tokens ? { tokens: input.tokens } : {}),
  };
}

/** The verdict of the schema classifier for each tool whose `inputSchema` changed. */
async function classifyChanges(changes: readonly Change[], budgetMs: number): Promise<Map<string, SchemaVerdict>> {
  const pairs = changes.flatMap((c) => (c.kind === 'input-schema-changed' ? [{ tool: c.tool, before: c.base, after: c.head }] : []));
  const out = new Map<string, SchemaVerdict>();
  if (pairs.length === 0) return out;
  const verdicts = await classifySchemaChanges(pairs, { budgetMs });
  pairs.forEach((p, i) => out.set(p.tool, verdicts[i] as SchemaVerdict));
  return out;
}

/** Options of {@link judge}. */
export interface JudgeOptions {
  /** Places each finding in the file people fix. */
  locate: Locate;
  /** Runs once before the findings are located, only when there are any (a large contract's line index). */
  prepare?: () => Promise<void>;
  /** Findings about the source itself (sandbox, stdout noise), located by the caller. */
  sourceFindings?: readonly Finding[];
  /** False outside `check`: no contract to be stale against or to be listed in. Default true. */
  contractRules?: boolean;
}

/** One source judged: findings most severe first, and the restatements folded away. */
export interface Judgement {
  findings: Finding[];
  folded: FoldedFinding[];
}

/** Every rule on the context, then the folding of restatements (see fold.ts). */
export async function judge(ctx: CheckContext, opts: JudgeOptions): Promise<Judgement> {
  return settle(await evaluateInSlices(ctx, opts.locate, opts.prepare), ctx, opts);
}

/** {@link judge} in one go, for small surfaces. @internal for the rule tests */
export function judgeNow(ctx: CheckContext, opts: Omit<JudgeOptions, 'prepare'>): Judgement {
  return settle(evaluate(ctx, opts.locate), ctx, opts);
}

function settle(evaluated: Finding[], ctx: CheckContext, opts: Omit<JudgeOptions, 'prepare' | 'locate'>): Judgement {
  let findings = evaluated;
  if (opts.contractRules === false) findings = findings.filter((f) => f.ruleId !== 'unlisted-tool' && f.ruleId !== 'contract-stale');
  if (opts.sourceFindings) findings.push(...opts.sourceFindings);
  const folded = foldRestatements(findings, { ...(ctx.contract ? { contract: ctx.contract } : {}), drift: ctx.drift });
  return { findings: folded.findings.sort(compareFindings), folded: folded.folded };
}
