import { sha256 } from './canonical.js';
import { canonicalJson, getOwn, isObject, setOwn, sortKeys } from '../util/json.js';
import { normalizeEquivalentForms } from '../diff/schema/normalize.js';
import {
  HINT_DEFAULTS,
  HINT_NAMES,
  SURFACE_FORMAT_VERSION,
  type DeclaredHints,
  type EffectiveHints,
  type Json,
  type JsonObject,
  type SafetyClass,
  type Surface,
  type SurfaceCounts,
  type SurfaceTool,
  type ToolOrigin,
} from './model.js';
import type { RawSnapshot, RawTool } from '../sources/types.js';

/** A listed tool that could not be pinned (violates the MCP `Tool` shape); reported, not dropped silently. */
export interface MalformedTool {
  /** Position in the listing (0-based). */
  index: number;
  /** The name when it is a string, for messages. */
  name?: string;
  /** What is wrong, e.g. "inputSchema is not an object". */
  problem: string;
}

/** Result of {@link normalizeSnapshot}. */
export interface NormalizedSnapshot {
  surface: Surface;
  malformed: MalformedTool[];
}

const KNOWN_KEYS = new Set(['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'icons', '_meta']);

/**
 * The pinned form of a tool's `inputSchema` or `outputSchema`: the root `$schema` dropped (SDK
 * 1.x emits draft-07, 2.x emits 2020-12: noise, not a change), the spellings JSON Schema defines
 * as equal written one way (`required: []` is no `required`, `["string"]` is `"string"`...: the
 * list is in src/diff/schema/normalize.ts, {@link normalizeEquivalentForms}), keys sorted.
 */
export function normalizeSchema(schema: JsonObject): Json {
  const { $schema: _ignored, ...rest } = schema;
  return sortKeys(normalizeEquivalentForms(rest));
}

/**
 * A pinned tool read from a contract, in the pinned form this toolgate writes: a contract written
 * before an equivalence was normalized (e.g. with `required: []`) must still match a live server
 * that sends the same schema. The same object when its schemas need no rewrite.
 */
export function currentPinnedForm<T extends { inputSchema: Json; outputSchema?: Json }>(pinned: T): T {
  const input = normalizeEquivalentForms(pinned.inputSchema);
  const output = pinned.outputSchema === undefined ? undefined : normalizeEquivalentForms(pinned.outputSchema);
  if (input === pinned.inputSchema && output === pinned.outputSchema) return pinned;
  const out: T = { ...pinned, inputSchema: sortKeys(input) };
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
  view.inputSchema = tool.inputSchema;
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
  // The schema is most of a tool: serialize it once and reuse the text in the tool's own JSON.
  const schemaJson = canonicalJson(tool.inputSchema);
  const known = new Map<object, string>();
  if (tool.inputSchema !== null && typeof tool.inputSchema === 'object') known.set(tool.inputSchema, schemaJson);
  const view = modelView(tool);
  const viewJson = canonicalJson(view, known);
  tool.inputSchemaDigest = sha256(schemaJson);
  // OpenAPI tools also pin where they come from and their class: they decide what the tool does.
  tool.digest = sha256(tool.origin ? canonicalJson({ ...view, origin: tool.origin as unknown as Json, safetyClass: tool.safetyClass }, known) : viewJson);
  // JSON byte length does not depend on key order, so this is also the advertised size.
  tool.viewBytes = Buffer.byteLength(viewJson, 'utf8');
  return tool;
}

/** Byte order of UTF-8 names (DESIGN: names are compared byte for byte). */
export function compareNames(a: string, b: string): number {
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
export function assembleSurface(base: Pick<Surface, 'source' | 'server'>, tools: SurfaceTool[]): Surface {
  // Encode each name once, not on every comparison.
  const sorted = tools
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
  return surface;
}

function isDefaultExecution(v: Json | undefined): boolean {
  // SDK 1.x servers add `execution: {taskSupport: "forbidden"}` to every tool: the spec default.
  return isObject(v) && Object.keys(v).length === 1 && v.taskSupport === 'forbidden';
}

/** Normalizes one listed tool, or explains why it cannot be pinned. */
export function normalizeTool(raw: RawTool, index: number): SurfaceTool | MalformedTool {
  const t = raw.tool;
  if (!isObject(t)) return { index, problem: 'tool is not a JSON object' };
  const name = t.name;
  if (typeof name !== 'string' || name === '') return { index, problem: 'tool has no string `name`' };
  const input = t.inputSchema;
  if (!isObject(input)) return { index, name, problem: '`inputSchema` is not a JSON object' };
  // MCP spec (Tool.inputSchema): `type: "object"` is required; clients reject anything else.
  if (input.type !== 'object') return { index, name, problem: `\`inputSchema.type\` is ${input.type === undefined ? 'missing' : JSON.stringify(input.type)}, not "object"` };
  if (t.outputSchema !== undefined && !isObject(t.outputSchema)) {
    return { index, name, problem: '`outputSchema` is not a JSON object' };
  }
  if (t.annotations !== undefined && t.annotations !== null && !isObject(t.annotations)) {
    return { index, name, problem: '`annotations` is not a JSON object' };
  }
  for (const key of ['title', 'description'] as const) {
    if (t[key] !== undefined && t[key] !== null && typeof t[key] !== 'string') {
      return { index, name, problem: `\`${key}\` is not a string` };
    }
  }
  const extra: JsonObject = {};
  for (const [k, v] of Object.entries(t)) {
    if (KNOWN_KEYS.has(k)) continue;
    if (k === 'execution' && isDefaultExecution(v)) continue;
    setOwn(extra, k, sortKeys(v));
  }
  const pinned: Parameters<typeof deriveTool>[0] = { name, inputSchema: normalizeSchema(input) };
  if (typeof t.title === 'string') pinned.title = t.title;
  if (typeof t.description === 'string') pinned.description = t.description;
  if (isObject(t.outputSchema)) pinned.outputSchema = normalizeSchema(t.outputSchema);
  if (isObject(t.annotations)) pinned.annotations = sortKeys(t.annotations) as JsonObject;
  if (t.icons !== undefined) pinned.icons = sortKeys(t.icons);
  if (t._meta !== undefined) pinned._meta = sortKeys(t._meta);
  if (Object.keys(extra).length > 0) pinned.extra = extra;
  if (raw.origin) pinned.origin = { ...raw.origin } satisfies ToolOrigin;
  return deriveTool(pinned, raw.safetyClass);
}

/** Raw listing → {@link Surface} plus the tools that could not be pinned. Pure. */
export function normalizeSnapshot(raw: RawSnapshot): NormalizedSnapshot {
  const tools: SurfaceTool[] = [];
  const malformed: MalformedTool[] = [];
  raw.tools.forEach((rt, i) => {
    const r = normalizeTool(rt, i);
    if ('problem' in r) malformed.push(r);
    else tools.push(r);
  });
  return { surface: assembleSurface({ source: raw.source, server: raw.server }, tools), malformed };
}
