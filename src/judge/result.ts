/**
 * What a run produced, for every report (terminal, Markdown, JSON, SARIF, the Action's outputs):
 * reports depend on these types only, never on the orchestrator that fills them.
 */
import type { SourceConfig } from '../config/source-config.js';
import type { Change } from '../diff/change.js';
import type { Finding } from '../rules/types.js';
import type { SnapshotDiagnostics } from '../sources/types.js';
import type { MalformedTool } from '../surface/normalize.js';
import type { Surface } from '../surface/model.js';
import type { TokenFacts } from '../surface/tokens.js';
import type { SafetyField } from '../surface/safety-fields.js';

/**
 * - `check`: live surface against the contract (and the PR base): everything the Action does.
 * - `audit`: the live surface and its hygiene findings; no contract needed.
 * - `update`: snapshot and write the contract atomically (untouched when the source fails).
 */
export type Mode = 'check' | 'audit' | 'update';

/**
 * A finding that only restated another and was folded into its cause (docs/design.md §6, one change one
 * finding). It does not count, fail or annotate; the JSON report keeps it.
 */
export interface FoldedFinding extends Finding {
  /** Fingerprint of the finding it was folded into, or `verdict` (said in the verdict line). */
  foldedInto: string;
  /** Why, in a reviewer's words. */
  because: string;
}

/** What happened to one source. */
export interface SourceResult {
  id: string;
  kind: SourceConfig['kind'];
  /** Contract path relative to the root. */
  contractFile: string;
  /** The live (or recorded) surface; absent when the source failed. */
  surface?: Surface;
  /** The committed contract, when there is one. */
  contract?: Surface;
  /** False for recorded surfaces. */
  live: boolean;
  diagnostics?: SnapshotDiagnostics;
  malformed: MalformedTool[];
  /** Set when the source failed (`server-failed`). */
  failure?: { message: string; reason: string; stderrTail?: string };
  findings: Finding[];
  /** Findings folded into others (not counted). */
  folded?: FoldedFinding[];
  /** `update` only: whether the contract file was written (false when unchanged). */
  wrote?: boolean;
  /** The change review: base (PR base contract, or the committed one) → live surface; `update`: old contract → new. */
  changes?: Change[];
  /** Drift: committed contract → live surface (non-empty means `contract-stale`). */
  drift?: Change[];
  /** Tokens per turn (o200k_base), when known: see `tokenFacts` in surface/tokens.ts. */
  tokens?: TokenFacts;
  /** The policy's safety fields and the reachable tools on the less safe side of each (docs/design.md §2). */
  safety?: { name: string; pointer: string; safer: SafetyField['safer']; lessSafe: string[] }[];
}

/** Result of a run over every selected source. */
export interface CheckResult {
  /** Which command produced it (reports word the verdict after it); `check` when absent. */
  mode?: Mode;
  sources: SourceResult[];
  /** All findings, most severe first. */
  findings: Finding[];
  counts: { error: number; warning: number; notice: number };
  /** 0 clean, 1 error-level findings, 3 a source failed (2 is thrown as ConfigError). */
  exitCode: 0 | 1 | 3;
  /** Release gating was on (`exact`): warnings fail too. */
  exact?: boolean;
  /** The lowest level that fails the run (`fail-on`); absent: `error` (or `warning` with `exact`). */
  failOn?: FailOn;
}

/**
 * The lowest level of finding that fails a run (`--fail-on`, the Action's `fail-on`): `never`
 * fails on no finding (a source that failed or a configuration error still fails: nothing was
 * checked).
 */
export type FailOn = 'error' | 'warning' | 'notice' | 'never';

/** Every `FailOn` value, most demanding last. */
export const FAIL_ON_VALUES: readonly FailOn[] = ['error', 'warning', 'notice', 'never'];

/** Whether a finding of `level` fails a run that fails on `failOn`. Pure. */
export function failsOn(level: Finding['level'], failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  const rank = { error: 0, warning: 1, notice: 2 } as const;
  return rank[level] <= rank[failOn];
}

/** The `FailOn` a result was judged with. */
export function failOnOf(result: Pick<CheckResult, 'failOn' | 'exact'>): FailOn {
  return result.failOn ?? (result.exact ? 'warning' : 'error');
}

/** Findings by level. Pure. */
export function tally(findings: readonly Finding[]): CheckResult['counts'] {
  const counts = { error: 0, warning: 0, notice: 0 };
  for (const f of findings) counts[f.level]++;
  return counts;
}
