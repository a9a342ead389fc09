/**
 * `toolgate proxy` (docs/design.md §11): an MCP server to the client and a client to the real server,
 * relaying JSON-RPC messages unchanged in both directions except where the contract is enforced:
 *
 * - `tools/list` from the client is answered by the proxy: it lists the server itself (every
 *   page, under its own request ids) and returns the admitted tools in one page, exactly as the
 *   server listed them (admission.ts). No admitted tool is a JSON-RPC error, not an empty list.
 * - `tools/call` goes to the server only when the tool is admitted now and its arguments pass the
 *   pinned inputSchema (arguments.ts); otherwise the proxy answers with a tool error result
 *   (`isError: true`, `structuredContent: {ok: false, error, detail}`). A result larger than
 *   `runtime.max-result-bytes` is replaced by such an error.
 * - `notifications/tools/list_changed` from the server makes the proxy list again; it is passed on
 *   only when the admitted set changed.
 *
 * Everything else (ids, progress, cancellation, resources, prompts, sampling, elicitation, roots,
 * pings, unknown methods, `_meta`) passes through as sent. The relay holds no protocol state
 * besides the ids of the requests it must answer or inspect.
 */
import { randomBytes } from 'node:crypto';
import type { RuntimePolicy } from '../config/policy.js';
import type { Surface } from '../surface/model.js';
import type { Json } from '../util/json.js';
import { getOwn, isObject } from '../util/json.js';
import { admit, type Admission } from './admission.js';
import { ArgumentsChecker } from './arguments.js';
import type { Message } from './client-stdio.js';
import type { DecisionLog } from './decision-log.js';

/** One side of the relay: send a message, get told of messages. */
export interface Endpoint {
  send(m: Message): void | Promise<void>;
}

/** Why a call was refused, as `structuredContent.error` says it. */
export type Refusal = 'tool_not_allowed' | 'tool_drifted' | 'invalid_arguments' | 'result_too_large';

/** Everything the relay needs. */
export interface ProxyOptions {
  contract: Surface;
  runtime: RuntimePolicy;
  log: DecisionLog;
  /** How long the proxy waits for the server to answer its own `tools/list` (ms). */
  requestTimeoutMs: number;
  /** Bounds of one listing of the server, as the source's (pages, bytes of the pages' results). */
  listLimits: { maxPages: number; maxBytes: number };
  /**
   * Told the protocol version the server answered `initialize` with (a Streamable HTTP transport
   * sends it as a header on every later request).
   */
  onProtocolVersion?: (version: string) => void;
}

