import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deliver,
  type DeliverContext,
} from '../../../src/server/inventory/transmission/transports';
import { truncateUtf8 } from '../../../src/server/inventory/transmission/transports/http';
import type {
  DeliveryPolicy,
  OutboundDocument,
} from '../../../src/server/inventory/transmission/types';

const policy: DeliveryPolicy = {
  attemptTimeoutMs: 200,
  totalBudgetMs: 1_000,
  maxAttempts: 3,
  baseBackoffMs: 10,
  maxBackoffMs: 40,
};

const doc: OutboundDocument = {
  body: 'ISA*00*          *00*~\nLIN**SK*ÄÖÜ-€-1~\r\n',
  contentType: 'application/edi-x12',
  fileName: '846_000000101.x12',
  idempotencyKey: 'adv-000000101',
};

interface ReceivedRequest {
  method: string | undefined;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

type Handler = (res: ServerResponse, req: IncomingMessage, hit: number) => void;

const openServers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    openServers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

/** An HTTP server on 127.0.0.1 that records each request's body before handing it over. */
async function startServer(handler: Handler) {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method, headers: req.headers, body: Buffer.concat(chunks) });
      handler(res, req, received.length);
    });
  });
  openServers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/advice/846`, received };
}

/** Records waits instead of sleeping, and moves the clock by them so the budget still counts. */
function fakeTime(overrides: Partial<DeliveryPolicy> = {}): DeliverContext & { waits: number[] } {
  let offset = 0;
  const waits: number[] = [];
  return {
    dataDir: '/unused',
    policy: { ...policy, ...overrides },
    waits,
    now: () => Date.now() + offset,
    sleep: async (ms) => {
      waits.push(ms);
      offset += ms;
    },
  };
}

const reply =
  (status: number, body = '', headers: Record<string, string> = {}): Handler =>
  (res) => {
    res.writeHead(status, headers);
    res.end(body);
  };

describe('http transport', () => {
  it('POSTs the exact body with content type, idempotency key and configured headers', async () => {
    const server = await startServer(reply(200, '{"accepted":true}'));
    const outcome = await deliver(
      {
        type: 'http',
        url: server.url,
        headers: { 'X-Api-Key': 'secret-key', 'Content-Type': 'text/plain' },
      },
      doc,
      fakeTime(),
    );

    expect(outcome.success).toBe(true);
    expect(outcome.error).toBeNull();
    expect(server.received).toHaveLength(1);
    const request = server.received[0]!;
    expect(request.method).toBe('POST');
    expect(request.body.equals(Buffer.from(doc.body, 'utf8'))).toBe(true);
    expect(request.headers['content-type']).toBe('application/edi-x12');
    expect(request.headers['idempotency-key']).toBe('adv-000000101');
    expect(request.headers['x-api-key']).toBe('secret-key');
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]).toMatchObject({
      attempt: 1,
      requestUrl: server.url,
      status: 'SUCCESS',
      responseStatus: 200,
      responseBody: '{"accepted":true}',
      error: null,
    });
    expect(outcome.attempts[0]!.startedAt).toBeInstanceOf(Date);
    expect(outcome.attempts[0]!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('does not retry a 400 and reports `<status>: <body>`', async () => {
    const server = await startServer(reply(400, '  unknown sku ABC-1\n'));
    const ctx = fakeTime();
    const outcome = await deliver({ type: 'http', url: server.url }, doc, ctx);

    expect(server.received).toHaveLength(1);
    expect(ctx.waits).toEqual([]);
    expect(outcome).toMatchObject({ success: false, error: '400: unknown sku ABC-1' });
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.attempts[0]).toMatchObject({
      responseStatus: 400,
      responseBody: '  unknown sku ABC-1\n',
    });
  });

  it('falls back to the status text when the error body is empty', async () => {
    const server = await startServer(reply(404));
    const outcome = await deliver({ type: 'http', url: server.url }, doc, fakeTime());
    expect(outcome.error).toBe('404: Not Found');
  });

  it('keeps 200 chars of error text and 4 KiB of response body', async () => {
    const server = await startServer(reply(422, 'x'.repeat(10_000)));
    const outcome = await deliver({ type: 'http', url: server.url }, doc, fakeTime());
    expect(outcome.error).toBe(`422: ${'x'.repeat(200)}`);
    expect(outcome.attempts[0]!.responseBody).toBe('x'.repeat(4096));
  });

  it('retries a 500 and succeeds on the next attempt', async () => {
    const server = await startServer((res, req, hit) =>
      hit === 1 ? reply(500, 'database down')(res, req, hit) : reply(201, 'ok')(res, req, hit),
    );
    const ctx = fakeTime();
    const outcome = await deliver({ type: 'http', url: server.url }, doc, ctx);

    expect(outcome.success).toBe(true);
    expect(server.received).toHaveLength(2);
    expect(ctx.waits).toHaveLength(1);
    expect(outcome.attempts.map((a) => [a.status, a.responseStatus, a.error])).toEqual([
      ['RETRY', 500, '500: database down'],
      ['SUCCESS', 201, null],
    ]);
    // Retries must carry the same idempotency key so the partner can drop duplicates.
    expect(server.received.map((r) => r.headers['idempotency-key'])).toEqual([
      'adv-000000101',
      'adv-000000101',
    ]);
  });

  it('gives up on a persistent 503 after maxAttempts', async () => {
    const server = await startServer(reply(503));
    const ctx = fakeTime();
    const outcome = await deliver({ type: 'http', url: server.url }, doc, ctx);

    expect(server.received).toHaveLength(3);
    expect(ctx.waits).toHaveLength(2);
    expect(outcome).toMatchObject({ success: false, error: '503: Service Unavailable' });
    expect(outcome.attempts.map((a) => a.status)).toEqual(['RETRY', 'RETRY', 'FAILURE']);
  });

  it('waits for Retry-After on 429', async () => {
    const server = await startServer((res, req, hit) =>
      hit === 1 ? reply(429, '', { 'Retry-After': '1' })(res, req, hit) : reply(200)(res, req, hit),
    );
    const ctx = fakeTime({ totalBudgetMs: 5_000 });
    const outcome = await deliver({ type: 'http', url: server.url }, doc, ctx);

    expect(outcome.success).toBe(true);
    expect(ctx.waits).toEqual([1_000]);
    expect(outcome.attempts.map((a) => [a.status, a.error])).toEqual([
      ['RETRY', '429: Too Many Requests'],
      ['SUCCESS', null],
    ]);
  });

  it('fails at once when Retry-After is beyond the remaining budget', async () => {
    const server = await startServer(reply(429, 'quota exhausted', { 'Retry-After': '120' }));
    const ctx = fakeTime();
    const outcome = await deliver({ type: 'http', url: server.url }, doc, ctx);

    expect(server.received).toHaveLength(1);
    expect(ctx.waits).toEqual([]);
    expect(outcome).toMatchObject({ success: false, error: '429: quota exhausted' });
  });

  it('times out a hanging server and stays within the total budget', async () => {
    const server = await startServer(() => {
      // never answers
    });
    const started = Date.now();
    const outcome = await deliver({ type: 'http', url: server.url }, doc, {
      dataDir: '/unused',
      policy: { ...policy, attemptTimeoutMs: 300, totalBudgetMs: 500 },
    });
    const elapsed = Date.now() - started;

    expect(outcome.success).toBe(false);
    expect(outcome.attempts[0]!.error).toBe('ETIMEDOUT: request timed out after 300 ms');
    expect(outcome.error).toMatch(/^ETIMEDOUT: request timed out after \d+ ms$/);
    expect(outcome.attempts.at(-1)!.status).toBe('FAILURE');
    // Without the budget cutting attempts short, three 300 ms attempts would take 900 ms.
    expect(elapsed).toBeLessThan(800);
  });

  it('retries after the server resets the connection', async () => {
    const server = await startServer((res, req, hit) =>
      hit === 1 ? req.socket.destroy() : reply(200, 'ok')(res, req, hit),
    );
    const outcome = await deliver({ type: 'http', url: server.url }, doc, fakeTime());

    expect(outcome.success).toBe(true);
    expect(outcome.attempts).toHaveLength(2);
    expect(outcome.attempts[0]!.status).toBe('RETRY');
    expect(outcome.attempts[0]!.error).toMatch(/^ECONNRESET: /);
  });

  it('retries a refused connection and then fails with ECONNREFUSED', async () => {
    const closed = await startServer(reply(200));
    const server = openServers.pop()!;
    server.close(); // nothing listens on that port any more
    const ctx = fakeTime();
    const outcome = await deliver({ type: 'http', url: closed.url }, doc, ctx);

    expect(outcome.success).toBe(false);
    expect(outcome.error).toMatch(/^ECONNREFUSED: /);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['RETRY', 'RETRY', 'FAILURE']);
    expect(outcome.attempts.every((a) => a.responseStatus === null)).toBe(true);
  });

  it('reports an invalid URL without retrying', async () => {
    const outcome = await deliver({ type: 'http', url: 'not a url' }, doc, fakeTime());
    expect(outcome.success).toBe(false);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.error).toMatch(/^ERR_INVALID_URL: /);
  });
});

describe('truncateUtf8', () => {
  it('never splits a multi-byte character', () => {
    expect(truncateUtf8('short', 4096)).toBe('short');
    expect(truncateUtf8('€€€', 7)).toBe('€€'); // 3 bytes each: the third does not fit
    expect(Buffer.byteLength(truncateUtf8('é'.repeat(5000), 4096))).toBe(4096);
    expect(Buffer.byteLength(truncateUtf8('€'.repeat(5000), 4096))).toBe(4095);
  });
});
