import { HINT_NAMES, type HintName, type ProtectedResource, type Surface, type SurfaceCounts, type SurfaceTool, type ToolOrigin } from '../surface/model.js';
import { diffCall } from './call-diff.js';
import { canonicalJson, getOwn, pointerSegments, type Json } from '../util/json.js';
import type { Change, HintState } from './change.js';
import { newSchemaStrings, schemaTexts } from './schema-text.js';
import { argumentsSchema, servedInputSchema } from '../surface/normalize.js';

const same = (a: unknown, b: unknown) => canonicalJson((a ?? null) as Json) === canonicalJson((b ?? null) as Json);

/** Annotations minus the four hints and `title` (vendor keys): compared as metadata. */
function otherAnnotationKeys(t: SurfaceTool): Json {
  const rest: Record<string, Json> = { ...(t.annotations ?? {}) };
  for (const h of HINT_NAMES) delete rest[h];
  delete rest.title;
  return rest;
}

/** `annotations.title` as text: a non-string title is shown as its JSON. */
function annotationTitle(t: SurfaceTool): string | undefined {
  const v = t.annotations?.title;
  return v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
}

const isEmptyObject = (v: Json): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
const withText = (base: string | undefined, head: string | undefined) => ({ ...(base !== undefined ? { base } : {}), ...(head !== undefined ? { head } : {}) });

/**
 * Most schema-text changes listed one by one per tool (a rewrite of every argument description is
 * noticed with fewer); the rest are one change that holds them all.
 */
const MAX_SCHEMA_TEXT_CHANGES = 200;
/** New strings outside the text keywords looked for per schema, past which the rest are not listed. */
const MAX_NEW_STRINGS = 10_000;

/** Whether the subschema that holds the text at `pointer` (its parent) exists in `schema`. */
function holderExists(schema: Json, pointer: string): boolean {
  let node: Json | undefined = schema;
  for (const seg of pointerSegments(pointer).slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false;
    // Own keys only: a holder named `__proto__` or `constructor` exists only when it is a key.
    node = Array.isArray(node) ? node[Number(seg)] : getOwn(node, seg);
    if (node === undefined) return false;
  }
  return true;
}

function schemaTextChanges(tool: string, base: Json, head: Json, field: 'inputSchema' | 'outputSchema' = 'inputSchema'): Change[] {
  const b = schemaTexts(base);
  const h = schemaTexts(head);
  // Text that left with its argument is not text a model is told: the schema change says it.
  const pointers = [...new Set([...b.keys(), ...h.keys()])].filter((p) => b.get(p) !== h.get(p) && (h.has(p) || holderExists(head, p))).sort();
  const texts = pointers.map((pointer) => ({ kind: 'text-changed' as const, tool, field, pointer, base: b.get(pointer), head: h.get(pointer) }));
  // New strings anywhere else in the schema (a `format`, a `const`, an `$id`...) are text too.
  const others = [...newSchemaStrings(base, head, new Set(h.keys()), MAX_NEW_STRINGS)].map(([pointer, text]) => ({
    kind: 'text-changed' as const,
    tool,
    field,
    pointer,
    head: text,
  }));
  const all: Change[] = [...texts, ...others];
  if (all.length <= MAX_SCHEMA_TEXT_CHANGES) return all;
  // Past the bound the rest is one change, never dropped: decoy edits must not push a poisoned
  // text out of sight. Its old and new text list each remaining text as `pointer: text`.
  const rest = all.slice(MAX_SCHEMA_TEXT_CHANGES - 1) as Extract<Change, { kind: 'text-changed' }>[];
  const lines = (side: 'base' | 'head') => rest.map((c) => `${c.pointer ?? ''}: ${c[side] ?? '(none)'}`).join('\n');
  return [
    ...all.slice(0, MAX_SCHEMA_TEXT_CHANGES - 1),
    { kind: 'text-changed', tool, field, pointer: '/…', more: rest.length, base: lines('base'), head: lines('head') },
  ];
}

