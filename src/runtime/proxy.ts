/**
 * `toolgate proxy` (docs/design.md §11): an MCP server to the client and a client to the real server,
 * relaying JSON-RPC messages unchanged in both directions except where the contract is enforced:
 *
 * - `tools/list` from the client is answered by the proxy: it lists the server itself (every
 *   page, under its own request ids) and returns the admitted tools in one page, exactly as the
 *   server listed them (admission.ts). No admitted tool is a JSON-RPC error, not an empty list.
 * - `tools/call` goes to the server only when the tool is admitted now and its arguments pass the
 *   pinned inputSchema (arguments.ts); otherwise the proxy answers with a tool error result
 *   ({@link refusalResult}). A result larger than `runtime.max-result-bytes` is replaced by one.
 * - `notifications/tools/list_changed` from the server makes the proxy list again; it is passed on
 *   only when the admitted set changed.
 * - Any other method passes only when it is one the client may send in the session's protocol
 *   version, or `runtime.pass-methods` names it (methods.ts); an unknown request is answered
 *   "method not found", an unknown notification dropped, and a variant of `tools/call` or
 *   `tools/list` (case, spaces, look-alike letters) is never forwarded.
 *
 * Everything else (ids, progress, cancellation, resources, prompts, sampling, elicitation, roots,
 * pings, `_meta`, the client's answers to the server's requests) passes through as sent. Every
 * refused message gets an answer when it has an id, and a decision-log line. The relay holds no
 * protocol state besides the ids of the requests it must answer or inspect and the protocol
 * version the server answered `initialize` with.
 */
import { randomBytes } from 'node:crypto';
import type { RuntimePolicy } from '../config/policy-model.js';
import type { Surface } from '../surface/model.js';
import type { Json } from '../util/json.js';
import { getOwn, isObject } from '../util/json.js';
import { relayAsRead, wireText } from '../util/wire-text.js';
import { admit, type Admission } from './admission.js';
import { ArgumentsChecker } from './arguments.js';
import { usableId, type Message } from './client-stdio.js';
import type { DecisionLog } from './decision-log.js';
import { MethodGate } from './methods.js';

/** One side of the relay: send a message, get told of messages. */
export interface Endpoint {
  send(m: Message): void | Promise<void>;
}

/** Why a call was refused, as `structuredContent.error` says it. */
export type Refusal = 'tool_not_allowed' | 'tool_drifted' | 'invalid_arguments' | 'result_too_large';

/** Everything the relay needs. */
export interface RelayOptions {
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
export class Relay {
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
  private readonly methods: MethodGate;
  /** The protocol version the server answered `initialize` with (none in the 2026-07-28 era). */
  private era: string | undefined;
  /**
   * Names of tools that declare an `outputSchema`, pinned or in any listing of the server: a
   * refusal of a call to one carries no `structuredContent` (see {@link refusalResult}).
   */
  private readonly declaresOutput = new Set<string>();

  /** @throws Error when `runtime.pass-methods` names a method the proxy judges (methods.ts). */
  constructor(
    private readonly client: Endpoint,
    private readonly server: Endpoint,
    private readonly opts: RelayOptions,
  ) {
    this.methods = new MethodGate(opts.runtime.passMethods);
    for (const t of opts.contract.tools) if (t.outputSchema !== undefined) this.declaresOutput.add(t.name);
  }

  /**
   * A message from the client. Requests and notifications are handled in the order they came;
   * answers to the server's own requests (sampling, elicitation, roots) go on at once, since the
   * server may wait for one before it answers anything.
   */
  fromClient(m: Message): Promise<void> {
    if (!('method' in m) && ('result' in m || 'error' in m) && idKey(m.id) !== undefined) return this.forward(m);
    this.queue = this.queue.then(() => this.handleClient(m)).catch(() => undefined);
    return this.queue;
  }

  /** Judges one client request or notification; whatever goes wrong, a request is answered and logged. */
  private async handleClient(m: Message): Promise<void> {
    try {
      await this.judgeClient(m);
    } catch (e) {
      const method = typeof m.method === 'string' ? m.method : undefined;
      const detail = `the proxy could not judge this message, so it is not forwarded: ${(e as Error).message}`;
      this.opts.log.write({ event: 'request', ...(method !== undefined ? { method } : {}), decision: 'refused', reason: 'internal-error', detail });
      if ('id' in m) await this.answerError(m, -32603, detail);
    }
  }

