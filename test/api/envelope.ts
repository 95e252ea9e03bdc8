import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** A response in the interface's error envelope: exactly `{message, error:{code, ...}}`, JSON, no stack. */
export function expectError(
  response: LightMyRequestResponse,
  status: number,
  code: string,
  message?: string | RegExp,
) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = response.json() as { message: unknown; error: { code: unknown } };
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(typeof body.message).toBe('string');
  expect(body.error.code).toBe(code);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  expectNoLeak(response.body);
  return body;
}

/** Nothing of the server's internals (stack frames, file paths, error class names) reaches a client. */
export function expectNoLeak(text: string) {
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toMatch(/"stack"/);
  expect(text).not.toMatch(/node_modules|\/src\/main\//);
  expect(text).not.toMatch(/FST_ERR|SyntaxError|TypeError/);
}
