import type { AcrossSourcesCheck, Check, ExportCheck, ExportFacts, PolicyCheck, RawFinding, SourceCheck, SourceFacts } from './context.js';
import type { PolicyChange } from '../config/policy-diff.js';
import type { Surface } from '../surface/model.js';
import { toolAdditions } from './checks/additions.js';
import { annotationHygiene, classChanges, hintChanges } from './checks/hints.js';
import { listing, membership, removalsAndCounts } from './checks/membership.js';
import { policyChecks, promotedMoved } from './checks/policy.js';
import { openArguments, schemaChanges } from './checks/schema.js';
import { suspiciousText } from './checks/suspicious.js';
import { authDiscovery, authMetadataChanges } from './checks/auth.js';
import { safetyFieldChanges } from './checks/safety.js';
import { operationCallChanges } from './checks/operation.js';
import { instructionsChanges, textChanges, toolNames } from './checks/text.js';
import { containment, serverFailed, stdoutNoise } from './checks/source.js';
import { shadowing } from './checks/shadow.js';
import { policyChanges } from './checks/policy-changes.js';
import { exportStale } from './checks/export.js';

/**
 * The registry: every check, by the facts it reads, in report order. Every finding of a run is
 * raised by one of them (`RAISED` in catalog.ts says which module raises each rule, and in which
 * stage); the only rules raised elsewhere are the configuration errors of an OpenAPI integration
 * config (`unknown-operation`, `invalid-policy`, `policy-not-included`), which stop the run while
 * the source loads.
 */

/** About the source itself: its failure, its containment, its authorization discovery, its stdout. */
export const SOURCE_CHECKS: readonly SourceCheck[] = [serverFailed, containment, authDiscovery, stdoutNoise];

/** About one source's surface and its changes against the contract and the base. */
export const CHECKS: readonly Check[] = [
  membership,
  toolAdditions,
  listing,
  removalsAndCounts,
  hintChanges,
  classChanges,
  annotationHygiene,
  textChanges,
  instructionsChanges,
  authMetadataChanges,
  safetyFieldChanges,
  suspiciousText,
  toolNames,
  schemaChanges,
  openArguments,
  policyChecks,
  promotedMoved,
  operationCallChanges,
];

/** Across the listed sources of one policy. */
export const ACROSS_SOURCES: readonly AcrossSourcesCheck[] = [shadowing];

/** About the pull request's edits to toolgate.yml. */
export const POLICY_CHECKS: readonly PolicyCheck[] = [policyChanges];

/** About a committed export. */
export const EXPORT_CHECKS: readonly ExportCheck[] = [exportStale];

/** The raw findings of every source check. Pure. */
export function checkSource(facts: SourceFacts): RawFinding[] {
  return SOURCE_CHECKS.flatMap((c) => c(facts));
}

/** The raw findings of every check across sources, by source id, in source order. Pure. */
export function checkAcrossSources(sources: readonly { id: string; surface: Surface }[]): Map<string, RawFinding[]> {
  const out = new Map<string, RawFinding[]>();
  for (const check of ACROSS_SOURCES) for (const [id, found] of check(sources)) out.set(id, [...(out.get(id) ?? []), ...found]);
  return out;
}

/** The raw findings of every policy check. Pure. */
export function checkPolicy(changes: readonly PolicyChange[]): RawFinding[] {
  return POLICY_CHECKS.flatMap((c) => c(changes));
}

/** The raw findings of every export check. Pure. */
export function checkExport(facts: ExportFacts): RawFinding[] {
  return EXPORT_CHECKS.flatMap((c) => c(facts));
}
