/**
 * The rule catalog: the only place rule ids and default levels live, one table assembled from the
 * rows of each rule family (catalog/), with code scanning's view of each rule and where each is
 * raised. `docs/rules.md` and `toolgate rules` are generated from it.
 *
 * @module
 */
import type { RuleMeta } from './types.js';
import { CONFIG_RULES } from './catalog/configs.js';
import { EXPORT_RULES } from './catalog/exports.js';
import { HINT_RULES } from './catalog/hints.js';
import { MEMBERSHIP_RULES } from './catalog/membership.js';
import { SCHEMA_RULES } from './catalog/schemas.js';
import { SOURCE_RULES } from './catalog/source.js';
import { TEXT_RULES } from './catalog/text.js';

/**
 * Every rule, sorted by id. Ids are stable forever and never reused. A new rule goes in its
 * family's file (catalog/); the families follow docs/design.md §5.
 */
export const RULES: readonly CatalogRule[] = [
  ...MEMBERSHIP_RULES,
  ...HINT_RULES,
  ...SCHEMA_RULES,
  ...TEXT_RULES,
  ...CONFIG_RULES,
  ...SOURCE_RULES,
  ...EXPORT_RULES,
].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

/** One row of the catalog, with its id as a literal. */
type CatalogRule =
  | (typeof MEMBERSHIP_RULES)[number]
  | (typeof HINT_RULES)[number]
  | (typeof SCHEMA_RULES)[number]
  | (typeof TEXT_RULES)[number]
  | (typeof CONFIG_RULES)[number]
  | (typeof SOURCE_RULES)[number]
  | (typeof EXPORT_RULES)[number];

/** A rule id from the catalog. */
export type RuleId = (typeof RULES)[number]['id'];

const BY_ID = new Map<string, RuleMeta>(RULES.map((r) => [r.id, r]));

/** Looks a rule up by id. */
export function ruleById(id: string): RuleMeta | undefined {
  return BY_ID.get(id);
}

/** True when `id` names a catalog rule. */
export function isRuleId(id: string): id is RuleId {
  return BY_ID.has(id);
}

/** How often a finding of a rule is a true one (SARIF `precision`, shown by code scanning). */
export type Precision = 'very-high' | 'high' | 'medium' | 'low';

/**
 * Code scanning's view of each rule (GitHub: "SARIF support for code scanning", `properties`
 * `security-severity` and `precision`). A security rule has a severity from 0.1 to 10, which
 * GitHub files as critical (9.0 and over), high (7.0–8.9), medium (4.0–6.9) or low; the others
 * are quality findings. Precision: `very-high` for what a diff or the contract decides, `high`
 * where a judgment of the schema or the listing is involved, `medium` for the text heuristics.
 * Every rule has an entry (a test checks it).
 */
export const SCANNING: Readonly<Record<RuleId, { security?: number; precision: Precision }>> = {
  'annotation-dropped': { security: 8.0, precision: 'very-high' },
  'annotation-now-implicit': { precision: 'very-high' },
  'auth-metadata-changed': { security: 8.0, precision: 'very-high' },
  'auth-metadata-unavailable': { security: 4.0, precision: 'high' },
  'contract-stale': { security: 7.0, precision: 'very-high' },
  'contradictory-annotations': { security: 4.0, precision: 'very-high' },
  'count-mismatch': { security: 4.0, precision: 'very-high' },
  'denied-tool': { security: 8.5, precision: 'very-high' },
  'description-changed': { security: 7.0, precision: 'very-high' },
  'duplicate-tool-name': { security: 5.0, precision: 'very-high' },
  'export-stale': { security: 7.0, precision: 'very-high' },
  'instructions-changed': { security: 7.0, precision: 'very-high' },
  'invalid-annotation': { security: 4.0, precision: 'very-high' },
  'invalid-policy': { precision: 'very-high' },
  'invalid-tool-name': { security: 4.0, precision: 'high' },
  'malformed-tool': { precision: 'very-high' },
  'open-arguments': { precision: 'high' },
  'operation-call-changed': { precision: 'very-high' },
  'operation-request-changed': { security: 7.0, precision: 'very-high' },
  'operation-security-changed': { security: 8.0, precision: 'very-high' },
  'operation-server-changed': { security: 8.0, precision: 'very-high' },
  'output-schema-changed': { precision: 'very-high' },
  'partially-annotated-tool': { precision: 'very-high' },
  'payload-too-large': { precision: 'very-high' },
  'policy-not-included': { security: 5.0, precision: 'very-high' },
  'policy-relaxed': { security: 8.0, precision: 'very-high' },
  'policy-tightened': { precision: 'very-high' },
  'promoted-operation-moved': { security: 7.5, precision: 'very-high' },
  'read-promotion-unreviewed': { security: 8.0, precision: 'very-high' },
  'read-tool-became-write': { security: 8.5, precision: 'very-high' },
  'risk-claim-lowered': { security: 8.0, precision: 'very-high' },
  'safety-field-changed': { security: 7.5, precision: 'very-high' },
  'schema-narrowed': { precision: 'high' },
  'schema-unclassified': { security: 5.0, precision: 'medium' },
  'schema-widened': { security: 7.5, precision: 'high' },
  'server-escaped': { security: 9.0, precision: 'very-high' },
  'server-failed': { precision: 'very-high' },
  'server-network-blocked': { security: 4.0, precision: 'high' },
  'server-unsandboxed': { security: 6.0, precision: 'very-high' },
  'stdout-noise': { precision: 'very-high' },
  'suspicious-text': { security: 6.0, precision: 'medium' },
  'token-budget-exceeded': { precision: 'very-high' },
  'too-many-tools': { precision: 'very-high' },
  'tool-added': { security: 7.5, precision: 'very-high' },
  'tool-removed': { precision: 'very-high' },
  'tool-shadowed': { security: 5.5, precision: 'medium' },
  'unannotated-tool': { security: 3.0, precision: 'very-high' },
  'unknown-operation': { precision: 'very-high' },
  'unlisted-tool': { security: 9.0, precision: 'very-high' },
};

