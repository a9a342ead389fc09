/**
 * HTTP pieces of the MCP source: headers from the environment, waiting for a started server,
 * and a byte-counting `fetch` so an oversized response fails as `byte-cap` instead of being
 * buffered whole.
 */
import { connect } from 'node:net';
import type { HeaderFromEnv } from '../config/source-config.js';
import { ConfigError } from '../util/errors.js';
import { SourceError } from './source-error.js';
import type { ServerProcess } from './launch/process.js';

/**
 * Resolves configured headers: value = `prefix` + the environment variable's value.
 *
 * @param env environment to read (`process.env` in production).
 * @throws ConfigError when a named variable is not set (the message names header and variable).
 */
export function resolveHeaders(headers: readonly HeaderFromEnv[], env: Readonly<Record<string, string | undefined>>, sourceId: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of headers) {
    const value = env[h.env];
    if (value === undefined || value === '') {
      throw new ConfigError(
        `source "${sourceId}": header "${h.name}" reads environment variable ${h.env}, which is not set`,
        undefined,
        `set ${h.env} in the environment that runs toolgate (in a workflow: \`env: ${h.env}: \${{ secrets.… }}\`), or remove the header from the source`,
      );
    }
    out[h.name] = `${h.prefix ?? ''}${value}`;
  }
  return out;
}

/**
 * Polls `url`'s host and port until a TCP connection succeeds (the server is listening).
 * Unbounded by itself: the caller races it with the start-up timeout and passes `signal`.
 *
 * @throws SourceError `exited` when `proc` (the start command) exits before the port opens.
 */
export async function waitForListening(url: URL, proc: ServerProcess | undefined, signal: AbortSignal): Promise<void> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  for (let delay = 20; !signal.aborted; delay = Math.min(delay * 2, 100)) {
    if (await canConnect(host, port)) return;
    if (proc?.exitInfo) {
      const { code, signal: sig } = proc.exitInfo;
      throw new SourceError(
        `start command \`${proc.description}\` exited (${sig ? `signal ${sig}` : `code ${code}`}) before ${url.origin} accepted connections${lastLine(proc.stderrTail())}`,
        'exited',
        proc.stderrTail(),
      );
    }
    await new Promise((r) => setTimeout(r, delay));
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/** Lines of a crash report that say nothing about the cause: stack frames, carets, Node's version trailer, npm's log path. */
const NOISE_LINE = /^(at\s|\^+$|Node\.js v\d)|A complete log of this run can be found in|You can rerun the command with `--loglevel/;
const CAUSE_LINE = /error|exception|fatal|panic|cannot|denied|not found|EADDRINUSE|ENOENT/i;

/**
 * `; stderr: "..."` for messages, or '' when there is no output. Picks the line that most likely
 * names the cause: the last one that reads like an error (a Node crash ends with stack frames and a
 * `Node.js vN` trailer, so the plain last line is rarely it), else the last informative line.
 */
export function lastLine(tail: string): string {
  const lines = tail
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !NOISE_LINE.test(l));
  const line = lines.findLast((l) => CAUSE_LINE.test(l)) ?? lines.at(-1);
  if (!line) return '';
  return `; stderr: ${JSON.stringify(line.length > 200 ? `${line.slice(0, 197)}...` : line)}`;
}

/** Counts response body bytes across all requests; calls `onOverflow` once past `maxBytes`. */
export function countingFetch(maxBytes: number, onOverflow: (bytes: number) => void) {
  let total = 0;
  let overflowed = false;
  const counter = {
    get bytes() {
      return total;
    },
    fetch: async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const res = await fetch(url, init);
      if (!res.body) return res;
      const stream = res.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            total += chunk.byteLength;
            if (total > maxBytes) {
              if (!overflowed) {
                overflowed = true;
                onOverflow(total);
              }
              controller.error(new Error(`response bytes exceeded ${maxBytes}`));
              return;
            }
            controller.enqueue(chunk);
          },
        }),
      );
      return new Response(stream, { status: res.status, statusText: res.statusText, headers: res.headers });
    },
  };
  return counter;
}
