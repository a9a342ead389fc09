import { sha256 } from './canonical.js';
import { canonicalJson, getOwn, hasOwn, isObject, setOwn, sortKeys, type Json, type JsonObject } from '../util/json.js';
import { hasTooDeepMarker, limitDepth, TOOL_MAX_DEPTH } from './depth-limit.js';
import { runInSlices, runToEnd, type Steps } from '../util/slices.js';
import { normalizeEquivalentForms, isDialectUri } from './pinned-schema.js';
import {
  HINT_DEFAULTS,
  HINT_NAMES,
  SURFACE_FORMAT_VERSION,
  type DeclaredHints,
  type EffectiveHints,
  type SafetyClass,
  type Surface,
  type SurfaceCounts,
  type Discovery,
  type ServerInfo,
  type SurfaceSource,
  type SurfaceTool,
  type ToolOrigin,
} from './model.js';

/**
 * A listed tool, before normalization: what {@link normalizeTool} reads of a source's `RawTool`
 * (sources/types.ts, which adds where people wrote the tool).
 */
export interface ListedTool {
  /** The tool object exactly as listed (unknown keys kept; nothing validated yet). */
  tool: Json;
  /** OpenAPI tools only. */
  origin?: ToolOrigin;
  /** OpenAPI tools only: `read` or `disabled` as derived from the verb and `policies`. */
  safetyClass?: 'read' | 'disabled';
}

/**
 * A listing, before normalization: what {@link normalizeSnapshot} reads of a source's
 * `RawSnapshot` (sources/types.ts, which adds what the run reports about it).
 */
export interface Listing {
  source: SurfaceSource;
  server?: ServerInfo;
  /** The server's tools in listing order. */
  tools: readonly ListedTool[];
  /** HTTP sources: what RFC 9728 discovery found (see sources/protected-resource.ts). */
  protectedResource?: Discovery;
}

/**
 * A listed entry that is malformed (violates the MCP `Tool` shape). `pinned` says whether it is
 * in the surface all the same: every entry with a string `name` is, as served ({@link
 * normalizeTool}); an entry that is not an object or has no string name cannot be keyed, so no
 * contract can be written while one is listed.
 */
export interface MalformedTool {
  /** Position in the listing (0-based). */
  index: number;
  /** The name when it is a string, for messages. */
  name?: string;
  /** What is wrong, e.g. "`inputSchema.type` is missing, not \"object\"". */
  problem: string;
  /** True when the entry is pinned as served (it has a name); false when it cannot be. */
  pinned: boolean;
}

/** Result of {@link normalizeSnapshot}. */
export interface NormalizedSnapshot {
  surface: Surface;
  /** Every malformed entry of the listing, pinned or not, in listing order. */
  malformed: MalformedTool[];
}

/**
 * The pinned form of a tool's `inputSchema` or `outputSchema`: a root `$schema` that names a JSON
 * Schema draft dropped (SDK 1.x emits draft-07, 2.x emits 2020-12: noise, not a change; any
 * other value is kept), the spellings JSON Schema defines
 * as equal written one way (`required: []` is no `required`, `["string"]` is `"string"`...: the
 * list is in src/surface/pinned-schema.ts, {@link normalizeEquivalentForms}), keys sorted.
 */
function pinSchema(schema: JsonObject): Json {
  // Only a draft's meta-schema URI is SDK noise; any other value is text a client may show the model.
  if (!isDialectUri(getOwn(schema, '$schema'))) return sortKeys(normalizeEquivalentForms(schema));
  const rest: JsonObject = {};
  for (const k of Object.keys(schema)) if (k !== '$schema') setOwn(rest, k, schema[k] as Json);
  return sortKeys(normalizeEquivalentForms(rest));
}

/**
 * A pinned tool read from a contract, in the pinned form this toolgate writes: a contract written
 * before an equivalence was normalized (e.g. with `required: []`) must still match a live server
 * that sends the same schema. The same object when its schemas need no rewrite.
 */
