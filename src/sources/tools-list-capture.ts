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

/**
 * Makes `transport[key]` (a callback the SDK assigns on connect) call `see` with the same
 * arguments first. While nothing is assigned the property reads as undefined, as before.
 */
function tap<K extends 'onmessage' | 'onerror'>(transport: Transport, key: K, see: (...args: Parameters<NonNullable<Transport[K]>>) => void): void {
  let handler: Transport[K];
  const wrapped = (...args: Parameters<NonNullable<Transport[K]>>) => {
    see(...args);
    (handler as ((...a: Parameters<NonNullable<Transport[K]>>) => void) | undefined)?.(...args);
  };
  Object.defineProperty(transport, key, {
    configurable: true,
    enumerable: true,
    get: () => (handler ? wrapped : undefined),
    set: (h: Transport[K]) => {
      handler = h;
    },
  });
}
