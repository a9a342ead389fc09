import type { Check } from './context.js';
import { toolAdditions } from './checks/additions.js';
import { annotationHygiene, classChanges, hintChanges } from './checks/hints.js';
import { listing, membership, removalsAndCounts } from './checks/membership.js';
import { policyChecks, promotedMoved } from './checks/policy.js';
import { openArguments, schemaChanges } from './checks/schema.js';
import { suspiciousText } from './checks/suspicious.js';
import { authMetadataChanges } from './checks/auth.js';
import { safetyFieldChanges } from './checks/safety.js';
import { operationCallChanges } from './checks/operation.js';
import { instructionsChanges, textChanges, toolNames } from './checks/text.js';

/**
 * Every check, in report order. Rules raised outside checks: `server-failed` and `stdout-noise`
 * (run-check, from the source), `unknown-operation`, `invalid-policy` and `policy-not-included`
 * (the OpenAPI loader, as configuration errors).
 */
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
