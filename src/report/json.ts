import type { Change, HintState } from '../diff/change.js';
import { failOnOf, type CheckResult, type SourceResult } from '../judge/result.js';
import type { Finding } from '../rules/types.js';
import type { SurfaceTool } from '../surface/model.js';
import type { Json } from '../util/json.js';
import { auditFacts } from './audit.js';
import { verdictOf } from './review.js';

/**
 * Version of the JSON report shape (bumped on breaking changes). 2: structured changes (`kind`,
 * `tool`, `pointer`, `before`, `after`) with ids that findings point to, `result`, `verdict`,
 * `folded`. Published as `schema/report.schema.json`.
 */
export const JSON_REPORT_VERSION = 2;

/** One change as data (schema/report.schema.json `#/$defs/change`). */
export interface ChangeRecord {
  /** `<source>:c<n>` (change review) or `<source>:d<n>` (drift): unique within one report. */
  id: string;
  kind: Change['kind'];
  tool?: string;
  /** JSON pointer below the tool's entry in the contract (or below the contract's root). */
  pointer: string;
  before?: Json | HintState;
  after?: Json | HintState;
}

/** What a new or removed tool is, as the reviewer needs it. */
function toolFacts(t: SurfaceTool): Json {
  return {
    safetyClass: t.safetyClass,
    declaredHints: t.declaredHints as Json,
    effectiveHints: t.effectiveHints as unknown as Json,
    ...(t.description !== undefined ? { description: t.description } : {}),
    ...(t.origin ? { origin: t.origin as unknown as Json } : {}),
    digest: t.digest,
  };
}

const opt = (k: 'before' | 'after', v: Json | HintState | undefined) => (v === undefined ? {} : { [k]: v });

/** A change as data. Pure. */
export function changeRecord(c: Change, id: string): ChangeRecord {
  switch (c.kind) {
    case 'tool-added':
      return { id, kind: c.kind, tool: c.tool, pointer: '', after: toolFacts(c.head) };
    case 'tool-removed':
      return { id, kind: c.kind, tool: c.tool, pointer: '', before: toolFacts(c.base) };
    case 'hint-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: `/annotations/${c.hint}`, before: c.base, after: c.head };
    case 'class-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: '/safetyClass', before: c.base, after: c.head };
    case 'text-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: `/${c.field.replace('.', '/')}${c.pointer ?? ''}`, ...opt('before', c.base), ...opt('after', c.head) };
    case 'input-schema-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: '/inputSchema', before: c.base, after: c.head };
    case 'output-schema-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: '/outputSchema', ...opt('before', c.base), ...opt('after', c.head) };
    case 'origin-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: '/origin', ...opt('before', c.base as unknown as Json), ...opt('after', c.head as unknown as Json) };
    case 'call-changed':
      return { id, kind: c.kind, tool: c.tool, pointer: `/origin/${c.field}`, ...opt('before', c.base), ...opt('after', c.head) };
    case 'call-first-pinned':
      return { id, kind: c.kind, tool: c.tool, pointer: '/origin', after: c.head as unknown as Json };
    case 'metadata-changed':
      // before/after: canonical JSON text of the field (all top-level keys outside the spec for `extra`).
      return { id, kind: c.kind, tool: c.tool, pointer: c.field === 'extra' ? '' : `/${c.field}`, ...opt('before', c.base), ...opt('after', c.head) };
    case 'count-changed':
      return { id, kind: c.kind, pointer: `/counts/${c.count}`, before: c.base, after: c.head };
    case 'server-changed':
      return { id, kind: c.kind, pointer: `/server/${c.field}`, ...opt('before', c.base), ...opt('after', c.head) };
    case 'source-changed':
      return { id, kind: c.kind, pointer: `/source/${c.field}` };
    case 'instructions-changed':
      return { id, kind: c.kind, pointer: '/server/instructions', ...opt('before', c.base), ...opt('after', c.head) };
    case 'auth-metadata-changed':
      return c.added !== undefined || c.removed !== undefined
        ? { id, kind: c.kind, pointer: `/protectedResource/${c.field}`, before: c.removed ?? [], after: c.added ?? [] }
        : { id, kind: c.kind, pointer: `/protectedResource/${c.field}`, ...opt('before', c.base), ...opt('after', c.head) };
  }
}

