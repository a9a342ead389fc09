/**
 * MCP source: start (or reach) a server, `initialize` (or `server/discover`), list every tool
 * page with a loose result schema, close, and make sure no process is left behind.
 *
 * Why the raw `tools/list` request: the SDK's `listTools()` validates each page with strict Zod,
 * drops unknown keys and fails the whole list on one malformed tool (docs/design.md §14). We pin exactly
 * what the server advertises, so we send the request ourselves with a schema that only checks
 * the envelope (`tools` is an array, `nextCursor` a string) and follow `nextCursor` ourselves.
 */
import {
  Client,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type JSONRPCMessage,
  type StandardSchemaV1,
  type Transport,
} from '@modelcontextprotocol/client';
import type { McpCommon, McpHttpConfig, McpStdioConfig } from '../config/source-config.js';
import type { Json } from '../util/json.js';
import { ConfigError } from '../util/errors.js';
import { SourceError, type SourceFailure } from './source-error.js';
import type { ScratchHome } from './launch/env.js';
import { Launcher, type EarlyStart, type Launch } from './launch/index.js';
import { captureToolsList, guardFlood, onUnparsableMessage, type ToolsListCapture } from './tools-list-capture.js';
import { challengeOf, discoverProtectedResource, unauthenticatedChallenge, type Challenge } from './protected-resource.js';
import type { Discovery } from '../surface/model.js';
import { countingFetch, lastLine, resolveHeaders, waitForListening } from './mcp-http.js';
import { ProcessStdioTransport } from './mcp-process.js';
import { describeCommand, type ServerProcess } from './launch/process.js';
import { blockedHosts, containmentHints, REGISTRY_FIX, withoutScratchHome, type HintContext } from './launch/hints.js';

export { blockedHosts } from './launch/hints.js';
import type { RawSnapshot, RawTool, SandboxUse, SnapshotDiagnostics } from './types.js';
import { VERSION } from '../version.js';
import { mark } from '../util/timing.js';
import { timeSlicer, yieldToSignals } from '../util/cleanup.js';
import { jsonByteLength, TOOL_MAX_BYTES } from '../surface/depth-limit.js';

/** Client identity sent in `initialize` / `server/discover`. */
const CLIENT_INFO = { name: 'toolgate', version: VERSION };
/** Slack over `limits.maxBytes` for one stdout line / all HTTP bodies (envelope, initialize). */
const ENVELOPE_SLACK_BYTES = 1024 * 1024;
/** Why a server that floods toolgate with requests fails (see {@link guardFlood}); the message says "flooded toolgate". */
const FLOOD: SourceFailure = 'flood';

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

type Phase = 'start-up' | 'listing';

/** Everything one connection attempt holds, so failures can be explained and cleaned up. */
interface Session {
  client?: Client;
  transport: 'stdio' | 'streamable-http' | 'sse';
  /** "MCP server `cmd args`" or "MCP server at URL", for messages. */
  what: string;
  proc?: ServerProcess;
  stdio?: ProcessStdioTransport;
  home?: ScratchHome;
  /** Raw `tools/list` results, for pages the SDK rejects (see tools-list-capture.ts). */
  capture?: ToolsListCapture;
  /** A failure detected outside the request path (byte cap on a stream). */
  failure?: { reason: SourceFailure; message: string };
  /** Aborted on `failure` and on the total deadline, so pending requests end at once. */
  abort: AbortController;
  notes: string[];
  /** How the command toolgate started ran: in the sandbox, or not and why. */
  sandbox?: SandboxUse;
  /** See launch/index.ts `Launched.namespacesMade`. */
  namespacesMade?: Promise<boolean>;
}

/**
 * Takes what a start made into the session, which owns it from then on (a failure cleans it up),
 * and how it ran. @throws SourceError a start that did not happen.
 */
