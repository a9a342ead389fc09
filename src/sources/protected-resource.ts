/**
 * Who authorizes an HTTP MCP server: its OAuth 2.0 Protected Resource Metadata
 * (RFC 9728), found as an MCP client finds it before connecting (MCP spec 2025-11-25,
 * Authorization › Protected Resource Metadata Discovery): the `resource_metadata` URL of a 401's
 * `WWW-Authenticate` challenge when there is one, else `/.well-known/oauth-protected-resource`
 * with the server URL's path appended, then at the root. The SDK's client does the fetching and
 * parsing (`discoverOAuthProtectedResourceMetadata`), so toolgate sees the document exactly as a
 * client would accept it; toolgate adds the limits (time, bytes, origin) and the `resource` check
 * clients apply (`checkResourceAllowed`).
 */
import {
  checkResourceAllowed,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  resourceUrlFromServerUrl,
} from '@modelcontextprotocol/client';
import type { Discovery, ProtectedResource } from '../surface/model.js';
import { countingFetch } from './mcp-http.js';

/** A metadata document is a few hundred bytes; this is far above any real one. */
export const METADATA_MAX_BYTES = 64 * 1024;

/** A 401 the server answered during the session, with its challenge's metadata URL, if any. */
export interface Challenge {
  /** `resource_metadata` of the `WWW-Authenticate` challenge. */
  resourceMetadataUrl?: URL;
}

/** Reads the challenge of a 401 (Bearer or DPoP schemes, as the SDK's client reads them). */
export function challengeOf(res: Response): Challenge {
  const { resourceMetadataUrl } = extractWWWAuthenticateParams(res);
  return resourceMetadataUrl ? { resourceMetadataUrl } : {};
}

/**
 * What the server answers a client that has no credentials: one JSON-RPC `ping` POSTed as a
 * Streamable HTTP client would, without the source's headers (a protected server refuses it with
 * 401 before reading it; an open one answers or refuses a ping without a session, which changes
 * nothing). Redirects are not followed; the body is not read.
 * @returns the 401's challenge, or undefined when the answer is not 401 or there is none in time.
 */
export async function unauthenticatedChallenge(serverUrl: URL, timeoutMs: number): Promise<Challenge | undefined> {
  try {
    const res = await fetch(serverUrl, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'toolgate-auth-probe', method: 'ping' }),
    });
    await res.body?.cancel().catch(() => undefined);
    return res.status === 401 ? challengeOf(res) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Finds and reads the server's protected resource metadata.
 *
 * A challenge's `resource_metadata` on another origin than the server is not fetched (toolgate
 * makes no request to a host the policy does not name: a hostile server could point it at an
 * internal address); the well-known URLs are tried instead, and the discovery says so if they fail.
 *
 * @param serverUrl the source's `url`.
 * @param opts `timeoutMs` for each request; `headers` as configured for the source are not sent
 *   (discovery is what a client does before it has credentials).
 * @returns never throws: a network error, a timeout, an HTTP error, a body over
 *   {@link METADATA_MAX_BYTES}, a document that is not RFC 9728 metadata, or one whose `resource`
 *   does not cover the server URL are `unusable` with the reason.
 */
export async function discoverProtectedResource(serverUrl: URL, opts: { challenge?: Challenge; timeoutMs: number }): Promise<Discovery> {
  let overflow = false;
  const counter = countingFetch(METADATA_MAX_BYTES, () => {
    overflow = true;
  });
  let lastUrl = '';
  const limited = (url: string | URL, init?: RequestInit): Promise<Response> => {
    lastUrl = String(url);
    return counter.fetch(url, { ...init, signal: AbortSignal.timeout(opts.timeoutMs) });
  };
  const given = opts.challenge?.resourceMetadataUrl;
  const sameOrigin = given !== undefined && given.origin === serverUrl.origin;
  const ignored =
    given !== undefined && !sameOrigin ? `; the 401's resource_metadata ${JSON.stringify(given.href)} is on another origin and was not fetched` : '';
  let raw: Awaited<ReturnType<typeof discoverOAuthProtectedResourceMetadata>>;
  try {
    raw = await discoverOAuthProtectedResourceMetadata(serverUrl, sameOrigin ? { resourceMetadataUrl: given } : undefined, limited);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (overflow) return { state: 'unusable', reason: `the metadata at ${lastUrl} is larger than ${METADATA_MAX_BYTES} bytes${ignored}` };
    if (/does not implement OAuth 2\.0 Protected Resource Metadata/.test(message))
      return ignored ? { state: 'unusable', reason: `no metadata at the well-known URLs${ignored}` } : { state: 'absent' };
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError'))
      return { state: 'unusable', reason: `${lastUrl} did not answer within ${opts.timeoutMs} ms${ignored}` };
    const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    if (Array.isArray(issues)) {
      const listed = issues.slice(0, 3).map((i) => `${i.path.length ? `/${i.path.map(String).join('/')}` : 'the document'}: ${i.message}`);
      return { state: 'unusable', reason: `${lastUrl} is not RFC 9728 metadata (${listed.join('; ')})${ignored}` };
    }
    return { state: 'unusable', reason: `${lastUrl}: ${firstLine(message)}${ignored}` };
  }
  // RFC 9728 §3.3 / §7.3: a client must not use metadata whose resource is not the one it asked
  // for; MCP clients accept a resource that covers the server URL (same origin, path prefix).
  if (!checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(serverUrl), configuredResource: raw.resource })) {
    return {
      state: 'unusable',
      reason: `the metadata at ${lastUrl} names resource ${JSON.stringify(raw.resource)}, which does not cover ${serverUrl.href}, so clients refuse it`,
    };
  }
  return { state: 'found', metadata: pinnedMetadata(raw), url: lastUrl };
}

/**
 * The fields pinned (RFC 9728 §2 names): who issues tokens, for what, and the name a consent
 * screen shows. Without repeats; authorization servers in their order (clients take the first),
 * scopes sorted (a set).
 */
export function pinnedMetadata(raw: {
  resource: string;
  authorization_servers?: string[];
  scopes_supported?: string[];
  resource_name?: string;
}): ProtectedResource {
  // Servers keep their order (clients use the first); scopes are a set.
  const servers = raw.authorization_servers === undefined ? undefined : [...new Set(raw.authorization_servers)];
  const scopes = raw.scopes_supported === undefined ? undefined : [...new Set(raw.scopes_supported)].sort();
  return {
    resource: raw.resource,
    ...(servers ? { authorization_servers: servers } : {}),
    ...(scopes ? { scopes_supported: scopes } : {}),
    ...(raw.resource_name !== undefined ? { resource_name: raw.resource_name } : {}),
  };
}

function firstLine(s: string): string {
  const line = s.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