/** One hint of a tool as declared, with the default applied, and as sent when that is not a boolean. */
function hintState(t: SurfaceTool, hint: HintName): HintState {
  const sent = t.annotations?.[hint];
  return {
    declared: t.declaredHints[hint],
    effective: t.effectiveHints[hint],
    ...(sent !== undefined && sent !== null && typeof sent !== 'boolean' ? { invalid: sent } : {}),
  };
}

/** Which operation an origin names (its call fields are compared by {@link diffCall}). */
function operationOf(o: ToolOrigin | undefined): Json | undefined {
  if (!o) return undefined;
  return { method: o.method, path: o.path, operationId: o.operationId ?? null, promoted: o.promoted ?? false };
}

/** Differences of one tool present on both sides. Pure. */
export function diffTool(base: SurfaceTool, head: SurfaceTool): Change[] {
  const tool = head.name;
  const out: Change[] = [];
  if (base.digest === head.digest && base.safetyClass === head.safetyClass) return out;
  for (const hint of HINT_NAMES) {
    const b = hintState(base, hint);
    const h = hintState(head, hint);
    if (b.declared !== h.declared || b.effective !== h.effective || !same(b.invalid, h.invalid))
      out.push({ kind: 'hint-changed', tool, hint, base: b, head: h });
  }
  if (base.safetyClass !== head.safetyClass) {
    out.push({ kind: 'class-changed', tool, base: base.safetyClass, head: head.safetyClass, baseTool: base, headTool: head });
  }
  for (const field of ['title', 'description'] as const) {
    if (base[field] !== head[field]) out.push({ kind: 'text-changed', tool, field, base: base[field], head: head[field] });
  }
  const [baseTitle, headTitle] = [annotationTitle(base), annotationTitle(head)];
  if (baseTitle !== headTitle) out.push({ kind: 'text-changed', tool, field: 'annotations.title', base: baseTitle, head: headTitle });
  if (base.inputSchemaDigest !== head.inputSchemaDigest) {
    // A schema that is missing or not an object (malformed tool) is judged as accepting anything.
    out.push({ kind: 'input-schema-changed', tool, base: argumentsSchema(base), head: argumentsSchema(head) });
    out.push(...schemaTextChanges(tool, servedInputSchema(base) ?? null, servedInputSchema(head) ?? null));
  }
  if (!same(base.outputSchema, head.outputSchema)) {
    out.push({ kind: 'output-schema-changed', tool, base: base.outputSchema, head: head.outputSchema });
    // Structured output's descriptions reach the model as well.
    out.push(...schemaTextChanges(tool, base.outputSchema ?? null, head.outputSchema ?? null, 'outputSchema'));
  }
  if (!same(operationOf(base.origin), operationOf(head.origin))) out.push({ kind: 'origin-changed', tool, base: base.origin, head: head.origin });
  if (base.origin && head.origin) out.push(...diffCall(tool, base.origin, head.origin));
  const metadata = (field: 'annotations' | 'icons' | '_meta' | 'extra', b: Json | undefined, h: Json | undefined): void => {
    if (same(b, h)) return;
    const text = (v: Json | undefined) => (v === undefined || isEmptyObject(v) ? undefined : canonicalJson(v));
    out.push({ kind: 'metadata-changed', tool, field, ...withText(text(b), text(h)) });
  };
  metadata('annotations', otherAnnotationKeys(base), otherAnnotationKeys(head));
  // A non-object `inputSchema` kept in `extra` is compared as text too: judged as "accepts
  // anything" on both sides, its schema verdict cannot change, but its text reaches the model.
  for (const field of ['icons', '_meta', 'extra'] as const) metadata(field, base[field], head[field]);
  return out;
}

/**
 * Compares two surfaces: tools by exact name (a rename is a removal plus an addition), then
 * counts, server and source facts. `server.version` is not compared: a release bump alone is not
 * a change in what agents can reach. Pure.
 */
