import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type SqliteDatabase } from 'kysely';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

/** A safety net only (~40 MB of WAL); the timer below normally checkpoints long before. */
const AUTO_CHECKPOINT_PAGES = 10_000;
const CHECKPOINT_INTERVAL_MS = 2_000;

export interface OpenedDatabase {
  db: Db;
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/**
 * Opens (or creates) the SQLite database in the data dir (`:memory:` for tests), with WAL,
 * foreign keys on, and all migrations applied. BETTER_SQLITE3_BINDING lets the Electron host
 * load a copy of the native module built for Electron's ABI.
 */
export async function openDatabase(dataDir: string | ':memory:'): Promise<OpenedDatabase> {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, 'app.sqlite');
  }
  const nativeBinding = process.env.BETTER_SQLITE3_BINDING;
  const sqlite = new SQLite(file, nativeBinding ? { nativeBinding } : {});
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  // Checkpoints copy the WAL into the database and fsync; SQLite's default (every 1000 pages)
  // lands one inside a request's commit every few advices. A timer does it between requests.
  sqlite.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  const checkpointTimer =
    file === ':memory:'
      ? null
      : setInterval(() => sqlite.pragma('wal_checkpoint(PASSIVE)'), CHECKPOINT_INTERVAL_MS);
  checkpointTimer?.unref();
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
  }).migrateToLatest();
  if (error) {
    if (checkpointTimer) clearInterval(checkpointTimer);
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`);
  }
  return {
    db,
    sqlite,
    async close() {
      if (checkpointTimer) clearInterval(checkpointTimer);
      await db.destroy();
    },
  };
}

const STATEMENT_CACHE_SIZE = 256;

/**
 * Kysely's SQLite driver prepares every query anew; compiling the same SQL again costs more than
 * running it. better-sqlite3 statements are reusable, so keep them by SQL text (bounded).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = sqlite.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
  };
}
