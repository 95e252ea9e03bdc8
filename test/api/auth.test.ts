import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movableClock } from '../helpers/clock';
import { baseBundleWithViewers } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { expectError } from './envelope';
import { describeEngines } from '../helpers/engines';

describeEngines('sign-in and tokens', (engine) => {
  const clock = movableClock();

  let svc: TestService;

  /** The base users plus users of their own for the lockout tests, so failure counts stay independent. */
  const LOCK_USERS = ['lock1@a.test', 'lock2@a.test', 'lock3@a.test', 'lock4@a.test'];

  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundleWithViewers(LOCK_USERS), clock, engine });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const signIn = (payload: unknown) =>
    svc.app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: payload as Record<string, unknown>,
    });

  async function userIdOf(email: string) {
    const row = await svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  describe('POST /api/auth/token: success', () => {
    it('issues a Bearer token with the interface envelope and expires_in 3600 seconds', async () => {
      const response = await signIn({ email: 'admin@a.test', password: TEST_PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      const body = response.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'message']);
      expect(body.message).toBe('API token issued successfully');
      expect(Object.keys(body.data).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
      expect(body.data.token_type).toBe('Bearer');
      expect(body.data.expires_in).toBe(3600);
      expect(Number.isInteger(body.data.expires_in)).toBe(true);
      expect(body.data.access_token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    });

    it('the token is an HS256 JWT signed with the service secret, sub = the user id, 1 h lifetime', async () => {
      const response = await signIn({ email: 'admin@a.test', password: TEST_PASSWORD });
      const token = response.json().data.access_token as string;
      expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'HS256' });
      const claims = decodeJwt(token);
      expect(claims.sub).toBe(await userIdOf('admin@a.test'));
      expect(typeof claims.iat).toBe('number');
      expect(claims.exp! - claims.iat!).toBe(3600);
      expect(Math.abs(claims.iat! - Date.now() / 1000)).toBeLessThan(60);
      // The signature verifies with the service's secret and with nothing else.
      const { payload } = await jwtVerify(token, svc.ctx.secret, { algorithms: ['HS256'] });
      expect(payload.sub).toBe(claims.sub);
      await expect(
        jwtVerify(token, new TextEncoder().encode('another-secret-another-secret-!!')),
      ).rejects.toThrow();
      // The token carries no credentials.
      expect(JSON.stringify(claims)).not.toContain(TEST_PASSWORD);
    });

    it('the issued token opens an authorised route', async () => {
      const response = await svc.app.inject({
        method: 'GET',
        url: '/api/user-facilities/v1/facilities',
        headers: { authorization: await svc.login('viewer@a.test') },
      });
      expect(response.statusCode).toBe(200);
    });

    it('email is case-insensitive (and surrounding spaces are ignored)', async () => {
      const expected = await userIdOf('brand1@a.test');
      for (const email of ['BRAND1@A.TEST', 'Brand1@A.Test', '  brand1@a.test  ']) {
        const response = await signIn({ email, password: TEST_PASSWORD });
        expect(response.statusCode, email).toBe(200);
        expect(decodeJwt(response.json().data.access_token).sub).toBe(expected);
      }
    });

    it('the password is case-sensitive', async () => {
      const response = await signIn({
        email: 'brand2@b.test',
        password: TEST_PASSWORD.toUpperCase(),
      });
      expectError(response, 401, 'INVALID_CREDENTIALS', 'Invalid credentials');
    });
  });

  describe('POST /api/auth/token: missing parameters', () => {
    const cases: [string, unknown][] = [
      ['missing email', { password: TEST_PASSWORD }],
      ['missing password', { email: 'admin@a.test' }],
      ['empty email', { email: '', password: TEST_PASSWORD }],
      ['blank email', { email: '   ', password: TEST_PASSWORD }],
      ['empty password', { email: 'admin@a.test', password: '' }],
      ['both empty', { email: '', password: '' }],
      ['numeric email', { email: 42, password: TEST_PASSWORD }],
      ['numeric password', { email: 'admin@a.test', password: 12345678 }],
      ['array email', { email: ['admin@a.test'], password: TEST_PASSWORD }],
      ['array password', { email: 'admin@a.test', password: [TEST_PASSWORD] }],
      ['null email', { email: null, password: TEST_PASSWORD }],
      ['null password', { email: 'admin@a.test', password: null }],
      ['object email', { email: { $ne: '' }, password: TEST_PASSWORD }],
      ['boolean password', { email: 'admin@a.test', password: true }],
      ['empty object body', {}],
      ['JSON array body', [{ email: 'admin@a.test', password: TEST_PASSWORD }]],
    ];
    it.each(cases)('%s -> 400 Missing parameters / INVALID_REQUEST', async (_name, payload) => {
      expectError(await signIn(payload), 400, 'INVALID_REQUEST', 'Missing parameters');
    });

    it('JSON null body -> 400 Missing parameters', async () => {
      const response = await svc.app.inject({
        method: 'POST',
        url: '/api/auth/token',
        headers: { 'content-type': 'application/json' },
        payload: 'null',
      });
      expectError(response, 400, 'INVALID_REQUEST', 'Missing parameters');
    });

    it('no body at all -> 400 Missing parameters', async () => {
      const response = await svc.app.inject({ method: 'POST', url: '/api/auth/token' });
      expectError(response, 400, 'INVALID_REQUEST', 'Missing parameters');
    });

    it('missing parameters do not count as failed sign-ins', async () => {
      for (let i = 0; i < 6; i++) await signIn({ email: 'viewer@a.test' });
      const row = await svc.ctx.db
        .selectFrom('sign_in_failures')
        .selectAll()
        .where('email', '=', 'viewer@a.test')
        .executeTakeFirst();
      expect(row).toBeUndefined();
      expect((await signIn({ email: 'viewer@a.test', password: TEST_PASSWORD })).statusCode).toBe(
        200,
      );
    });
  });

  describe('POST /api/auth/token: invalid credentials', () => {
    it('wrong password -> 401 Invalid credentials', async () => {
      const response = await signIn({ email: 'admin@a.test', password: 'wrong-password' });
      expectError(response, 401, 'INVALID_CREDENTIALS', 'Invalid credentials');
      expect(response.json().data).toBeUndefined();
    });

    it('unknown email answers exactly like a wrong password', async () => {
      const unknown = await signIn({ email: 'nobody@a.test', password: TEST_PASSWORD });
      const wrong = await signIn({ email: 'admin@a.test', password: 'wrong-password' });
      expectError(unknown, 401, 'INVALID_CREDENTIALS', 'Invalid credentials');
      expect(unknown.body).toBe(wrong.body);
    });

    it('a correct password of another user is refused', async () => {
      const response = await signIn({ email: 'nobody-else@a.test', password: TEST_PASSWORD });
      expectError(response, 401, 'INVALID_CREDENTIALS', 'Invalid credentials');
    });

    it('a password that merely starts with the right one is refused', async () => {
      const response = await signIn({ email: 'admin@a.test', password: `${TEST_PASSWORD}x` });
      expectError(response, 401, 'INVALID_CREDENTIALS');
    });
  });

  describe('POST /api/auth/token: growing delays after repeated failures', () => {
    const LOCKED = /^Too many failed sign-in attempts; try again in /;

    it('5 failures lock the email for 30 s: even the right password answers 429 and says when to retry; other emails are unaffected; the count resets after a success', async () => {
      const email = 'lock1@a.test';
      for (let i = 1; i <= 5; i++) {
        const response = await signIn({ email, password: `wrong-${i}` });
        expectError(response, 401, 'INVALID_CREDENTIALS', 'Invalid credentials');
      }
      const locked = await signIn({ email, password: TEST_PASSWORD });
      expectError(locked, 429, 'INVALID_CREDENTIALS', LOCKED);
      expect(locked.json().message).toMatch(/try again in 30 seconds$/);
      expect(locked.json().error.details).toEqual({ retry_after_seconds: 30 });
      // The lock holds for differently-cased spellings of the same email.
      expectError(
        await signIn({ email: 'LOCK1@A.TEST', password: TEST_PASSWORD }),
        429,
        'INVALID_CREDENTIALS',
        LOCKED,
      );

      // Other emails still sign in.
      expect((await signIn({ email: 'brand1@a.test', password: TEST_PASSWORD })).statusCode).toBe(
        200,
      );

      // Still locked a second before the end; the message counts down.
      clock.offsetMs += 29_000;
      const almost = await signIn({ email, password: TEST_PASSWORD });
      expectError(almost, 429, 'INVALID_CREDENTIALS', /try again in 1 second$/);

      // After the lock the right password works again ...
      clock.offsetMs += 1_000;
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);

      // ... and the count was reset: 4 new failures do not lock.
      for (let i = 0; i < 4; i++) {
        expectError(await signIn({ email, password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
      }
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('each further failure doubles the lock (30 s, 1, 2, 4, 8 min) up to 15 minutes', async () => {
      const email = 'lock4@a.test';
      for (let i = 0; i < 5; i++) await signIn({ email, password: 'wrong' });
      const expectedWaits = [60, 120, 240, 480, 900, 900];
      let wait = 30;
      for (const next of expectedWaits) {
        clock.offsetMs += wait * 1000;
        expectError(await signIn({ email, password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
        const refused = await signIn({ email, password: TEST_PASSWORD });
        expectError(refused, 429, 'INVALID_CREDENTIALS', LOCKED);
        expect(refused.json().error.details).toEqual({ retry_after_seconds: next });
        const minutes = next / 60;
        expect(refused.json().message).toMatch(
          new RegExp(`try again in ${minutes} minute${minutes === 1 ? '' : 's'}$`),
        );
        wait = next;
      }
      clock.offsetMs += wait * 1000;
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('a successful sign-in resets the count (2 failures + success + 4 failures does not lock)', async () => {
      const email = 'lock2@a.test';
      for (let i = 0; i < 2; i++) await signIn({ email, password: 'wrong' });
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) {
        expectError(await signIn({ email, password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
      }
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('failures counted across email spellings lock the email', async () => {
      const email = 'lock3@a.test';
      for (const spelling of [
        'lock3@a.test',
        'LOCK3@a.test',
        'Lock3@A.test',
        ' lock3@a.test',
        'lock3@A.TEST',
      ]) {
        expectError(
          await signIn({ email: spelling, password: 'wrong' }),
          401,
          'INVALID_CREDENTIALS',
        );
      }
      expectError(
        await signIn({ email, password: TEST_PASSWORD }),
        429,
        'INVALID_CREDENTIALS',
        LOCKED,
      );
      clock.offsetMs += 30_000;
      expect((await signIn({ email, password: TEST_PASSWORD })).statusCode).toBe(200);
    });

    it('an unknown email is locked too after 5 failures (no account enumeration by lockout)', async () => {
      const email = 'ghost@a.test';
      for (let i = 0; i < 5; i++) {
        expectError(await signIn({ email, password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
      }
      expectError(await signIn({ email, password: 'wrong' }), 429, 'INVALID_CREDENTIALS', LOCKED);
    });

    it('failures are forgotten a day after the last attempt', async () => {
      const email = 'ghost2@a.test';
      for (let i = 0; i < 5; i++) await signIn({ email, password: 'wrong' });
      clock.offsetMs += 24 * 60 * 60_000;
      // 4 fresh failures after a quiet day stay below the first lock.
      for (let i = 0; i < 4; i++) {
        expectError(await signIn({ email, password: 'wrong' }), 401, 'INVALID_CREDENTIALS');
      }
      const row = await svc.ctx.db
        .selectFrom('sign_in_failures')
        .select(['failures', 'locked_until'])
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ failures: 4, locked_until: null });
    });
  });

  describe('password storage', () => {
    it('stores scrypt hashes, never the password, with a per-user salt', async () => {
      const rows = await svc.ctx.db
        .selectFrom('users')
        .select(['email', 'password_hash'])
        .execute();
      expect(rows).toHaveLength(4 + LOCK_USERS.length);
      for (const { email, password_hash } of rows) {
        expect(password_hash, email).toMatch(/^scrypt\$/);
        expect(password_hash).not.toContain(TEST_PASSWORD);
        expect(password_hash).not.toContain(Buffer.from(TEST_PASSWORD).toString('base64'));
      }
      // All users share one password, yet every hash differs (salted).
      expect(new Set(rows.map((r) => r.password_hash)).size).toBe(rows.length);
    });

    it('the password appears nowhere in the database', async () => {
      for (const [name, rows] of await everyTable(svc)) {
        expect(JSON.stringify(rows), name).not.toContain(TEST_PASSWORD);
      }
    });
  });
});

/** Every table's rows, on either engine. */
async function everyTable(svc: TestService): Promise<[string, unknown[]][]> {
  const names =
    svc.engine === 'postgres'
      ? (
          await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
            WHERE table_schema = 'public'`.execute(svc.ctx.db)
        ).rows
      : (svc.database.sqlite
          .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
          .all() as { name: string }[]);
  const tables: [string, unknown[]][] = [];
  for (const { name } of names) {
    tables.push([name, (await sql.raw(`SELECT * FROM "${name}"`).execute(svc.ctx.db)).rows]);
  }
  return tables;
}
