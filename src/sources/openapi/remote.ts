/**
 * Fetching one remote `$ref` target (only with `allow-remote-refs: true`), with a size cap, a
 * time cap and the same refusal of private addresses the parser's own HTTP resolver has.
 *
 * - Only `http:` and `https:`; no credentials, cookies or custom headers are sent.
 * - Every address the host name resolves to must be public: loopback, private (RFC 1918, unique
 *   local), link-local (cloud metadata at 169.254.169.254), CGNAT, multicast, reserved and
 *   documentation ranges, IPv4-mapped/NAT64/6to4/Teredo forms of those, `localhost` and
 *   `*.local`/`.internal`/... names, and well-known internal ports (SSH, SMTP, databases...) are
 *   refused. The connection is pinned to the addresses that were checked (no second DNS answer).
 * - Redirects are followed by hand (at most {@link MAX_REDIRECTS}), each target checked again.
 * - The body is counted while it arrives and the request destroyed past `maxBytes`; a
 *   `Content-Length` above the cap is refused before the body is read.
 * - One `AbortSignal.timeout(timeoutMs)` covers DNS, connection, redirects and body.
 */
import dns, { type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/** Redirects followed per remote `$ref`. */
export const MAX_REDIRECTS = 5;

/** Why a fetch failed: `unsafe` and `too-large` are refusals, the rest network failures. */
export type RemoteFailure = 'unsafe' | 'too-large' | 'timeout' | 'http' | 'network';

/** A failed {@link fetchCapped}. */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  constructor(
    message: string,
    readonly kind: RemoteFailure,
  ) {
    super(message);
  }
}

/** Options of {@link fetchCapped}. */
export interface FetchCappedOptions {
  /** Largest body accepted, in bytes. */
  maxBytes: number;
  /** Time for the whole fetch (DNS, connect, redirects, body), in milliseconds. */
  timeoutMs: number;
  /** Tests only: allow loopback and private addresses (a local test server). */
  allowPrivateAddresses?: boolean;
}

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 127], // unspecified and loopback
  ['::ffff:0:0', 96], // IPv4-mapped (checked as IPv4 below, blocked if that fails)
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

const UNSAFE_SUFFIXES = ['.localhost', '.local', '.internal', '.intranet', '.corp', '.home', '.lan'];
/** Ports of services that have no business serving an OpenAPI document (the parser's list). */
const INTERNAL_PORTS = new Set([22, 23, 25, 53, 135, 139, 445, 993, 995, 1433, 1521, 3306, 3389, 5432, 5900, 6379, 8080, 8443, 9200, 27017]);

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:xxxx:yyyy`). */
function mappedIPv4(address: string): string | undefined {
  const m = /^(?:0{0,4}:){0,4}:?:ffff:(.+)$/i.exec(address);
  if (!m) return undefined;
  const rest = m[1]!;
  if (isIP(rest) === 4) return rest;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(rest);
  if (!hex) return undefined;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** True for an address toolgate must not connect to for a `$ref`. */
export function isUnsafeAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family !== 6) return true;
  const v4 = mappedIPv4(address);
  if (v4 !== undefined) return BLOCKED.check(v4, 'ipv4');
  return BLOCKED.check(address, 'ipv6');
}

function normalizeHost(hostname: string): string {
  return hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.+$/, '')
    .toLowerCase();
}

/** The addresses `url`'s host resolves to, all checked; throws {@link RemoteError} `unsafe`. */
async function checkedAddresses(url: URL, allowPrivate: boolean): Promise<LookupAddress[]> {
  const host = normalizeHost(url.hostname);
  const port = url.port === '' ? undefined : Number(url.port);
  if (!allowPrivate) {
    if (host === '' || host === 'localhost' || UNSAFE_SUFFIXES.some((s) => host.endsWith(s))) {
      throw new RemoteError(`${url.origin} is a local or internal host name`, 'unsafe');
    }
    if (port !== undefined && INTERNAL_PORTS.has(port)) throw new RemoteError(`port ${port} of ${url.origin} is an internal service port`, 'unsafe');
  }
  const literal = isIP(host);
  let addresses: LookupAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal }];
  } else {
    try {
      // `dns.promises.lookup` read at call time, so that a test can replace it.
      addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
    } catch (e) {
      throw new RemoteError(`cannot resolve ${host}: ${e instanceof Error ? e.message : String(e)}`, 'network');
    }
  }
  if (addresses.length === 0) throw new RemoteError(`${host} has no address`, 'network');
  if (!allowPrivate) {
    const bad = addresses.find((a) => isUnsafeAddress(a.address));
    if (bad) throw new RemoteError(`${host} resolves to ${bad.address}, a loopback, private, link-local or reserved address`, 'unsafe');
  }
  return addresses;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` for `http.request` that answers only with the checked addresses. */
