/**
 * Loopback HTTP receivers for advice delivery tests: each listens on 127.0.0.1 port 0, records
 * every request (method, path, headers, full body) and answers with a switchable behaviour.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** Answers one request; `hit` is 1 for the first request this receiver ever saw. */
export type ReceiverHandler = (res: ServerResponse, req: IncomingMessage, hit: number) => void;

export interface Receiver {
  /** URL to configure as an http transport (a path per receiver keeps logs readable). */
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** Replaces how the next requests are answered. */
  handle(handler: ReceiverHandler): void;
  /** Resolves once `count` requests have arrived (complete bodies). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets what was received (the hit counter goes on). */
  clear(): void;
  close(): Promise<void>;
}

/** Answers with `status` and a plain-text body. */
export const respond =
  (status: number, body = '', headers: Record<string, string> = {}): ReceiverHandler =>
  (res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };

export const ok = respond(200, 'ok');

/** Never answers: the request stays open until the client gives up or the receiver closes. */
export const hang: ReceiverHandler = () => {};

/** Resets the TCP connection (RST) without answering. */
export const reset: ReceiverHandler = (res) => {
  res.socket?.resetAndDestroy();
};

/** The n-th request answered by this sequence gets the n-th handler; later ones get the last. */
export function sequence(...handlers: ReceiverHandler[]): ReceiverHandler {
  if (handlers.length === 0) throw new Error('sequence() needs at least one handler');
  let calls = 0;
  return (res, req, hit) => {
    calls += 1;
    handlers[Math.min(calls, handlers.length) - 1]!(res, req, hit);
  };
}

export async function startReceiver(
  initial: ReceiverHandler = ok,
  name = 'inbox',
): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  let handler = initial;
  let hits = 0;
  const waiters: { count: number; resolve: () => void }[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      hits += 1;
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      handler(res, req, hits);
    });
  });
  server.on('clientError', (_err, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/${name}`,
    port,
    received,
    handle(next) {
      handler = next;
    },
    async waitFor(count, timeoutMs = 5_000) {
      if (received.length < count) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`receiver ${name}: ${received.length}/${count} requests`)),
            timeoutMs,
          );
          waiters.push({
            count,
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          });
        });
      }
      return received;
    },
    clear() {
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
