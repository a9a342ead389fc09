/**
 * Opens an MCP server for a caller that speaks JSON-RPC to it itself (the proxy): a stdio server
 * started exactly as a snapshot starts one, or an HTTP source's `start` command and a transport
 * that falls back from Streamable HTTP to legacy HTTP+SSE as a snapshot does.
 *
 * @module
 */
import { SSEClientTransport, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import type { McpCommon, McpHttpConfig, McpStdioConfig } from '../config/source-config.js';
import { SourceError } from './source-error.js';
import { Launcher } from './launch/index.js';
import { waitForListening } from './mcp-http.js';
import { ProcessStdioTransport } from './mcp-process.js';
import type { ServerProcess } from './launch/process.js';
import { ENVELOPE_SLACK_BYTES, httpTarget, newSession, Sessions, takeLaunch, withDeadline } from './mcp-session.js';
import { httpStatus } from './mcp-failure.js';
import type { SandboxUse } from './types.js';

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
