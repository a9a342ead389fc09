/**
 * The sessions of an MCP snapshot: one connection attempt each (a started process, its scratch
 * HOME, a client), connected over stdio or HTTP (Streamable HTTP, falling back to legacy SSE),
 * started again unsandboxed where bwrap cannot make namespaces, and closed so that nothing is
 * left behind, even when the snapshot ends while a connect is in flight.
 *
 * @module
 */
import { Client, SdkError, SdkErrorCode, SSEClientTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import type { McpCommon, McpHttpConfig, McpStdioConfig } from '../config/source-config.js';
import { SourceError, type SourceFailure } from './source-error.js';
import type { ScratchHome } from './launch/env.js';
import type { EarlyStart, Launch, Launcher } from './launch/index.js';
import { captureToolsList, guardFlood, onUnparsableMessage, type ToolsListCapture } from './tools-list-capture.js';
import { challengeOf, type Challenge } from './protected-resource.js';
import { countingFetch, resolveHeaders, waitForListening } from './mcp-http.js';
import { ProcessStdioTransport } from './mcp-process.js';
import { describeCommand, type ServerProcess } from './launch/process.js';
import { firstLine, httpStatus, type FailedSession } from './mcp-failure.js';
import type { SandboxUse } from './types.js';
import { VERSION } from '../version.js';
import { mark } from '../util/timing.js';

/** Client identity sent in `initialize` / `server/discover`. */
const CLIENT_INFO = { name: 'toolgate', version: VERSION };
/** Slack over `limits.maxBytes` for one stdout line / all HTTP bodies (envelope, initialize). */
export const ENVELOPE_SLACK_BYTES = 1024 * 1024;
/** Why a server that floods toolgate with requests fails (see {@link guardFlood}); the message says "flooded toolgate". */
const FLOOD: SourceFailure = 'flood';

/** Everything one connection attempt holds, so failures can be explained and cleaned up. */
export interface Session extends FailedSession {
  client?: Client;
  home?: ScratchHome;
  /** Raw `tools/list` results, for pages the SDK rejects (see tools-list-capture.ts). */
  capture?: ToolsListCapture;
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
export function takeLaunch(s: Session, l: Launch): void {
  if (l.diagnostics.sandbox) s.sandbox = l.diagnostics.sandbox;
  if (!l.ok) throw l.error;
  s.proc = l.proc;
  s.home = l.home;
  s.namespacesMade = l.namespacesMade;
}

/**
 * The sessions of one snapshot. Once `closed` (deadline passed or snapshot over), a connect
 * still in flight must not leave a process or directory behind: {@link Sessions.guard} ends it.
 */
export class Sessions {
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

export function newSession(transport: Session['transport'], what: string, sessions: Sessions): Session {
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
export interface ClientOptions {
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
export async function connectClient(s: Session, cfg: McpCommon, transport: Transport, o: ClientOptions): Promise<void> {
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
export function failOn(s: Session, transport: Transport): Pick<ClientOptions, 'onFlood' | 'onUnparsable'> {
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

export async function connectStdio(cfg: McpStdioConfig & McpCommon, sessions: Sessions, root: string, early?: EarlyStart): Promise<Session> {
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
export function httpTarget(id: string, cfg: McpHttpConfig): { url: URL; headers: Record<string, string> } {
  const headers = resolveHeaders(cfg.headers, process.env, id);
  try {
    return { url: new URL(cfg.url), headers };
  } catch (cause) {
    throw new SourceError(`MCP server URL ${JSON.stringify(cfg.url)} is not a valid URL`, 'http-error', undefined, { cause });
  }
}

export async function connectHttp(id: string, cfg: McpHttpConfig & McpCommon, sessions: Sessions, root: string): Promise<Session> {
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

export async function closeSession(s: Session): Promise<void> {
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

/** Rejects with `onTimeout()` when `p` has not settled within `ms`. */
export async function withDeadline<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
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