function pinnedLookup(addresses: LookupAddress[]) {
  return (_host: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
    if (usable.length === 0) {
      const err: NodeJS.ErrnoException = new Error('no checked address of the requested family');
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, usable[0]!.address, usable[0]!.family);
    }
  };
}

/** One GET: resolves with the response (status, headers, body stream) or rejects. */
function get(url: URL, addresses: LookupAddress[], signal: AbortSignal): Promise<IncomingMessage> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5', 'user-agent': 'toolgate' },
      lookup: pinnedLookup(addresses),
      signal,
      agent: false,
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

/** Reads a response body, refusing it past `maxBytes`. */
function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onAbort = () => res.destroy(new RemoteError('timed out while reading the body', 'timeout'));
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (err?: Error) => {
      signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, size));
    };
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        res.destroy(new RemoteError(`the response is larger than ${maxBytes} bytes`, 'too-large'));
        return;
      }
      chunks.push(chunk);
    });
    res.once('error', (e) => done(e));
    res.once('end', () => done());
    res.once('close', () => {
      if (!res.complete) done(new RemoteError('the connection closed before the body was complete', 'network'));
    });
  });
}

/**
 * Fetches `url` (http or https) within the caps, following redirects.
 * @throws {@link RemoteError}: `unsafe` (private address, internal port or host, not http(s)),
 *   `too-large`, `timeout`, `http` (status 400 and above, or too many redirects), `network`.
 */
export async function fetchCapped(url: string, opts: FetchCappedOptions): Promise<Buffer> {
  const signal = AbortSignal.timeout(Math.max(1, opts.timeoutMs));
  const allowPrivate = opts.allowPrivateAddresses === true;
  let current: URL;
  try {
    current = new URL(url);
  } catch {
    throw new RemoteError(`malformed URL ${JSON.stringify(url)}`, 'unsafe');
  }
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new RemoteError(`${current.protocol} URLs are not fetched`, 'unsafe');
    if (current.username !== '' || current.password !== '') throw new RemoteError('URLs with credentials are not fetched', 'unsafe');
    let res: IncomingMessage;
    try {
      const addresses = await checkedAddresses(current, allowPrivate);
      if (signal.aborted) throw new RemoteError(`timed out after ${opts.timeoutMs} ms`, 'timeout');
      res = await get(current, addresses, signal);
    } catch (e) {
      if (e instanceof RemoteError) throw e;
      if (signal.aborted) throw new RemoteError(`timed out after ${opts.timeoutMs} ms`, 'timeout');
      throw new RemoteError(e instanceof Error ? e.message : String(e), 'network');
    }
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location !== undefined) {
      res.resume();
      if (hop >= MAX_REDIRECTS) throw new RemoteError(`more than ${MAX_REDIRECTS} redirects`, 'http');
      try {
        current = new URL(res.headers.location, current);
      } catch {
        throw new RemoteError(`malformed redirect location ${JSON.stringify(res.headers.location)}`, 'http');
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      res.resume();
      throw new RemoteError(`HTTP status ${status}`, 'http');
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > opts.maxBytes) {
      res.destroy();
      throw new RemoteError(`the response is ${declared} bytes, more than ${opts.maxBytes}`, 'too-large');
    }
    try {
      return await readBody(res, opts.maxBytes, signal);
    } catch (e) {
      if (e instanceof RemoteError) throw e;
      if (signal.aborted) throw new RemoteError(`timed out after ${opts.timeoutMs} ms`, 'timeout');
      throw new RemoteError(e instanceof Error ? e.message : String(e), 'network');
    }
  }
}
