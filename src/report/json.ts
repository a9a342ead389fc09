import type { CheckResult } from '../run-check.js';
import { auditFacts } from './audit.js';
import { describeChange } from './changes.js';

/** Version of the JSON report shape (bumped on breaking changes). */
export const JSON_REPORT_VERSION = 1;

/**
 * The machine-readable report: per source the counts (under the surface's own names), digest,
 * payload bytes, failure, diagnostics, and all findings. Tool text stays raw here (it is data:
 * JSON encoding is the escaping, and consumers render it themselves), except lone surrogates.
 */
export function renderJson(result: CheckResult, toolgateVersion: string): string {
  const report = {
    reportVersion: JSON_REPORT_VERSION,
    toolgate: toolgateVersion,
    exitCode: result.exitCode,
    counts: result.counts,
    sources: result.sources.map((r) => {
      const a = r.surface ? auditFacts(r.surface) : undefined;
      return {
        id: r.id,
        kind: r.kind,
        live: r.live,
        contract: r.contractFile,
        ...(r.surface
          ? {
              server: r.surface.server,
              ...r.surface.counts,
              payloadBytes: r.surface.payloadBytes,
              digest: r.surface.digest,
              additiveWrites: a?.additiveWrites,
              openWorldTools: a?.openWorld,
              unannotatedTools: a?.unannotated,
              malformedTools: a?.malformed,
              readPromotions: a?.promotions.map((t) => ({ name: t.name, ...t.origin })),
              tools: r.surface.tools.map((t) => ({
                name: t.name,
                safetyClass: t.safetyClass,
                declaredHints: t.declaredHints,
                effectiveHints: t.effectiveHints,
                ...(t.origin ? { origin: t.origin } : {}),
                ...(t.malformed !== undefined ? { malformed: t.malformed } : {}),
                digest: t.digest,
              })),
            }
          : {}),
        ...(r.failure ? { failure: r.failure } : {}),
        ...(r.diagnostics ? { diagnostics: r.diagnostics } : {}),
        ...(r.malformed.length ? { malformed: r.malformed } : {}),
        ...(r.wrote !== undefined ? { wrote: r.wrote } : {}),
        ...(r.changes ? { changes: r.changes.map(describeChange) } : {}),
        ...(r.drift ? { drift: r.drift.map(describeChange) } : {}),
      };
    }),
    findings: result.findings,
  };
  return JSON.stringify(report, (_key, value: unknown) => (typeof value === 'string' ? wellFormed(value) : value), 2) + '\n';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The string with each lone surrogate replaced by U+FFFD. `JSON.stringify` writes a lone
 * surrogate as a `\udXXX` escape, which strict parsers (`jq`, Go, Rust) reject: the report stays
 * readable by every JSON tool, at the price of that one character (the contract keeps it exact).
 */
function wellFormed(s: string): string {
  return s.replace(LONE_SURROGATE, '\uFFFD');
}
