/**
 * MCP source: start (or reach) a server, `initialize` (or `server/discover`), list every tool
 * page with a loose result schema, close, and make sure no process is left behind.
 *
 * Why the raw `tools/list` request: the SDK's `listTools()` validates each page with strict Zod,
 * drops unknown keys and fails the whole list on one malformed tool (docs/design.md §14). We pin exactly
 * what the server advertises, so we send the request ourselves with a schema that only checks
 * the envelope (`tools` is an array, `nextCursor` a string) and follow `nextCursor` ourselves.
 *
 * This module runs the snapshot and the listing; connecting and closing a session is
 * mcp-session.ts's job, explaining a failure mcp-failure.ts's, and opening a server for the proxy
 * mcp-open.ts's.
 */
import type { StandardSchemaV1, Transport } from '@modelcontextprotocol/client';
import type { McpCommon, McpHttpConfig, McpStdioConfig } from '../config/source-config.js';
import type { Json } from '../util/json.js';
import { SourceError } from './source-error.js';
import { Launcher } from './launch/index.js';
import { discoverProtectedResource, unauthenticatedChallenge, type Challenge } from './protected-resource.js';
import type { Discovery } from '../surface/model.js';
import { lastLine } from './mcp-http.js';
import { blockedHosts } from './launch/hints.js';
import type { RawSnapshot, RawTool, SnapshotDiagnostics } from './types.js';
import { mark } from '../util/timing.js';
import { timeSlicer, yieldToSignals } from '../util/cleanup.js';
import { jsonByteLength, TOOL_MAX_BYTES } from '../surface/depth-limit.js';
import { closeSession, connectClient, connectHttp, connectStdio, failOn, newSession, Sessions, withDeadline, type Session } from './mcp-session.js';
import { explainContained, firstLine, isTimeout, toSourceError, type Phase } from './mcp-failure.js';

/** One `tools/list` page as we accept it: only the envelope is checked, tools are kept as sent. */
interface LoosePage {
  tools: Json[];
  nextCursor?: string | null;
  [key: string]: unknown;
}

/** A Standard Schema (what `client.request` takes) that checks only the page envelope. */
const LOOSE_LIST_RESULT: StandardSchemaV1<unknown, LoosePage> = {
  '~standard': {
    version: 1,
    vendor: 'toolgate',
    validate(value) {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return { issues: [{ message: 'result is not an object' }] };
      }
      const page = value as Record<string, unknown>;
      if (!Array.isArray(page.tools)) return { issues: [{ message: 'result has no "tools" array', path: ['tools'] }] };
      const c = page.nextCursor;
      if (c !== undefined && c !== null && typeof c !== 'string') {
        return { issues: [{ message: `"nextCursor" is ${typeof c}, not a string`, path: ['nextCursor'] }] };
      }
      return { value: page as LoosePage };
    },
  },
};

/**
 * Snapshots an MCP server's tool surface.
 *
 * stdio: spawns `command args` in `cwd` in its own process group with a minimal environment
 * (see {@link buildChildEnv}) and a scratch `HOME`; http: optionally runs `start` the same way,
 * waits until the URL accepts connections, then connects with Streamable HTTP, falling back to
 * legacy SSE on a 4xx that means "no Streamable HTTP here". Then `initialize` (or
 * `server/discover` for 2026-07-28 servers) within `timeouts.startupMs`, and `tools/list` pages
 * (each within `timeouts.requestMs`, all within `timeouts.totalMs`) following `nextCursor` until
 * it is absent; an empty-string cursor is followed. Finally closes the client, ends the process
 * group (SIGTERM, SIGKILL after 1 s) and deletes the scratch home.
 *
 * @param id source id from the policy.
 * @param cfg resolved MCP source config; times in ms, sizes in bytes.
 * @returns the tools exactly as listed (unknown keys kept), server info with the negotiated
 *   protocol version, and diagnostics (duration ms, pages, non-JSON stdout lines, stderr tail,
 *   raw result bytes, notes).
 * @throws SourceError (exit 3) with `reason`: `spawn-failed`, `exited`, `startup-timeout`,
 *   `request-timeout`, `protocol-error` (also for a byte-order mark before a message and for a
 *   server that floods toolgate with requests, see {@link guardFlood}), `list-error`,
 *   `cursor-loop`, `page-cap`, `byte-cap`, `http-error`; the message names the command or URL and
 *   what happened, `stderrTail` holds the server's last 4 KiB of stderr.
 * @throws ConfigError (exit 2) when a header's environment variable is not set.
 */
