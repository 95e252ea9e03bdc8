/**
 * Loopback partner endpoints for the bench: plain node:http servers on 127.0.0.1 (never any other
 * address) that read the whole body and answer 200 at once. Each keeps the last request it got so
 * the bench can replay the exact bytes as its "bare" baseline.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedRequest {
  contentType: string;
  idempotencyKey: string | null;
  body: Buffer;
}

export interface Receiver {
  url: string;
  /** Requests answered so far. */
  received: number;
  last: CapturedRequest | null;
}

export interface Receivers {
  list: Receiver[];
  close(): Promise<void>;
}

const OK_BODY = '{"ok":true}';

function header(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

async function startOne(path: string): Promise<{ receiver: Receiver; server: Server }> {
  const receiver: Receiver = { url: '', received: 0, last: null };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.received++;
      receiver.last = {
        contentType: header(request, 'content-type') ?? '',
        idempotencyKey: header(request, 'idempotency-key'),
        body: Buffer.concat(chunks),
      };
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(OK_BODY),
      });
      response.end(OK_BODY);
    });
  });
  // Keep sockets open across the bench phases (undici's default idle timeout is shorter anyway).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}${path}`;
  return { receiver, server };
}

export async function startReceivers(count: number): Promise<Receivers> {
  const started = await Promise.all(
    Array.from({ length: count }, (_, i) => startOne(`/partner-${i + 1}/inventory`)),
  );
  return {
    list: started.map((s) => s.receiver),
    async close() {
      await Promise.all(
        started.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        ),
      );
    },
  };
}
