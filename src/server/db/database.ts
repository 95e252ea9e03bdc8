import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, type SqliteDatabase } from 'kysely';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../core/file-modes';
import { sqliteNativeBinding } from './native-binding';
import { installAuthDataVersion } from './auth-version';
import { installTransactionsVersion } from './transactions-version';
import { migrationProvider } from './migrations';
import { HookedSqliteDialect, type TransactionHooks } from './transaction-hooks';
import type { Database } from './schema';
import type { Db } from './db';
import {
  newStorageStatus,
  noteWriteFailure,
  registerStorageStatus,
  type StorageStatus,
} from './storage-status';

/** A safety net only (~40 MB of WAL); the timer below normally checkpoints long before. */
const AUTO_CHECKPOINT_PAGES = 10_000;
const CHECKPOINT_INTERVAL_MS = 2_000;
/** SQLite's companion files, created with the database file's own mode. */
const SQLITE_COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'];

export interface OpenedDatabase {
  db: Db;
  sqlite: SQLite.Database;
  /** Set by sync when it is on (../sync/install); empty otherwise. */
  transactionHooks: TransactionHooks;
  close(): Promise<void>;
}

/**
 * Opens (or creates) the SQLite database in the data dir (`:memory:` for tests), with WAL,
 * foreign keys on, and all migrations applied. The data dir is made 0700 and the database files
 * 0600, also when they already exist with looser modes. `env` decides which native module loads
 * (../native-binding).
 */
export async function openDatabase(
  dataDir: string | ':memory:',
  env: NodeJS.ProcessEnv = process.env,
): Promise<OpenedDatabase> {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    file = join(dataDir, 'app.sqlite');
    restrictDataDir(dataDir, file);
  }
  const nativeBinding = sqliteNativeBinding(env);
  const sqlite = new SQLite(file, nativeBinding ? { nativeBinding } : {});
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // FULL fsyncs the WAL at every commit: a 200 (and every ISA13 taken) survives a power cut.
  // NORMAL would only fsync at checkpoints, so a power cut could roll back acknowledged work.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  // Reads that visit many rows at random (a common search term over a million-row log) thrash
  // SQLite's 2 MB default page cache; 64 MB of cache and memory-mapped reads keep them in memory.
  sqlite.pragma('cache_size = -65536');
  sqlite.pragma('mmap_size = 268435456');
  // Checkpoints copy the WAL into the database and fsync; SQLite's default (every 1000 pages)
  // lands one inside a request's commit every few advices. A timer does it between requests.
  sqlite.pragma(`wal_autocheckpoint = ${AUTO_CHECKPOINT_PAGES}`);
  const storage = newStorageStatus();
  storage.pageCount = () => sqlite.pragma('page_count', { simple: true }) as number;
  const checkpointTimer =
    file === ':memory:'
      ? null
      : setInterval(() => checkpointQuietly(sqlite, storage), CHECKPOINT_INTERVAL_MS);
  checkpointTimer?.unref();
  const transactionHooks: TransactionHooks = {};
  const db = new Kysely<Database>({
    dialect: new HookedSqliteDialect({ database: withStatementCache(sqlite) }, transactionHooks, {
      status: storage,
      inTransaction: () => sqlite.inTransaction,
    }),
  });
  registerStorageStatus(db, storage);
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
  installAuthDataVersion(sqlite, db);
  installTransactionsVersion(sqlite, db);
  return {
    db,
    sqlite,
    transactionHooks,
    async close() {
      if (checkpointTimer) clearInterval(checkpointTimer);
      await db.destroy();
    },
  };
}

/** The last checkpoint failure reported, so a fault that lasts is logged once, not every 2 s. */
const lastCheckpointFailure = new WeakMap<SQLite.Database, string>();

/**
 * One timed checkpoint. It runs outside any request, so nothing may escape it: an uncaught
 * SQLITE_FULL here once killed the service when the disk filled. A full disk is noted for health
 * and the header (./storage-status); the next checkpoint simply tries again.
 */
export function checkpointQuietly(sqlite: SQLite.Database, storage: StorageStatus): void {
  try {
    if (!sqlite.open) return;
    sqlite.pragma('wal_checkpoint(PASSIVE)');
    lastCheckpointFailure.delete(sqlite);
  } catch (error) {
    noteWriteFailure(storage, error);
    const message = error instanceof Error ? error.message : String(error);
    if (lastCheckpointFailure.get(sqlite) === message) return;
    lastCheckpointFailure.set(sqlite, message);
    console.error(`WAL checkpoint failed: ${message}`);
  }
}

/**
 * Creates the data dir owner-only and tightens what is already there; the database file is
 * created 0600 before SQLite opens it, since SQLite gives -wal and -shm the database file's mode.
 * (Windows ignores these modes; the per-user app-data folder's ACL protects the files there.)
 */
function restrictDataDir(dataDir: string, databaseFile: string): void {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  chmodSync(dataDir, DATA_DIR_MODE);
  if (!existsSync(databaseFile)) closeSync(openSync(databaseFile, 'a', DATA_FILE_MODE));
  for (const path of [databaseFile, ...SQLITE_COMPANION_SUFFIXES.map((s) => databaseFile + s)]) {
    if (existsSync(path)) chmodSync(path, DATA_FILE_MODE);
  }
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