export async function snapshotMcp(
  id: string,
  cfg: (McpStdioConfig | McpHttpConfig) & McpCommon,
  root = process.cwd(),
  launcher = new Launcher(),
): Promise<RawSnapshot> {
  // A server the CLI started early (launch/index.ts) is this snapshot's: its time limits count
  // from its start, as they would had the snapshot started it.
  const early = cfg.transport === 'stdio' ? launcher.takeEarly(cfg, root) : undefined;
  const started = early?.at ?? performance.now();
  if (cfg.transport === 'stdio') return runSnapshot(id, cfg, started, launcher, { connect: (sessions) => connectStdio(cfg, sessions, root, early), root });
  return runSnapshot(id, cfg, started, launcher, {
    root,
    connect: (sessions) => connectHttp(id, cfg, sessions, root),
    // RFC 9728 discovery runs beside the listing, while a started server is still up. A source
    // with credentials never sees the 401 a client without them gets: ask once without them, so
    // the challenge's metadata is the one pinned, as a client would follow it.
    discover: (sessions) => discoverAsClient(new URL(cfg.url), cfg.headers.length > 0, cfg.timeouts.requestMs, sessions),
    discoverUnauthorized: (challenge) => discoverProtectedResource(new URL(cfg.url), { challenge, timeoutMs: cfg.timeouts.requestMs }),
  });
}

/** Options of {@link snapshotOverTransport}. */
export interface OverTransportOptions {
  /** Names the server in messages; default `MCP server "ID"`. */
  what?: string;
  /** The transport the snapshot records in `source.transport`; default `stdio` (a message stream, no HTTP). */
  transport?: 'stdio' | 'streamable-http' | 'sse';
  /**
   * Probe with `server/discover` before `initialize` (default true, as over stdio and Streamable
   * HTTP). The SDK takes a transport without `stderr` and `pid` for an HTTP one: a probe left
   * unanswered for `min(requestMs, startupMs)` fails the start-up, where over stdio it means a
   * legacy server.
   */
  negotiate?: boolean;
}

/**
 * Snapshots the server at the other end of `transport`, an SDK `Transport` not started yet (in
 * tests, one half of an in-memory pair whose other half a server is connected to). The run is
 * {@link snapshotMcp}'s without a process or HTTP: `initialize` (or `server/discover`) within
 * `timeouts.startupMs` (and `totalMs`), every `tools/list` page with the loose schema and the
 * raw-page capture under `limits`, notes, the same result shape and the same SourceError
 * reasons; the client (and with it the transport) is closed at the end, whatever happened.
 * @param cfg what a source's config says beside how to reach the server: capabilities, timeouts, limits.
 */
export function snapshotOverTransport(id: string, cfg: McpCommon, transport: Transport, opts: OverTransportOptions = {}): Promise<RawSnapshot> {
  return runSnapshot(id, cfg, performance.now(), new Launcher(), {
    connect: async (sessions) => {
      const s = newSession(opts.transport ?? 'stdio', opts.what ?? `MCP server ${JSON.stringify(id)}`, sessions);
      await connectClient(s, cfg, transport, {
        negotiate: opts.negotiate ?? true,
        probeTimeoutMs: Math.min(cfg.timeouts.requestMs, cfg.timeouts.startupMs),
        ...failOn(s, transport),
      });
      return s;
    },
  });
}

/** How a snapshot reaches its server: all of a snapshot that depends on the transport. */
interface Connector {
  /**
   * Makes a session with a connected client ({@link connectClient}), after starting whatever it
   * needs (a process, a port); each session it makes is on `sessions`, to be cleaned up.
   */
  connect(sessions: Sessions): Promise<Session>;
  /** Started once connected, beside the listing (HTTP: RFC 9728 discovery). */
  discover?(sessions: Sessions): Promise<Discovery>;
  /** After a failure, when a request got a 401: what a client would discover next (HTTP). */
  discoverUnauthorized?(challenge: Challenge): Promise<Discovery>;
  /** The repository a started command runs in: a sandboxed failure is explained against it. */
  root?: string;
}

/**
 * One snapshot over `connector`: connect within `timeouts.startupMs` counted from `started`, list
 * every page within `timeouts.totalMs`, build the result, close every session, explain a failure.
 */
