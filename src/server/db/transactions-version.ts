import type SQLite from 'better-sqlite3';
import type { Db } from './db';
import { postgresCacheVersion } from './cache-versions.postgres';
import { engineOf } from './engine';
import { installWriteCounter, type WriteCounter } from './write-counter';

/**
 * A counter that moves on every write that can change a page of the transaction log: its rows,
 * and orders' PO numbers and picksheet codes (the `po_number` filter and the search go through
 * the order, and each row shows both). Who may see what is
 * versioned separately (auth-version.ts) and is part of a cached page's key.
 */
const counters = new WeakMap<Db, WriteCounter>();

export function installTransactionsVersion(sqlite: SQLite.Database, db: Db): void {
  counters.set(
    db,
    installWriteCounter(sqlite, 'transactions_changed', {
      transactions: ['INSERT', 'DELETE', 'UPDATE'],
      orders: ['INSERT', 'DELETE', 'UPDATE OF po_number, picksheet_code'],
    }),
  );
}

/**
 * The counter's value, or undefined when there is none (callers then must not cache). On
 * PostgreSQL, the counter that permanent triggers keep for every process
 * (./cache-versions.postgres.ts); none inside a transaction, whose writes count at its commit.
 */
export async function transactionsVersion(db: Db): Promise<number | undefined> {
  if (engineOf(db) === 'sqlite') return counters.get(db)?.value;
  return db.isTransaction ? undefined : postgresCacheVersion(db, 'transactions');
}
