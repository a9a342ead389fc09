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

/** Compact JSON with sorted keys: the form every digest is computed over. */
export function canonicalJson(value: Json): string {
  return JSON.stringify(sortKeys(value));
}

/** sha256 of a string's UTF-8 bytes, lower-case hex (64 chars). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