/** The change kinds each rule judges: a finding points at its tool's changes of these kinds. */
const RULE_CHANGES: Record<string, readonly Change['kind'][]> = {
  'tool-added': ['tool-added', 'class-changed'],
  'unlisted-tool': ['tool-added'],
  'tool-removed': ['tool-removed'],
  'description-changed': ['text-changed', 'metadata-changed'],
  'schema-widened': ['input-schema-changed'],
  'schema-narrowed': ['input-schema-changed'],
  'schema-unclassified': ['input-schema-changed'],
  'output-schema-changed': ['output-schema-changed'],
  'risk-claim-lowered': ['hint-changed'],
  'annotation-dropped': ['hint-changed'],
  'annotation-now-implicit': ['hint-changed'],
  'read-promotion-unreviewed': ['class-changed', 'hint-changed'],
  'read-tool-became-write': ['class-changed', 'hint-changed'],
  'promoted-operation-moved': ['origin-changed'],
  'operation-server-changed': ['call-changed', 'call-first-pinned'],
  'operation-security-changed': ['call-changed'],
  'operation-request-changed': ['call-changed'],
  'operation-call-changed': ['call-changed'],
  'count-mismatch': ['count-changed'],
  'instructions-changed': ['instructions-changed'],
  'auth-metadata-changed': ['auth-metadata-changed'],
};
/** The call fields (pointers of `call-changed` records) each widening OpenAPI rule judges. */
const CALL_FIELDS_OF: Record<string, readonly string[]> = {
  'operation-server-changed': ['/origin/servers'],
  'operation-security-changed': ['/origin/security'],
  'operation-request-changed': ['/origin/parameters', '/origin/requestBody'],
};
/** Rules about the contract against the live surface: their changes are the drift. */
const DRIFT_RULES = new Set(['unlisted-tool', 'count-mismatch']);

/** Change records of one source and a lookup from a finding to the ids of its changes. */
function sourceChanges(r: SourceResult): { changes?: ChangeRecord[]; drift?: ChangeRecord[]; idsOf: (f: Finding) => string[] } {
  const changes = r.changes?.map((c, i) => changeRecord(c, `${r.id}:c${i + 1}`));
  const drift = r.drift?.map((c, i) => changeRecord(c, `${r.id}:d${i + 1}`));
  const index = (list: ChangeRecord[] | undefined) => {
    const m = new Map<string, ChangeRecord[]>();
    for (const c of list ?? []) {
      const key = c.tool ?? `#${c.pointer}`;
      m.set(key, [...(m.get(key) ?? []), c]);
    }
    return m;
  };
  const byTool = index(changes);
  // Outside a pull request the drift is the change review (one list).
  const driftByTool = drift ? index(drift) : byTool;
  const idsOf = (f: Finding) => {
    const kinds = RULE_CHANGES[f.ruleId];
    if (!kinds) return [];
    const m = DRIFT_RULES.has(f.ruleId) ? driftByTool : byTool;
    // One auth-metadata-changed finding judges the changes of every field of the metadata.
    if (f.ruleId === 'auth-metadata-changed')
      return [...m]
        .flatMap(([k, list]) => (k.startsWith('#/protectedResource/') ? list : []))
        .filter((c) => kinds.includes(c.kind))
        .map((c) => c.id);
    // The one finding about a base of contract format 1 judges every tool's first pinned call.
    if (f.tool === undefined && f.data?.firstPinned !== undefined) return (changes ?? []).filter((c) => c.kind === 'call-first-pinned').map((c) => c.id);
    const key =
      f.ruleId === 'count-mismatch' ? `#/counts/${String(f.data?.count)}` : f.ruleId === 'instructions-changed' ? '#/server/instructions' : (f.tool ?? '');
    const fields = CALL_FIELDS_OF[f.ruleId];
    return (m.get(key) ?? [])
      .filter((c) => kinds.includes(c.kind) && (c.kind !== 'call-changed' || !fields || fields.some((p) => c.pointer === p)))
      .map((c) => c.id);
  };
  return { ...(changes ? { changes } : {}), ...(drift ? { drift } : {}), idsOf };
}

/**
 * The machine-readable report (schema/report.schema.json): the verdict, per source the counts
 * (under the surface's own names), digest, tools, failure, diagnostics and every change as data,
 * then every finding (with the ids of the changes it judges) and the findings folded into others.
 * Tool text stays raw here (it is data: JSON encoding is the escaping, and consumers render it
 * themselves), except lone surrogates.
 */
export function renderJson(result: CheckResult, toolgateVersion: string): string {
  const verdict = verdictOf(result);
  const perSource = new Map(result.sources.map((r) => [r.id, sourceChanges(r)]));
  const withChanges = (f: Finding) => {
    const ids = perSource.get(f.source)?.idsOf(f) ?? [];
    return ids.length ? { ...f, changes: ids } : f;
  };
  const report = {
    reportVersion: JSON_REPORT_VERSION,
    toolgate: toolgateVersion,
    mode: result.mode ?? 'check',
    result: verdict.outcome,
    verdict: verdict.text,
    exitCode: result.exitCode,
    failOn: failOnOf(result),
    counts: result.counts,
    sources: result.sources.map((r) => {
      const a = r.surface ? auditFacts(r.surface) : undefined;
      const ch = perSource.get(r.id);
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
              ...(r.tokens ? { tokens: { encoding: 'o200k_base', ...r.tokens } } : {}),
              ...(r.surface.protectedResource ? { protectedResource: r.surface.protectedResource } : {}),
              ...(r.safety ? { safetyFields: r.safety } : {}),
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
        ...(ch?.changes ? { changes: ch.changes } : {}),
        ...(ch?.drift ? { drift: ch.drift } : {}),
      };
    }),
    findings: result.findings.map(withChanges),
    folded: result.sources.flatMap((r) => r.folded ?? []).map(withChanges),
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