  private async judgeClient(m: Message): Promise<void> {
    if (typeof m.method !== 'string') {
      // An answer is never answered: one whose id cannot be matched is dropped.
      if (!('method' in m) && ('result' in m || 'error' in m))
        return this.opts.log.write({
          event: 'request',
          decision: 'dropped',
          reason: 'invalid-answer',
          detail: 'an answer whose id is no string or safe integer',
        });
      return this.refuseMessage(m, 'invalid-request', -32600, invalidRequest(m));
    }
    const method = m.method;
    const hasId = 'id' in m && m.id !== undefined;
    const key = idKey(m.id);
    if (method === 'tools/list' || method === 'tools/call') {
      // Only a request with a string or number id is judged and answered. A notification (no id)
      // or a null id cannot be answered, so it is not a call: dropped, never sent on.
      if (key === undefined) {
        this.opts.log.write({ event: 'call', decision: 'dropped', reason: 'no-request-id', detail: `${method} without a string or number id` });
        if (hasId)
          await this.sendToClient({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `toolgate proxy: ${method} needs a string or number id` } });
        return;
      }
    } else {
      const refused = this.methods.judge(method, hasId, this.era);
      if (refused) return this.refuseMessage(m, refused.reason, -32601, refused.message);
    }
    if (hasId) {
      // JSON-RPC ids are strings or numbers, one request at a time each: anything else could not
      // be matched to its answer.
      if (key === undefined || this.forwarded.has(key)) {
        this.opts.log.write({
          event: 'upstream',
          decision: 'dropped',
          reason: 'bad-request-id',
          detail: `${method.slice(0, 200)} with ${key === undefined ? 'an id that is no string or safe integer' : 'the id of a request still pending'}`,
        });
        await this.sendToClient({
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: `toolgate proxy: ${method.slice(0, 200)} needs a string or integer id that no pending request has` },
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

  /**
   * A client message refused for what it is (its method or its form): a decision-log line, and
   * for a request a JSON-RPC error under its id (`null` when the id is not usable).
   */
  private async refuseMessage(m: Message, reason: string, code: number, detail: string): Promise<void> {
    const request = 'id' in m;
    const method = typeof m.method === 'string' ? m.method : undefined;
    this.opts.log.write({ event: 'request', ...(method !== undefined ? { method } : {}), decision: request ? 'refused' : 'dropped', reason, detail });
    if (request) await this.answerError(m, code, detail);
  }

  private answerError(m: Message, code: number, detail: string): Promise<void> {
    return this.sendToClient({ jsonrpc: '2.0', id: usableId(m.id) ?? null, error: { code, message: `toolgate proxy: ${detail}` } });
  }

  /**
   * Sends to the client. A message the client's side cannot write (nested deeper than
   * `JSON.stringify` goes) is replaced, when it answers a request, by an error under its id.
   */
  private async sendToClient(m: Message): Promise<void> {
    try {
      await this.client.send(m);
    } catch (e) {
      const detail = `a message for the client could not be written: ${(e as Error).message.slice(0, 300)}`;
      this.opts.log.write({ event: 'upstream', decision: 'error', detail });
      if (!('id' in m) || 'method' in m) return;
      try {
        await this.client.send({ jsonrpc: '2.0', id: usableId(m.id) ?? null, error: { code: -32603, message: `toolgate proxy: ${detail}` } });
      } catch {
        // The client's side is gone: nothing is left to tell.
      }
    }
  }

  /** Sends a client message on; a request that cannot be sent to the server is answered with an error. */
  private async forward(m: Message): Promise<void> {
    try {
      await this.server.send(m);
    } catch (e) {
      if (typeof m.method === 'string' && 'id' in m && m.id !== undefined) {
        this.forwarded.delete(idKey(m.id) ?? '');
        await this.answerError(m, -32603, `the request could not be sent to the server: ${(e as Error).message.slice(0, 300)}`);
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
          detail: `an answer with id ${usableId(m.id) !== undefined ? JSON.stringify(m.id).slice(0, 200) : `of type ${m.id === null ? 'null' : typeof m.id}`} that no pending client request has`,
        });
        return;
      }
      this.forwarded.delete(id as string);
      if (id === this.initializeId) {
        this.initializeId = undefined;
        const version = isObject(m.result) ? getOwn(m.result, 'protocolVersion') : undefined;
        if (typeof version === 'string') {
          this.era = version;
          this.opts.onProtocolVersion?.(version);
        }
      }
      return this.sendToClient(tool === '' ? m : this.boundResult(m, tool));
    }
    await this.sendToClient(m);
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
      return this.sendToClient({
        jsonrpc: '2.0',
        id: m.id,
        error: { code: -32603, message: `toolgate proxy: could not list the server's tools: ${(e as Error).message}` },
      });
    }
    if (a.tools.size === 0) {
      const why = summarize(a);
      return this.sendToClient({
        jsonrpc: '2.0',
        id: m.id,
        error: { code: -32603, message: `toolgate proxy: no tool of this server is admitted by the contract and the runtime policy (${why})` },
      });
    }
    this.announced = admittedKey(a);
    await this.sendToClient({ jsonrpc: '2.0', id: m.id, result: { ...this.resultKeys, tools: [...a.tools.values()].map((t) => t.listed) } });
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
      for (const t of list) {
        tools.push(t);
        const name = isObject(t) ? getOwn(t, 'name') : undefined;
        if (typeof name === 'string' && getOwn(t as Record<string, Json>, 'outputSchema') !== undefined) this.declaresOutput.add(name);
      }
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
    await this.sendToClient(m);
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
    await this.sendToClient({ jsonrpc: '2.0', id: m.id, result: this.refusal(tool, error, detail) });
  }

