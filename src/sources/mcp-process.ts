/**
 * The MCP stdio transport over a started process (launch/process.ts): newline-delimited JSON-RPC
 * on its stdin/stdout, non-JSON lines counted, a byte cap per line, long lines parsed in slices.
 */
import { timeSlicer, yieldToSignals } from '../util/cleanup.js';
import { StringDecoder } from 'node:string_decoder';
import type { Transport, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { SourceFailure } from './source-error.js';
import type { ServerProcess } from './launch/process.js';
import { keepReadText } from '../util/wire-text.js';

/**
 * Stdout lines longer than this (bytes) are decoded as they arrive and parsed in slices
 * ({@link parseJsonSliced}): one `JSON.parse` of a 45 MB page of 100,000 tools blocks for 2-3 s
 * on a CI runner, and an interrupted run must end within 1 s.
 */
export const SLICED_PARSE_BYTES = 1024 * 1024;

/** A transport-level failure that the snapshot maps to a {@link SourceFailure}. */
export interface TransportFailure {
  reason: SourceFailure;
  message: string;
}

/**
 * MCP stdio transport over a {@link ServerProcess}: newline-delimited JSON-RPC on stdin/stdout.
 *
 * - Lines that are not a JSON-RPC message are counted in {@link noiseLines} (the SDK drops them
 *   silently; they are a hygiene problem, and a banner is the usual cause of a client hang).
 * - A line longer than `maxLineBytes` ends the connection with a `byte-cap` failure before it is
 *   buffered whole, so a 100 MB line cannot exhaust memory.
 * - A line longer than {@link SLICED_PARSE_BYTES} is parsed in slices, stdout paused meanwhile;
 *   what follows it (and the end of the stream) waits, so messages keep their order.
 * - A JSON-RPC message behind a byte-order mark fails the connection at once, saying so.
 *
 * The process is not owned: `close()` detaches, the snapshot ends the process group.
 * `pid` and `stderr` are present so the SDK's version negotiation treats this as a stdio
 * transport (a silent probe means a legacy server, not an outage).
 */
export class ProcessStdioTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined;
  sessionId?: string | undefined;
  /** Non-empty stdout lines that were not JSON-RPC messages. */
  noiseLines = 0;
  /** The first noise line (shortened), for the hygiene note. */
  firstNoiseLine: string | undefined;
  /** Set when the transport gave up (e.g. `byte-cap`). */
  failure: TransportFailure | undefined;
  /** Not piped separately: the process keeps the tail. Present for SDK transport detection. */
  readonly stderr = null;
  /** The start of the current line (until it is known to be long). */
  private pending: Buffer[] = [];
  /** Bytes of the current line so far. */
  private pendingBytes = 0;
  /** The current line decoded so far, once it is longer than {@link SLICED_PARSE_BYTES}. */
  private longText: PieceText | undefined;
  private decoder: StringDecoder | undefined;
  /** A long line is being parsed: stdout is paused, chunks that still come wait here, in order. */
  private parsing = false;
  private held: Buffer[] = [];
  /** stdout ended (or the process exited) while a long line was parsed: finish after it. */
  private endPending = false;
  /** Requests sent and not yet answered: id → method, to spot malformed answers to them. */
  private readonly inFlight = new Map<string | number, string>();
  private closed = false;
  private started = false;

  /**
   * @param checkResponses fail the connection on a malformed answer to a request sent through
   *   it (a snapshot's own requests); false for a relay, which passes answers on as they are
   *   and may write a message on as the line it was parsed from (util/wire-text.ts).
   */
  constructor(
    private readonly proc: ServerProcess,
    private readonly maxLineBytes: number,
    private readonly checkResponses = true,
  ) {}

  get pid(): number | null {
    return this.proc.pid;
  }

  start(): Promise<void> {
    if (this.started) return Promise.resolve();
    this.started = true;
    const out = this.proc.child.stdout!;
    out.on('data', (chunk: Buffer) => this.onData(chunk));
    out.once('close', () => this.end());
    this.proc.child.once('exit', () => {
      // stdout may stay open in a grandchild; the direct child's exit still ends the session.
      setTimeout(() => this.end(), 50).unref();
    });
    return Promise.resolve();
  }

  private onData(chunk: Buffer): void {
    if (this.closed) return;
    if (this.parsing) {
      this.held.push(chunk);
      return;
    }
    let from = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, from);
      const part = chunk.subarray(from, nl === -1 ? chunk.length : nl);
      this.pendingBytes += part.length;
      if (this.pendingBytes > this.maxLineBytes) return this.overflow(this.pendingBytes);
      if (nl === -1) return this.append(part);
      from = nl + 1;
      if (this.longText) {
        this.append(part);
        const text = this.longText;
        text.push(this.decoder!.end());
        this.resetLine();
        return this.parseLong(text, chunk.subarray(from));
      }
      const line = this.pending.length ? Buffer.concat([...this.pending, part]) : part;
      this.resetLine();
      if (line.length > SLICED_PARSE_BYTES) return this.parseLong(new PieceText(line.toString('utf8')), chunk.subarray(from));
      this.onLine(line);
      if (this.closed) return;
    }
  }

  /** Adds a piece of the current line; past {@link SLICED_PARSE_BYTES} it is decoded as it comes. */
  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.longText) {
      this.longText.push(this.decoder!.write(part));
      return;
    }
    this.pending.push(part);
    if (this.pendingBytes > SLICED_PARSE_BYTES) {
      // Copying and decoding 50 MB at the end of the line would block for most of a second.
      const decoder = (this.decoder = new StringDecoder('utf8'));
      const text = (this.longText = new PieceText());
      for (const b of this.pending) text.push(decoder.write(b));
      this.pending = [];
    }
  }

  private resetLine(): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.longText = undefined;
    this.decoder = undefined;
  }

  /** Parses a long line in slices; stdout waits (paused), and so does what came after the line. */
  private parseLong(text: PieceText, rest: Buffer): void {
    this.parsing = true;
    if (rest.length > 0) this.held.unshift(rest);
    this.proc.child.stdout?.pause();
    void this.onLongLine(text)
      .catch((err: unknown) => this.onerror?.(err instanceof Error ? err : new Error(String(err))))
      .then(() => {
        this.parsing = false;
        while (!this.closed && !this.parsing && this.held.length > 0) this.onData(this.held.shift()!);
        if (this.closed || this.parsing) return;
        this.proc.child.stdout?.resume();
        // The end came meanwhile: what stdout still holds gets the same 50 ms as after an exit.
        if (this.endPending) setTimeout(() => this.end(), 50).unref();
      });
  }

  /** stdout closed or the process exited: close, after a long line still being parsed. */
  private end(): void {
    if (this.parsing) this.endPending = true;
    else this.finish();
  }

  private overflow(bytes: number): void {
    this.resetLine();
    this.fail({ reason: 'byte-cap', message: `a single stdout line exceeded ${this.maxLineBytes} bytes (read ${bytes} so far)` });
  }

  /**
   * Gives up on the connection: records `failure` (the first one wins), reports it to the SDK and
   * closes, so every pending request ends at once instead of waiting for its timeout.
   */
  fail(failure: TransportFailure): void {
    if (this.closed) return;
    this.failure ??= failure;
    this.onerror?.(new Error(failure.message));
    this.finish();
  }

  private onLine(raw: Buffer): void {
    const decoded = raw.toString('utf8');
    const text = decoded.endsWith('\r') ? decoded.slice(0, -1) : decoded;
    if (text.trim() === '') return;
    const msg = jsonRpcMessage(text);
    if (msg && !this.checkResponses) keepReadText(msg, text);
    if (msg) return this.deliver(msg);
    this.notMessage(text, text.charCodeAt(0) === 0xfeff ? jsonRpcMessage(text.slice(1)) : undefined);
  }

  /** {@link onLine} for a long line: the same, parsed in slices. */
  private async onLongLine(text: PieceText): Promise<void> {
    const to = text.charCodeAt(text.length - 1) === 0x0d ? text.length - 1 : text.length;
    const content = text.find(/\S/g, 0);
    if (content < 0 || content >= to) return;
    const parse = async (from: number) => asJsonRpc(await parseJsonSliced(text, { from, to }).catch(() => undefined));
    const msg = await parse(0);
    if (this.closed) return;
    if (msg) return this.deliver(msg);
    const behind = text.charCodeAt(0) === 0xfeff ? await parse(1) : undefined;
    if (this.closed) return;
    this.notMessage(text.slice(0, 121), behind);
  }

  /** Hands a JSON-RPC message to the SDK, unless it is a malformed answer to one of our requests. */
  private deliver(msg: Record<string, unknown>): void {
    const id = msg.id;
    if (msg.method === undefined && (typeof id === 'string' || typeof id === 'number') && this.inFlight.has(id)) {
      const method = this.inFlight.get(id)!;
      this.inFlight.delete(id);
      // The SDK drops a response it cannot parse (result not an object, extra keys, bad error
      // object) and the request would wait for its timeout, then be reported as "did not
      // answer". Fail at once and say what was wrong.
      const problem = this.checkResponses ? responseProblem(msg) : undefined;
      if (problem) return this.fail({ reason: 'protocol-error', message: `answered ${method} with a malformed JSON-RPC response (${problem})` });
    }
    this.onmessage?.(msg as JSONRPCMessage);
  }

  /**
   * A line that is not a JSON-RPC message: noise, or a message behind a byte-order mark (`behind`).
   * `text` is the line, or its first 121 characters.
   */
  private notMessage(text: string, behind: Record<string, unknown> | undefined): void {
    // A byte-order mark makes the line invalid JSON: MCP clients (the official SDKs parse each
    // line with JSON.parse) drop it, and the request it answers waits for its timeout, reported
    // as a server that did not answer. RFC 8259 §8.1: a sender MUST NOT add one (a parser MAY
    // ignore it, but toolgate pins what clients see). Say what came instead.
    if (behind) {
      return this.fail({
        reason: 'protocol-error',
        message: `wrote a byte-order mark (U+FEFF) before ${this.describe(behind)} on stdout; MCP stdio messages are JSON lines without one (RFC 8259 §8.1), and MCP clients reject the line as invalid JSON`,
      });
    }
    this.noiseLines++;
    this.firstNoiseLine ??= text.length > 120 ? `${text.slice(0, 117)}...` : text;
  }

  /** "its answer to initialize", "its ping request", "its notifications/message notification". */
  private describe(m: Record<string, unknown>): string {
    if (typeof m.method === 'string') return `its ${JSON.stringify(m.method).slice(1, -1).slice(0, 80)} ${m.id === undefined ? 'notification' : 'request'}`;
    const id = m.id;
    const method = typeof id === 'string' || typeof id === 'number' ? this.inFlight.get(id) : undefined;
    return method ? `its answer to ${method}` : 'its JSON-RPC message';
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.proc.child.stdout?.removeAllListeners('data');
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.proc.child.stdin;
    if (this.closed || !stdin || stdin.destroyed || !stdin.writable) {
      return Promise.reject(new Error('server stdin is closed'));
    }
    const m = message as { id?: unknown; method?: unknown };
    if (typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')) this.inFlight.set(m.id, m.method);
    return new Promise((resolve, reject) => {
      stdin.write(`${JSON.stringify(message)}\n`, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(): Promise<void> {
    this.finish();
    return Promise.resolve();
  }
}

/** `text` parsed, when it is a JSON-RPC 2.0 message (an object with `"jsonrpc": "2.0"`). */
function jsonRpcMessage(text: string): Record<string, unknown> | undefined {
  try {
    return asJsonRpc(JSON.parse(text));
  } catch {
    return undefined;
  }
}

function asJsonRpc(msg: unknown): Record<string, unknown> | undefined {
  const ok = typeof msg === 'object' && msg !== null && !Array.isArray(msg) && (msg as { jsonrpc?: unknown }).jsonrpc === '2.0';
  return ok ? (msg as Record<string, unknown>) : undefined;
}

/**
 * A long text kept as the pieces it was decoded in (each up to ~64 KiB), so that no 50 MB flat
 * string is ever built: joining one blocks for a third of a second on a loaded runner.
 */
export class PieceText {
  private readonly pieces: string[] = [];
  /** Start of each piece in the text. */
  private readonly starts: number[] = [];
  length = 0;
  /** The piece of the last read. */
  private hint = 0;

  /**
   * @param text the first piece.
   * @param mergeBelow a piece pushed after one shorter than this is appended to it: a server
   *   that writes a byte at a time must not make millions of pieces.
   */
  constructor(
    text?: string,
    private readonly mergeBelow = PIECE_CHARS,
  ) {
    if (text) this.push(text);
  }

  push(text: string): void {
    if (text.length === 0) return;
    const last = this.pieces.length - 1;
    if (last >= 0 && this.pieces[last]!.length < this.mergeBelow) this.pieces[last] += text;
    else {
      this.pieces.push(text);
      this.starts.push(this.length);
    }
    this.length += text.length;
  }

  /** Index of the piece holding position `i` (0 <= i < length). */
  private pieceAt(i: number): number {
    // Reads move forward: try the piece of the last read and the next one first.
    const h = this.hint;
    if (this.starts[h]! <= i) {
      if (h + 1 >= this.starts.length || i < this.starts[h + 1]!) return h;
      if (h + 2 >= this.starts.length || i < this.starts[h + 2]!) return (this.hint = h + 1);
    }
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return (this.hint = lo);
  }

  /** The UTF-16 code unit at `i`; NaN outside the text. */
  charCodeAt(i: number): number {
    if (i < 0 || i >= this.length) return NaN;
    const k = this.pieceAt(i);
    return this.pieces[k]!.charCodeAt(i - this.starts[k]!);
  }

  slice(from: number, to: number): string {
    if (to <= from) return '';
    const k = this.pieceAt(from);
    const local = from - this.starts[k]!;
    const piece = this.pieces[k]!;
    if (to - this.starts[k]! <= piece.length) return piece.slice(local, to - this.starts[k]!);
    let out = piece.slice(local);
    for (let j = k + 1; j < this.pieces.length && this.starts[j]! < to; j++) out += this.pieces[j]!.slice(0, to - this.starts[j]!);
    return out;
  }

  /** Position of the first match of `re` (a /g regex matching one character) at or after `from`, or -1. */
  find(re: RegExp, from: number): number {
    if (from >= this.length) return -1;
    for (let k = this.pieceAt(from), local = from - this.starts[k]!; k < this.pieces.length; k++, local = 0) {
      re.lastIndex = local;
      // test(), not exec(): no match object to allocate (millions of calls for one page).
      if (re.test(this.pieces[k]!)) return this.starts[k]! + re.lastIndex - 1;
    }
    return -1;
  }
}

/** Containers shorter than this (characters) are parsed whole by `JSON.parse` (a few ms). */
const PIECE_CHARS = 64 * 1024;
/** Below this many levels of long containers, the rest is parsed whole (no deep recursion). */
const MAX_SLICED_DEPTH = 64;
/** The end of a string's content: a quote or a backslash (which escapes the next character). */
const STRING_STOP = /["\\]/g;
/** What matters when skipping a container: strings and brackets. */
const STRUCTURE = /["{}[\]]/g;
/** The end of a number, `true`, `false` or `null`. */
const TOKEN_END = /[,\]}\x20\t\n\r]/g;
/** Marks a container too long to parse at once (see parseJsonSliced). */
const LONG = Symbol('long');

/**
 * `JSON.parse(text.slice(from, to))`, for long texts: a container longer than `pieceChars`
 * ({@link PIECE_CHARS}) is parsed member by member (short members by `JSON.parse` of their
 * slice), yielding to the event loop (see {@link yieldToSignals}) whenever `due()` (every few
 * tens of ms), so that a signal is handled while a 50 MB page is parsed (one `JSON.parse` of it
 * blocks for seconds). Same value as `JSON.parse`, and the same texts are refused (SyntaxError):
 * the last of duplicate keys wins, `"__proto__"` is an own key.
 */
export async function parseJsonSliced(
  input: string | PieceText,
  options: { from?: number; to?: number; due?: () => boolean; pieceChars?: number } = {},
): Promise<unknown> {
  const text = typeof input === 'string' ? new PieceText(input) : input;
  const { from = 0, to = text.length, due = timeSlicer(), pieceChars = PIECE_CHARS } = options;
  return new SlicedJsonParser(text, to, due, pieceChars).parse(from);
}

/** The state of one {@link parseJsonSliced}: the text, where it ends, and the end of the value parsed last. */
class SlicedJsonParser {
  /** End (exclusive) of the value parsed last (set by {@link value} and {@link container}). */
  private end = 0;

  constructor(
    private readonly text: PieceText,
    private readonly to: number,
    private readonly due: () => boolean,
    private readonly pieceChars: number,
  ) {}

  async parse(from: number): Promise<unknown> {
    this.end = from;
    let v = this.value(from, 0);
    if (v === LONG) v = await this.container(this.end, 1);
    if (this.ws(this.end) !== this.to) this.fail(this.end);
    return v;
  }

  private fail(at: number): never {
    throw new SyntaxError(`Unexpected token in JSON at position ${at}`);
  }

  private code(i: number): number {
    return i < this.to ? this.text.charCodeAt(i) : NaN;
  }

  private ws(i: number): number {
    for (let c = this.code(i); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = this.code(++i));
    return i;
  }

  private find(re: RegExp, i: number): number {
    const at = this.text.find(re, i);
    return at >= this.to ? -1 : at;
  }

  /** End (exclusive) of the string whose opening quote is at `i`. */
  private stringEnd(i: number): number {
    for (let at = i + 1; ;) {
      const stop = this.find(STRING_STOP, at);
      if (stop < 0) return this.fail(this.to);
      if (this.text.charCodeAt(stop) === 0x22) return stop + 1;
      at = stop + 2;
    }
  }

  /** End (exclusive) of the container opening at `i` when it closes before `limit`, else -1. */
  private containerEnd(i: number, limit: number): number {
    let depth = 0;
    for (let at = i; ;) {
      const m = this.find(STRUCTURE, at);
      if (m < 0 || m >= limit) return -1;
      const c = this.text.charCodeAt(m);
      if (c === 0x22) at = this.stringEnd(m);
      else {
        at = m + 1;
        if (c === 0x7b || c === 0x5b) depth++;
        else if (--depth === 0) return at;
      }
    }
  }

  private leaf(i: number, e: number): unknown {
    this.end = e;
    return JSON.parse(this.text.slice(i, e));
  }

  /** The value at `at` when it is short (parsed at once), else {@link LONG} (parse it with {@link container}). */
  private value(at: number, depth: number): unknown {
    const i = this.ws(at);
    const c = this.code(i);
    if (c === 0x7b || c === 0x5b) {
      const e = this.containerEnd(i, depth >= MAX_SLICED_DEPTH ? Infinity : i + this.pieceChars);
      if (e >= 0) return this.leaf(i, e);
      if (depth >= MAX_SLICED_DEPTH) return this.fail(this.to);
      this.end = i;
      return LONG;
    }
    if (c === 0x22) return this.leaf(i, this.stringEnd(i));
    const found = this.find(TOKEN_END, i);
    const e = found < 0 ? this.to : found;
    return e <= i ? this.fail(i) : this.leaf(i, e);
  }

  /** The object or array opening at `open`, member by member, yielding to signals when due. */
  private async container(open: number, depth: number): Promise<unknown> {
    const isObject = this.code(open) === 0x7b;
    const close = isObject ? 0x7d : 0x5d;
    const out: Record<string, unknown> | unknown[] = isObject ? {} : [];
    let i = this.ws(open + 1);
    if (this.code(i) === close) {
      this.end = i + 1;
      return out;
    }
    for (;;) {
      let key = '';
      if (isObject) {
        if (this.code(i) !== 0x22) return this.fail(i);
        const e = this.stringEnd(i);
        key = JSON.parse(this.text.slice(i, e)) as string;
        i = this.ws(e);
        if (this.code(i) !== 0x3a) return this.fail(i);
        i++;
      }
      let v = this.value(i, depth);
      if (v === LONG) v = await this.container(this.end, depth + 1);
      if (Array.isArray(out)) out.push(v);
      else if (key === '__proto__') Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
      else out[key] = v;
      i = this.ws(this.end);
      const c = this.code(i);
      if (c === close) {
        this.end = i + 1;
        return out;
      }
      if (c !== 0x2c) return this.fail(i);
      i = this.ws(i + 1);
      if (this.due()) await yieldToSignals();
    }
  }
}

/**
 * Why a JSON-RPC response (a message with an id and no method) is not one the SDK accepts, or
 * undefined when it is: exactly one of `result` (an object) or `error` (`{code: integer,
 * message: string, ...}`), and no other top-level keys besides `jsonrpc` and `id` (the SDK's
 * response schemas are strict at the top level).
 */
export function responseProblem(m: Record<string, unknown>): string | undefined {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);
  const extra = Object.keys(m).filter((k) => !['jsonrpc', 'id', 'result', 'error'].includes(k));
  if (extra.length > 0)
    return `unexpected key${extra.length === 1 ? '' : 's'} ${extra
      .slice(0, 3)
      .map((k) => JSON.stringify(k))
      .join(', ')}`;
  if ('result' in m && 'error' in m) return 'both "result" and "error"';
  if ('result' in m) {
    const r = m.result;
    if (typeof r !== 'object' || r === null || Array.isArray(r)) return `"result" is ${kind(r)}, not an object`;
    const meta = (r as Record<string, unknown>)._meta;
    if (meta !== undefined && (typeof meta !== 'object' || meta === null || Array.isArray(meta))) return `"result._meta" is ${kind(meta)}, not an object`;
    return undefined;
  }
  if ('error' in m) {
    const e = m.error as Record<string, unknown> | null;
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return `"error" is ${kind(e)}, not an object`;
    if (typeof e.code !== 'number' || !Number.isInteger(e.code)) return '"error.code" is not an integer';
    if (typeof e.message !== 'string') return '"error.message" is not a string';
    return undefined;
  }
  return 'neither "result" nor "error"';
}
