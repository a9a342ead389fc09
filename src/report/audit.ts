import type { Surface, SurfaceTool } from '../surface/model.js';
import { isUnannotated } from '../surface/normalize.js';

/** The audit at a glance: facts a reviewer reads before the findings (DESIGN §4). */
export interface AuditFacts {
  counts: Surface['counts'];
  payloadBytes: number;
  digest: string;
  /** Writes that declare destructiveHint false: they claim to only add. */
  additiveWrites: string[];
  /** Reachable tools whose effective openWorldHint is true. */
  openWorld: string[];
  /** Tools that declare no hints (MCP only). */
  unannotated: string[];
  /** OpenAPI operations promoted to read by a policy. */
  promotions: SurfaceTool[];
  /** OpenAPI operations kept but not reachable. */
  disabled: SurfaceTool[];
  /** Tools pinned as served though they do not have the MCP `Tool` shape (`malformed-tool`). */
  malformed: string[];
}

/** Derives {@link AuditFacts} from a surface. Pure. */
export function auditFacts(s: Surface): AuditFacts {
  const reachable = s.tools.filter((t) => t.safetyClass !== 'disabled');
  return {
    counts: s.counts,
    payloadBytes: s.payloadBytes,
    digest: s.digest,
    additiveWrites: reachable.filter((t) => !t.effectiveHints.readOnlyHint && t.declaredHints.destructiveHint === false).map((t) => t.name),
    openWorld: reachable.filter((t) => t.effectiveHints.openWorldHint).map((t) => t.name),
    unannotated: reachable.filter((t) => !t.origin && isUnannotated(t.declaredHints)).map((t) => t.name),
    promotions: reachable.filter((t) => t.origin?.promoted),
    disabled: s.tools.filter((t) => t.safetyClass === 'disabled'),
    malformed: s.tools.filter((t) => t.malformed !== undefined).map((t) => t.name),
  };
}

/** Row labels for the counts table, in display order. */
export const COUNT_LABELS: readonly [keyof Surface['counts'], string][] = [
  ['toolCount', 'tools'],
  ['readOnlyToolCount', 'read-only'],
  ['destructiveToolCount', 'destructive'],
  ['openWorldToolCount', 'open-world'],
  ['idempotentToolCount', 'idempotent'],
  ['unannotatedToolCount', 'unannotated'],
  ['disabledToolCount', 'disabled (not reachable)'],
];
