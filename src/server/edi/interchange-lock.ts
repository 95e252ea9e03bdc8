import type { Db } from '../db/db';

/** An interchange's identity: the sender (ISA05/ISA06) and its control number (ISA13). */
export interface InterchangeKey {
  qualifier: string;
  senderId: string;
  control: string;
}

/**
 * SQLite: nothing to do. Kysely runs SQLite on one connection, so two ingests of one interchange
 * never overlap: the second sees the first's row and is a duplicate. The PostgreSQL twin
 * (./interchange-lock.postgres.ts) has a pool, and locks.
 */
export async function lockInterchange(_trx: Db, _key: InterchangeKey): Promise<void> {}
