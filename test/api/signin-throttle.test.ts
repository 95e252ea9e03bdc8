import * as crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { movableClock } from '../helpers/clock';
import { baseBundleWithViewers } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { expectError } from './envelope';
import { describeEngines } from '../helpers/engines';

// Counts scrypt runs, to show that refused attempts never reach the password check.
vi.mock('node:crypto', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:crypto')>();
  return { ...original, scrypt: vi.fn(original.scrypt) };
});
const scryptCalls = () => vi.mocked(crypto.scrypt).mock.calls.length;

describeEngines('the sign-in throttle', (engine) => {
  const clock = movableClock();

  const USERS = ['target@a.test', 'bystander@a.test', 'target2@a.test'];
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundleWithViewers(USERS), clock, engine });
  });
  afterAll(async () => {
    await svc?.close();
  });

  const signIn = (email: string, password: string) =>
    svc.app.inject({ method: 'POST', url: '/api/auth/token', payload: { email, password } });

  const countStatuses = (responses: { statusCode: number }[]) =>
    responses.reduce<Record<number, number>>((counts, { statusCode }) => {
      counts[statusCode] = (counts[statusCode] ?? 0) + 1;
      return counts;
    }, {});

  describe('sign-in throttle under parallel requests', () => {
    it('100 parallel wrong passwords: exactly 5 admitted, 95 refused with 429 without running scrypt; the right password right after is refused, and works once the delay has passed; another email is unaffected', async () => {
      await signIn('nobody-warm-up@a.test', 'x'); // makes the dummy hash, so it is not counted below
      const before = scryptCalls();
      const [attack, bystander] = await Promise.all([
        Promise.all(Array.from({ length: 100 }, (_, i) => signIn('target@a.test', `wrong-${i}`))),
        // Another email signing in at the same time (within its own free attempts) is unaffected.
        Promise.all(Array.from({ length: 5 }, () => signIn('bystander@a.test', TEST_PASSWORD))),
      ]);
      const counts = countStatuses(attack);
      expect(counts).toEqual({ 401: 5, 429: 95 });
      expect(countStatuses(bystander)).toEqual({ 200: 5 });
      for (const response of attack.filter((r) => r.statusCode === 429)) {
        expectError(
          response,
          429,
          'INVALID_CREDENTIALS',
          /^Too many failed sign-in attempts; try again in \d+ seconds?$/,
        );
      }
      // Only admitted attempts (the 401s and the bystander's) ran scrypt.
      expect(scryptCalls() - before).toBe(5 + 5);

      const rightAway = await signIn('target@a.test', TEST_PASSWORD);
      expectError(rightAway, 429, 'INVALID_CREDENTIALS', /try again in 30 seconds$/);
      expect((await signIn('bystander@a.test', TEST_PASSWORD)).statusCode).toBe(200);

      clock.offsetMs += 30_000;
      expect((await signIn('target@a.test', TEST_PASSWORD)).statusCode).toBe(200);
      // The success cleared the count.
      const row = await svc.ctx.db
        .selectFrom('sign_in_failures')
        .selectAll()
        .where('email', '=', 'target@a.test')
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });

    it('100 parallel attempts on an unknown email are refused alike (no account enumeration)', async () => {
      const attack = await Promise.all(
        Array.from({ length: 100 }, (_, i) => signIn('ghost@a.test', `wrong-${i}`)),
      );
      expect(countStatuses(attack)).toEqual({ 401: 5, 429: 95 });
    });

    it('60 parallel wrong passwords after the first lock ends: only one is admitted and the lock doubles', async () => {
      const email = 'target2@a.test';
      for (let i = 0; i < 5; i++) await signIn(email, 'wrong');
      clock.offsetMs += 30_000;
      const attack = await Promise.all(Array.from({ length: 60 }, () => signIn(email, 'wrong')));
      expect(countStatuses(attack)).toEqual({ 401: 1, 429: 59 });
      clock.offsetMs += 59_000;
      expectError(await signIn(email, TEST_PASSWORD), 429, 'INVALID_CREDENTIALS', /1 second$/);
      clock.offsetMs += 1_000;
      expect((await signIn(email, TEST_PASSWORD)).statusCode).toBe(200);
    });
  });
});