function takeLaunch(s: Session, l: Launch): void {
  if (l.diagnostics.sandbox) s.sandbox = l.diagnostics.sandbox;
  if (!l.ok) throw l.error;
  s.proc = l.proc;
  s.home = l.home;
  s.namespacesMade = l.namespacesMade;
}

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

/**
 * A sandboxed server's failure, explained by what its sandbox kept from it (launch/hints.ts): a
 * blocked registry becomes the headline (it names the host and the npm cache recipe), and every
 * other hint names the policy key that would allow what failed; the scratch HOME's path (deleted
 * by now) is written `$HOME` in the message and the stderr tail.
 */
function explainContained(e: SourceError, what: string, ctx: HintContext): void {
  const tail = withoutScratchHome(e.stderrTail ?? '', ctx.home);
  const hints = containmentHints(tail, ctx);
  let message = withoutScratchHome(e.message, ctx.home);
  // A start that failed installing the server: the blocked registry is the headline.
  const install = hints.find((h) => h.registries);
  const headline = install && (e.reason === 'exited' || e.reason === 'startup-timeout');
  if (headline)
    message = `${what} could not start: it tried to reach ${install.registries!.join(', ')}, which the sandbox blocks (no network); ${REGISTRY_FIX}`;
  e.message = [message, ...hints.filter((h) => !headline || h !== install).map((h) => h.text)].join('; ');
  if (e.stderrTail !== undefined) e.stderrTail = tail;
}

/** {@link blockedHosts} in the error output of the sessions whose server ran sandboxed with loopback only. */
function blockedHostsOf(sessions: readonly Session[]): string[] {
  return blockedHosts(sessions.map((x) => (x.sandbox?.sandboxed && x.sandbox.network === 'loopback' ? (x.proc?.stderrTail() ?? '') : '')).join('\n'));
}

/**
 * The sessions of one snapshot. Once `closed` (deadline passed or snapshot over), a connect
 * still in flight must not leave a process or directory behind: {@link Sessions.guard} ends it.
 */
class Sessions {
  readonly list: Session[] = [];
  closed = false;
  constructor(readonly launcher: Launcher) {}
  /** HTTP: the first 401 any request got, with its challenge (RFC 9728 discovery starts there). */
  unauthorized?: Challenge;
  /** Call after each step that created a process or directory. */
  async guard(s: Session): Promise<void> {
    if (!this.closed) return;
    await closeSession(s);
    throw new SourceError(`${s.what}: snapshot was cancelled`, 'startup-timeout');
  }
  /**
   * After a failed start of `s`: whether to start it again, unsandboxed, because bwrap could not
   * make namespaces on this machine (`Launcher.failedForWantOfSandbox`). Never once the
   * snapshot is closing (timed out, cancelled): a restart would race its cleanup.
   */
  async startAgainUnsandboxed(s: Session): Promise<boolean> {
    return !this.closed && (await this.launcher.failedForWantOfSandbox(s)) && !this.closed;
  }
}

// ---------------------------------------------------------------------------------------------
// Connecting

function newClient(cfg: McpCommon, negotiate: boolean, probeTimeoutMs: number): Client {
  const client = new Client(CLIENT_INFO, {
    capabilities: cfg.capabilities,
    // 'auto': probe with `server/discover` (2026-07-28 servers), fall back to `initialize` for
    // 2024-11-05 … 2025-11-25 servers (all SDK 1.x servers). SSE is a 2024-era transport: legacy.
    ...(negotiate ? { versionNegotiation: { mode: 'auto' as const, probe: { timeoutMs: probeTimeoutMs } } } : {}),
  });
  // A client that declares `roots` should answer `roots/list`; toolgate exposes no roots.
  if (cfg.capabilities.roots !== undefined) client.setRequestHandler('roots/list', () => ({ roots: [] }));
  return client;
}

function newSession(transport: Session['transport'], what: string, sessions: Sessions): Session {
  const s: Session = { transport, what, abort: new AbortController(), notes: [] };
  sessions.list.push(s);
  return s;
}

