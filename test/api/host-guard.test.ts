/**
 * Security 7 (issue 6): with `--host 0.0.0.0`, a client on the network could send
 * `Host: 127.0.0.1` and use the whole API. Loopback Host names now count only from loopback
 * peers; remote clients must use a name given with `--allowed-host`.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseBundle } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { startService, type RunningService } from '../../src/server/http/server';
import { expectError } from './envelope';

const REMOTE_PEER = '192.168.1.20';

describe('Host guard by peer (Fastify inject with a remote address; the check where a machine has no LAN address)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle() });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it.each(['127.0.0.1', '127.0.0.1:8787', 'localhost:8787', '[::1]:8787'])(
    'a remote peer sending Host %s gets 403 on health, sign-in and data routes',
    async (host) => {
      const health = await svc.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host },
        remoteAddress: REMOTE_PEER,
      });
      expectError(health, 403, 'UNAUTHORIZED', 'Host header not allowed');
      const token = await svc.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { host },
        payload: { email: 'admin@a.test', password: TEST_PASSWORD },
        remoteAddress: REMOTE_PEER,
      });
      expectError(token, 403, 'UNAUTHORIZED', 'Host header not allowed');
    },
  );

  it('a loopback peer (IPv4, IPv6, IPv4-mapped) with the same Host is served', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const response = await svc.app.inject({
        method: 'GET',
        url: '/api/health',
        headers: { host: '127.0.0.1:8787' },
        remoteAddress,
      });
      expect(response.statusCode, remoteAddress).toBe(200);
    }
  });

  it('a malformed URL from a remote peer with a loopback Host is refused as a Host problem', async () => {
    const response = await svc.app.inject({
      method: 'GET',
      url: '/%',
      headers: { host: '127.0.0.1' },
      remoteAddress: REMOTE_PEER,
    });
    expectError(response, 403, 'UNAUTHORIZED', 'Host header not allowed');
  });
});

/** A non-loopback IPv4 address of this machine, or null when it has none. */
function nonLoopbackIpv4(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) {
      if (address.family === 'IPv4' && !address.internal) return address.address;
    }
  }
  return null;
}

/** GET over real TCP from `localAddress` to `address`, with the given Host header. */
function getFrom(localAddress: string, address: string, port: number, host: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      { host: address, port, path: '/api/health', localAddress, headers: { host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const lanAddress = nonLoopbackIpv4();

describe.runIf(lanAddress)(`a real service on 0.0.0.0, reached from ${lanAddress}`, () => {
  let dataDir: string;
  let service: RunningService;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fid-host-guard-'));
    service = await startService({
      host: '0.0.0.0',
      port: 0,
      dataDir,
      seed: null,
      uiDir: null,
      allowedHosts: ['warehouse-pc.lan'],
    });
  });
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a non-loopback peer cannot use Host: 127.0.0.1 or localhost (403)', async () => {
    for (const host of ['127.0.0.1', `127.0.0.1:${service.port}`, `localhost:${service.port}`]) {
      const response = await getFrom(lanAddress!, lanAddress!, service.port, host);
      expect(response.status, host).toBe(403);
      expect(JSON.parse(response.body)).toEqual({
        message: 'Host header not allowed',
        error: { code: 'UNAUTHORIZED' },
      });
    }
  });

  it('the same peer using the allowed name is served; a loopback peer may use 127.0.0.1', async () => {
    const allowed = await getFrom(lanAddress!, lanAddress!, service.port, 'warehouse-pc.lan');
    expect(allowed.status).toBe(200);
    const local = await getFrom('127.0.0.1', '127.0.0.1', service.port, '127.0.0.1');
    expect(local.status).toBe(200);
  });
});
