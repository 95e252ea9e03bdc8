import { sql, type RawBuilder } from 'kysely';

/**
 * PostgreSQL twin of ./sign-in-lock-sql.ts: LEAST instead of SQLite's scalar min(), and typed
 * parameters, since PostgreSQL cannot infer the type of a bare parameter under `<<`.
 */
export function lockUntilSql(
  count: RawBuilder<number>,
  now: number,
  policy: { freeAttempts: number; firstLockMs: number; maxLockMs: number },
): RawBuilder<number | null> {
  const { freeAttempts, firstLockMs, maxLockMs } = policy;
  return sql<number | null>`(CASE WHEN ${count} < ${freeAttempts}::bigint THEN NULL
    ELSE ${now}::bigint + LEAST(${maxLockMs}::bigint,
      ${firstLockMs}::bigint << LEAST(${count} - ${freeAttempts}::bigint, 30)::int) END)`;
}