export function diffSurfaces(base: Surface, head: Surface): Change[] {
  const out: Change[] = [];
  // Tools of one name are paired in order (the n-th with the n-th): a server that lists a name
  // twice (duplicate-tool-name) is compared entry by entry, and settles once its contract pins both.
  const byName = (tools: readonly SurfaceTool[]) => {
    const m = new Map<string, SurfaceTool[]>();
    for (const t of tools) m.set(t.name, [...(m.get(t.name) ?? []), t]);
    return m;
  };
  const baseByName = byName(base.tools);
  const headByName = byName(head.tools);
  for (const [name, list] of baseByName) {
    for (const t of list.slice(headByName.get(name)?.length ?? 0)) out.push({ kind: 'tool-removed', tool: name, base: t });
  }
  const seen = new Map<string, number>();
  for (const t of head.tools) {
    const n = seen.get(t.name) ?? 0;
    seen.set(t.name, n + 1);
    const b = baseByName.get(t.name)?.[n];
    if (!b) out.push({ kind: 'tool-added', tool: t.name, head: t });
    else out.push(...diffTool(b, t));
  }
  for (const key of Object.keys(head.counts) as (keyof SurfaceCounts)[]) {
    if (base.counts[key] !== head.counts[key]) out.push({ kind: 'count-changed', count: key, base: base.counts[key], head: head.counts[key] });
  }
  for (const field of ['name', 'protocolVersion'] as const) {
    if (base.server?.[field] !== head.server?.[field]) out.push({ kind: 'server-changed', field, base: base.server?.[field], head: head.server?.[field] });
  }
  if (base.server?.instructions !== head.server?.instructions)
    out.push({ kind: 'instructions-changed', base: base.server?.instructions, head: head.server?.instructions });
  if (base.source.kind !== head.source.kind) out.push({ kind: 'source-changed', field: 'kind' });
  if (base.source.transport !== head.source.transport) out.push({ kind: 'source-changed', field: 'transport' });
  if (!same(base.source.clientCapabilities, head.source.clientCapabilities)) out.push({ kind: 'source-changed', field: 'clientCapabilities' });
  if (!same(base.source.files, head.source.files)) out.push({ kind: 'source-changed', field: 'files' });
  out.push(...diffProtectedResource(base.protectedResource, head.protectedResource));
  return out;
}

/**
 * What a client does where the metadata lists no authorization server (or there is no usable
 * metadata at all): the MCP SDK's client falls back to the MCP server's own origin.
 */
export const FALLBACK_AUTHORIZATION_SERVER = "(none listed: clients use the MCP server's own origin)";
/** What a client does where the metadata lists no scopes: asks for none in particular. */
export const UNLISTED_SCOPES = '(none listed: clients ask the authorization server for its default scopes)';

/**
 * The changes between two sides' protected resource metadata, one per field that differs, as a
 * client acts on them: no authorization server listed means the server's own origin, clients use
 * the first one listed (a new first entry is a change), no scopes listed means the authorization
 * server's defaults; otherwise lists compare as sets, strings as they are. Pure.
 */
export function diffProtectedResource(base: ProtectedResource | undefined, head: ProtectedResource | undefined): Change[] {
  const out: Change[] = [];
  for (const field of ['resource', 'resource_name'] as const) {
    const b = base?.[field];
    const h = head?.[field];
    if (b !== h) out.push({ kind: 'auth-metadata-changed', field, ...(b !== undefined ? { base: b } : {}), ...(h !== undefined ? { head: h } : {}) });
  }
  const servers = (p: ProtectedResource | undefined) => (p?.authorization_servers?.length ? p.authorization_servers : [FALLBACK_AUTHORIZATION_SERVER]);
  const scopes = (p: ProtectedResource | undefined) => p?.scopes_supported ?? [UNLISTED_SCOPES];
  for (const [field, of] of [
    ['authorization_servers', servers],
    ['scopes_supported', scopes],
  ] as const) {
    const [bl, hl] = [of(base), of(head)];
    const [b, h] = [new Set(bl), new Set(hl)];
    const added = hl.filter((x) => !b.has(x));
    const removed = bl.filter((x) => !h.has(x));
    const firstMoved = field === 'authorization_servers' && bl[0] !== hl[0];
    if (added.length || removed.length || firstMoved) {
      out.push({ kind: 'auth-metadata-changed', field, added, removed, ...(firstMoved ? { base: bl[0], head: hl[0] } : {}) });
    }
  }
  return out;
}