function watchListChanged(s: Session, client: Client): void {
  client.setNotificationHandler('notifications/tools/list_changed', () => {
    if (!s.notes.some((n) => n.startsWith('server sent notifications/tools/list_changed'))) {
      s.notes.push('server sent notifications/tools/list_changed while toolgate was connected; the list may not be stable');
    }
  });
}

/** How {@link connectClient} connects. */
interface ClientOptions {
  /** Probe with `server/discover` (2026-07-28 era) before falling back to `initialize`; false: `initialize` only. */
  negotiate: boolean;
  /** How long the `server/discover` probe waits for an answer (ms). */
  probeTimeoutMs: number;
  /** The server is known to be a legacy one: `initialize` without a probe (the SDK's `prior`). */
  legacy?: boolean;
  /** Called once when the server floods toolgate ({@link guardFlood}); it must end the session. */
  onFlood: (message: string) => void;
  /** Called when the transport reports a message it could not parse ({@link onUnparsableMessage}). */
  onUnparsable?: (error: Error) => void;
}

/**
 * Connects the session's client over `transport` (not started yet): the raw `tools/list` capture,
 * the flood guard, version negotiation, the `list_changed` note, `initialize` or `server/discover`
 * within `timeouts.startupMs`. Every transport of a snapshot is connected here.
 */
async function connectClient(s: Session, cfg: McpCommon, transport: Transport, o: ClientOptions): Promise<void> {
  s.capture = captureToolsList(transport);
  if (o.onUnparsable) onUnparsableMessage(transport, o.onUnparsable);
  guardFlood(transport, o.onFlood);
  const client = newClient(cfg, o.negotiate, o.probeTimeoutMs);
  s.client = client;
  watchListChanged(s, client);
  await client.connect(transport, {
    timeout: cfg.timeouts.startupMs,
    signal: s.abort.signal,
    ...(o.legacy ? { prior: { kind: 'legacy' as const } } : {}),
  });
}

/**
 * Handlers that fail the session (recorded on it, pending requests aborted) on an unparsable
 * message or a flood, for a transport that has no failure of its own (HTTP, in-memory).
 */
function failOn(s: Session, transport: Transport): Pick<ClientOptions, 'onFlood' | 'onUnparsable'> {
  return {
    onUnparsable: (error) => {
      s.failure ??= { reason: 'protocol-error', message: `sent a message that is not valid JSON-RPC (${firstLine(error)})` };
      s.abort.abort();
    },
    onFlood: (message) => {
      s.failure ??= { reason: FLOOD, message };
      s.abort.abort();
      transport.close().catch(() => undefined);
    },
  };
}

async function connectStdio(cfg: McpStdioConfig & McpCommon, sessions: Sessions, root: string, early?: EarlyStart): Promise<Session> {
  const what = `MCP server \`${describeCommand(cfg)}\``;
  const attempt = async (legacyOnly: boolean, adopted?: EarlyStart): Promise<Session> => {
    const s = newSession('stdio', what, sessions);
    takeLaunch(s, await (adopted?.launch ?? sessions.launcher.start({ ...cfg, root }, cfg.containment, 'stdio-server')));
    await sessions.guard(s);
    const stdio = (s.stdio = new ProcessStdioTransport(s.proc!, cfg.limits.maxBytes + ENVELOPE_SLACK_BYTES));
    await connectClient(s, cfg, stdio, {
      negotiate: !legacyOnly,
      // A probe that gets no answer on stdio means "legacy server": do not let it eat the whole
      // start-up budget, a cold start still gets the rest of it for `initialize`.
      probeTimeoutMs: Math.min(cfg.timeouts.requestMs, cfg.timeouts.startupMs),
      legacy: legacyOnly,
      onFlood: (message) => stdio.fail({ reason: FLOOD, message }),
    });
    return s;
  };
  try {
    return await attempt(false, early);
  } catch (err) {
    const s = sessions.list.at(-1);
    // The verdict is known now: the next start runs unsandboxed, and is reported so.
    if (s && (await sessions.startAgainUnsandboxed(s))) {
      await closeSession(s);
      return connectStdio(cfg, sessions, root);
    }
    // Some servers exit on any request before `initialize` (the SDK handles this for its own
    // transport by probing on a throw-away sibling process). Ours probes in place, so when the
    // process died during the probe, start it once more and go straight to `initialize`.
    const diedInProbe = err instanceof SdkError && err.code === SdkErrorCode.EraNegotiationFailed && (await s?.proc?.waitExit(250)) !== undefined;
    if (!diedInProbe || sessions.closed) throw err;
    await closeSession(s!);
    const retry = await attempt(true);
    retry.notes.push('server exited on the server/discover probe; it was restarted and initialized with `initialize` only');
    return retry;
  }
}

