import type { Db } from '../db/db';

/**
 * SQLite: nothing to do. Kysely runs SQLite on one connection, so two creates with the same
 * Idempotency-Key never overlap: the second's lookup sees the first's stored answer. The
 * PostgreSQL twin (./idempotency-lock.postgres.ts) has a pool, and locks.
 */
export async function lockIdempotencyKey(_trx: Db, _userId: string, _key: string): Promise<void> {}
