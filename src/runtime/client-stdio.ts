/**
 * The proxy's side toward the client: newline-delimited JSON-RPC on this process's stdin and
 * stdout (MCP stdio transport). Messages pass as parsed JSON, untouched: nothing is validated
 * against a schema, so unknown fields and methods reach the server as the client sent them.
 */
import { StringDecoder } from 'node:string_decoder';
import type { Readable, Writable } from 'node:stream';

/** A JSON-RPC message as it travels (any JSON object). */
export type Message = Record<string, unknown>;

/** Options of {@link ClientStdio}. */
export interface ClientStdioOptions {
  /** Longest line accepted, in bytes; a longer one is refused with a JSON-RPC error. */
  maxMessageBytes: number;
  /** A line that is not a JSON object (dropped): told to the caller for the log. */
  onGarbage?: (why: string) => void;
}

/** Reads messages from `input` line by line and writes them to `output`, one per line. */
export class ClientStdio {
  onmessage?: (m: Message) => void;
  onclose?: () => void;
  private buffered: string[] = [];
  private bufferedBytes = 0;
  private skipping = false;
  private readonly decoder = new StringDecoder('utf8');

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

  send(m: Message): void {
    this.output.write(`${JSON.stringify(m)}\n`);
  }

  private onData(chunk: Buffer): void {
    let text = this.decoder.write(chunk);
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
      const part = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        this.buffered = [];
        this.bufferedBytes = 0;
        continue;
      }
      this.buffered.push(part);
      const line = this.buffered.join('');
      this.buffered = [];
      this.bufferedBytes = 0;
      this.deliver(line);
    }
    if (text && !this.skipping) {
      this.buffered.push(text);
      this.bufferedBytes += Buffer.byteLength(text);
      if (this.bufferedBytes > this.opts.maxMessageBytes) {
        // Past the bound the line is not kept: the rest of it is skipped up to its newline.
        this.opts.onGarbage?.(`a client message over ${this.opts.maxMessageBytes} bytes was dropped`);
        this.send({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `toolgate proxy: message larger than ${this.opts.maxMessageBytes} bytes (runtime.max-message-bytes)` },
        });
        this.skipping = true;
        this.buffered = [];
        this.bufferedBytes = 0;
      }
    }
  }

  private deliver(line: string): void {
    if (Buffer.byteLength(line) > this.opts.maxMessageBytes) {
      this.opts.onGarbage?.(`a client message over ${this.opts.maxMessageBytes} bytes was dropped`);
      this.send({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `toolgate proxy: message larger than ${this.opts.maxMessageBytes} bytes (runtime.max-message-bytes)` },
      });
      return;
    }
    const trimmed = line.replace(/\r$/, '');
    if (trimmed.trim() === '') return;
    let m: unknown;
    try {
      m = JSON.parse(trimmed);
    } catch {
      this.opts.onGarbage?.('a line from the client is not JSON');
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'toolgate proxy: parse error' } });
      return;
    }
    if (m === null || typeof m !== 'object' || Array.isArray(m)) {
      this.opts.onGarbage?.('a line from the client is not a JSON-RPC message');
      return;
    }
    this.onmessage?.(m as Message);
  }
}
