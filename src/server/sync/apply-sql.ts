import type { Refusal } from './refusal';
import type { SqlValue } from './rows';
import type { ReplicatedTable } from './synced-tables';

/**
 * The SQL port of the central's push (central-apply.ts) and of the rules it shares with a clerk's
 * resolve (push-guards.ts, conflict-rules.ts): the rules are written once, against this, and each
 * engine implements it (apply-sql-sqlite.ts, apply-sql-postgres.ts). Statements use `?` for their
 * parameters, in order; what is written differently per engine is a method here.
 */
export interface ApplySql {
  /**
   * Mutations per transaction. SQLite applies a whole push in one (a savepoint per mutation);
   * PostgreSQL commits every 50 at most, since more than 64 subtransactions in one transaction
   * overflow its subtransaction cache and slow the primary and its replicas.
   */
  readonly batch: number;
  /**
   * Whether a transaction first runs its mutations without a savepoint each (PostgreSQL, where a
   * savepoint is a round trip), and runs them again with savepoints after a ROLLBACK only when
   * one of them is refused (central-apply.ts). SQLite's savepoints cost no round trip.
   */
  readonly optimistic: boolean;
  /** The first row of a query, or undefined. */
  get<T>(text: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a write; answers the number of rows it changed. */
  run(text: string, params?: readonly SqlValue[]): Promise<number>;
  /** Transaction control: BEGIN (READ COMMITTED on PostgreSQL), COMMIT, ROLLBACK, savepoints. */
  begin(): Promise<void>;
  exec(
    text:
      | 'COMMIT'
      | 'ROLLBACK'
      | `${'SAVEPOINT' | 'RELEASE SAVEPOINT' | 'ROLLBACK TO SAVEPOINT'} ${string}`,
  ): Promise<void>;
  /** A table's columns in order. */
  columnsOf(table: string): Promise<string[]>;
  /**
   * ` FOR UPDATE` where the engine locks the rows a push judges (PostgreSQL, for the device's
   * sync_clients row and each stored row before it is merged); SQLite has one writer.
   */
  readonly forUpdate: string;
  /**
   * A FROM item naming `row`'s values as a row of `table` (its `columns`, typed as the table's on
   * PostgreSQL), so a scope SQL written for `R` can be evaluated on a row not stored yet.
   */
  rowOf(table: string, columns: string[], values: SqlValue[]): { from: string; params: SqlValue[] };
  /** Starts a new version unit (SQLite: each pushed mutation; PostgreSQL: the transaction is one). */
  beginUnit(): void;
  /** The version of the current unit (what sync_version() answers). */
  version(): Promise<number>;
  /**
   * Gives a row a new version, a tombstone where the central has none, so the device's next pull
   * puts the central's row (or its absence) back.
   */
  restamp(table: ReplicatedTable, key: SqlValue[]): Promise<void>;
  /**
   * A database error that is permanent for these rows (a constraint, a value of the wrong type) as
   * the refusal a device is told; null for anything temporary.
   */
  refusalOf(error: unknown): Refusal | null;
  /**
   * The database ended the transaction to break a deadlock with another (PostgreSQL 40P01, or a
   * serialization failure, 40001): nothing of it was written, and run again it only waits for the
   * other. SQLite's one writer never meets another.
   */
  retryable(error: unknown): boolean;
}
