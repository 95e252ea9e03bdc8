import { sql } from 'kysely';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { lockUntilSql as sqliteLockUntil } from './sign-in-lock-sql';
import { lockUntilSql as postgresLockUntil } from './sign-in-lock-sql.postgres';

/** How sign-in attempts for one email are spaced out. All durations in milliseconds. */
export interface SignInThrottlePolicy {
  /** Attempts allowed back to back before the first lock. */
  freeAttempts: number;
  /** The lock after the last free attempt; it doubles with each further attempt... */
  firstLockMs: number;
  /** ...up to this ceiling. */
  maxLockMs: number;
  /** An email with no attempt for this long starts again from zero. */
  forgetAfterMs: number;
}

export type SignInAdmission = { admitted: true } | { admitted: false; lockedUntil: number };

/**
 * Counts a sign-in attempt, and sets the lock that attempt earns, unless the email is locked right
 * now. One statement, so parallel attempts each see all earlier ones: with 5 free attempts, 100
 * at once admit exactly 5. The count is taken before the password is checked and cleared on
 * success (clearSignInAttempts).
 */
export async function admitSignInAttempt(
  db: Db,
  email: string,
  now: number,
  policy: SignInThrottlePolicy,
): Promise<SignInAdmission> {
  const { freeAttempts, firstLockMs, forgetAfterMs } = policy;
  const count = sql<number>`(CASE WHEN sign_in_failures.last_attempt_at < ${now - forgetAfterMs}
    THEN 1 ELSE sign_in_failures.failures + 1 END)`;
  const lockUntilSql = engineOf(db) === 'postgres' ? postgresLockUntil : sqliteLockUntil;
  const lockUntil = lockUntilSql(count, now, policy);
  const firstLock = freeAttempts > 1 ? null : now + firstLockMs;
  const counted = await db
    .insertInto('sign_in_failures')
    .values({ email, failures: 1, last_attempt_at: now, locked_until: firstLock })
    .onConflict((oc) =>
      oc
        .column('email')
        .doUpdateSet({ failures: count, last_attempt_at: now, locked_until: lockUntil })
        .where((eb) =>
          eb.or([
            eb('sign_in_failures.locked_until', 'is', null),
            eb('sign_in_failures.locked_until', '<=', now),
          ]),
        ),
    )
    .returning('failures')
    .executeTakeFirst();
  if (counted) return { admitted: true };
  const row = await db
    .selectFrom('sign_in_failures')
    .select('locked_until')
    .where('email', '=', email)
    .executeTakeFirst();
  // A success may have cleared the row in between; the caller still refuses this attempt.
  return { admitted: false, lockedUntil: row?.locked_until ?? now };
}

/** A successful sign-in forgets the email's attempts. */
export async function clearSignInAttempts(db: Db, email: string) {
  await db.deleteFrom('sign_in_failures').where('email', '=', email).execute();
}

/** Forgets emails whose last attempt is old and whose lock is over, so the table stays small. */
export async function forgetStaleSignInAttempts(db: Db, lastAttemptBefore: number, now: number) {
  await db
    .deleteFrom('sign_in_failures')
    .where('last_attempt_at', '<', lastAttemptBefore)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}
