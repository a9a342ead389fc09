import { createHash } from 'node:crypto';

/**
 * Canonical JSON (RFC 8785, JCS) and key sorting come from the JSON toolkit (src/util/json.ts);
 * re-exported here beside {@link sha256}, the digest every surface and tool is pinned by.
 */
export { canonicalJson, sortKeys } from '../util/json.js';

/** sha256 of a string's UTF-8 bytes, lower-case hex (64 chars). */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
