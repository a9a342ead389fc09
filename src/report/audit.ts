import type { ProtectedResource, Surface, SurfaceTool } from '../surface/model.js';
import { isUnannotated } from '../surface/normalize.js';
import type { TokenFacts } from '../surface/tokens.js';

/** The audit at a glance: facts a reviewer reads before the findings (docs/design.md §6). */
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

/**
 * The server a surface describes, when it says which (a name or a protocol version); undefined
 * for a recording that carries only the server's instructions, which has nothing to show.
 */
export const namedServer = (s: Surface | undefined): Surface['server'] =>
  s?.server && (s.server.name !== undefined || s.server.protocolVersion !== undefined) ? s.server : undefined;

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

/**
 * A whole number grouped for reading (`12,345`; rounded), the same on every machine. Written out
 * rather than `toLocaleString('en-US')`, whose first call builds an ICU number format (~13 ms).
 */
export function grouped(n: number): string {
  const digits = String(Math.round(Math.abs(n)));
  return (n < 0 && digits !== '0' ? '-' : '') + digits.replace(/\B(?=(\d{3})+$)/g, ',');
}

/** "+2,310" / "-120" / "±0": the change in tokens per turn from the review's base. */
export function tokenDelta(t: TokenFacts): string | undefined {
  if (t.base === undefined) return undefined;
  const d = t.perTurn - t.base;
  return d > 0 ? `+${grouped(d)}` : d < 0 ? `-${grouped(-d)}` : '±0';
}

/** The caveat every token figure carries. */
export const TOKENS_CAVEAT = "o200k_base; other models' tokenizers differ by roughly 10-20 %";

/**
 * The protected resource metadata as parts of one line (RFC 9728 names), each value passed
 * through `esc` for the report's format.
 */
export function authParts(p: ProtectedResource, esc: (s: string) => string): string[] {
  const list = (xs: string[] | undefined) => (xs && xs.length ? xs.map(esc).join(', ') : 'none');
  return [
    `authorization servers: ${list(p.authorization_servers)}`,
    `scopes: ${list(p.scopes_supported)}`,
    `resource: ${esc(p.resource)}`,
    ...(p.resource_name !== undefined ? [`resource name: ${esc(p.resource_name)}`] : []),
  ];
}
