import {
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
  type TransactionSettings,
} from 'kysely';

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

/** SqliteDialect whose driver calls `hooks` (read at each call, so they can be set after opening). */
export class HookedSqliteDialect extends SqliteDialect {
  constructor(
    config: SqliteDialectConfig,
    private readonly hooks: TransactionHooks,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const inner = super.createDriver();
    const hooks = this.hooks;
    return {
      init: () => inner.init(),
      destroy: () => inner.destroy(),
      async acquireConnection() {
        const connection = await inner.acquireConnection();
        hooks.onAcquire?.();
        return connection;
      },
      async releaseConnection(connection: DatabaseConnection) {
        hooks.onRelease?.();
        await inner.releaseConnection(connection);
      },
      beginTransaction: (connection: DatabaseConnection, settings: TransactionSettings) =>
        inner.beginTransaction(connection, settings),
      async commitTransaction(connection: DatabaseConnection) {
        hooks.beforeCommit?.();
        await inner.commitTransaction(connection);
      },
      async rollbackTransaction(connection: DatabaseConnection) {
        await inner.rollbackTransaction(connection);
        hooks.afterRollback?.();
      },
      savepoint: inner.savepoint?.bind(inner),
      rollbackToSavepoint: inner.rollbackToSavepoint?.bind(inner),
      releaseSavepoint: inner.releaseSavepoint?.bind(inner),
    };
  }
}