export function currentPinnedForm<T extends { inputSchema?: JsonObject; outputSchema?: Json }>(pinned: T): T {
  const input = pinned.inputSchema === undefined ? undefined : normalizeEquivalentForms(pinned.inputSchema);
  const output = pinned.outputSchema === undefined ? undefined : normalizeEquivalentForms(pinned.outputSchema);
  if (input === pinned.inputSchema && output === pinned.outputSchema) return pinned;
  const out: T = { ...pinned };
  if (input !== undefined) out.inputSchema = sortKeys(input) as JsonObject;
  if (output !== undefined) out.outputSchema = sortKeys(output);
  return out;
}

/** The hints a tool declares: only boolean values of the four spec hints count. */
export function declaredHintsOf(annotations: JsonObject | undefined): DeclaredHints {
  const out: DeclaredHints = {};
  if (!annotations) return out;
  for (const hint of HINT_NAMES) {
    // Own keys only: a hint under `annotations.__proto__` is not declared (clients see no hint).
    const v = getOwn(annotations, hint);
    if (typeof v === 'boolean') out[hint] = v;
  }
  return out;
}

/** Applies the spec defaults (MCP spec, `ToolAnnotations`) to undeclared hints. */
export function effectiveHintsOf(declared: DeclaredHints): EffectiveHints {
  return {
    readOnlyHint: declared.readOnlyHint ?? HINT_DEFAULTS.readOnlyHint,
    destructiveHint: declared.destructiveHint ?? HINT_DEFAULTS.destructiveHint,
    idempotentHint: declared.idempotentHint ?? HINT_DEFAULTS.idempotentHint,
    openWorldHint: declared.openWorldHint ?? HINT_DEFAULTS.openWorldHint,
  };
}

/** True when a tool declares none of the four hints (a `title` or vendor keys alone do not count). */
export function isUnannotated(declared: DeclaredHints): boolean {
  return HINT_NAMES.every((h) => declared[h] === undefined);
}

/**
 * The tool as a client shows it to the model: what is hashed, counted in bytes and pinned.
 * `origin` is included for OpenAPI tools because it decides what the tool does.
 */
export function modelView(tool: SurfaceTool): JsonObject {
  const view: JsonObject = { name: tool.name };
  if (tool.title !== undefined) view.title = tool.title;
  if (tool.description !== undefined) view.description = tool.description;
  if (tool.inputSchema !== undefined) view.inputSchema = tool.inputSchema;
  if (tool.outputSchema !== undefined) view.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) view.annotations = tool.annotations;
  if (tool.icons !== undefined) view.icons = tool.icons;
  if (tool._meta !== undefined) view._meta = tool._meta;
  if (tool.extra) for (const [k, v] of Object.entries(tool.extra)) setOwn(view, k, v);
  return view;
}

/**
 * Derives hints, class and digests for a tool whose pinned fields are set.
 * Used both when snapshotting and when verifying a contract read from disk.
 */
export function deriveTool(
  pinned: Omit<SurfaceTool, 'declaredHints' | 'effectiveHints' | 'safetyClass' | 'digest' | 'inputSchemaDigest' | 'viewBytes'>,
  sourceClass?: 'read' | 'disabled',
): SurfaceTool {
  let declaredHints = declaredHintsOf(pinned.annotations);
  let effectiveHints = effectiveHintsOf(declaredHints);
  let safetyClass: SafetyClass = effectiveHints.readOnlyHint ? 'read' : 'write';
  if (sourceClass) {
    // OpenAPI: the class comes from the verb and the reviewed policy, never from the document.
    safetyClass = sourceClass;
    declaredHints = { ...declaredHints, readOnlyHint: sourceClass === 'read' };
    effectiveHints = effectiveHintsOf(declaredHints);
  }
  const tool: SurfaceTool = { ...pinned, declaredHints, effectiveHints, safetyClass, digest: '', inputSchemaDigest: '', viewBytes: 0 };
  delete tool.malformed;
  // The schema is most of a tool: serialize it once and reuse the text in the tool's own JSON.
  const served = servedInputSchema(tool);
  const schemaJson = served === undefined ? '' : canonicalJson(served);
  const known = new Map<object, string>();
  if (served !== null && typeof served === 'object') known.set(served, schemaJson);
  const view = modelView(tool);
  const viewJson = canonicalJson(view, known);
  // A missing schema digests as the empty text, which no JSON value serializes to.
  tool.inputSchemaDigest = sha256(schemaJson);
  const problems = malformedProblems(tool, viewJson);
  if (problems.length > 0) tool.malformed = problems.join('; ');
  // OpenAPI tools also pin where they come from and their class: they decide what the tool does.
  tool.digest = sha256(tool.origin ? canonicalJson({ ...view, origin: tool.origin as unknown as Json, safetyClass: tool.safetyClass }, known) : viewJson);
  // JSON byte length does not depend on key order, so this is also the advertised size.
  tool.viewBytes = Buffer.byteLength(viewJson, 'utf8');
  return tool;
}

