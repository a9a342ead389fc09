/**
 * The shape of a resolved `toolgate.yml` (docs/design.md §1, §7): the types every layer reads a
 * policy through. Parsing is policy.ts's job, resolving defaults and cross-checks
 * policy-resolve.ts's.
 *
 * @module
 */
import type { Level } from '../rules/types.js';
import type { JsonObject } from '../util/json.js';
import type { SafetyField } from '../surface/safety-fields.js';
import type { SandboxMode, SourceConfig } from './source-config.js';

/** A rule level as written in the policy; `off` silences the rule. */
export type PolicyLevel = Level | 'off';

/** Rule levels for tools whose names match any of `tools` (minimatch). */
export interface RuleOverride {
  tools: string[];
  /** Restrict to these source ids (all when absent). */
  sources?: string[];
  rules: Record<string, PolicyLevel>;
}

/** A `deny` entry. */
export interface DenyEntry {
  tools: string[];
  /** `reachable`: must not be reachable at all; `read`: must not be classed read. */
  when: 'reachable' | 'read';
  /** `less-safe:`: only tools on the less safe side of one of these safety fields are denied. */
  lessSafe?: SafetyField[];
  reason?: string;
  /** Pointer of the entry in the policy, for annotations. */
  pointer: string;
}

/** Who must approve read promotions and lowered risk claims (docs/design.md §7). */
export interface ReviewPolicy {
  reviewers?: string[];
  fresh: boolean;
  required: number;
}

/** `toolgate.yml`, validated and resolved. */
export interface Policy {
  /** Path of the policy file as given, relative to the working directory or absolute ('' when built from CLI arguments). */
  file: string;
  /** Directory paths are resolved against. */
  root: string;
  sources: SourceConfig[];
  rules: Record<string, PolicyLevel>;
  overrides: RuleOverride[];
  /** `limits:`; tokens are o200k_base tokens per turn (surface/tokens.ts). */
  limits: { maxTools?: number; maxPayloadBytes?: number; maxTokens?: number; maxTokensPerTool?: number };
  /** `safety-fields:`: vendor safety fields (docs/design.md §2), in the order written. */
  safetyFields: SafetyField[];
  deny: DenyEntry[];
  review: ReviewPolicy;
  requireExplicitHints: boolean;
  allowPullRequestTarget: boolean;
  allowRemoteRefs: boolean;
  /** `sandbox:` (auto: sandbox where possible, report where not; required: refuse to run servers unsandboxed). */
  sandbox: SandboxMode;
  /**
   * Names of the runner's own secrets and settings (GITHUB_TOKEN, ACTIONS_*, INPUT_*, RUNNER_*)
   * that a source may still pass to its server (`allow-runner-env`); default none.
   */
  allowRunnerEnv: string[];
  /** Time budget per inputSchema comparison (ms). */
  schemaBudgetMs: number;
  /** `runtime:`: what `toolgate proxy` admits and exports write (docs/design.md §11). */
  runtime: RuntimePolicy;
  /** `exports:`: committed exports of contracts (docs/design.md §12), each checked by `toolgate check`. */
  exports: ExportEntry[];
  /** The document as written, validated against the schema: what `diffPolicies` compares key by key (config/keys.ts). */
  doc: JsonObject;
  /** 1-based line of a JSON pointer in the policy file (1 when unknown). */
  lineOf(pointer: string): number;
  /** True when the policy file has a value at this JSON pointer (`''`: the document). */
  has(pointer: string): boolean;
}

/** One committed export (`exports:` entry, or `check --export`). */
export interface ExportEntry {
  /** Target id (`toolgate export --to`). */
  to: string;
  /** Absolute path of the committed file. */
  file: string;
  /** Source id whose contract it exports. */
  source: string;
  /** The server's name in the target (default: the source id). */
  server: string;
  /** The Gateway an Envoy AI Gateway route attaches to (`parentRefs`). */
  gateway?: string;
  /** JSON pointer of the entry in toolgate.yml (absent for one given on the command line). */
  pointer?: string;
}

/** The `runtime` block (docs/design.md §11), with defaults applied. */
export interface RuntimePolicy {
  /** Classes admitted: read, write (disabled OpenAPI operations never are). */
  allow: ('read' | 'write')[];
  /** When set, only names matching one of these minimatch patterns are admitted. */
  allowTools?: string[];
  /** Names matching one of these minimatch patterns are never admitted. */
  deny: string[];
  /** A tools/call result larger than this many UTF-8 JSON bytes becomes an error result. */
  maxResultBytes: number;
  /** Largest JSON-RPC message either side may send, in bytes. */
  maxMessageBytes: number;
  /** Call arguments in the decision log (else only their sha256). */
  logArguments: boolean;
  /** What a drifted tool does: hidden alone, or no tool admitted at all. */
  onDrift: 'hide' | 'refuse-all';
  /** `require-safer:`: a tool is admitted only on the safer side of each of these safety fields. */
  requireSafer?: SafetyField[];
  /**
   * `pass-methods:`: JSON-RPC methods the proxy passes on although no MCP version it knows has
   * them (a vendor's extension); any other unknown method is refused.
   */
  passMethods: string[];
}
