import { DomainError } from './errors';
import {
  clearSignInFailures,
  findSignInFailures,
  findUserByEmail,
  pruneSignInFailures,
  saveSignInFailures,
} from '../db/users';
import type { ServiceContext } from './context';
import { dummyPasswordHash, verifyPassword } from './passwords';
import { signAccessToken, TOKEN_LIFETIME_SECONDS } from './tokens';

/** After this many failures for one email within the window, sign-in is refused until the lock ends. */
export const MAX_FAILED_SIGN_INS = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_MS = 15 * 60_000;

const invalidCredentials = () =>
  new DomainError('invalid_credentials', 'INVALID_CREDENTIALS', 'Invalid credentials');

export async function issueToken(ctx: ServiceContext, email: string, password: string) {
  const key = email.trim().toLowerCase();
  const now = ctx.clock.now().getTime();
  const failures = await findSignInFailures(ctx.db, key);
  if (failures?.locked_until && failures.locked_until > now) {
    const minutes = Math.ceil((failures.locked_until - now) / 60_000);
    throw new DomainError(
      'rate_limited',
      'INVALID_CREDENTIALS',
      `Too many failed sign-in attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`,
    );
  }
  const user = await findUserByEmail(ctx.db, key);
  const ok = await verifyPassword(password, user?.password_hash ?? (await dummyPasswordHash()));
  if (!user || !ok) {
    await pruneSignInFailures(ctx.db, now - FAILURE_WINDOW_MS, now);
    const inWindow = failures && now - failures.window_started_at < FAILURE_WINDOW_MS;
    const count = inWindow ? failures.failures + 1 : 1;
    await saveSignInFailures(ctx.db, {
      email: key,
      failures: count,
      window_started_at: inWindow ? failures.window_started_at : now,
      locked_until: count >= MAX_FAILED_SIGN_INS ? now + LOCKOUT_MS : null,
    });
    throw invalidCredentials();
  }
  if (failures) await clearSignInFailures(ctx.db, key);
  const accessToken = await signAccessToken(ctx.secret, user.id, Math.floor(now / 1000));
  return {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: TOKEN_LIFETIME_SECONDS,
  };
}
