import { createHash } from 'node:crypto';
import type { Json } from './model.js';

/**
 * Returns `value` with object keys sorted (UTF-16 code unit order) at every depth.
 * Arrays keep their order: in JSON Schema, order in `enum`/`required` carries no meaning but
 * in `prefixItems` it does, so array order is left to callers that know the keyword.
 */
export function sortKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys(value[key] as Json);
    return out;
  }
  return value;
}

/**
 * Compact JSON with sorted keys: the form every digest is computed over. Equal to
 * `JSON.stringify(sortKeys(value))`, written directly so no sorted copy is allocated (this runs
 * for every tool of every snapshot and contract).
 */
export function canonicalJson(value: Json, known?: ReadonlyMap<object, string>): string {
  const out: string[] = [];
  writeCanonical(value, out, known);
  return out.join('');
}

/** `known`: canonical text already computed for some objects (e.g. a tool's inputSchema). */
function writeCanonical(value: Json | undefined, out: string[], known?: ReadonlyMap<object, string>): void {
  if (value !== null && typeof value === 'object' && known) {
    const text = known.get(value);
    if (text !== undefined) {
      out.push(text);
      return;
    }
  }
  if (value === null || typeof value !== 'object') {
    out.push(value === undefined ? 'null' : JSON.stringify(value));
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      writeCanonical(value[i] === undefined ? null : value[i], out, known);
    }
    out.push(']');
    return;
  }
  out.push('{');
  let first = true;
  for (const key of Object.keys(value).sort()) {
    const v = value[key];
    if (v === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(key), ':');
    writeCanonical(v, out, known);
  }
  out.push('}');
}

/** sha256 of a string's UTF-8 bytes, lower-case hex (64 chars). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