/**
 * The URL and headers of an HTTP source (header values from the named variables).
 * @throws SourceError `http-error` for a URL that does not parse; ConfigError for an unset variable.
 */
function httpTarget(id: string, cfg: McpHttpConfig): { url: URL; headers: Record<string, string> } {
  const headers = resolveHeaders(cfg.headers, process.env, id);
  try {
    return { url: new URL(cfg.url), headers };
  } catch (cause) {
    throw new SourceError(`MCP server URL ${JSON.stringify(cfg.url)} is not a valid URL`, 'http-error', undefined, { cause });
  }
}

async function connectHttp(id: string, cfg: McpHttpConfig & McpCommon, sessions: Sessions, root: string): Promise<Session> {
  const { url, headers } = httpTarget(id, cfg);
  const what = `MCP server at ${url.href}`;
  const first = newSession('streamable-http', what, sessions);
  if (cfg.start) {
    const start = { ...cfg.start, root };
    const listening = async (): Promise<void> => {
      await sessions.guard(first);
      takeLaunch(first, await sessions.launcher.start(start, cfg.containment, 'http-start'));
      await sessions.guard(first);
      await waitForListening(url, first.proc, first.abort.signal);
    };
    await listening().catch(async (e: unknown) => {
      if (!(await sessions.startAgainUnsandboxed(first))) throw e;
      await closeSession(first);
      first.namespacesMade = undefined;
      await listening();
    });
  }
  const proc: ServerProcess | undefined = first.proc;
  const home: ScratchHome | undefined = first.home;

  const open = async (s: Session, kind: 'streamable-http' | 'sse'): Promise<void> => {
    const counter = countingFetch(cfg.limits.maxBytes + ENVELOPE_SLACK_BYTES, (bytes) => {
      s.failure = { reason: 'byte-cap', message: `HTTP responses exceeded ${cfg.limits.maxBytes} bytes (read ${bytes})` };
      s.abort.abort();
    });
    const observed = async (input: string | URL, init?: RequestInit): Promise<Response> => {
      const res = await counter.fetch(input, init);
      if (res.status === 401) sessions.unauthorized ??= challengeOf(res);
      return res;
    };
    const opts = { requestInit: { headers }, fetch: observed };
    const transport: Transport = kind === 'sse' ? new SSEClientTransport(url, opts) : new StreamableHTTPClientTransport(url, opts);
    await connectClient(s, cfg, transport, { negotiate: kind === 'streamable-http', probeTimeoutMs: cfg.timeouts.startupMs, ...failOn(s, transport) });
  };

  try {
    await open(first, 'streamable-http');
    return first;
  } catch (err) {
    const status = httpStatus(err);
    // Spec, "Backwards compatibility": a 4xx on the initial POST means an old HTTP+SSE server.
    if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) throw err;
    await first.client?.close().catch(() => undefined);
    first.client = undefined;
    const sse = newSession('sse', what, sessions);
    // The started process belongs to the session that ends last; keep one owner.
    sse.proc = proc;
    sse.home = home;
    first.proc = undefined;
    first.home = undefined;
    await open(sse, 'sse');
    sse.notes.push(`Streamable HTTP answered HTTP ${status}; connected with the legacy HTTP+SSE transport`);
    return sse;
  }
}