  /** A refusal for a call to `tool`, shaped for what the client may know of the tool. */
  private refusal(tool: string | undefined, error: Refusal, detail: string): Json {
    return refusalResult(error, detail, { structured: tool === undefined || !this.declaresOutput.has(tool), era: this.era });
  }

  /**
   * The server's answer to a call, or an error result in its place when it is too large (or, when
   * it is not written on as read, nested too deep to be serialized).
   */
  private boundResult(m: Message, tool: string): Message {
    const limit = this.opts.runtime.maxResultBytes;
    // Written on as the server wrote it when every parser reads its id alike and the whole line is
    // within the limit: no second serialization of a large result (util/wire-text.ts).
    if (relayAsRead(m, limit) !== undefined) return m;
    let bytes: number | undefined;
    try {
      // The result is part of the answer's text, so an answer within the limit holds a result
      // within it; that text is the one the client's side writes. Only a larger answer has its
      // result measured alone.
      bytes = Buffer.byteLength(wireText(m));
      if (bytes > limit) bytes = Buffer.byteLength(JSON.stringify(m.result ?? m.error ?? null));
    } catch {
      bytes = undefined;
    }
    if (bytes !== undefined && bytes <= limit) return m;
    const detail =
      bytes === undefined
        ? `the result of tool "${tool}" is nested too deep to be measured or relayed (runtime.max-result-bytes ${limit})`
        : `the result of tool "${tool}" is ${bytes} bytes, over runtime.max-result-bytes (${limit})`;
    this.opts.log.write({ event: 'result', tool, decision: 'refused', reason: 'result_too_large', detail });
    return { jsonrpc: '2.0', id: m.id, result: this.refusal(tool, 'result_too_large', detail) };
  }
}

/** The `_meta` key of a refusal, under a prefix of toolgate's own (MCP `_meta` key names: reverse DNS, then `/`). */
const REFUSAL_META_KEY = 'io.github.toolgate/refusal';

/**
 * A tool error result (`isError: true`) that every client shows as toolgate's reason: the text
 * content says `toolgate refused this call (<error>): <detail>`, and `_meta`
 * ({@link REFUSAL_META_KEY}) carries `{error, detail}` for code to branch on.
 *
 * `structuredContent: {ok: false, error, detail}` is added only when `structured` is true, i.e.
 * when no definition of the tool the proxy knows (pinned, or listed by the server) declares an
 * `outputSchema`: the SDK 1.x client validates any `structuredContent` against the output schema
 * it was shown, `isError` or not, and would replace the reason with "-32602 Structured content
 * does not match the tool's output schema"; and the MCP spec asks a tool with an output schema
 * for structured results that conform to it. `resultType: "complete"` is added outside the
 * `initialize` eras (2026-07-28 requires it on every result; earlier clients ignore it).
 */
export function refusalResult(error: Refusal, detail: string, shape: { structured: boolean; era: string | undefined }): Json {
  return {
    content: [{ type: 'text', text: `toolgate refused this call (${error}): ${detail}` }],
    ...(shape.structured ? { structuredContent: { ok: false, error, detail } } : {}),
    isError: true,
    _meta: { [REFUSAL_META_KEY]: { error, detail } },
    ...(shape.era === undefined || shape.era >= '2026-07-28' ? { resultType: 'complete' } : {}),
  };
}

/** A JSON-RPC id as a map key (numbers and strings kept apart), or undefined when it is not usable ({@link usableId}). */
function idKey(id: unknown): string | undefined {
  const usable = usableId(id);
  return typeof usable === 'string' ? `s:${usable}` : typeof usable === 'number' ? `n:${usable}` : undefined;
}

/** Why a client message without a string method is no request, notification or answer. */
function invalidRequest(m: Message): string {
  if ('method' in m)
    return `invalid request: "method" must be a string, not ${m.method === null ? 'null' : Array.isArray(m.method) ? 'an array' : typeof m.method}`;
  return 'invalid request: a message needs a "method" (a request or notification) or a "result" or "error" (an answer)';
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
