import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema';
import type { Db } from '../db';
import type { TransactionHooks } from '../transaction-hooks';
import { endedByConflict } from './conflicts';
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

/**
 * Session settings of the service's pooled connections, sent when each connects (docs/decisions,
 * "Guards on the PostgreSQL pool"; docs/operations.md). A parameter of the same name in the
 * database URL wins (`?statement_timeout=300000`, `?options=-c%20jit%3Don`).
 */
export const SESSION_SETTINGS = {
  /**
   * No request waits on one statement (or a lock inside it) forever: it fails (SQLSTATE 57014)
   * and its transaction rolls back; a push answers 5xx and the workstation retries.
   */
  statement_timeout: 120_000,
  /** A lock wait fails sooner (55P03): the holder is slow or stuck, and the retry is cheap. */
  lock_timeout: 60_000,
  /**
   * A connection left inside a transaction (an error path that missed its ROLLBACK) is ended by
   * the server with its locks, instead of holding every writer of those rows back.
   */
  idle_in_transaction_session_timeout: 60_000,
  /**
   * No JIT. The pull's scope SQL is one large expression (a CASE over every replicated table, with
   * a subquery per branch); once ANALYZE puts its estimated cost over jit_above_cost, PostgreSQL
   * compiles some 370 functions for every execution: 170 ms on the demo data, 3.5 to 7.5 s a
   * statement under load, for a query that runs in 5 ms. The service's queries are short.
   */
  options: '-c jit=off',
} as const;

function connect(
  url: string,
  poolSize: number,
  settings: Partial<typeof SESSION_SETTINGS> = {},
): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types, ...settings });
  // An idle client losing its connection (a server restart) must not kill the process.
  pool.on('error', (error) => tellQuietly(`PostgreSQL pool: ${error.message}`));
  // Nor a checked-out one (pg-pool listens on idle clients only): its query fails with the error,
  // and the pool drops the broken client when it comes back.
  pool.on('connect', (client) =>
    client.on('error', (error) => tellQuietly(`PostgreSQL connection: ${error.message}`)),
  );
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  registerPool(db, pool);
  return db;
}

/** Logs from an 'error' listener, which must not throw: that would be an uncaught exception. */
function tellQuietly(message: string): void {
  try {
    console.error(message);
  } catch {
    // No log to write to (a closed stderr): the connection's fault is handled all the same.
  }
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

/** Runs of the migrations a deadlock or serialization failure may end before the start fails. */
export const MIGRATION_ATTEMPTS = 3;

/**
 * Applies the pending migrations in one transaction (Kysely's, under its advisory lock). A data
 * migration may deadlock with another process that writes the same rows while this one starts
 * (docs/operations.md, Several central processes); PostgreSQL rolls the whole run back, so it is
 * run again rather than failing the start.
 */
export async function runMigrations(
  db: Kysely<Database>,
  provider: MigrationProvider = postgresMigrationProvider,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
    if (!error) return;
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    if (endedByConflict(error) && attempt < MIGRATION_ATTEMPTS) {
      console.error(`PostgreSQL migration ${failed} ended by a conflict; running it again`);
      continue;
    }
    throw new Error(`PostgreSQL migration ${failed} failed: ${String(error)}`);
  }
}

/**
 * Applies the migrations (the server must have pg_trgm available) on a connection of their own,
 * without the pool's timeouts (a migration over a large table may take long), then opens the
 * pool on `url` with SESSION_SETTINGS.
 */
export async function openPostgres(url: string, poolSize: number): Promise<OpenedPostgres> {
  await migratePostgres(url);
  const db = connect(url, poolSize, SESSION_SETTINGS);
  return { engine: 'postgres', db, transactionHooks: {}, close: () => db.destroy() };
}
