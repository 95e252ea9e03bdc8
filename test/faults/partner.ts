/**
 * A retailer endpoint whose faults a test switches: it answers, refuses (the port is closed, so
 * connecting is refused), hangs, answers late, answers 500/429, or closes in the middle of its
 * answer. It listens on 127.0.0.1 at one port for its whole life, so a transport configured once
 * reaches it again when it comes back.
 */
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type PartnerFault =
  | { kind: 'ok' }
  | { kind: 'status'; status: number; body: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'late'; ms: number }
  | { kind: 'mid-body' };

export interface FaultyPartner {
  url: string;
  /** Complete request bodies with their Idempotency-Key, in arrival order. */
  received: { key: string; body: string }[];
  set(fault: PartnerFault): void;
  /** Closes the port: connecting is refused until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultyPartner(): Promise<FaultyPartner> {
  let fault: PartnerFault = { kind: 'ok' };
  const received: { key: string; body: string }[] = [];
  let server: Server | null = null;
  let port = 0;

  const answer = (req: IncomingMessage, res: ServerResponse, body: string) => {
    received.push({ key: String(req.headers['idempotency-key']), body });
    const current = fault;
    switch (current.kind) {
      case 'ok':
        res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        return;
      case 'status':
        res.writeHead(current.status, { 'content-type': 'text/plain', ...current.headers });
        res.end(current.body);
        return;
      case 'hang':
        return;
      case 'late': {
        const timer = setTimeout(() => {
          if (!res.destroyed) res.writeHead(200).end('ok, late');
        }, current.ms);
        res.on('close', () => clearTimeout(timer));
        return;
      }
      case 'mid-body':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        res.write('accepted, and then the line went', () => res.socket?.destroy());
        return;
    }
  };

  const start = async () => {
    const next = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => answer(req, res, Buffer.concat(chunks).toString('utf8')));
    });
    next.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    port = (next.address() as AddressInfo).port;
    server = next;
  };
  const stop = async () => {
    const running = server;
    server = null;
    if (!running) return;
    running.closeAllConnections();
    await new Promise<void>((resolve) => running.close(() => resolve()));
  };
  await start();

  return {
    url: `http://127.0.0.1:${port}/retailer`,
    received,
    set: (next) => {
      fault = next;
    },
    stop,
    start,
    close: stop,
  };
}
