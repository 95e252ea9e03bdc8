import {
  admitSignInAttempt,
  clearSignInAttempts,
  forgetStaleSignInAttempts,
  type SignInThrottlePolicy,
} from './sign-in-throttle';
import { findUserByEmail, upgradePasswordHash } from './user-queries';
import type { ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  PASSWORD_COST,
  verifyPassword,
} from './passwords';
import { signAccessToken, TOKEN_LIFETIME_SECONDS } from './tokens';

/**
 * Five attempts back to back, then 30 s, 1, 2, 4, 8 and at most 15 minutes between attempts: a
 * guesser gets a handful of tries an hour, while 5 requests lock someone else out for 30 s only.
 */
export const SIGN_IN_THROTTLE: SignInThrottlePolicy = {
  freeAttempts: 5,
  firstLockMs: 30_000,
  maxLockMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
};

const invalidCredentials = () =>
  new DomainError('invalid_credentials', 'INVALID_CREDENTIALS', 'Invalid credentials');

export function tooManyAttempts(waitMs: number) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const minutes = Math.ceil(seconds / 60);
  const wait =
    seconds < 60
      ? `${seconds} second${seconds === 1 ? '' : 's'}`
      : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return new DomainError(
    'rate_limited',
    'INVALID_CREDENTIALS',
    `Too many failed sign-in attempts; try again in ${wait}`,
    { details: { retry_after_seconds: seconds } },
  );
}

/**
 * Signs in. The attempt is counted before the password is checked, and a locked email is refused
 * without running scrypt. A success clears the count and, if the stored hash is cheaper than the
 * current cost, replaces it (same transaction).
 */
export async function issueToken(ctx: ServiceContext, email: string, password: string) {
  const key = email.trim().toLowerCase();
  const now = ctx.clock.now().getTime();
  const cost = ctx.passwordCost ?? PASSWORD_COST;
  const admission = await admitSignInAttempt(ctx.db, key, now, SIGN_IN_THROTTLE);
  if (!admission.admitted) throw tooManyAttempts(admission.lockedUntil - now);

  const user = await findUserByEmail(ctx.db, key);
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash(cost)));
  const outdated = user !== undefined && needsRehash(user.password_hash, cost);
  if (!user || !ok) {
    // A cheap old hash answers faster than the dummy; pay the current cost so timing stays alike.
    if (outdated) await verifyPassword(password, await dummyPasswordHash(cost));
    await forgetStaleSignInAttempts(ctx.db, now - SIGN_IN_THROTTLE.forgetAfterMs, now);
    throw invalidCredentials();
  }
  const upgraded = outdated ? await hashPassword(password, cost) : null;
  await ctx.db.transaction().execute(async (trx) => {
    await clearSignInAttempts(trx, key);
    if (upgraded) await upgradePasswordHash(trx, user.id, user.password_hash, upgraded);
  });
  const accessToken = await signAccessToken(ctx.secret, user.id, Math.floor(now / 1000));
  return {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: TOKEN_LIFETIME_SECONDS,
  };
}