function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; code?: unknown; data?: { status?: unknown } };
  if (typeof e.status === 'number') return e.status;
  if (typeof e.data?.status === 'number') return e.data.status;
  // SDK 1.x-style StreamableHTTPError carries the status as `code`.
  if (typeof e.code === 'number' && e.code >= 100 && e.code < 600) return e.code;
  const m = /\bHTTP (\d{3})\b/.exec(String((err as Error).message));
  return m ? Number(m[1]) : undefined;
}

async function closeSession(s: Session): Promise<void> {
  const client = s.client;
  s.client = undefined;
  if (client) {
    await withDeadline(client.close(), 2000, () => new Error('close timed out')).catch(() => undefined);
    mark('client closed');
  }
  const proc = s.proc;
  s.proc = undefined;
  if (proc) {
    await proc.stop();
    mark('server process group ended');
    s.proc = proc; // keep for the stderr tail; stop() is idempotent
  }
  const home = s.home;
  s.home = undefined;
  if (home) {
    await home.dispose();
    mark('scratch home removed');
  }
}

// ---------------------------------------------------------------------------------------------
// Listing

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

function firstLine(err: unknown): string {
  const line = String((err as Error)?.message ?? err).split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function totalTimeout(s: Session, cfg: McpCommon, pages: number): SourceError {
  return new SourceError(
    `${s.what} did not finish listing tools within ${cfg.timeouts.totalMs} ms after ${pages} page(s) (\`total-timeout-ms\` in toolgate.yml)`,
    'request-timeout',
  );
}

function isTimeout(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
}

// ---------------------------------------------------------------------------------------------
// Errors and time limits

/** Rejects with `onTimeout()` when `p` has not settled within `ms`. */
async function withDeadline<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
    p.catch(() => undefined);
  }
}

/** `Error: message (CODE)` for an error's cause (fetch wraps ECONNREFUSED and friends there). */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return typeof cause === 'string' ? cause : (JSON.stringify(cause) ?? '');
  const code = (cause as NodeJS.ErrnoException).code;
  return `${String(cause)}${code && !cause.message.includes(code) ? ` (${code})` : ''}`;
}

