import type { Change } from '../diff/change.js';
import type { Policy } from '../config/policy.js';
import type { MalformedTool } from '../surface/normalize.js';
import type { Surface } from '../surface/model.js';
import type { RuleId } from './catalog.js';
import type { SchemaVerdict } from '../diff/schema/index.js';
import type { TokenCost } from '../surface/tokens.js';

/** Outcome of the review check for the current pull request (see review/approval). */
export interface ReviewState {
  approved: boolean;
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

/** A check's result: evaluate adds level, fix, location and fingerprint. */
export interface RawFinding {
  ruleId: RuleId;
  target: Target;
  message: string;
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
  /** Review state on a pull request; undefined outside one. */
  review?: ReviewState;
  /** Tokens per turn of the live surface (o200k_base), when a token limit asks for them. */
  tokens?: TokenCost;
  /** Tokens per turn of the head, counted or as a trusted contract pins them (never the PR author's). */
  tokensPerTurn?: number;
}

/** A check: one handler may emit several rule ids (as in oasdiff). */
export type Check = (ctx: CheckContext) => RawFinding[];
