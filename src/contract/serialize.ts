import type { Surface, SurfaceTool } from '../surface/model.js';
import type { Json, JsonObject } from '../util/json.js';
import { toPointer } from '../util/json.js';
import { runInSlices, runToEnd, type Steps } from '../util/slices.js';

/** Contract text plus the 1-based line of every value, keyed by JSON pointer. */
export interface SerializedContract {
  /** 2-space indented JSON with a trailing newline. */
  text: string;
  lines: Map<string, number>;
}

/**
 * A tool as the contract holds it: pinned fields in the order a reviewer reads them, the derived
 * values a hand edit must keep consistent (class, effective hints, digests), and no derived-only
 * field (declared hints, view bytes). Pure.
 */
export function toolEntry(t: SurfaceTool): JsonObject {
  const o: JsonObject = { name: t.name };
  if (t.malformed !== undefined) o.malformed = t.malformed;
  if (t.title !== undefined) o.title = t.title;
  if (t.description !== undefined) o.description = t.description;
  o.safetyClass = t.safetyClass;
  if (t.origin) o.origin = t.origin as unknown as Json;
  if (t.annotations !== undefined) o.annotations = t.annotations;
  o.effectiveHints = t.effectiveHints;
  if (t.inputSchema !== undefined) o.inputSchema = t.inputSchema;
  if (t.outputSchema !== undefined) o.outputSchema = t.outputSchema;
  if (t.icons !== undefined) o.icons = t.icons;
  if (t._meta !== undefined) o._meta = t._meta;
  if (t.extra !== undefined) o.extra = t.extra;
  o.digest = t.digest;
  o.inputSchemaDigest = t.inputSchemaDigest;
  return o;
}

/** The JSON value written for a surface (top-level key order fixed for readable diffs). */
export function contractValue(s: Surface): JsonObject {
  const o: JsonObject = { formatVersion: s.formatVersion, source: s.source as unknown as Json };
  if (s.server) o.server = s.server as unknown as Json;
  if (s.protectedResource) o.protectedResource = s.protectedResource as unknown as Json;
  o.counts = s.counts as unknown as Json;
  o.payloadBytes = s.payloadBytes;
  if (s.tokens) o.tokens = s.tokens as unknown as Json;
  o.digest = s.digest;
  o.tools = s.tools.map(toolEntry);
  return o;
}

/**
 * Serializes a surface deterministically (stable key order, 2-space indent, trailing newline:
 * `JSON.stringify(contractValue(s), null, 2)`). The line map, which only annotations of a
 * freshly written contract need, is computed when first read. Pure.
 */
export function serializeContract(s: Surface): SerializedContract {
  return runToEnd(serializeSteps(s));
}

/** {@link serializeContract}, letting signals in between tools (100,000 tools: ~1.5 s of work). */
export function serializeContractInSlices(s: Surface): Promise<SerializedContract> {
  return runInSlices(serializeSteps(s));
}

/**
 * The contract text written tool by tool, each with one native `JSON.stringify` (indented to its
 * place): the same text as `JSON.stringify(value, null, 2)` of the whole, as the tests check.
 */
function* serializeSteps(s: Surface): Steps<SerializedContract> {
  const value = contractValue(s);
  const tools = value.tools as JsonObject[];
  const parts: string[] = [];
  if (tools.length === 0) parts.push(JSON.stringify(value, null, 2));
  else {
    // Everything but the tools, with a placeholder where they go: `tools` is the last key and the
    // only top-level array, so `[`, the placeholder at 4 spaces, `]` at 2 spaces is found once.
    const placeholder = JSON.stringify('\u0000tools');
    const head = JSON.stringify({ ...value, tools: ['\u0000tools'] }, null, 2);
    const at = head.lastIndexOf(`[\n    ${placeholder}\n  ]`);
    parts.push(head.slice(0, at), '[\n    ');
    for (let i = 0; i < tools.length; i++) {
      if (i > 0) parts.push(',\n    ');
      parts.push(JSON.stringify(tools[i], null, 2).replaceAll('\n', '\n    '));
      yield;
    }
    parts.push('\n  ]', head.slice(at + placeholder.length + 10));
  }
  const text = parts.join('') + '\n';
  let lines: Map<string, number> | undefined;
  return {
    text,
    get lines() {
      return (lines ??= writeJson(value, CONTRACT_LINE_DEPTH).lines);
    },
  };
}

/**
 * Deepest level whose lines are recorded: findings point at tools and their keys
 * (`/tools/3/annotations/readOnlyHint`), as `parseContract` indexes them. Below it each value is
 * written by `JSON.stringify` in one native call: recording a pointer for every node of every
 * schema made a 100,000-tool contract take ~10 s to write.
 */
export const CONTRACT_LINE_DEPTH = 4;

/**
 * Pretty-prints JSON exactly like `JSON.stringify(v, null, 2)` while recording pointer → line
 * for every value down to `lineDepth` levels (the root is level 0).
 */
export function writeJson(value: Json, lineDepth = Number.POSITIVE_INFINITY): SerializedContract {
  const out: string[] = [];
  const lines = new Map<string, number>();
  let line = 1;
  const path: (string | number)[] = [];
  const emit = (s: string) => {
    out.push(s);
  };
  const newline = (depth: number) => {
    emit('\n' + '  '.repeat(depth));
    line++;
  };
  const write = (v: Json, depth: number) => {
    lines.set(toPointer(path), line);
    if (depth >= lineDepth && v !== null && typeof v === 'object') {
      // Same text as the walk below (2-space indent, keys in insertion order, undefined members
      // left out), indented to this depth; lines are counted, not recorded.
      const text = JSON.stringify(v, null, 2);
      const indent = '\n' + '  '.repeat(depth);
      let breaks = 0;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) breaks++;
      line += breaks;
      return emit(depth === 0 ? text : text.replaceAll('\n', indent));
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return emit('[]');
      emit('[');
      v.forEach((item, i) => {
        newline(depth + 1);
        path.push(i);
        write(item, depth + 1);
        path.pop();
        if (i < v.length - 1) emit(',');
      });
      newline(depth);
      return emit(']');
    }
    if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v).filter((k) => v[k] !== undefined);
      if (keys.length === 0) return emit('{}');
      emit('{');
      keys.forEach((k, i) => {
        newline(depth + 1);
        emit(JSON.stringify(k) + ': ');
        path.push(k);
        write(v[k] as Json, depth + 1);
        path.pop();
        if (i < keys.length - 1) emit(',');
      });
      newline(depth);
      return emit('}');
    }
    emit(JSON.stringify(v));
  };
  write(value, 0);
  emit('\n');
  return { text: out.join(''), lines };
}
