/**
 * Explains why an MCP snapshot failed: any error of a start, a connection or a listing becomes a
 * SourceError that names the server, the phase and what happened (an exit, a timeout, a JSON-RPC
 * or HTTP error, a stream failure), and a sandboxed server's failure is explained by what its
 * sandbox kept from it.
 *
 * @module
 */
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ConfigError } from '../util/errors.js';
import { SourceError, type SourceFailure } from './source-error.js';
import { lastLine } from './mcp-http.js';
import type { ProcessStdioTransport } from './mcp-process.js';
import type { ServerProcess } from './launch/process.js';
import { containmentHints, REGISTRY_FIX, withoutScratchHome, type HintContext } from './launch/hints.js';

/** Where a snapshot was when it failed. */
export type Phase = 'start-up' | 'listing';

/** What an explanation reads of the session that failed (`Session` in mcp-session.ts adds the rest). */
export interface FailedSession {
  transport: 'stdio' | 'streamable-http' | 'sse';
  /** "MCP server `cmd args`" or "MCP server at URL", for messages. */
  what: string;
  proc?: ServerProcess;
  stdio?: ProcessStdioTransport;
  /** A failure detected outside the request path (byte cap on a stream). */
  failure?: { reason: SourceFailure; message: string };
}

/** Explains any failure as a {@link SourceError} naming the server and what happened. */
export async function toSourceError(err: unknown, s: FailedSession | undefined, phase: Phase): Promise<Error> {
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

/** `Error: message (CODE)` for an error's cause (fetch wraps ECONNREFUSED and friends there). */
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return typeof cause === 'string' ? cause : (JSON.stringify(cause) ?? '');
  const code = (cause as NodeJS.ErrnoException).code;
  return `${String(cause)}${code && !cause.message.includes(code) ? ` (${code})` : ''}`;
}

export function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { status?: unknown; code?: unknown; data?: { status?: unknown } };
  if (typeof e.status === 'number') return e.status;
  if (typeof e.data?.status === 'number') return e.data.status;
  // SDK 1.x-style StreamableHTTPError carries the status as `code`.
  if (typeof e.code === 'number' && e.code >= 100 && e.code < 600) return e.code;
  const m = /\bHTTP (\d{3})\b/.exec(String((err as Error).message));
  return m ? Number(m[1]) : undefined;
}

export function isTimeout(err: unknown): boolean {
  return err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout;
}

export function firstLine(err: unknown): string {
  const line = String((err as Error)?.message ?? err).split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

/**
 * A sandboxed server's failure, explained by what its sandbox kept from it (launch/hints.ts): a
 * blocked registry becomes the headline (it names the host and the npm cache recipe), and every
 * other hint names the policy key that would allow what failed; the scratch HOME's path (deleted
 * by now) is written `$HOME` in the message and the stderr tail.
 */
export function explainContained(e: SourceError, what: string, ctx: HintContext): void {
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
