import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServiceProcess, stopAllServiceProcesses } from './helpers/service-process';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';

/** A tiny HTTP server to proxy to; `commits` counts POST /commit requests it answered. */
interface TestServer {
  server: Server;
  port: number;
  commits: number;
  /** Responses held by GET /hold until the test releases them. */
  held: ServerResponse[];
  /** Resolves when the next GET /hold arrives. */
  nextHold(): Promise<void>;
}

async function startTestServer(label: string): Promise<TestServer> {
  let holdArrived: (() => void) | null = null;
  const state: TestServer = {
    server: createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/echo') {
          response.end(Buffer.concat(chunks));
        } else if (request.url === '/commit') {
          state.commits++;
          response.end(`committed ${state.commits}`);
        } else if (request.url === '/hold') {
          state.held.push(response);
          holdArrived?.();
        } else {
          response.end(`hello from ${label}`);
        }
      });
    }),
    port: 0,
    commits: 0,
    held: [],
    nextHold: () => new Promise<void>((resolve) => (holdArrived = resolve)),
  };
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.port = (state.server.address() as AddressInfo).port;
  return state;
}

async function closeTestServer(target: TestServer) {
  for (const response of target.held) response.destroy();
  target.server.closeAllConnections();
  await new Promise<void>((resolve) => target.server.close(() => resolve()));
}

async function text(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return response.text();
}

