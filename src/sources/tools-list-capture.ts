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
  let handler: Transport['onmessage'];
  const onmessage: NonNullable<Transport['onmessage']> = (message, extra) => {
    const m = message as JSONRPCMessage & { id?: Id; result?: unknown };
    if (m.id !== undefined && 'result' in m && asked.delete(m.id)) results.set(m.id, m.result);
    handler?.(message, extra);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => (handler ? onmessage : undefined),
    set: (h: Transport['onmessage']) => {
      handler = h;
    },
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
  let handler: Transport['onerror'];
  const onerror = (error: Error) => {
    if (error instanceof SyntaxError || error?.name === 'ZodError' || error?.name === '$ZodError') onBad(error);
    handler?.(error);
  };
  Object.defineProperty(transport, 'onerror', {
    configurable: true,
    enumerable: true,
    get: () => (handler ? onerror : undefined),
    set: (h: Transport['onerror']) => {
      handler = h;
    },
  });
}
