import type SQLite from 'better-sqlite3';
import type { Db } from './db';
import { postgresCacheVersion } from './cache-versions.postgres';
import { engineOf } from './engine';
import { installWriteCounter, type WatchedWrites, type WriteCounter } from './write-counter';

/**
 * A counter that moves on every write to the rows that decide who a user is and what it sees
 * (users, grants, facilities, brands, retailers, connections). Caches of such data are tagged
 * with the counter read before loading and are dropped as soon as it moves.
 *
 * SQLite triggers bump it, so no write path can forget to: seed imports, settings, tests that
 * write rows directly. A trigger runs inside the writing statement, before its transaction
 * commits; a reload then goes through Kysely, which waits for the transaction's connection, so
 * it reads the committed rows. A rolled-back write only causes one needless reload.
 *
 * The triggers are TEMP (this connection only), so no migration is needed. Another process
 * writing the same file is not seen; nothing does that while the service runs. On PostgreSQL,
 * where several processes share the database, permanent triggers keep the counter in a table
 * instead (./cache-versions.postgres.ts), read anew on every use.
 */
const versions = new WeakMap<Db, WriteCounter>();

const FUNCTION_NAME = 'auth_data_changed';

/** Table -> the events that change cached auth data (UPDATE OF lists the columns that matter). */
const WATCHED: WatchedWrites = {
  users: ['INSERT', 'DELETE', 'UPDATE OF id, email, brand_id'],
  user_facilities: ['INSERT', 'DELETE', 'UPDATE'],
  user_admin: ['INSERT', 'DELETE', 'UPDATE'],
  facilities: ['INSERT', 'DELETE', 'UPDATE'],
  brands: ['INSERT', 'DELETE', 'UPDATE'],
  brand_facilities: ['INSERT', 'DELETE', 'UPDATE'],
  retailers: ['INSERT', 'DELETE', 'UPDATE'],
  // Not the control-number counters, which every advice updates.
  connections: ['INSERT', 'DELETE', 'UPDATE OF id, organization_id, brand_id, retailer_id'],
};

/** Installs the counter on an opened database (after its migrations). */
export function installAuthDataVersion(sqlite: SQLite.Database, db: Db): void {
  versions.set(db, installWriteCounter(sqlite, FUNCTION_NAME, WATCHED));
}

/**
 * The counter's value, or undefined when there is none (callers then must not cache): SQLite's
 * before it is installed, and PostgreSQL's inside a transaction, whose own writes move the
 * counter only at its commit.
 */
export async function authDataVersion(db: Db): Promise<number | undefined> {
  if (engineOf(db) === 'sqlite') return versions.get(db)?.value;
  return db.isTransaction ? undefined : postgresCacheVersion(db, 'auth');
}
