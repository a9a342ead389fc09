/**
 * One nesting limit for what a server serves (docs/design.md §8).
 *
 * `JSON.parse` reads a `tools/list` reply nested hundreds of thousands of levels deep, but every
 * recursive step after it (key sorting, the schema diff, the contract's own reader, which refuses
 * files nested deeper than {@link MAX_JSON_DEPTH}) does not. So the limit is applied once, when a
 * tool is snapshotted: a container nested deeper than {@link TOOL_MAX_DEPTH} inside a tool is
 * pinned as a marker string holding the sha256 of its canonical JSON. The tool is still pinned,
 * counted and judged; any change below the limit still changes its digest; the contract it goes
 * into can always be read back; and the tool is flagged malformed, so `malformed-tool` reports it.
 */
import { createHash } from 'node:crypto';
import { MAX_JSON_DEPTH } from '../util/json-file.js';
import { setOwn, sortedKeys } from '../util/json.js';
import type { Json, JsonObject } from '../util/json.js';

/**
 * Deepest container nesting inside a tool, the tool object itself being level 1. A contract
 * holds a tool three levels down (the file's object, `tools`, and `extra` for keys outside the
 * MCP `Tool` shape), so a tool within this limit never makes a contract deeper than
 * {@link MAX_JSON_DEPTH}.
 */
export const TOOL_MAX_DEPTH = MAX_JSON_DEPTH - 3;

/**
 * Largest JSON text of one tool (UTF-8 bytes), checked where tools come in (a live listing, a
 * recording, a contract). Everything toolgate does with a tool (normalize, digest, diff, verify)
 * is one synchronous step per tool; 4 MiB keeps that step under a second, so an interrupt is
 * still handled within about a second (docs/design.md §13). Real tools are kilobytes; a tool this
 * size would be a million tokens of context.
 */
export const TOOL_MAX_BYTES = 4 * 1024 * 1024;

/** Start of the string that stands for a container nested deeper than {@link TOOL_MAX_DEPTH}. */
export const TOO_DEEP_MARKER = 'toolgate:nested-too-deep sha256:';

/**
 * Put before a string the server itself sent that starts with {@link TOO_DEEP_MARKER} or with
 * this prefix, so that no served string is pinned the same as a marker (a server could otherwise
 * serve the marker of a deep value it serves later, and the change would not show). The mapping
 * is one-to-one: an escaped string always starts with this prefix, a marker never does.
 */
export const SERVED_LITERAL = 'toolgate:served ';

/** Whether a tool's canonical JSON holds a {@link TOO_DEEP_MARKER} as a string value's start. */
export function hasTooDeepMarker(canonicalText: string): boolean {
  return canonicalText.includes(`"${TOO_DEEP_MARKER}`);
}

/**
 * `value` with every array or object nested deeper than `maxDepth` (value itself at level 1)
 * replaced by `TOO_DEEP_MARKER + sha256(canonical JSON)`, and every string that starts with the
 * marker or {@link SERVED_LITERAL} prefixed with {@link SERVED_LITERAL}. Recurses at most
 * `maxDepth` levels; the digest below is computed without recursion, so any depth `JSON.parse`
 * produced is safe. Returns `value` itself when nothing changes (no copy). Keys are set as own
 * data properties.
 */
export function limitDepth(value: Json, maxDepth = TOOL_MAX_DEPTH): Json {
  return limit(value, 1, maxDepth);
}

function limit(value: Json, depth: number, maxDepth: number): Json {
  if (typeof value === 'string') return value.startsWith(TOO_DEEP_MARKER) || value.startsWith(SERVED_LITERAL) ? SERVED_LITERAL + value : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth > maxDepth) return TOO_DEEP_MARKER + canonicalDigest(value);
  if (Array.isArray(value)) {
    let out: Json[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v = limit(value[i] as Json, depth + 1, maxDepth);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  let out: JsonObject | undefined;
  for (const key of Object.keys(value)) {
    const v = limit(value[key] as Json, depth + 1, maxDepth);
    if (v === value[key]) continue;
    if (!out) {
      out = {};
      for (const k of Object.keys(value)) setOwn(out, k, value[k] as Json);
    }
    setOwn(out, key, v);
  }
  return out ?? value;
}

/**
 * sha256 (hex) of the canonical JSON of `value` ({@link canonicalJson}: RFC 8785 key order, same
 * text), written without recursion, so nesting depth is bounded only by memory.
 */
export function canonicalDigest(value: Json): string {
  const hash = createHash('sha256');
  writeIteratively(value, (text) => hash.update(text, 'utf8'));
  return hash.digest('hex');
}

/**
 * UTF-8 length of `JSON.stringify(value)` (key order does not change it), for values of any
 * depth: `JSON.stringify` itself throws a RangeError past a few thousand levels.
 */
export function jsonByteLength(value: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    let bytes = 0;
    writeIteratively(value as Json, (text) => (bytes += Buffer.byteLength(text, 'utf8')));
    return bytes;
  }
}

/** Writes the canonical JSON text of `value` to `emit` in pieces, with an explicit stack. */
function writeIteratively(value: Json, emit: (text: string) => void): void {
  // Work items: a string is text to write as is; a box is a JSON value still to serialize.
  const stack: (string | { v: Json })[] = [{ v: value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (typeof item === 'string') {
      emit(item);
      continue;
    }
    const v = item.v;
    if (v === null || typeof v !== 'object') {
      emit(v === undefined ? 'null' : JSON.stringify(v));
    } else if (Array.isArray(v)) {
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] === undefined ? null : (v[i] as Json) });
        if (i > 0) stack.push(',');
      }
      stack.push('[');
    } else {
      const keys = sortedKeys(v).filter((k) => v[k] !== undefined);
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        stack.push({ v: v[k] as Json });
        stack.push(JSON.stringify(k) + ':');
        if (i > 0) stack.push(',');
      }
      stack.push('{');
    }
  }
}
