import type { Json, JsonObject, Surface, SurfaceTool } from '../surface/model.js';
import { toPointer } from '../util/json-file.js';

/** Contract text plus the 1-based line of every value, keyed by JSON pointer. */
export interface SerializedContract {
  /** 2-space indented JSON with a trailing newline. */
  text: string;
  lines: Map<string, number>;
}

/** Pinned tool fields in the order a reviewer reads them; derived-only fields are left out. */
function toolEntry(t: SurfaceTool): JsonObject {
  const o: JsonObject = { name: t.name };
  if (t.title !== undefined) o.title = t.title;
  if (t.description !== undefined) o.description = t.description;
  o.safetyClass = t.safetyClass;
  if (t.origin) o.origin = t.origin as unknown as Json;
  if (t.annotations !== undefined) o.annotations = t.annotations;
  o.effectiveHints = t.effectiveHints;
  o.inputSchema = t.inputSchema;
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
  o.counts = s.counts as unknown as Json;
  o.payloadBytes = s.payloadBytes;
  o.digest = s.digest;
  o.tools = s.tools.map(toolEntry);
  return o;
}

/**
 * Serializes a surface deterministically (stable key order, 2-space indent, trailing newline)
 * and records each value's line while writing, so annotations can point at any tool or hint.
 * Pure.
 */
export function serializeContract(s: Surface): SerializedContract {
  return writeJson(contractValue(s));
}

/** Pretty-prints JSON like `JSON.stringify(v, null, 2)` while recording pointer → line. */
export function writeJson(value: Json): SerializedContract {
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