async function runSnapshot(id: string, cfg: McpCommon, started: number, launcher: Launcher, connector: Connector): Promise<RawSnapshot> {
  const totalDeadline = Date.now() + cfg.timeouts.totalMs - (performance.now() - started);
  const sessions = new Sessions(launcher);
  let session: Session | undefined;
  let phase: Phase = 'start-up';
  try {
    const startupMs = Math.min(cfg.timeouts.startupMs, cfg.timeouts.totalMs);
    session = await withDeadline(connector.connect(sessions), Math.max(0, startupMs - (performance.now() - started)), () => {
      sessions.closed = true;
      const s = sessions.list.at(-1);
      s?.abort.abort();
      return new SourceError(
        `${s?.what ?? 'MCP server'} did not complete initialization within ${startupMs} ms${lastLine(s?.proc?.stderrTail() ?? '')}; if the server is just slow to start (a cold npx install can take over a minute), raise \`startup-timeout-ms\` in toolgate.yml`,
        'startup-timeout',
      );
    });
    phase = 'listing';
    mark(`${id}: initialized`);
    const discovering = connector.discover?.(sessions);
    discovering?.catch(() => undefined);
    const { tools, pages, rawBytes } = await listAllTools(session, cfg, totalDeadline);
    mark(`${id}: tools listed (${tools.length} tools, ${pages} pages)`);
    const protectedResource = await discovering;
    if (discovering) mark(`${id}: protected resource metadata ${protectedResource?.state}`);
    const snapshot = snapshotOf(id, cfg, session, sessions, { tools, pages, rawBytes }, protectedResource);
    await closeSession(session);
    await endSessions(snapshot.diagnostics, session, sessions, started);
    return snapshot;
  } catch (err) {
    const failed = session ?? sessions.list.at(-1);
    // Its scratch HOME is deleted below: a path in it is said as `$HOME`, never quoted.
    const home = failed?.home?.path;
    const e = await toSourceError(err, failed, phase);
    // A server that wants credentials: what a client would discover next, before anything ends.
    if (e instanceof SourceError && sessions.unauthorized && connector.discoverUnauthorized) {
      e.unauthorized = true;
      e.protectedResource = await connector.discoverUnauthorized(sessions.unauthorized);
    }
    sessions.closed = true;
    await Promise.all(sessions.list.map(closeSession));
    if (e instanceof SourceError) {
      // What the run tells of its containment, in the shape a listed snapshot has it.
      const started = startDiagnostics(sessions.list.at(-1), sessions);
      e.diagnostics = { ...e.diagnostics, ...started };
      if (started.sandbox?.sandboxed && connector.root)
        explainContained(e, failed?.what ?? 'MCP server', { root: connector.root, home, blocked: started.networkBlocked ?? [] });
    }
    throw e;
  } finally {
    sessions.closed = true;
    await Promise.all(sessions.list.map(closeSession));
  }
}

