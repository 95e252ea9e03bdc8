import { sql, type RawBuilder } from 'kysely';

/**
 * SQLite: the lock an attempt earns, `now + min(maxLockMs, firstLockMs << min(over, 30))`, with
 * SQLite's two-argument scalar min(). The twin for PostgreSQL is ./sign-in-lock-sql.postgres.ts.
 */
export function lockUntilSql(
  count: RawBuilder<number>,
  now: number,
  policy: { freeAttempts: number; firstLockMs: number; maxLockMs: number },
): RawBuilder<number | null> {
  const { freeAttempts, firstLockMs, maxLockMs } = policy;
  // The shift is capped so it cannot overflow; the ceiling applies long before.
  return sql<number | null>`(CASE WHEN ${count} < ${freeAttempts} THEN NULL
    ELSE ${now} + min(${maxLockMs}, ${firstLockMs} << min(${count} - ${freeAttempts}, 30)) END)`;
}