describe('TCP fault proxy', () => {
  let target: TestServer;
  let other: TestServer;
  let proxy: TcpProxy;

  beforeAll(async () => {
    target = await startTestServer('target');
    other = await startTestServer('other');
  });
  afterAll(async () => {
    await closeTestServer(target);
    await closeTestServer(other);
  });
  afterEach(async () => {
    await proxy.close();
  });

  it('passes requests and answers through, in order, both ways', async () => {
    proxy = await startTcpProxy({ targetHost: '127.0.0.1', targetPort: target.port });
    expect(proxy.url).toBe(`http://127.0.0.1:${proxy.port}`);
    expect(proxy.mode).toBe('pass');
    expect(await text(`${proxy.url}/`)).toBe('hello from target');
    const body = Buffer.alloc(1_000_000, 'abcdefghij').toString();
    expect(await text(`${proxy.url}/echo`, { method: 'POST', body })).toBe(body);
    // fetch may open a second connection while the first is being released to its pool.
    const { accepted, forwarded, dropped } = proxy.stats;
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect({ forwarded, dropped }).toEqual({ forwarded: accepted, dropped: 0 });
  });

  it('drop refuses new connections', async () => {
    proxy = await startTcpProxy({ targetPort: target.port, mode: 'drop' });
    await expect(fetch(`${proxy.url}/`)).rejects.toThrow();
    expect(proxy.stats.dropped).toBeGreaterThanOrEqual(1);
    expect(proxy.stats.forwarded).toBe(0);
  });

  it('switching to drop cuts open keep-alive connections and requests in flight', async () => {
    proxy = await startTcpProxy({ targetPort: target.port });
    expect(await text(`${proxy.url}/`)).toBe('hello from target');
    expect(proxy.openConnections()).toBe(1); // kept alive by fetch's pool

    const arrived = target.nextHold();
    const inFlight = fetch(`${proxy.url}/hold`);
    await arrived;
    proxy.setMode('drop');
    expect(proxy.openConnections()).toBe(0);
    await expect(inFlight).rejects.toThrow();
    await expect(fetch(`${proxy.url}/`)).rejects.toThrow();

    proxy.setMode('pass');
    expect(await text(`${proxy.url}/`)).toBe('hello from target');
  });

  it('delay holds every chunk for at least the delay, keeping order', async () => {
    proxy = await startTcpProxy({ targetPort: target.port, mode: { delay: 150 } });
    const body = Buffer.alloc(300_000, '0123456789').toString();
    const started = performance.now();
    expect(await text(`${proxy.url}/echo`, { method: 'POST', body })).toBe(body);
    // A lower bound only: the proxy guarantees the wait, nothing bounds it from above.
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('drop_after_commit lets the server do the work but never answers the client', async () => {
    proxy = await startTcpProxy({ targetPort: target.port });
    // A pooled connection opened in pass mode is caught too.
    expect(await text(`${proxy.url}/`)).toBe('hello from target');
    const before = target.commits;
    proxy.setMode('drop_after_commit');
    await expect(fetch(`${proxy.url}/commit`, { method: 'POST', body: 'x' })).rejects.toThrow();
    await expect(fetch(`${proxy.url}/commit`, { method: 'POST', body: 'x' })).rejects.toThrow();
    expect(target.commits).toBe(before + 2);
    expect(proxy.stats.droppedAfterCommit).toBe(2);
    expect(proxy.mode).toBe('drop_after_commit');
  });

  it("{dropAfterCommit: 'once'} drops one answer, then passes", async () => {
    proxy = await startTcpProxy({ targetPort: target.port });
    const before = target.commits;
    proxy.setMode({ dropAfterCommit: 'once' });
    await expect(fetch(`${proxy.url}/commit`, { method: 'POST', body: 'x' })).rejects.toThrow();
    expect(target.commits).toBe(before + 1);
    expect(proxy.mode).toBe('pass');
    expect(await text(`${proxy.url}/commit`, { method: 'POST', body: 'x' })).toBe(
      `committed ${before + 2}`,
    );
    expect(proxy.stats.droppedAfterCommit).toBe(1);
  });

  it('retarget sends new connections to another port', async () => {
    proxy = await startTcpProxy({ targetPort: target.port });
    expect(await text(`${proxy.url}/`)).toBe('hello from target');
    proxy.retarget(other.port);
    expect(proxy.targetPort).toBe(other.port);
    // Open connections keep their target; a restarted service has closed them anyway.
    target.server.closeAllConnections();
    expect(await text(`${proxy.url}/`)).toBe('hello from other');
  });

  it('resets the client when the target is not there', async () => {
    const gone = await startTestServer('gone');
    await closeTestServer(gone);
    proxy = await startTcpProxy({ targetPort: gone.port });
    await expect(fetch(`${proxy.url}/`)).rejects.toThrow();
    expect(proxy.stats.targetFailures).toBe(1);
  });
});

describe('service process', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sync-harness-'));

  afterAll(async () => {
    await stopAllServiceProcesses();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('rejects with the output when the service exits before listening', async () => {
    await expect(
      startServiceProcess({ name: 'bad', dataDir, args: ['--port', 'nope'] }),
    ).rejects.toThrow(/bad exited before printing .*--port must be a whole number/s);
  });

  it('runs the real service behind a proxy through kill -9 and a restart', async () => {
    const central = await startServiceProcess({
      name: 'central',
      dataDir,
      args: ['--seed', 'demo'],
    });
    expect(central.url).toBe(`http://127.0.0.1:${central.port}`);
    expect(central.running).toBe(true);
    const proxy = await startTcpProxy({ targetPort: central.port });
    try {
      const health = await fetch(`${proxy.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({ status: 'ok' });

      const { pid } = central;
      await central.kill9();
      expect(central.running).toBe(false);
      expect(() => process.kill(pid, 0)).toThrow();
      await expect(fetch(`${central.url}/api/health`)).rejects.toThrow();
      await expect(fetch(`${proxy.url}/api/health`)).rejects.toThrow();

      await central.restart();
      expect(central.pid).not.toBe(pid);
      proxy.retarget(central.port);
      const again = await fetch(`${proxy.url}/api/health`);
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ status: 'ok' });
      expect(central.output().match(/listening on /g)).toHaveLength(2);
      expect(await central.waitForOutput(/listening on (\S+)/, 1000)).toContain(central.url);

      // A graceful restart on the same port needs no retarget.
      const { port } = central;
      await central.restart({ samePort: true });
      expect(central.port).toBe(port);
      expect(central.output()).toContain('SIGTERM received, closing');
      expect((await fetch(`${proxy.url}/api/health`)).status).toBe(200);

      await central.stop();
      expect(central.running).toBe(false);
      await expect(central.waitForOutput(/never printed/, 5000)).rejects.toThrow(/exited before/);
    } finally {
      await proxy.close();
    }
  });
});