/** The raw snapshot of a listed session (server info as negotiated, the tools as listed). */
function snapshotOf(
  id: string,
  cfg: McpCommon,
  session: Session,
  sessions: Sessions,
  listed: { tools: RawTool[]; pages: number; rawBytes: number },
  protectedResource: Discovery | undefined,
): RawSnapshot {
  const client = session.client!;
  const version = client.getServerVersion();
  const protocolVersion = client.getNegotiatedProtocolVersion();
  const instructions = client.getInstructions();
  return {
    source: { id, kind: 'mcp', transport: session.transport, clientCapabilities: cfg.capabilities },
    server: {
      ...(typeof version?.name === 'string' ? { name: version.name } : {}),
      ...(typeof version?.version === 'string' ? { version: version.version } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
      ...(typeof instructions === 'string' ? { instructions } : {}),
    },
    tools: listed.tools,
    live: true,
    diagnostics: {
      durationMs: 0,
      pages: listed.pages,
      rawBytes: listed.rawBytes,
      notes: session.notes,
      ...(sessions.unauthorized ? { unauthorized: true } : {}),
    },
    ...(protectedResource ? { protectedResource } : {}),
  };
}

/**
 * Ends every session of the snapshot (a restarted server's too) and records what only their end
 * tells: stdout noise, the stderr tail, how the server ran, escaped processes, blocked hosts, and
 * the duration counted from `started`.
 */
async function endSessions(d: RawSnapshot['diagnostics'], session: Session, sessions: Sessions, started: number): Promise<void> {
  if (session.stdio) {
    d.stdoutNoiseLines = session.stdio.noiseLines;
    if (session.stdio.noiseLines > 0) {
      if (session.stdio.firstNoiseLine !== undefined) d.stdoutNoiseSample = session.stdio.firstNoiseLine;
      session.notes.push(
        `server wrote ${session.stdio.noiseLines} non-JSON-RPC line(s) on stdout (first: ${JSON.stringify(session.stdio.firstNoiseLine)}); stdout is reserved for protocol messages, log to stderr`,
      );
    }
  }
  if (session.proc) d.stderrTail = session.proc.stderrTail();
  sessions.closed = true;
  await Promise.all(sessions.list.map(closeSession));
  Object.assign(d, startDiagnostics(session, sessions));
  d.durationMs = Math.round(performance.now() - started);
}

/**
 * What the commands a snapshot started tell once they have ended, listed or failed alike: how
 * `last` ran (the sandbox or not), the processes that outlived any of them, the hosts a sandboxed
 * one failed to reach. The same shape on a success's diagnostics and a failure's.
 */
function startDiagnostics(last: Session | undefined, sessions: Sessions): Pick<SnapshotDiagnostics, 'sandbox' | 'escaped' | 'networkBlocked'> {
  const escaped = sessions.list.flatMap((x) => x.proc?.escaped ?? []);
  const blocked = blockedHostsOf(sessions.list);
  return {
    ...(last?.sandbox ? { sandbox: last.sandbox } : {}),
    ...(escaped.length ? { escaped } : {}),
    ...(blocked.length ? { networkBlocked: blocked } : {}),
  };
}

/**
 * RFC 9728 discovery as a client without credentials does it: for a source that sends credentials,
 * first the server's answer without them (a 401's challenge, recorded on `sessions`).
 */
async function discoverAsClient(url: URL, credentialed: boolean, timeoutMs: number, sessions: Sessions): Promise<Discovery> {
  if (credentialed && !sessions.unauthorized) {
    const challenge = await unauthenticatedChallenge(url, timeoutMs);
    if (challenge) sessions.unauthorized = challenge;
  }
  return discoverProtectedResource(url, { ...(sessions.unauthorized ? { challenge: sessions.unauthorized } : {}), timeoutMs });
}

/** {@link blockedHosts} in the error output of the sessions whose server ran sandboxed with loopback only. */
function blockedHostsOf(sessions: readonly Session[]): string[] {
  return blockedHosts(sessions.map((x) => (x.sandbox?.sandboxed && x.sandbox.network === 'loopback' ? (x.proc?.stderrTail() ?? '') : '')).join('\n'));
}

/**
 * Fetches every `tools/list` page. On 2025-era connections the SDK hands our loose schema the
 * result untouched. On a 2026-07-28 connection the SDK's era codec validates the page itself
 * (cache hints, each tool) before our schema runs; when it rejects a page the server did send,
 * the raw page captured at the transport is used instead (with a note), so one malformed tool
 * does not hide the rest.
 *
 * The next page is asked for as soon as a page names it, and the page in hand is measured while
 * the server builds the next one (else each of a 50-page listing's round trips waits for
 * toolgate's own work). A page's problems are reported in the same order as when each page was
 * measured before the next was asked for: its size first, then its cursor.
 */
async function listAllTools(s: Session, cfg: McpCommon, totalDeadline: number): Promise<{ tools: RawTool[]; pages: number; rawBytes: number }> {
  const tools: RawTool[] = [];
  const seen = new Set<string>();
  let pages = 0;
  let rawBytes = 0;
  const { maxPages, maxBytes } = cfg.limits;
  let pending = requestPage(s, cfg, totalDeadline, undefined, pages);
  for (;;) {
    const page = await pending;
    pages++;
    const next = page.nextCursor;
    if (next === null) s.notes.push('server sent "nextCursor": null (treated as the last page; the spec wants the key omitted)');
    const more = next !== undefined && next !== null;
    const stop = more ? cursorProblem(s, next, seen, pages, maxPages) : undefined;
    if (more && !stop) {
      seen.add(next);
      pending = requestPage(s, cfg, totalDeadline, next, pages);
      // Awaited on the next turn; left unawaited only when this page fails the run.
      pending.catch(() => undefined);
    }
    // Parsing a page of 100,000 tools took most of a second: let a pending signal in (an
    // interrupted run must end within 1 s) before the page is measured, and while it is.
    await yieldToSignals();
    rawBytes += await resultBytes(page);
    if (rawBytes > maxBytes) {
      throw new SourceError(`${s.what} sent ${rawBytes} bytes of tools/list results by page ${pages}, more than limits.maxBytes (${maxBytes})`, 'byte-cap');
    }
    if (stop) throw stop;
    for (const tool of page.tools) tools.push({ tool });
    if (!more) break;
  }
  return { tools, pages, rawBytes };
}

/** Why the listing must not go on to `next` after page `pages`: a cursor seen before, or the page cap. */
function cursorProblem(s: Session, next: string, seen: ReadonlySet<string>, pages: number, maxPages: number): SourceError | undefined {
  if (seen.has(next)) {
    return new SourceError(
      `${s.what} returned nextCursor ${JSON.stringify(next.length > 80 ? `${next.slice(0, 77)}...` : next)} a second time (page ${pages}); its pagination loops`,
      'cursor-loop',
    );
  }
  if (pages >= maxPages) {
    return new SourceError(
      `${s.what} still returned a nextCursor after ${maxPages} tools/list pages (limits.maxPages); the server's pagination does not end, or raise the limit`,
      'page-cap',
    );
  }
  return undefined;
}

/** One `tools/list` request (page `pages + 1`), within the listing's total time. */
async function requestPage(s: Session, cfg: McpCommon, totalDeadline: number, cursor: string | undefined, pages: number): Promise<LoosePage> {
  const remaining = totalDeadline - Date.now();
  if (remaining <= 0) throw totalTimeout(s, cfg, pages);
  const timeout = Math.min(cfg.timeouts.requestMs, remaining);
  try {
    const page = await s.client!.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LOOSE_LIST_RESULT, {
      timeout,
      signal: s.abort.signal,
    });
    takeRaw(s);
    return page;
  } catch (err) {
    if (isTimeout(err) && timeout < cfg.timeouts.requestMs) throw totalTimeout(s, cfg, pages);
    // The server did answer, but the SDK rejected the page (2026-07-28 era codec): go on with
    // the page as sent, so a malformed tool becomes a finding and the rest is still pinned.
    const raw = loosePage(takeRaw(s));
    if (raw === undefined) throw err;
    if (!s.notes.some((n) => n.startsWith('the MCP SDK rejected'))) {
      s.notes.push(`the MCP SDK rejected a tools/list page (${firstLine(err)}); toolgate kept the page as the server sent it`);
    }
    return raw;
  }
}