/** Explains any failure as a {@link SourceError} naming the server and what happened. */
async function toSourceError(err: unknown, s: Session | undefined, phase: Phase): Promise<Error> {
  const tail = s?.proc?.stderrTail() || undefined;
  const what = s?.what ?? 'MCP server';
  const during = phase === 'start-up' ? 'during start-up (initialize)' : 'while listing tools';
  // Read the tail when the error is made: stderr may still arrive while we wait for the exit.
  const make = (message: string, reason: SourceFailure) => new SourceError(message, reason, s?.proc?.stderrTail() || undefined, { cause: err });
  if (err instanceof ConfigError) return err;
  if (err instanceof SourceError) {
    return err.stderrTail !== undefined || tail === undefined ? err : new SourceError(err.message, err.reason, tail, { cause: err.cause });
  }
  if (!(err instanceof Error)) return make(`${what} failed ${during}: ${String(err)}`, 'protocol-error');
  if (s?.failure) return make(`${what}: ${s.failure.message} ${during}`, s.failure.reason);
  if (s?.stdio?.failure) return make(`${what}: ${s.stdio.failure.message} ${during}`, s.stdio.failure.reason);
  // For a stdio server, its exit explains any failure. An HTTP start command may be a launcher
  // that exits normally, so only an abnormal exit counts there.
  const exit =
    s?.proc && s.transport === 'stdio'
      ? await s.proc.waitExit(300)
      : s?.proc?.exitInfo && (s.proc.exitInfo.code !== 0 || s.proc.exitInfo.signal)
        ? s.proc.exitInfo
        : undefined;
  if (exit) {
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    return make(`${what} ${how} ${during}${lastLine(s?.proc?.stderrTail() ?? '')}`, 'exited');
  }
  if (isTimeout(err)) {
    return phase === 'start-up'
      ? make(`${what} did not answer initialize in time (\`startup-timeout-ms\` in toolgate.yml)`, 'startup-timeout')
      : make(`${what} did not answer a tools/list request in time (\`request-timeout-ms\` in toolgate.yml)`, 'request-timeout');
  }
  if (err instanceof ProtocolError) {
    const text = `JSON-RPC error ${err.code}: ${err.message}`;
    return phase === 'listing'
      ? make(`${what} answered tools/list with ${text}`, 'list-error')
      : make(`${what} answered initialize with ${text}`, 'protocol-error');
  }
  const status = httpStatus(err);
  if (s && s.transport !== 'stdio' && status !== undefined) {
    return make(`${what} answered HTTP ${status} ${during}: ${err.message}`, 'http-error');
  }
  if (s && s.transport !== 'stdio' && /fetch failed|ECONNREFUSED|ECONNRESET|socket/i.test(`${err.message} ${describeCause(err.cause)}`)) {
    return make(`${what} could not be reached ${during}: ${err.message}${err.cause ? ` (${describeCause(err.cause)})` : ''}`, 'http-error');
  }
  if (err instanceof SyntaxError) {
    return make(`${what} sent a response that is not valid JSON ${during} (${err.message})`, 'protocol-error');
  }
  if (err instanceof SdkError && err.code === SdkErrorCode.ConnectionClosed) {
    return make(`${what} closed the connection ${during}`, s?.transport === 'stdio' ? 'exited' : 'http-error');
  }
  return make(`${what} failed ${during}: ${err.message}`, 'protocol-error');
}

/** A stdio server started for `toolgate proxy`: the same start as a snapshot's (sandbox, env, HOME). */
export interface StartedServer {
  proc: ServerProcess;
  /** Newline-delimited JSON-RPC on the server's stdin/stdout; not started yet. */
  transport: ProcessStdioTransport;
  /** How the server ran: in the sandbox, or not and why. */
  sandbox?: SandboxUse;
  /** Its scratch HOME (deleted by `close`). */
  home: string;
  /** Ends the server's process group and removes its scratch HOME. Idempotent. */
  close(): Promise<void>;
}

/**
 * Starts a stdio server exactly as a snapshot does (minimal env, scratch HOME, run marker, the
 * sandbox where the machine has one), for a caller that speaks to it itself (the proxy).
 * Lines up to `maxMessageBytes` are read; a longer one ends the transport with `byte-cap`.
 * @throws SourceError `spawn-failed` (command not found, refused by the sandbox, bad cwd).
 */
export async function startStdioServer(
  cfg: McpStdioConfig & McpCommon,
  root: string,
  maxMessageBytes: number,
  launcher = new Launcher(),
): Promise<StartedServer> {
  // A relay cannot start its server again unsandboxed mid-session: the verdict first (~40 ms, once).
  await launcher.sandbox.supportAsync();
  const l = await launcher.start({ ...cfg, root }, cfg.containment, 'stdio-server');
  if (!l.ok) throw l.error;
  const { proc, home } = l;
  let closing: Promise<void> | undefined;
  return {
    proc,
    // A relay passes answers on as they are: the client judges them, not the transport.
    transport: new ProcessStdioTransport(proc, maxMessageBytes + ENVELOPE_SLACK_BYTES, false),
    ...(l.diagnostics.sandbox ? { sandbox: l.diagnostics.sandbox } : {}),
    home: home.path,
    close: () => (closing ??= proc.stop().then(() => home.dispose())),
  };
}

