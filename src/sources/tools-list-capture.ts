/**
 * Raw `tools/list` results, captured at the transport.
 *
 * On a 2026-07-28 connection the SDK (2.4) decodes each `tools/list` result with its own era
 * codec, which validates every tool before the caller's schema runs: one malformed tool rejects
 * the whole page, and toolgate could not pin the rest or name the bad tool (`malformed-tool`).
 * So we keep the raw `result` of each response to a `tools/list` request we sent; when the SDK
 * rejects a page that the server did deliver, the listing goes on with the raw page.
 *
 * The transport object is patched in place (its `send` and `onmessage`), not wrapped, so the
 * SDK still sees its own transport class.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

type Id = string | number;

/** Captured results by request id; see the module comment. */
export interface ToolsListCapture {
  /** The raw `result` of the response to `tools/list` request `id`, once (undefined if none came). */
  take(id: Id): unknown;
  /** Id of the last `tools/list` request sent, if any. */
  readonly lastRequestId: Id | undefined;
}

/**
 * Starts capturing on `transport`. Call before `client.connect(transport)`: the SDK sets
 * `onmessage` when it connects, and the capture must see that assignment.
 */
export function captureToolsList(transport: Transport): ToolsListCapture {
  const asked = new Set<Id>();
  const results = new Map<Id, unknown>();
  let lastRequestId: Id | undefined;
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'tools/list' && 'id' in message) {
      asked.add(message.id);
      lastRequestId = message.id;
    }
    return send(message, options);
  };
  tap(transport, 'onmessage', (message) => {
    const m = message as JSONRPCMessage & { id?: Id; result?: unknown };
    if (m.id !== undefined && 'result' in m && asked.delete(m.id)) results.set(m.id, m.result);
  });
  return {
    take(id) {
      const r = results.get(id);
      results.delete(id);
      return r;
    },
    get lastRequestId() {
      return lastRequestId;
    },
  };
}

/**
 * Calls `onBad` when the transport reports a message it could not parse (`SyntaxError` from
 * `JSON.parse`, or a failed JSON-RPC shape check). The SDK's HTTP transports report such an SSE
 * event through `onerror` and drop it, so the request it answered would otherwise wait for its
 * timeout. Patched in place like {@link captureToolsList}; call before `client.connect`.
 */
export function onUnparsableMessage(transport: Transport, onBad: (error: Error) => void): void {
  tap(transport, 'onerror', (error) => {
    if (error instanceof SyntaxError || error?.name === 'ZodError' || error?.name === '$ZodError') onBad(error);
  });
}

/** Most requests from the server that may wait for toolgate's answer to be delivered. */
export const MAX_UNANSWERED_SERVER_REQUESTS = 10_000;
/** Most requests and notifications a server may send on one connection. */
export const MAX_SERVER_MESSAGES = 100_000;

/**
 * Bounds what a server can make toolgate queue. Each request the server sends (a `ping`,
 * `roots/list`...) gets an answer that waits in memory until it is delivered; a server that sends
 * requests without reading the answers (2 million pings, stdin never read) would grow toolgate
 * without limit. `onFlood` is called once, with what happened, when more than
 * {@link MAX_UNANSWERED_SERVER_REQUESTS} answers wait for delivery, or when the server has sent
 * more than {@link MAX_SERVER_MESSAGES} requests and notifications in all (no listing needs that
 * many; a server that reads its answers would otherwise keep toolgate busy until the total
 * timeout). Patched in place like {@link captureToolsList}; call before `client.connect`.
 */
export function guardFlood(
  transport: Transport,
  onFlood: (message: string) => void,
  limits: { unanswered: number; messages: number } = { unanswered: MAX_UNANSWERED_SERVER_REQUESTS, messages: MAX_SERVER_MESSAGES },
): void {
  /** Ids of server requests whose answer is not delivered yet. */
  const waiting = new Set<Id>();
  let requests = 0;
  let notifications = 0;
  let flooded = false;
  const flood = (message: string) => {
    if (flooded) return;
    flooded = true;
    waiting.clear();
    onFlood(message);
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const m = message as { id?: Id; method?: unknown };
    if (m.method !== undefined || m.id === undefined || !waiting.has(m.id)) return send(message, options);
    const id = m.id;
    return send(message, options).finally(() => waiting.delete(id));
  };
  tap(transport, 'onmessage', (message) => {
    if (flooded) return;
    const m = message as { id?: unknown; method?: unknown };
    if (typeof m.method !== 'string') return;
    if (m.id === undefined) notifications++;
    else {
      requests++;
      if (typeof m.id === 'string' || typeof m.id === 'number') waiting.add(m.id);
    }
    if (waiting.size > limits.unanswered) {
      flood(
        `flooded toolgate with requests: it sent ${requests}, and more than ${limits.unanswered} of toolgate's answers are waiting because the server does not read them as fast as it sends (at most ${limits.unanswered} may wait)`,
      );
    } else if (requests + notifications > limits.messages) {
      flood(`flooded toolgate with ${requests} requests and ${notifications} notifications (at most ${limits.messages} per connection)`);
    }
  });
}

/**
 * Makes `transport[key]` (a callback the SDK assigns on connect) call `see` with the same
 * arguments first. While nothing is assigned the property reads as undefined, as before. Taps
 * stack: an earlier tap's `see` runs first, then this one's, then the handler.
 */
function tap<K extends 'onmessage' | 'onerror'>(transport: Transport, key: K, see: (...args: Parameters<NonNullable<Transport[K]>>) => void): void {
  type Handler = (...a: Parameters<NonNullable<Transport[K]>>) => void;
  const prev = Object.getOwnPropertyDescriptor(transport, key);
  let own: Transport[K] | undefined;
  // Under an earlier tap (an accessor), hand it the wrapped handler; else keep it here.
  const lower = prev?.set
    ? { get: () => prev.get?.call(transport) as Transport[K] | undefined, set: (h: Transport[K] | undefined) => void prev.set!.call(transport, h) }
    : { get: () => own, set: (h: Transport[K] | undefined) => void (own = h) };
  const assigned = prev && !prev.set ? (prev.value as Transport[K] | undefined) : undefined;
  Object.defineProperty(transport, key, {
    configurable: true,
    enumerable: true,
    get: () => lower.get(),
    set: (h: Transport[K] | undefined) => {
      if (!h) return lower.set(h);
      const wrapped: Handler = (...args) => {
        see(...args);
        (h as Handler)(...args);
      };
      lower.set(wrapped as Transport[K]);
    },
  });
  if (assigned) transport[key] = assigned;
}