/** The relay between one client and one server. */
export class Proxy {
  private readonly nonce = randomBytes(6).toString('hex');
  private seq = 0;
  /** The proxy's own requests to the server, by {@link idKey} of their ids. */
  private readonly own = new Map<string, { resolve: (m: Message) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  /**
   * Client requests forwarded to the server and not answered yet, by {@link idKey}: the tool for a
   * call (its result is measured), '' otherwise. Only an answer to one of these reaches the
   * client, once: a server cannot answer what the client never asked it (a `tools/list` the
   * proxy answers itself) or answer twice.
   */
  private readonly forwarded = new Map<string, string>();
  /** Client messages are judged in the order they came (a cancel never overtakes its call). */
  private queue: Promise<void> = Promise.resolve();
  private admission: Admission | undefined;
  /** The id of the client's `initialize`, until the server answers it. */
  private initializeId: string | undefined;
  private listing: Promise<Admission> | undefined;
  /** The listing that runs after the current one, shared by everyone who asked meanwhile. */
  private queued: Promise<Admission> | undefined;
  /** The admitted set the client was last shown or told of (admittedKey), to tell it of changes once. */
  private announced: string | undefined;
  /** The server's `tools/list` result keys besides the tools and the cursor (see listAll). */
  private resultKeys: Record<string, Json> = {};
  private readonly checker = new ArgumentsChecker();

  constructor(
    private readonly client: Endpoint,
    private readonly server: Endpoint,
    private readonly opts: ProxyOptions,
  ) {}

  /**
   * A message from the client. Requests and notifications are handled in the order they came;
   * answers to the server's own requests (sampling, elicitation, roots) go on at once, since the
   * server may wait for one before it answers anything.
   */
  fromClient(m: Message): Promise<void> {
    if (typeof m.method !== 'string') return this.forward(m);
    this.queue = this.queue.then(() => this.handleClient(m)).catch(() => undefined);
    return this.queue;
  }

  private async handleClient(m: Message): Promise<void> {
    const method = m.method as string;
    const hasId = 'id' in m && m.id !== undefined;
    const key = idKey(m.id);
    if (method === 'tools/list' || method === 'tools/call') {
      // Only a request with a string or number id is judged and answered. A notification (no id)
      // or a null id cannot be answered, so it is not a call: dropped, never sent on.
      if (key === undefined) {
        this.opts.log.write({ event: 'call', decision: 'dropped', reason: 'no-request-id', detail: `${method} without a string or number id` });
        if (hasId)
          await this.client.send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `toolgate proxy: ${method} needs a string or number id` } });
        return;
      }
    }
    if (hasId) {
      // JSON-RPC ids are strings or numbers, one request at a time each: anything else could not
      // be matched to its answer.
      if (key === undefined || this.forwarded.has(key)) {
        this.opts.log.write({
          event: 'upstream',
          decision: 'dropped',
          reason: 'bad-request-id',
          detail: `${method} with ${key === undefined ? 'an id that is no string or number' : 'the id of a request still pending'}`,
        });
        await this.client.send({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `toolgate proxy: ${method} needs a string or number id that no pending request has` },
        });
        return;
      }
    }
    if (method === 'tools/list') return this.answerList(m);
    if (method === 'tools/call') return this.decideCall(m);
    if (hasId && method === 'initialize') this.initializeId = key;
    if (key !== undefined) this.forwarded.set(key, '');
    await this.forward(m);
  }

  /** Sends a client message on; a request the server cannot be reached for is answered with an error. */
  private async forward(m: Message): Promise<void> {
    try {
      await this.server.send(m);
    } catch (e) {
      if (typeof m.method === 'string' && 'id' in m && m.id !== undefined) {
        this.forwarded.delete(idKey(m.id) ?? '');
        await this.client.send({
          jsonrpc: '2.0',
          id: m.id,
          error: { code: -32603, message: `toolgate proxy: the server could not be reached: ${(e as Error).message.slice(0, 300)}` },
        });
      }
      this.opts.log.write({ event: 'upstream', decision: 'error', detail: (e as Error).message.slice(0, 300) });
    }
  }

  /** A message from the server. */
  async fromServer(m: Message): Promise<void> {
    const id = idKey(m.id);
    const isAnswer = !('method' in m);
    const mine = isAnswer && id !== undefined ? this.own.get(id) : undefined;
    if (mine) {
      this.own.delete(id as string);
      clearTimeout(mine.timer);
      mine.resolve(m);
      return;
    }
    if (m.method === 'notifications/tools/list_changed') return this.onListChanged(m);
    if (isAnswer) {
      const tool = id === undefined ? undefined : this.forwarded.get(id);
      if (tool === undefined) {
        // No pending request of the client has this id (type included): unsolicited, or a second answer.
        this.opts.log.write({
          event: 'upstream',
          decision: 'dropped',
          reason: 'unsolicited-answer',
          detail: `an answer with id ${JSON.stringify(m.id) ?? 'undefined'} that no pending client request has`,
        });
        return;
      }
      this.forwarded.delete(id as string);
      if (id === this.initializeId) {
        this.initializeId = undefined;
        const version = isObject(m.result) ? getOwn(m.result, 'protocolVersion') : undefined;
        if (typeof version === 'string') this.opts.onProtocolVersion?.(version);
      }
      return this.client.send(tool === '' ? m : this.boundResult(m, tool));
    }
    await this.client.send(m);
  }

  /** Rejects the proxy's own pending requests (the server is gone). */
  close(reason: string): void {
    for (const [id, p] of this.own) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      this.own.delete(id);
    }
  }

  // -------------------------------------------------------------------------------------------
  // List time

  private async answerList(m: Message): Promise<void> {
    let a: Admission;
    try {
      a = await this.relist();
    } catch (e) {
      // Fail closed: nothing is admitted until a listing succeeds.
      this.admission = { tools: new Map(), decisions: [] };
      return this.client.send({
        jsonrpc: '2.0',
        id: m.id,
        error: { code: -32603, message: `toolgate proxy: could not list the server's tools: ${(e as Error).message}` },
      });
    }
    if (a.tools.size === 0) {
      const why = summarize(a);
      return this.client.send({
        jsonrpc: '2.0',
        id: m.id,
        error: { code: -32603, message: `toolgate proxy: no tool of this server is admitted by the contract and the runtime policy (${why})` },
      });
    }
    this.announced = admittedKey(a);
    await this.client.send({ jsonrpc: '2.0', id: m.id, result: { ...this.resultKeys, tools: [...a.tools.values()].map((t) => t.listed) } });
  }

  /**
   * Lists the server (every page) and decides admission. Callers while a listing runs share one
   * more listing after it (it may have been answered before the change they heard of): a flood of
   * `list_changed` costs at most two listings at a time, never one each.
   */
  private relist(): Promise<Admission> {
    if (this.listing) {
      this.queued ??= this.listing
        .catch(() => undefined)
        .then(() => {
          this.queued = undefined;
          return this.relist();
        });
      return this.queued;
    }
    this.listing = this.listAll()
      .then((tools) => {
        const a = admit(tools, this.opts.contract, this.opts.runtime);
        for (const d of a.decisions)
          this.opts.log.write({
            event: 'list',
            ...(d.tool !== undefined ? { tool: d.tool } : {}),
            decision: d.admitted ? 'admitted' : 'hidden',
            reason: d.reason,
          });
        this.admission = a;
        return a;
      })
      .finally(() => (this.listing = undefined));
    return this.listing;
  }

  /**
   * Every page of the server's `tools/list`, concatenated. The last page's other result keys
   * (`_meta`; the 2026-07-28 era's `resultType`, `ttlMs`, `cacheScope`) are kept in
   * {@link resultKeys} for the answer to the client.
   */
  private async listAll(): Promise<Json[]> {
    const { maxPages, maxBytes } = this.opts.listLimits;
    const tools: Json[] = [];
    let bytes = 0;
    let cursor: string | undefined;
    for (let page = 0; page < maxPages; page++) {
      const r = await this.request('tools/list', cursor === undefined ? {} : { cursor });
      if (isObject(r.error)) throw new Error(`tools/list answered an error: ${JSON.stringify(getOwn(r.error, 'message') ?? null).slice(0, 300)}`);
      const result = r.result;
      // Bounded like a snapshot's listing: a server that pages forever or sends gigabytes is cut.
      bytes += Buffer.byteLength(JSON.stringify(result ?? null));
      if (bytes > maxBytes) throw new Error(`tools/list pages exceeded ${maxBytes} bytes`);
      const list = isObject(result) ? getOwn(result, 'tools') : undefined;
      if (!Array.isArray(list)) throw new Error('tools/list answered no tools array');
      for (const t of list) tools.push(t);
      const next = isObject(result) ? getOwn(result, 'nextCursor') : undefined;
      if (typeof next !== 'string') {
        this.resultKeys = Object.fromEntries(Object.entries(result as Record<string, Json>).filter(([k]) => k !== 'tools' && k !== 'nextCursor'));
        return tools;
      }
      cursor = next;
    }
    throw new Error(`tools/list paged more than ${maxPages} times`);
  }

  private request(method: string, params: Record<string, Json>): Promise<Message> {
    const id = `toolgate-proxy:${this.nonce}:${++this.seq}`;
    const key = idKey(id) as string;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.own.delete(key);
        reject(new Error(`no answer to ${method} within ${this.opts.requestTimeoutMs} ms`));
      }, this.opts.requestTimeoutMs);
      this.own.set(key, { resolve, reject, timer });
      Promise.resolve(this.server.send({ jsonrpc: '2.0', id, method, params })).catch((e: Error) => {
        clearTimeout(timer);
        this.own.delete(key);
        reject(e);
      });
    });
  }

  private async onListChanged(m: Message): Promise<void> {
    let now: string;
    try {
      now = admittedKey(await this.relist());
    } catch {
      // Could not list: admit nothing until a listing succeeds, and tell the client to list.
      this.admission = { tools: new Map(), decisions: [] };
      now = admittedKey(this.admission);
    }
    // Told once per change of the admitted set, however many notifications announced it.
    if (this.announced === now) return;
    this.announced = now;
    await this.client.send(m);
  }

  // -------------------------------------------------------------------------------------------
  // Call time

  private async decideCall(m: Message): Promise<void> {
    const params = isObject(m.params) ? m.params : {};
    const name = getOwn(params, 'name');
    const args = getOwn(params, 'arguments');
    if (typeof name !== 'string') return this.refuse(m, undefined, 'invalid_arguments', 'tools/call needs a string `name`', args);
    if (getOwn(params, 'task') !== undefined) {
      // A task-augmented call answers later through tasks/result, which the proxy does not bound.
      return this.refuse(m, name, 'invalid_arguments', 'task-augmented tools/call is not supported through the proxy', args);
    }
    // Admitted *now*: the listing under way (after a list_changed), else the last one, else a new one.
    let a = this.listing || this.queued ? undefined : this.admission;
    if (!a) {
      try {
        a = await this.relist();
      } catch (e) {
        return this.refuse(m, name, 'tool_not_allowed', `the server's tools could not be listed: ${(e as Error).message}`, args);
      }
    }
    const admitted = a.tools.get(name);
    if (!admitted) {
      const d = a.decisions.find((x) => x.tool === name);
      const drifted = d?.reason === 'drifted' || d?.reason === 'refuse-all';
      return this.refuse(
        m,
        name,
        drifted ? 'tool_drifted' : 'tool_not_allowed',
        d ? `tool "${name}" is not admitted: ${d.reason}` : `tool "${name}" is not listed by the server`,
        args,
      );
    }
    const verdict = this.checker.check(admitted.pinned, args);
    if (!verdict.ok) return this.refuse(m, name, 'invalid_arguments', verdict.detail, args);
    this.forwarded.set(idKey(m.id) as string, name);
    this.opts.log.write({ event: 'call', tool: name, decision: 'forwarded' }, args ?? {});
    await this.forward(m);
  }

  private async refuse(m: Message, tool: string | undefined, error: Refusal, detail: string, args: unknown): Promise<void> {
    this.opts.log.write({ event: 'call', ...(tool !== undefined ? { tool } : {}), decision: 'refused', reason: error, detail }, args ?? {});
    await this.client.send({ jsonrpc: '2.0', id: m.id, result: refusalResult(error, detail) });
  }

  /** The server's answer to a call, or an error result in its place when it is too large. */
  private boundResult(m: Message, tool: string): Message {
    const bytes = Buffer.byteLength(JSON.stringify(m.result ?? m.error ?? null));
    if (bytes <= this.opts.runtime.maxResultBytes) return m;
    const detail = `the result of tool "${tool}" is ${bytes} bytes, over runtime.max-result-bytes (${this.opts.runtime.maxResultBytes})`;
    this.opts.log.write({ event: 'result', tool, decision: 'refused', reason: 'result_too_large', detail });
    return { jsonrpc: '2.0', id: m.id, result: refusalResult('result_too_large', detail) };
  }
}

/** A tool error result the client's model can read, and code can branch on. */
export function refusalResult(error: Refusal, detail: string): Json {
  return {
    content: [{ type: 'text', text: `toolgate refused this call (${error}): ${detail}` }],
    structuredContent: { ok: false, error, detail },
    isError: true,
  };
}

/** A JSON-RPC id as a map key (numbers and strings kept apart), or undefined. */
function idKey(id: unknown): string | undefined {
  return typeof id === 'string' ? `s:${id}` : typeof id === 'number' ? `n:${id}` : undefined;
}

function admittedKey(a: Admission): string {
  return JSON.stringify([...a.tools.keys()].sort());
}

/** "3 not-in-contract, 1 drifted": why nothing was admitted. */
function summarize(a: Admission): string {
  if (a.decisions.length === 0) return 'the server lists no tools';
  const n = new Map<string, number>();
  for (const d of a.decisions) n.set(d.reason, (n.get(d.reason) ?? 0) + 1);
  return [...n].map(([r, k]) => `${k} ${r}`).join(', ');
}
