/** Severity of a finding. `off` only appears in policy overrides. */
export type Level = 'error' | 'warning' | 'notice';

/** A rule's entry in the catalog (the only place ids and default levels live). */
export interface RuleMeta {
  /** kebab-case, stable forever, never reused. */
  id: string;
  /** Default level; the policy may override it per id and per tool-name pattern. */
  level: Level;
  /** One line, sentence case, no final period. */
  title: string;
  /** Why it matters, two or three sentences. */
  rationale: string;
  /** Where the rule comes from, e.g. "MCP spec 2025-11-25, Tools › Tool annotations". */
  source: string;
  /** Imperative: what to do. */
  fix: string;
  /** "error unless reviewed": an approving review turns it off (see the review module). */
  reviewable?: boolean;
  /**
   * Raised while loading a source's configuration, as a configuration error (exit 2) that stops
   * the run, not as a finding: its level cannot be changed in toolgate.yml.
   */
  configError?: boolean;
}

/** Where a finding points: a file people edit, and a line in it when known. */
export interface FindingLocation {
  /** Path relative to the workspace root, `/`-separated. */
  file: string;
  /** 1-based. */
  line?: number;
}

/** A rule applied to a change or to the surface. */
export interface Finding {
  ruleId: string;
  level: Level;
  /** Source id from the policy. */
  source: string;
  /** Tool name, when the finding is about one tool (attacker-controlled text: escape on output). */
  tool?: string;
  /** One sentence; may quote server text, so it is escaped by every renderer. */
  message: string;
  /** What to do. */
  fix: string;
  location?: FindingLocation;
  /** JSON pointer inside the contract (or config) the finding is about. */
  pointer: string;
  /** Stable id across runs: sha256(ruleId|source|tool|field within the tool), first 16 hex chars; never an array index. */
  fingerprint: string;
  /** Rule-specific facts, asserted by tests. */
  data?: Record<string, unknown>;
  /**
   * For a reviewable rule: the clause the message ends with, saying what review it needs
   * (`; it needs …`) or who approved it (`; approved by …`). Kept apart so that folding and the
   * reports never parse it back out of the message.
   */
  reviewClause?: string;
}
