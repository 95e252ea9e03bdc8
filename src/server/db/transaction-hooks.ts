import {
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';
import { noteWriteFailure, noteWriteSucceeded, type StorageStatus } from './storage-status';

/**
 * Points in the life of Kysely's one SQLite connection where sync does its bookkeeping: a
 * workstation folds the rows its capture triggers wrote into one mutation just before COMMIT (so
 * the mutation commits with the write), and the central starts a new version per unit of work.
 * Empty unless sync is on; each hook is synchronous (better-sqlite3) and runs on the connection.
 */
export interface TransactionHooks {
  /** The connection was taken for a statement or a transaction. */
  onAcquire?: () => void;
  /** Just before COMMIT, inside the transaction. */
  beforeCommit?: () => void;
  /** After ROLLBACK. */
  afterRollback?: () => void;
  /** The connection was given back (after COMMIT/ROLLBACK, or after a lone statement). */
  onRelease?: () => void;
}

/** What the driver needs to track a full disk (./storage-status). */
export interface StorageWatch {
  status: StorageStatus;
  /** Whether the connection is inside a transaction (better-sqlite3's `inTransaction`). */
  inTransaction(): boolean;
}

/**
 * SqliteDialect whose driver calls `hooks` (read at each call, so they can be set after opening)
 * and, with `storage`, notes writes that fail for lack of space and those that succeed while the
 * disk is full (./storage-status decides whether one ends the fault).
 */
export class HookedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly hooks: TransactionHooks,
    private readonly storage?: StorageWatch,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const inner = super.createDriver();
    const hooks = this.hooks;
    const storage = this.storage;
    /** A write in the open transaction succeeded while the disk was full: note it at COMMIT. */
    let wroteWhileFull = false;
    // SQLite has one connection: wrap it once, not at every acquire.
    const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
    const watched = (connection: DatabaseConnection): DatabaseConnection => {
      if (!storage) return connection;
      let watcher = wrapped.get(connection);
      if (watcher) return watcher;
      watcher = {
        async executeQuery<R>(query: CompiledQuery) {
          try {
            const result = await connection.executeQuery<R>(query);
            if (storage.status.fullSince && (result.numAffectedRows ?? 0n) > 0n) {
              if (storage.inTransaction()) wroteWhileFull = true;
              else noteWriteSucceeded(storage.status);
            }
            return result;
          } catch (error) {
            noteWriteFailure(storage.status, error);
            throw error;
          }
        },
        streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
      };
      wrapped.set(connection, watcher);
      return watcher;
    };
    return {
      init: () => inner.init(),
      destroy: () => inner.destroy(),
      async acquireConnection() {
        const connection = watched(await inner.acquireConnection());
        hooks.onAcquire?.();
        return connection;
      },
      async releaseConnection(connection: DatabaseConnection) {
        hooks.onRelease?.();
        await inner.releaseConnection(connection);
      },
      beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) => {
        wroteWhileFull = false; // a COMMIT that failed left it set
        return inner.beginTransaction(connection, settings);
      },
      async commitTransaction(connection: DatabaseConnection) {
        hooks.beforeCommit?.();
        await inner.commitTransaction(connection);
        if (wroteWhileFull && storage) noteWriteSucceeded(storage.status);
        wroteWhileFull = false;
      },
      async rollbackTransaction(connection: DatabaseConnection) {
        wroteWhileFull = false;
        // SQLITE_FULL rolls the transaction back by itself; a ROLLBACK then would fail with
        // "no transaction is active" and hide the full disk behind a generic error.
        if (!storage || storage.inTransaction()) await inner.rollbackTransaction(connection);
        hooks.afterRollback?.();
      },
      savepoint: inner.savepoint?.bind(inner),
      rollbackToSavepoint: inner.rollbackToSavepoint?.bind(inner),
      releaseSavepoint: inner.releaseSavepoint?.bind(inner),
    };
  }
}
