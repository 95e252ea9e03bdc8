import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy that sends each request to the next upstream in turn (a round-robin load
 * balancer without stickiness), so consecutive requests of one keep-alive client land on
 * different central processes. Counts what each upstream answered, by path.
 */
export interface AlternatingProxy {
  readonly url: string;
  /** Requests forwarded to each upstream, in upstream order, as `METHOD path` (no query). */
  readonly served: string[][];
  close(): Promise<void>;
}

export async function startAlternatingProxy(ports: number[]): Promise<AlternatingProxy> {
  let next = 0;
  const served = ports.map(() => [] as string[]);
  const forward = (incoming: IncomingMessage, answer: ServerResponse) => {
    const index = next;
    next = (next + 1) % ports.length;
    served[index]!.push(`${incoming.method} ${(incoming.url ?? '').split('?')[0]}`);
    const upstream = request(
      {
        host: '127.0.0.1',
        port: ports[index],
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: `127.0.0.1:${ports[index]}` },
        // A new upstream connection per request: the alternation is per request, not per socket.
        agent: false,
      },
      (response) => {
        answer.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(answer);
      },
    );
    upstream.on('error', () => {
      if (!answer.headersSent) answer.writeHead(502).end();
      else answer.destroy();
    });
    incoming.pipe(upstream);
  };
  const server = createServer(forward);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
