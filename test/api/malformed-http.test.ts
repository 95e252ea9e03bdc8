/**
 * Security 9 (issue 6): a request the HTTP parser refuses used to get Fastify's own
 * `{"error":"Bad Request","message":"Client Error"}`. It now gets the interface's envelope, 400,
 * and `Connection: close`. Raw sockets, since no HTTP client sends such requests.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientErrorAnswer } from '../../src/server/http/client-error';
import { createTestService, type TestService } from '../helpers/service';

let svc: TestService;
let port: number;

beforeAll(async () => {
  svc = await createTestService();
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  const address = svc.app.server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await svc?.close();
});

/** Writes `raw`, then collects everything the server sends until it closes the connection. */
function exchange(raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(raw);
  });
}

interface RawResponse {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    expect(end, `no end of headers in ${JSON.stringify(rest)}`).toBeGreaterThan(0);
    const [statusLine = '', ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    responses.push({ statusLine, headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

const ENVELOPE = { message: 'Malformed HTTP request', error: { code: 'INVALID_REQUEST' } };

function expectMalformedAnswer(response: RawResponse | undefined) {
  expect(response?.statusLine).toBe('HTTP/1.1 400 Bad Request');
  expect(response?.headers['content-type']).toMatch(/^application\/json/);
  expect(response?.headers.connection).toBe('close');
  expect(response?.headers['x-content-type-options']).toBe('nosniff');
  expect(JSON.parse(response?.body ?? '')).toEqual(ENVELOPE);
}

describe('requests the HTTP parser refuses', () => {
  it.each([
    ['a bad request line', 'NOT A REQUEST\r\n\r\n'],
    [
      'a header without a colon',
      'GET /api/health HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n',
    ],
    [
      'a control character in a header value',
      'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-A: a\x01b\r\n\r\n',
    ],
    ['an unknown HTTP version', 'GET /api/health HTTP/7.3\r\nHost: localhost\r\n\r\n'],
    [
      'both Content-Length and Transfer-Encoding (request smuggling)',
      'POST /api/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    [
      'a bad chunk size',
      'POST /api/auth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    ],
  ])('%s -> 400 in the envelope, Connection: close, then the socket closes', async (_name, raw) => {
    const responses = parseResponses(await exchange(raw));
    expect(responses).toHaveLength(1);
    expectMalformedAnswer(responses[0]);
  });

  it('a good request then a bad one on the same connection: 200, then the 400 envelope', async () => {
    const raw = 'GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n' + 'GARBAGE\r\n\r\n';
    const responses = parseResponses(await exchange(raw));
    expect(responses.map((r) => r.statusLine)).toEqual([
      'HTTP/1.1 200 OK',
      'HTTP/1.1 400 Bad Request',
    ]);
    expectMalformedAnswer(responses[1]);
  });

  it('headers over the size limit -> 431 in the envelope', async () => {
    const raw = `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const [response, ...more] = parseResponses(await exchange(raw));
    expect(more).toHaveLength(0);
    expect(response?.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(response?.headers.connection).toBe('close');
    expect(JSON.parse(response?.body ?? '')).toEqual({
      message: 'Request headers are too large',
      error: { code: 'INVALID_REQUEST' },
    });
  });

  it('the service keeps serving afterwards', async () => {
    await exchange('NOT A REQUEST\r\n\r\n');
    const response = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(response.status).toBe(200);
  });

  it('a request timeout is answered 408 in the envelope (the decision)', () => {
    expect(clientErrorAnswer('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({
      status: 408,
      message: 'Request timed out',
    });
    expect(clientErrorAnswer('HPE_INVALID_METHOD')).toEqual({
      status: 400,
      message: 'Malformed HTTP request',
    });
  });
});
