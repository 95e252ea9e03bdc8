import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema';
import type { Db } from '../db';
import type { TransactionHooks } from '../transaction-hooks';
import { postgresMigrationProvider } from './migrations';
import { registerPool } from './pool';

export interface OpenedPostgres {
  engine: 'postgres';
  db: Db;
  /** Sync's hooks; a central on PostgreSQL stamps in triggers (0017_sync_stamps): none set. */
  transactionHooks: TransactionHooks;
  close(): Promise<void>;
}

/**
 * `pg` returns int8 (count(*), bigint columns) and numeric (sum of bigint) as strings, to keep
 * precision beyond 2^53. Our integers are counts, cents, serials and milliseconds: far below it,
 * and the code expects numbers as better-sqlite3 gives them.
 */
const INT8 = 20;
const NUMERIC = 1700;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

function connect(url: string, poolSize: number): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types });
  // An idle client losing its connection (a server restart) must not kill the process.
  pool.on('error', (error) => console.error(`PostgreSQL pool: ${error.message}`));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  return db;
}

/** Applies the PostgreSQL migrations; used at start-up and by the tests' template database. */
export async function migratePostgres(url: string): Promise<void> {
  const db = connect(url, 1);
  try {
    await runMigrations(db);
  } finally {
    await db.destroy();
  }
}

async function runMigrations(db: Kysely<Database>): Promise<void> {
  const { error, results } = await new Migrator({
    db,
    provider: postgresMigrationProvider,
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`PostgreSQL migration ${failed} failed: ${String(error)}`);
  }
}

/** Opens a pool on `url` and applies the migrations (the server must have pg_trgm available). */
export async function openPostgres(url: string, poolSize: number): Promise<OpenedPostgres> {
  const db = connect(url, poolSize);
  try {
    await runMigrations(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { engine: 'postgres', db, transactionHooks: {}, close: () => db.destroy() };
}
