import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { expectError, expectNoLeak } from './envelope';

let svc: TestService;
let bearer: string;

beforeAll(async () => {
  svc = await createTestService({ seed: baseBundle() });
  bearer = await svc.login('admin@a.test');
});
afterAll(async () => {
  await svc?.close();
});

const inject = (options: InjectOptions) => svc.app.inject(options);
const postToken = (payload: string, contentType = 'application/json') =>
  inject({
    method: 'POST',
    url: '/api/auth/token',
    headers: { 'content-type': contentType },
    payload,
  });

describe('request bodies', () => {
  it.each([
    ['truncated object', '{"email":'],
    ['single quotes', "{'email':'admin@a.test','password':'x'}"],
    ['trailing comma', '{"email":"admin@a.test","password":"x",}'],
    ['bare word', 'hello'],
    ['unclosed string', '{"email":"admin@a.test'],
  ])('malformed JSON (%s) -> 400 Malformed JSON in request body', async (_name, payload) => {
    expectError(await postToken(payload), 400, 'INVALID_REQUEST', 'Malformed JSON in request body');
  });

  it('prototype-poisoning JSON is refused with 400, not a crash', async () => {
    const response = await postToken(
      `{"__proto__":{"admin":true},"email":"admin@a.test","password":"${TEST_PASSWORD}"}`,
    );
    expectError(response, 400, 'INVALID_REQUEST');
    const constructorPayload = `{"constructor":{"prototype":{"admin":true}},"email":"a@a.test","password":"x"}`;
    expectError(await postToken(constructorPayload), 400, 'INVALID_REQUEST');
  });

  it('empty body with a JSON content type -> 400 INVALID_REQUEST envelope', async () => {
    expectError(await postToken(''), 400, 'INVALID_REQUEST', /\S/);
  });

  it.each(['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'text/html'])(
    'content type %s -> 415 INVALID_REQUEST',
    async (contentType) => {
      const response = await postToken(
        JSON.stringify({ email: 'admin@a.test', password: TEST_PASSWORD }),
        contentType,
      );
      expectError(response, 415, 'INVALID_REQUEST', /Content-Type/);
    },
  );

  it('multipart bodies are refused with 415', async () => {
    const response = await postToken(
      '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nadmin@a.test\r\n--b--\r\n',
      'multipart/form-data; boundary=b',
    );
    expectError(response, 415, 'INVALID_REQUEST');
  });

  it('application/json with a charset parameter is accepted', async () => {
    const response = await postToken(
      JSON.stringify({ email: 'admin@a.test', password: TEST_PASSWORD }),
      'application/json; charset=utf-8',
    );
    expect(response.statusCode).toBe(200);
  });

  it('a 10 MB body -> 413 in the envelope', async () => {
    const huge = JSON.stringify({ email: 'admin@a.test', password: 'x'.repeat(10 * 1024 * 1024) });
    const response = await postToken(huge);
    expectError(response, 413, 'INVALID_REQUEST', /too large/i);
  });

  it('a body just over 1 MiB is refused, one under it is parsed', async () => {
    const over = JSON.stringify({ email: 'a@a.test', password: 'x'.repeat(1024 * 1024) });
    expectError(await postToken(over), 413, 'INVALID_REQUEST');
    const under = JSON.stringify({ email: 'a@a.test', password: 'x'.repeat(512 * 1024) });
    // Parsed, then refused by the token endpoint's own rules (password longer than allowed).
    expectError(await postToken(under), 400, 'INVALID_REQUEST', 'Missing parameters');
  });

  it('a 100 KB email -> 400 Missing parameters, and the service keeps serving', async () => {
    const email = `${'a'.repeat(100 * 1024)}@a.test`;
    const response = await postToken(JSON.stringify({ email, password: TEST_PASSWORD }));
    expectError(response, 400, 'INVALID_REQUEST', 'Missing parameters');
    expect(response.body.length).toBeLessThan(1000); // the input is not echoed back
    expect((await inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('a 100 KB password -> 400 Missing parameters (not hashed, not echoed)', async () => {
    const password = 'p'.repeat(100 * 1024);
    const response = await postToken(JSON.stringify({ email: 'admin@a.test', password }));
    expectError(response, 400, 'INVALID_REQUEST', 'Missing parameters');
    expect(response.body.length).toBeLessThan(1000);
  });

  it('deeply nested JSON does not crash the service', async () => {
    const nested = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = await postToken(`{"email":${nested},"password":"x"}`);
    expect(response.statusCode).toBe(400);
    expectError(response, 400, 'INVALID_REQUEST');
  });
});

describe('routes and methods', () => {
  it.each([
    ['GET', '/api/nope'],
    ['GET', '/api/v1/does-not-exist'],
    ['POST', '/api/v1/nothing/here'],
    ['GET', '/nope'],
    ['GET', '/api/user-facilities/v1/facilities/extra'],
  ] as const)('%s %s -> 404 NOT_FOUND envelope', async (method, url) => {
    const response = await inject({ method, url });
    expectError(response, 404, 'NOT_FOUND');
  });

  it.each([
    ['DELETE', '/api/auth/token'],
    ['GET', '/api/auth/token'],
    ['PUT', '/api/auth/token'],
    ['PATCH', '/api/auth/token'],
    ['POST', '/api/user-facilities/v1/facilities'],
    ['DELETE', `/api/brand/v1/facility/${id('f', 1)}`],
    ['PUT', `/api/retailer/v1/facility/${id('f', 1)}`],
    ['OPTIONS', '/api/auth/token'],
  ] as const)('unknown method %s on known path %s -> 404 envelope', async (method, url) => {
    const response = await inject({ method, url, headers: { authorization: bearer } });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('404 answers do not need a token and do not reveal which routes exist behind auth', async () => {
    const response = await inject({ method: 'GET', url: '/api/secret/v1/thing' });
    expectError(response, 404, 'NOT_FOUND');
  });

  it('HEAD on a GET route answers without a body', async () => {
    const response = await inject({ method: 'HEAD', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });
});

describe('Host header guard', () => {
  const withHost = (host: string, url = '/api/health') =>
    inject({ method: 'GET', url, headers: { host } });

  it.each([
    'localhost',
    'localhost:8787',
    'LOCALHOST:8787',
    '127.0.0.1',
    '127.0.0.1:8787',
    '127.0.0.2:9000',
    '[::1]',
    '[::1]:8787',
  ])('accepts %s', async (host) => {
    const response = await withHost(host);
    expect(response.statusCode, response.body).toBe(200);
  });

  it.each([
    'evil.example',
    'evil.example:8787',
    '127.evil.com',
    '127.0.0.1.evil.com',
    'localhost.evil.com',
    'evil.localhost.example',
    '0.0.0.0:8787',
    '10.0.0.5',
    '[::2]:8787',
    'localhost:8787@evil.example',
    'a:b:c',
  ])('rejects %s with 403 Host header not allowed', async (host) => {
    expectError(await withHost(host), 403, 'UNAUTHORIZED', 'Host header not allowed');
  });

  it('the guard runs before authentication and routing', async () => {
    const facilities = await inject({
      method: 'GET',
      url: '/api/user-facilities/v1/facilities',
      headers: { host: 'evil.example', authorization: bearer },
    });
    expectError(facilities, 403, 'UNAUTHORIZED', 'Host header not allowed');
    const token = await inject({
      method: 'POST',
      url: '/api/auth/token',
      headers: { host: 'evil.example' },
      payload: { email: 'admin@a.test', password: TEST_PASSWORD },
    });
    expectError(token, 403, 'UNAUTHORIZED', 'Host header not allowed');
    expectError(await withHost('evil.example', '/nope'), 403, 'UNAUTHORIZED');
  });
});

describe('security headers', () => {
  it.each([
    ['GET', '/api/health', undefined],
    ['GET', '/api/user-facilities/v1/facilities', 'auth'],
    ['GET', '/api/user-facilities/v1/facilities', undefined],
    ['GET', '/api/nope', undefined],
    ['POST', '/api/auth/token', undefined],
  ] as const)('%s %s carries CSP, nosniff and no-referrer', async (method, url, auth) => {
    const response = await inject({
      method,
      url,
      headers: auth ? { authorization: bearer } : {},
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  });

  it('a rejected Host still gets the headers', async () => {
    const response = await inject({
      method: 'GET',
      url: '/api/health',
      headers: { host: 'evil.example' },
    });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBeDefined();
  });

  it('the API reference page gets nosniff too', async () => {
    const response = await inject({ method: 'GET', url: '/api/docs/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('no X-Powered-By or server banner', async () => {
    const response = await inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers.server).toBeUndefined();
  });
});

describe('never a 500 or a stack trace', () => {
  it('odd inputs across every route answer in the envelope with a 4xx', async () => {
    const odd: InjectOptions[] = [
      { method: 'GET', url: '/api/brand/v1/facility/%00' },
      { method: 'GET', url: '/api/brand/v1/facility/%20' },
      { method: 'GET', url: `/api/retailer/v1/facility/${id('f', 1)}?brand_id=%ZZ` },
      { method: 'GET', url: `/api/retailer/v1/facility/${id('f', 1)}?brand_id=';DROP TABLE x;--` },
      { method: 'GET', url: "/api/brand/v1/facility/' OR 1=1 --" },
      { method: 'GET', url: `/api/brand/v1/facility/${id('f', 1)}%27%20OR%201=1` },
    ];
    for (const options of odd) {
      const response = await inject({ ...options, headers: { authorization: bearer } });
      expect(response.statusCode, `${options.url} ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${options.url} ${response.body}`).toBeLessThan(500);
      expect(Object.keys(response.json()).sort()).toEqual(['error', 'message']);
      expectNoLeak(response.body);
    }
    // The database is intact.
    expect((await inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const facilities = await inject({
      method: 'GET',
      url: '/api/user-facilities/v1/facilities',
      headers: { authorization: bearer },
    });
    expect(facilities.json().data).toHaveLength(2);
  });

  // Fastify answers these before any hook runs, with its own `{error, code, message, statusCode}`
  // body, unless the app passes a `frameworkErrors` handler.
  it('a malformed percent-encoding in the path -> 400 INVALID_REQUEST envelope with the security headers', async () => {
    for (const url of [
      '/api/brand/v1/facility/%',
      '/api/brand/v1/facility/%E0%A4%A',
      '/api/health%',
      '/%',
    ]) {
      const response = await inject({ method: 'GET', url, headers: { authorization: bearer } });
      expectError(response, 400, 'INVALID_REQUEST');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['content-security-policy'], url).toBeDefined();
    }
  });

  it('an over-long path parameter -> 4xx INVALID_REQUEST envelope with the security headers', async () => {
    const response = await inject({
      method: 'GET',
      url: `/api/brand/v1/facility/${'9'.repeat(5000)}`,
      headers: { authorization: bearer },
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expectError(response, response.statusCode, 'INVALID_REQUEST');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('a malformed URL from a foreign Host is still refused by the Host guard', async () => {
    const response = await inject({
      method: 'GET',
      url: '/api/brand/v1/facility/%',
      headers: { host: 'evil.example' },
    });
    expectError(response, 403, 'UNAUTHORIZED', 'Host header not allowed');
  });
});