/**
 * The transport to an HTTP server for a relay: Streamable HTTP, or legacy HTTP+SSE when the first
 * message is answered with a 4xx other than 401/403 (the spec's backwards-compatibility rule, as
 * the snapshot applies it); that message is then sent again over SSE. Messages pass as they are.
 */
export class HttpFallbackTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private active: Transport;
  private decided = false;
  /** `sse` once the server answered Streamable HTTP with a 4xx. */
  kind: 'streamable-http' | 'sse' = 'streamable-http';

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
  ) {
    this.active = this.wire(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  }

  private wire(t: Transport): Transport {
    t.onmessage = (m) => this.onmessage?.(m);
    t.onerror = (e) => this.onerror?.(e);
    t.onclose = () => this.onclose?.();
    return t;
  }

  start(): Promise<void> {
    return this.active.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.decided) return this.active.send(message);
    try {
      await this.active.send(message);
      this.decided = true;
    } catch (err) {
      const status = httpStatus(err);
      if (status === undefined || status < 400 || status >= 500 || status === 401 || status === 403) throw err;
      const old = this.active;
      old.onclose = undefined;
      await old.close().catch(() => undefined);
      this.active = this.wire(new SSEClientTransport(this.url, { requestInit: { headers: this.headers } }));
      this.kind = 'sse';
      this.decided = true;
      await this.active.start();
      await this.active.send(message);
    }
  }

  setProtocolVersion(version: string): void {
    (this.active as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    return this.active.close();
  }
}

/** A Streamable HTTP (or legacy HTTP+SSE) server opened for `toolgate proxy`. */
export interface OpenedHttpServer {
  /** Message-level transport to the URL (session id and protocol version headers kept by it); not started. */
  transport: HttpFallbackTransport;
  /** The source's `start` command, when it has one. */
  proc?: ServerProcess;
  sandbox?: SandboxUse;
  /** The start command's scratch HOME (deleted by `close`). */
  home?: string;
  /** Closes the transport, ends the start command's process group, removes its HOME. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens an HTTP source for a caller that speaks JSON-RPC itself (the proxy): runs its `start`
 * command as a snapshot does and waits for the port, then a Streamable HTTP transport with the
 * source's headers (values from the named variables), falling back to legacy HTTP+SSE
 * ({@link HttpFallbackTransport}).
 * @throws SourceError `spawn-failed`, `startup-timeout`; ConfigError for an unset header variable.
 */
export async function openHttpServer(id: string, cfg: McpHttpConfig & McpCommon, root: string, launcher = new Launcher()): Promise<OpenedHttpServer> {
  const { url, headers } = httpTarget(id, cfg);
  const s = newSession('streamable-http', `MCP server at ${url.href}`, new Sessions(launcher));
  if (cfg.start) {
    await launcher.sandbox.supportAsync();
    takeLaunch(s, await launcher.start({ ...cfg.start, root }, cfg.containment, 'http-start'));
    try {
      const deadline = AbortSignal.timeout(cfg.timeouts.startupMs);
      await waitForListening(url, s.proc, deadline);
      if (deadline.aborted)
        throw new SourceError(`${s.what} did not accept connections within ${cfg.timeouts.startupMs} ms`, 'startup-timeout', s.proc?.stderrTail());
    } catch (e) {
      await s.proc?.stop();
      await s.home?.dispose();
      throw e;
    }
  }
  const transport = new HttpFallbackTransport(url, headers);
  let closing: Promise<void> | undefined;
  return {
    transport,
    ...(s.proc ? { proc: s.proc } : {}),
    ...(s.sandbox ? { sandbox: s.sandbox } : {}),
    ...(s.home ? { home: s.home.path } : {}),
    close: () =>
      (closing ??= (async () => {
        await withDeadline(transport.close(), 2000, () => new Error('close timed out')).catch(() => undefined);
        await s.proc?.stop();
        await s.home?.dispose();
      })()),
  };
}
