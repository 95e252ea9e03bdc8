/** A stand-in label printer on 127.0.0.1: a TCP listener that keeps every byte it is sent. */
import { createServer, type Server, type Socket } from 'node:net';

export interface LoopbackPrinter {
  port: number;
  /** Every connection's bytes, in the order the connections ended. */
  jobs: Buffer[];
  /** Resolves once `count` jobs have ended. */
  waitForJobs(count: number): Promise<Buffer[]>;
  close(): Promise<void>;
}

export async function startLoopbackPrinter(
  options: { pauseOnConnect?: boolean } = {},
): Promise<LoopbackPrinter> {
  const jobs: Buffer[] = [];
  const sockets = new Set<Socket>();
  let waiters: { count: number; resolve: (jobs: Buffer[]) => void }[] = [];
  const server: Server = createServer(
    { pauseOnConnect: options.pauseOnConnect ?? false },
    (socket) => {
      sockets.add(socket);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('end', () => {
        jobs.push(Buffer.concat(chunks));
        socket.end();
        waiters = waiters.filter((w) => (jobs.length >= w.count ? (w.resolve(jobs), false) : true));
      });
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    jobs,
    waitForJobs: (count) =>
      jobs.length >= count
        ? Promise.resolve(jobs)
        : new Promise((resolve) => waiters.push({ count, resolve })),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on (a listener was opened there and closed). */
export async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
