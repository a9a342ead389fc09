/**
 * The relay's wiring: a {@link Relay} between the client's side and the server's side, whatever
 * transports they are (`toolgate proxy`: this process's stdio and a started server; tests: the
 * SDK's in-memory transports with a real client and server at the other ends).
 */
import type { Message } from './client-stdio.js';
import { Relay, type RelayOptions } from './proxy.js';

/**
 * One side of the relay, not started yet: an SDK `Transport`, or {@link ClientStdio}. Messages
 * pass as parsed JSON objects, untouched.
 */
export interface RelaySide {
  start(): void | Promise<void>;
  send(m: Message): void | Promise<void>;
  onmessage?(m: Message): void;
  onclose?(): void;
  onerror?(error: Error): void;
}

/** The side whose closing ended the relay. */
export type RelayEnd = 'client' | 'server';

/**
 * Relays between `client` and `server` until one of them closes: a {@link Relay} gets every
 * message of both, the server's side is started, then the client's. Errors of the server's side
 * and of the relay go to the decision log. Resolves with the side that closed first, once the
 * proxy's own pending requests are rejected; closes neither side.
 * @throws what starting either side throws.
 */
export async function runRelay(client: RelaySide, server: RelaySide, opts: RelayOptions): Promise<RelayEnd> {
  const relay = new Relay(client, server, opts);
  const relayErr = (e: unknown) => opts.log.write({ event: 'upstream', decision: 'error', detail: (e as Error).message });
  server.onmessage = (m) => void relay.fromServer(m).catch(relayErr);
  server.onerror = (e) => opts.log.write({ event: 'upstream', decision: 'error', detail: e.message.slice(0, 300) });
  client.onmessage = (m) => void relay.fromClient(m).catch(relayErr);
  await server.start();
  let ended: RelayEnd | undefined;
  try {
    ended = await new Promise<RelayEnd>((done, fail) => {
      client.onclose = () => done('client');
      server.onclose = () => done('server');
      Promise.resolve(client.start()).catch(fail);
    });
    return ended;
  } finally {
    relay.close(ended === 'client' ? 'the client closed the connection' : ended === 'server' ? 'the server ended' : "the client's side did not start");
  }
}
