/**
 * Internal `$ref` lookup in a bundled document (every ref is `#/...` after bundling).
 */
import { SourceError } from '../source-error.js';
import { hasOwn, unescapePointerToken } from '../../util/json.js';

/** A node of the parsed document. */
export type JsonNode = unknown;

/** The tokens of a `#/a/b~1c` fragment (`['a', 'b/c']`: URI-decoded, then RFC 6901-unescaped); undefined if not a JSON pointer fragment. */
export function refTokens(ref: string): string[] | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = ref.slice(1);
  if (fragment === '') return [];
  if (!fragment.startsWith('/')) return undefined;
  return fragment
    .slice(1)
    .split('/')
    .map((raw) => {
      let token: string;
      try {
        token = decodeURIComponent(raw);
      } catch {
        token = raw;
      }
      return unescapePointerToken(token);
    });
}

/** The member `token` of `node` (own keys only: `constructor` must not find Object.prototype's), or undefined. */
function member(node: unknown, token: string): JsonNode {
  if (node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) return node[Number(token)];
  return hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;
}

/** Reads the value at a `#/a/b~1c` fragment (URI-decoded, then RFC 6901-unescaped), or undefined. */
export function getByRef(doc: unknown, ref: string): JsonNode {
  const tokens = refTokens(ref);
  if (tokens === undefined) return undefined;
  let node: unknown = doc;
  for (const token of tokens) {
    node = member(node, token);
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Like {@link getByRef}, but resolves the way `@apidevtools/json-schema-ref-parser` (under
 * `@readme/openapi-parser`) does: an internal `$ref` met on the way is followed first
 * (`#/components/schemas/A/properties/b` where `A` is `{"$ref": "#/components/schemas/B"}` reads
 * B's `b`), unless the token is a sibling key of that `$ref`; a token missing from an object is
 * tried joined by `/` with the tokens after it (the parser finds the key `b/c` for `#/a/b/c`). At most `budget.hops` refs are
 * followed in all (the parser gives up at 500); past that, or when a token is missing, undefined.
 */
export function getByRefThroughRefs(doc: unknown, ref: string, budget = { hops: 500 }): JsonNode {
  const tokens = refTokens(ref);
  if (tokens === undefined) return undefined;
  let node: unknown = doc;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    while (node !== null && typeof node === 'object' && !hasOwn(node, token)) {
      const inner = (node as { $ref?: unknown }).$ref;
      if (typeof inner !== 'string' || !inner.startsWith('#') || --budget.hops < 0) break;
      node = getByRefThroughRefs(doc, inner, budget);
    }
    let next = member(node, token);
    // The parser also reads an unescaped `/` as part of a key: `#/a/b/c` finds the key `b/c` of `a`.
    for (let j = tokens.length - 1; next === undefined && j > i; j--) {
      next = member(node, tokens.slice(i, j + 1).join('/'));
      if (next !== undefined) i = j;
    }
    if (next === undefined) return undefined;
    node = next;
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
