import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type Db = Kysely<Database>;

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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({
    db,
    provider: migrationProvider,
  }).migrateToLatest();
  if (error) {
    await db.destroy();
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${String(error)}`);
  }
  return { db, sqlite, close: () => db.destroy() };
}
