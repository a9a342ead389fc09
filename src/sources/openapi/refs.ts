/**
 * Internal `$ref` lookup in a bundled document (every ref is `#/...` after bundling).
 */
import { SourceError } from '../source-error.js';
import { hasOwn, unescapePointerToken } from '../../util/json.js';

/** A node of the parsed document. */
export type JsonNode = unknown;

/** Reads the value at a `#/a/b~1c` fragment (URI-decoded, then RFC 6901-unescaped), or undefined. */
export function getByRef(doc: unknown, ref: string): JsonNode {
  if (!ref.startsWith('#')) return undefined;
  const fragment = ref.slice(1);
  if (fragment === '') return doc;
  if (!fragment.startsWith('/')) return undefined;
  let node: unknown = doc;
  for (const raw of fragment.slice(1).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw);
    } catch {
      token = raw;
    }
    token = unescapePointerToken(token);
    if (node === null || typeof node !== 'object') return undefined;
    // Own keys only: `#/components/schemas/constructor` must not find Object.prototype's.
    node = Array.isArray(node) ? node[Number(token)] : hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Follows `$ref` chains of a non-schema object (parameter, request body, path item) to the
 * object itself. Sibling keys of such a `$ref` are ignored, as OpenAPI 3.0 and 2.0 say.
 * @throws {@link SourceError} `load-failed` for a dangling or looping reference.
 */
export function resolveLocalRef(doc: unknown, node: JsonNode): JsonNode {
  const seen = new Set<string>();
  let current = node;
  while (current !== null && typeof current === 'object' && typeof (current as { $ref?: unknown }).$ref === 'string') {
    const ref = (current as { $ref: string }).$ref;
    if (seen.has(ref)) throw new SourceError(`$ref loop at ${ref}`, 'load-failed');
    seen.add(ref);
    const next = getByRef(doc, ref);
    if (next === undefined) throw new SourceError(`unresolvable $ref ${JSON.stringify(ref)}`, 'load-failed');
    current = next;
  }
  return current;
}