/**
 * `Buffer.byteLength(JSON.stringify(page))`, measured tool by tool so that a signal is handled
 * in between (see {@link yieldToSignals}): one stringify of a 50 MB page blocks for ~0.3 s.
 */
async function resultBytes(page: LoosePage): Promise<number> {
  const due = timeSlicer();
  let bytes = Buffer.byteLength(JSON.stringify({ ...page, tools: [] }), 'utf8');
  for (let i = 0; i < page.tools.length; i++) {
    // Any depth: a tool nested deeper than JSON.stringify recurses is pinned (depth-limit.ts), not a crash.
    const one = jsonByteLength(page.tools[i]);
    if (one > TOOL_MAX_BYTES) {
      throw new SourceError(`tools/list entry #${i + 1} is ${one} bytes, more than one tool may be (${TOOL_MAX_BYTES} bytes, 4 MiB)`, 'byte-cap');
    }
    bytes += one + (i > 0 ? 1 : 0);
    if (due()) await yieldToSignals();
  }
  return bytes;
}

/** The raw result of the session's last `tools/list` request, once. */
function takeRaw(s: Session): unknown {
  const id = s.capture?.lastRequestId;
  return id === undefined ? undefined : s.capture!.take(id);
}

/** `value` as a page when it passes {@link LOOSE_LIST_RESULT}, else undefined. */
function loosePage(value: unknown): LoosePage | undefined {
  if (value === undefined) return undefined;
  const r = LOOSE_LIST_RESULT['~standard'].validate(value) as StandardSchemaV1.Result<LoosePage>;
  return r.issues ? undefined : r.value;
}

function totalTimeout(s: Session, cfg: McpCommon, pages: number): SourceError {
  return new SourceError(
    `${s.what} did not finish listing tools within ${cfg.timeouts.totalMs} ms after ${pages} page(s) (\`total-timeout-ms\` in toolgate.yml)`,
    'request-timeout',
  );
}
