import type { Change } from '../diff/change.js';
import type { Policy } from '../config/policy-model.js';
import type { MalformedTool } from '../surface/normalize.js';
import type { Surface } from '../surface/model.js';
import type { RuleId } from './catalog.js';
import type { SchemaVerdict } from '../diff/schema/index.js';
import type { TokenCost } from '../surface/tokens.js';
import type { ExportEntry } from '../config/policy-model.js';
import type { PolicyChange } from '../config/policy-diff.js';
import type { SnapshotDiagnostics } from '../sources/types.js';
import type { Discovery } from '../surface/model.js';

/**
 * The approval: whether the pull request's reviews approve it under the judging policy
 * (`evaluateApproval` in review/approval.ts, read by `readApproval` in github/pr-context.ts;
 * docs/design.md §7). One approval covers every reviewable finding of a run.
 */
export interface Approval {
  approved: boolean;
  /** Logins whose approval counted, in the order their reviews were submitted. */
  approvers: string[];
  /** Human text of what is missing, e.g. "1 approving review from someone other than @alice". */
  missing: string;
}

/** What a finding is about, before it is placed in a file. */
export interface Target {
  /** Tool name, when the finding is about one tool. */
  tool?: string;
  /** Pointer below the tool's entry (e.g. `/annotations/readOnlyHint`), or below the file root. */
  sub?: string;
  /** Which file people fix: the contract (default), the policy, or the OpenAPI integration config. */
  in?: 'contract' | 'policy' | 'integration';
  /**
   * Index of the entry in the source's listing, for a finding about an entry that is no valid
   * tool (`malformed-tool`): located where the source says it is (a recorded file's line).
   */
  listingIndex?: number;
  /**
   * The field within the tool that keys the fingerprint, when it is not `sub`: a finding that
   * gathers several places of one tool (every changed text) keeps one id whichever comes first.
   * For a finding about no tool, what keys it instead of its pointer (an export's file).
   */
  key?: string;
}

/** A check's result: evaluate adds level, fix (unless given), location and fingerprint. */
export interface RawFinding {
  ruleId: RuleId;
  target: Target;
  message: string;
  /** What to do, when it depends on where the finding is (else the catalog's `fix`). */
  fix?: string;
  data?: Record<string, unknown>;
}

/** Everything a check may look at. All pure data. */
export interface CheckContext {
  sourceId: string;
  /** The live surface. */
  head: Surface;
  /** The committed contract: the allowlist. Undefined before the first `toolgate update`. */
  contract?: Surface;
  /** Base of the change review (PR base contract; the committed contract outside a PR). */
  base?: Surface;
  /** diffSurfaces(base, head). */
  changes: Change[];
  /** diffSurfaces(contract, head). */
  drift: Change[];
  malformed: MalformedTool[];
  policy: Policy;
  /** Schema verdicts by tool name for tools whose inputSchema changed. */
  schemaVerdicts: ReadonlyMap<string, SchemaVerdict>;
  /** The approval, on a pull request; undefined outside one. */
  approval?: Approval;
  /**
   * Tokens per turn of the head: counted (with `perTool`, always when a token limit is set), or as
   * a trusted contract pins them (never the pull request author's).
   */
  tokens?: TokenCost;
}

/** A check of one source's surface and its changes: one handler may emit several rule ids (as in oasdiff). */
export type Check = (ctx: CheckContext) => RawFinding[];

/** What one source's run found out about the source itself, whether or not it listed tools. */
export interface SourceFacts {
  /** JSON pointer of the source's entry in toolgate.yml (its findings are located there). */
  sourcePointer: string;
  /** Set when the snapshot failed: what happened, and the failure's reason (`SourceFailure`). */
  failure?: { message: string; reason: string };
  diagnostics: Pick<SnapshotDiagnostics, 'sandbox' | 'escaped' | 'networkBlocked' | 'stdoutNoiseLines' | 'stdoutNoiseSample' | 'unauthorized'>;
  /** HTTP sources: what RFC 9728 discovery found. */
  protectedResource?: Discovery;
}

/** A check of the source stage (server-failed, containment, stdout noise, authorization discovery). */
export type SourceCheck = (facts: SourceFacts) => RawFinding[];

/** A check across the sources of one policy, once each is listed: findings by source id. */
export type AcrossSourcesCheck = (sources: readonly { id: string; surface: Surface }[]) => Map<string, RawFinding[]>;

/** A check of how a pull request changes toolgate.yml. */
export type PolicyCheck = (changes: readonly PolicyChange[]) => RawFinding[];

/** A committed export that does not match its contract, and why (export/verify.ts). */
export interface ExportFacts {
  entry: ExportEntry;
  /** The export's path as shown (relative to the workspace). */
  shown: string;
  /** The contract's path as shown. */
  contractFile: string;
  /** The `toolgate export …` command that writes it. */
  invocation: string;
  stale: { line?: number; why: string };
}

/** A check of a committed export. */
export type ExportCheck = (facts: ExportFacts) => RawFinding[];
