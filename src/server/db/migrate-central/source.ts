import { existsSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { migrationProvider } from '../migrations';
import { sqliteNativeBinding } from '../native-binding';

/** Why a copy cannot start; the CLI prints the message alone (no stack). */
export class MigrateCentralError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MigrateCentralError';
  }
}

export interface SourceTable {
  name: string;
  columns: string[];
  /** False for WITHOUT ROWID tables, which have no rowid to read in order by. */
  hasRowid: boolean;
}

export interface SourceCentral {
  sqlite: SQLite.Database;
  dataDir: string;
  epoch: string;
  tables: SourceTable[];
  /** Ends the read and lets go of the exclusive lock; nothing was written. */
  close(): void;
}

/**
 * Opens a SQLite central's data dir for the copy. The lock is SQLite's own: an exclusive
 * transaction in exclusive locking mode, which no other connection can take while a service has
 * the database open (even idle, in WAL mode), and which keeps a service from starting on it until
 * the copy ends. So the copy reads one consistent state that nothing changes meanwhile.
 */
export async function openSourceCentral(dataDir: string): Promise<SourceCentral> {
  const file = join(dataDir, 'app.sqlite');
  if (!existsSync(file)) {
    throw new MigrateCentralError(`${dataDir} holds no app.sqlite: not a service's data dir`);
  }
  const nativeBinding = sqliteNativeBinding(process.env);
  const sqlite = new SQLite(file, {
    fileMustExist: true,
    timeout: 500,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  try {
    sqlite.pragma('locking_mode = EXCLUSIVE');
    try {
      sqlite.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) {
        throw new MigrateCentralError(
          `${file} is in use (a service has it open): stop the central first`,
        );
      }
      throw error;
    }
    sqlite.defaultSafeIntegers(true);
    await checkMigrated(sqlite);
    const epoch = epochOf(sqlite);
    const tables = listTables(sqlite);
    return {
      sqlite,
      dataDir,
      epoch,
      tables,
      close() {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        sqlite.close();
      },
    };
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

/** The copy maps this release's schema: the source must have exactly its migrations. */
async function checkMigrated(sqlite: SQLite.Database): Promise<void> {
  const expected = Object.keys(await migrationProvider.getMigrations()).sort();
  const hasTable = sqlite
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`)
    .get();
  const applied = hasTable
    ? (
        sqlite.prepare(`SELECT name FROM kysely_migration ORDER BY name`).all() as {
          name: string;
        }[]
      ).map((r) => r.name)
    : [];
  const newer = applied.filter((name) => !expected.includes(name));
  if (newer.length > 0) {
    throw new MigrateCentralError(
      `The database was migrated by a newer release (${newer.join(', ')}): run migrate-central of that release`,
    );
  }
  const missing = expected.filter((name) => !applied.includes(name));
  if (missing.length > 0) {
    throw new MigrateCentralError(
      `The database lacks migrations ${missing.join(', ')}: start the central once with this release (it migrates at start), stop it, then copy`,
    );
  }
}

/** A central has its epoch in sync_meta (made at its first start as central; sync/stamps.ts). */
function epochOf(sqlite: SQLite.Database): string {
  const row = sqlite.prepare(`SELECT epoch FROM sync_meta WHERE id = 1`).get() as
    { epoch: string } | undefined;
  if (!row) {
    throw new MigrateCentralError(
      'This data dir is not a central (sync_meta has no epoch): only a central is copied; a standalone service or a workstation is not',
    );
  }
  return row.epoch;
}

function listTables(sqlite: SQLite.Database): SourceTable[] {
  const rows = sqlite
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'table' AND substr(name, 1, 7) != 'sqlite_'
           AND name NOT IN ('kysely_migration', 'kysely_migration_lock')
         ORDER BY name`,
    )
    .all() as { name: string; sql: string | null }[];
  return rows.map(({ name, sql }) => ({
    name,
    columns: (
      sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(name) as {
        name: string;
      }[]
    ).map((c) => c.name),
    hasRowid: !/WITHOUT\s+ROWID\s*$/i.test(sql ?? '') && !/^CREATE VIRTUAL/i.test(sql ?? ''),
  }));
}
