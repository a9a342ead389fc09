/**
 * The proxy's side toward the client: newline-delimited JSON-RPC on this process's stdin and
 * stdout (MCP stdio transport). Messages pass as parsed JSON objects, untouched: nothing is
 * validated against a schema, so unknown fields reach the relay as the client sent them.
 *
 * A line that is no single JSON-RPC message is answered here, never dropped in silence: a line
 * over the size bound, one that is not UTF-8 or not JSON, a batch (JSON-RPC batches left MCP in
 * 2025-06-18; SDK clients never send one) or a value that is no object each get a JSON-RPC error
 * (with the request's id where it can be read, else `id: null`, as JSON-RPC 2.0 §5 says) and a
 * call of `onRefused` for the decision log. A byte order mark before a message is ignored (RFC
 * 8259 §8.1 allows it; the relay writes the message again without one).
 */
import type { Readable, Writable } from 'node:stream';
import { wireText } from '../util/wire-text.js';

/** A JSON-RPC message as it travels (any JSON object). */
export type Message = Record<string, unknown>;

/** Options of {@link ClientStdio}. */
export interface ClientStdioOptions {
  /** Longest line accepted, in bytes; a longer one is refused with a JSON-RPC error. */
  maxMessageBytes: number;
  /** A line refused here (`reason`: too-large, invalid-utf8, parse-error, batch, not-an-object), for the log. */
  onRefused?: (reason: string, detail: string) => void;
}

/** JSON-RPC 2.0 error codes (§5.1). */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/** Decodes strictly: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD. A leading BOM is dropped. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The id of a message that could be read, when it is one a client can match an answer to: a
 * string, or a number that survives a round trip through JSON unchanged (a safe integer; `1e400`
 * would be written back as `null`, `12345678901234567890` as another number, `-0` as `0`).
 */
export function usableId(id: unknown): string | number | undefined {
  if (typeof id === 'string') return id;
  if (typeof id === 'number' && Number.isSafeInteger(id) && !Object.is(id, -0)) return id;
  return undefined;
}

/** Reads messages from `input` line by line and writes them to `output`, one per line. */
export class ClientStdio {
  onmessage?: (m: Message) => void;
  onclose?: () => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Past the bound, the rest of the line is skipped up to its newline. */
  private skipping = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly opts: ClientStdioOptions,
  ) {}

  start(): void {
    this.input.on('data', (chunk: Buffer) => this.onData(chunk));
    this.input.once('end', () => this.onclose?.());
    this.input.once('close', () => this.onclose?.());
  }

  /** Writes one message (or a batch answer). @throws what `JSON.stringify` throws (a value nested too deep). */
  send(m: Message | Message[]): void {
    this.output.write(`${wireText(m)}\n`);
  }

  private onData(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      const line = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      this.deliver(line);
    }
    if (start >= chunk.length || this.skipping) return;
    const rest = chunk.subarray(start);
    this.pending.push(rest);
    this.pendingBytes += rest.length;
    if (this.pendingBytes > this.opts.maxMessageBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      this.tooLarge();
    }
  }

  private tooLarge(): void {
    this.refuse(null, INVALID_REQUEST, 'too-large', `message larger than ${this.opts.maxMessageBytes} bytes (runtime.max-message-bytes)`);
  }

  private deliver(bytes: Buffer): void {
    if (bytes.length > this.opts.maxMessageBytes) return this.tooLarge();
    let text: string;
    try {
      text = STRICT_UTF8.decode(bytes);
    } catch {
      // Answered under its id when the rest can be read, so the client is not left waiting.
      return this.refuse(idOf(parseOrUndefined(bytes.toString('utf8'))), PARSE_ERROR, 'invalid-utf8', 'the message is not valid UTF-8');
    }
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    const m = parseOrUndefined(text);
    if (m === undefined) return this.refuse(null, PARSE_ERROR, 'parse-error', 'parse error: the line is not JSON');
    if (Array.isArray(m)) return this.refuseBatch(m);
    if (m === null || typeof m !== 'object')
      return this.refuse(null, INVALID_REQUEST, 'not-an-object', `invalid request: a JSON-RPC message is an object, not ${m === null ? 'null' : typeof m}`);
    this.onmessage?.(m as Message);
  }

  /** A batch: each request in it is answered under its id (a batch answer), or the whole with `id: null`. */
  private refuseBatch(batch: unknown[]): void {
    const message = `toolgate proxy: invalid request: JSON-RPC batches are not supported (a batch of ${batch.length}); send each message on its own line`;
    this.opts.onRefused?.('batch', message.slice('toolgate proxy: '.length));
    const ids = batch.map((m) => idOf(m)).filter((id) => id !== null);
    if (ids.length === 0) return this.sendSafely({ jsonrpc: '2.0', id: null, error: { code: INVALID_REQUEST, message } });
    this.sendSafely(ids.map((id) => ({ jsonrpc: '2.0', id, error: { code: INVALID_REQUEST, message } })));
  }

  private refuse(id: string | number | null, code: number, reason: string, detail: string): void {
    this.opts.onRefused?.(reason, detail);
    this.sendSafely({ jsonrpc: '2.0', id, error: { code, message: `toolgate proxy: ${detail}` } });
  }

  private sendSafely(m: Message | Message[]): void {
    try {
      this.send(m);
    } catch (e) {
      this.opts.onRefused?.('unanswerable', `an answer could not be written: ${(e as Error).message}`);
    }
  }
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The usable id of a request (an object with a method), else null. */
function idOf(m: unknown): string | number | null {
  if (m === null || typeof m !== 'object' || Array.isArray(m) || typeof (m as Message).method !== 'string') return null;
  return usableId((m as Message).id) ?? null;
}