/**
 * The stage of the pipeline whose facts a rule reads (docs/design.md §3): `source` (what starting
 * or loading the source found out), `surface` (one listing, or the listings of all sources),
 * `change` (the surface against the contract and the base), `policy` (a pull request's edits to
 * toolgate.yml), `export` (a committed export against its contract).
 */
export type Stage = 'source' | 'surface' | 'change' | 'policy' | 'export';

const CHECKS_DIR = 'src/rules/checks';
const OPENAPI_LOADER = 'src/sources/openapi';

/**
 * Where each rule is raised: the module of its check, registered in `src/rules/index.ts`, or for
 * a configuration error the loader that throws it; and the stage it belongs to. Every rule has an
 * entry; test/rules/raised.test.ts reads the code and fails when a rule is raised anywhere else.
 */
export const RAISED: Readonly<Record<RuleId, { stage: Stage; module: string }>> = {
  'annotation-dropped': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'annotation-now-implicit': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'auth-metadata-changed': { stage: 'change', module: `${CHECKS_DIR}/auth.ts` },
  'auth-metadata-unavailable': { stage: 'source', module: `${CHECKS_DIR}/auth.ts` },
  'contract-stale': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
  'contradictory-annotations': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'count-mismatch': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
  'denied-tool': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'description-changed': { stage: 'change', module: `${CHECKS_DIR}/text.ts` },
  'duplicate-tool-name': { stage: 'surface', module: `${CHECKS_DIR}/membership.ts` },
  'export-stale': { stage: 'export', module: `${CHECKS_DIR}/export.ts` },
  'instructions-changed': { stage: 'change', module: `${CHECKS_DIR}/text.ts` },
  'invalid-annotation': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'invalid-policy': { stage: 'source', module: `${OPENAPI_LOADER}/config.ts` },
  'invalid-tool-name': { stage: 'surface', module: `${CHECKS_DIR}/text.ts` },
  'malformed-tool': { stage: 'surface', module: `${CHECKS_DIR}/membership.ts` },
  'open-arguments': { stage: 'surface', module: `${CHECKS_DIR}/schema.ts` },
  'operation-call-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'operation-request-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'operation-security-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'operation-server-changed': { stage: 'change', module: `${CHECKS_DIR}/operation.ts` },
  'output-schema-changed': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'partially-annotated-tool': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'payload-too-large': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'policy-not-included': { stage: 'source', module: `${OPENAPI_LOADER}/index.ts` },
  'policy-relaxed': { stage: 'policy', module: `${CHECKS_DIR}/policy-changes.ts` },
  'policy-tightened': { stage: 'policy', module: `${CHECKS_DIR}/policy-changes.ts` },
  'promoted-operation-moved': { stage: 'change', module: `${CHECKS_DIR}/policy.ts` },
  'read-promotion-unreviewed': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'read-tool-became-write': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'risk-claim-lowered': { stage: 'change', module: `${CHECKS_DIR}/hints.ts` },
  'safety-field-changed': { stage: 'change', module: `${CHECKS_DIR}/safety.ts` },
  'schema-narrowed': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'schema-unclassified': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'schema-widened': { stage: 'change', module: `${CHECKS_DIR}/schema.ts` },
  'server-escaped': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'server-failed': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'server-network-blocked': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'server-unsandboxed': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'stdout-noise': { stage: 'source', module: `${CHECKS_DIR}/source.ts` },
  'suspicious-text': { stage: 'surface', module: `${CHECKS_DIR}/suspicious.ts` },
  'token-budget-exceeded': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'too-many-tools': { stage: 'surface', module: `${CHECKS_DIR}/policy.ts` },
  'tool-added': { stage: 'change', module: `${CHECKS_DIR}/additions.ts` },
  'tool-removed': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
  'tool-shadowed': { stage: 'surface', module: `${CHECKS_DIR}/shadow.ts` },
  'unannotated-tool': { stage: 'surface', module: `${CHECKS_DIR}/hints.ts` },
  'unknown-operation': { stage: 'source', module: `${OPENAPI_LOADER}/index.ts` },
  'unlisted-tool': { stage: 'change', module: `${CHECKS_DIR}/membership.ts` },
};