/**
 * Below U+D800 the order of UTF-16 code units (JavaScript's `<`) is the order of code points, so
 * of UTF-8 bytes; surrogates (code points past U+FFFF) sort before U+E000–U+FFFF in UTF-16 but
 * after them in UTF-8.
 */
const PAST_CODE_UNIT_ORDER = /[\uD800-\uFFFF]/;

/** Byte order of UTF-8 names (docs/design.md §1: names are compared byte for byte). */
export function compareNames(a: string, b: string): number {
  // Encoding both names costs ~1 µs a comparison; sorting 5,000 names that way costs ~60 ms.
  if (!PAST_CODE_UNIT_ORDER.test(a) && !PAST_CODE_UNIT_ORDER.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Counts over reachable tools; see {@link SurfaceCounts} for the spec-derived definitions. */
export function countTools(tools: readonly SurfaceTool[]): SurfaceCounts {
  const c: SurfaceCounts = {
    toolCount: 0,
    readOnlyToolCount: 0,
    destructiveToolCount: 0,
    openWorldToolCount: 0,
    idempotentToolCount: 0,
    unannotatedToolCount: 0,
    disabledToolCount: 0,
  };
  for (const t of tools) {
    if (t.safetyClass === 'disabled') {
      c.disabledToolCount++;
      continue;
    }
    const e = t.effectiveHints;
    c.toolCount++;
    if (e.readOnlyHint) c.readOnlyToolCount++;
    if (!e.readOnlyHint && e.destructiveHint) c.destructiveToolCount++;
    if (!e.readOnlyHint && e.idempotentHint) c.idempotentToolCount++;
    if (e.openWorldHint) c.openWorldToolCount++;
    if (!t.origin && isUnannotated(t.declaredHints)) c.unannotatedToolCount++;
  }
  return c;
}

/**
 * Builds the surface-level derived fields (counts, payload bytes, digest) from tools.
 * Digest: sha256 of the canonical JSON array of the reachable tools' digests, in name order.
 * Payload bytes: UTF-8 length of the compact JSON array of the reachable tools' model views.
 */
export function assembleSurface(base: Pick<Surface, 'source' | 'server' | 'protectedResource'>, tools: SurfaceTool[]): Surface {
  // Names whose code-unit order is their byte order (nearly all) sort as strings; otherwise each
  // name is encoded once, not on every comparison.
  const sorted = tools.every((t) => !PAST_CODE_UNIT_ORDER.test(t.name))
    ? [...tools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    : tools
        .map((t) => ({ t, key: Buffer.from(t.name, 'utf8') }))
        .sort((a, b) => Buffer.compare(a.key, b.key))
        .map((x) => x.t);
  const reachable = sorted.filter((t) => t.safetyClass !== 'disabled');
  // `[` + views joined by `,` + `]`.
  const payloadBytes = reachable.length === 0 ? 2 : reachable.reduce((n, t) => n + t.viewBytes, 1 + reachable.length);
  // Over the per-tool digests (each the sha256 of that tool's canonical JSON): pins the same
  // content as hashing every tool again, at a fraction of the cost.
  const digest = sha256(canonicalJson(reachable.map((t) => t.digest)));
  const surface: Surface = {
    formatVersion: SURFACE_FORMAT_VERSION,
    source: base.source,
    counts: countTools(sorted),
    payloadBytes,
    digest,
    tools: sorted,
  };
  if (base.server) surface.server = base.server;
  if (base.protectedResource) surface.protectedResource = base.protectedResource;
  return surface;
}

function isDefaultExecution(v: Json | undefined): boolean {
  // SDK 1.x servers add `execution: {taskSupport: "forbidden"}` to every tool: the spec default.
  return isObject(v) && Object.keys(v).length === 1 && v.taskSupport === 'forbidden';
}

/**
 * The `inputSchema` as served: the pinned object, or (malformed tool) the non-object value kept
 * in `extra`; undefined when the server sent none.
 */
export function servedInputSchema(t: Pick<SurfaceTool, 'inputSchema' | 'extra'>): Json | undefined {
  return t.inputSchema ?? (t.extra ? getOwn(t.extra, 'inputSchema') : undefined);
}

/**
 * The schema a tool's arguments are judged against: its `inputSchema` when that is an object,
 * else `true` (any arguments). A lenient client forwards whatever the model sends to a tool
 * whose schema is missing or not a schema, so toolgate assumes the widest (fails closed).
 */
export function argumentsSchema(t: Pick<SurfaceTool, 'inputSchema'>): Json {
  return t.inputSchema ?? true;
}

/** Spec keys and the JSON type the MCP `Tool` shape gives each (schema `Tool`, 2025-11-25). */
const TYPED_KEYS: readonly { key: 'inputSchema' | 'outputSchema' | 'annotations' | 'title' | 'description'; type: 'object' | 'string' }[] = [
  { key: 'inputSchema', type: 'object' },
  { key: 'outputSchema', type: 'object' },
  { key: 'annotations', type: 'object' },
  { key: 'title', type: 'string' },
  { key: 'description', type: 'string' },
];

/**
 * Why a pinned tool is malformed, derived from what is pinned (so a contract read back says the
 * same): an empty name, a spec key of the wrong type (kept in `extra`), a missing `inputSchema`,
 * an `inputSchema.type` other than "object" (MCP spec: `Tool.inputSchema.type` is "object"), or
 * a value nested deeper than {@link TOOL_MAX_DEPTH}. Empty when the tool is well formed.
 */
function malformedProblems(tool: SurfaceTool, viewJson: string): string[] {
  const out: string[] = [];
  if (tool.name === '') out.push('`name` is empty');
  for (const { key, type } of TYPED_KEYS) {
    const misfit = tool.extra ? getOwn(tool.extra, key) : undefined;
    if (misfit !== undefined) out.push(`\`${key}\` is ${describeType(misfit)}, not a ${type === 'object' ? 'JSON object' : 'string'}`);
  }
  if (tool.inputSchema === undefined) {
    if (!tool.extra || getOwn(tool.extra, 'inputSchema') === undefined) out.push('`inputSchema` is missing');
  } else {
    const type = getOwn(tool.inputSchema, 'type');
    if (type !== 'object') out.push(`\`inputSchema.type\` is ${type === undefined ? 'missing' : JSON.stringify(type)}, not "object"`);
  }
  // `icons` is an array of Icon objects, `_meta` an object (schema `Tool`): pinned in their slots as served.
  if (tool.icons !== undefined && !Array.isArray(tool.icons)) out.push(`\`icons\` is ${describeType(tool.icons)}, not an array`);
  if (tool._meta !== undefined && !isObject(tool._meta)) out.push(`\`_meta\` is ${describeType(tool._meta)}, not a JSON object`);
  if (hasTooDeepMarker(viewJson)) out.push(`nested deeper than ${TOOL_MAX_DEPTH} levels (the deeper values are pinned by their sha256)`);
  return out;
}

function describeType(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/**
 * Normalizes one listed tool. Every entry with a string `name` is pinned as served: values of a
 * spec key with the wrong type go to `extra` under their own key, so the tool as a lenient client
 * shows it (and so its digest) is exactly what was served, and its `malformed` reason is derived
 * ({@link deriveTool}). An entry that is not an object or has no string name cannot be keyed:
 * it is returned as an unpinned {@link MalformedTool}.
 */
export function normalizeTool(raw: ListedTool, index: number): SurfaceTool | MalformedTool {
  if (!isObject(raw.tool)) return { index, problem: 'tool is not a JSON object', pinned: false };
  const name = getOwn(raw.tool, 'name');
  if (typeof name !== 'string') return { index, problem: 'tool has no string `name`', pinned: false };
  const t = limitDepth(raw.tool) as JsonObject;
  const extra: JsonObject = {};
  const pinned: Parameters<typeof deriveTool>[0] = { name };
  for (const [k, v] of Object.entries(t)) {
    if (k === 'name' || k === 'icons' || k === '_meta') continue;
    const typed = TYPED_KEYS.find((e) => e.key === k);
    if (!typed) {
      if (k === 'execution' && isDefaultExecution(v)) continue;
      setOwn(extra, k, sortKeys(v));
      continue;
    }
    // `null` for an optional key is read as absent, as before (lenient clients do the same).
    if (v === null && k !== 'inputSchema') continue;
    if (typed.type === 'string' ? typeof v === 'string' : isObject(v)) continue;
    setOwn(extra, k, sortKeys(v));
  }
  const input = getOwn(t, 'inputSchema');
  if (isObject(input)) pinned.inputSchema = pinSchema(input) as JsonObject;
  const title = getOwn(t, 'title');
  const description = getOwn(t, 'description');
  const output = getOwn(t, 'outputSchema');
  const annotations = getOwn(t, 'annotations');
  if (typeof title === 'string') pinned.title = title;
  if (typeof description === 'string') pinned.description = description;
  if (isObject(output)) pinned.outputSchema = pinSchema(output);
  if (isObject(annotations)) pinned.annotations = sortKeys(annotations) as JsonObject;
  if (hasOwn(t, 'icons')) pinned.icons = sortKeys(t.icons as Json);
  if (hasOwn(t, '_meta')) pinned._meta = sortKeys(t._meta as Json);
  if (Object.keys(extra).length > 0) pinned.extra = extra;
  if (raw.origin) pinned.origin = { ...raw.origin } satisfies ToolOrigin;
  return deriveTool(pinned, raw.safetyClass);
}

/** Raw listing → {@link Surface} plus its malformed entries. Pure. @internal runs use {@link normalizeSnapshotInSlices}; tests this */
export function normalizeSnapshot(raw: Listing): NormalizedSnapshot {
  return runToEnd(normalizeSteps(raw));
}

/** {@link normalizeSnapshot}, letting signals in between tools (100,000 tools take seconds). */
export function normalizeSnapshotInSlices(raw: Listing): Promise<NormalizedSnapshot> {
  return runInSlices(normalizeSteps(raw));
}

function* normalizeSteps(raw: Listing): Steps<NormalizedSnapshot> {
  const tools: SurfaceTool[] = [];
  const malformed: MalformedTool[] = [];
  for (let i = 0; i < raw.tools.length; i++) {
    const r = normalizeTool(raw.tools[i]!, i);
    if ('problem' in r) malformed.push(r);
    else {
      tools.push(r);
      if (r.malformed !== undefined) malformed.push({ index: i, name: r.name, problem: r.malformed, pinned: true });
    }
    yield;
  }
  const protectedResource = raw.protectedResource?.state === 'found' ? raw.protectedResource.metadata : undefined;
  return { surface: assembleSurface({ source: raw.source, server: raw.server, ...(protectedResource ? { protectedResource } : {}) }, tools), malformed };
}
