/**
 * The sign-in throttle of a PostgreSQL central run as two processes on one database: 100 wrong
 * passwords for one email, split between the processes, admit exactly the 5 free attempts; the
 * right password is then refused by both. (One process, both engines: test/api/signin-throttle.)
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { baseBundleWithViewers } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';

describe.skipIf(!inject('postgres'))('the sign-in throttle across two central processes', () => {
  let a: TestService;
  let b: TestService;
  beforeAll(async () => {
    a = await createTestService({
      engine: 'postgres',
      seed: baseBundleWithViewers(['two@a.test']),
    });
    b = await createTestService({ postgresUrl: a.postgresUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const signIn = (svc: TestService, password: string) =>
    svc.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { email: 'two@a.test', password },
    });

  it('100 parallel wrong passwords through both: exactly 5 admitted, the rest 429; then both refuse', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => signIn(i % 2 ? a : b, `wrong-${i}`)),
    );
    const statuses = answers.map((r) => r.statusCode);
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBe(95);
    expect(statuses.filter((s) => s === 401).length + refused).toBe(100);
    for (const answer of answers.filter((r) => r.statusCode === 429)) {
      expect(answer.json().message).toMatch(
        /^Too many failed sign-in attempts; try again in \d+ seconds?$/,
      );
    }
    for (const svc of [a, b]) expect((await signIn(svc, TEST_PASSWORD)).statusCode).toBe(429);
  });
});
