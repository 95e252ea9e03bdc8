import type pg from 'pg';
import type { Db } from '../db';

/**
 * The `pg` pool behind each PostgreSQL Kysely instance (open.ts registers it). A caller that
 * needs what Kysely's connection does not offer, named prepared statements (the central's push,
 * sync/apply-sql-postgres.ts), checks a client out of the same pool, so the pool's size still
 * bounds the service's connections.
 */
const pools = new WeakMap<object, pg.Pool>();

export function registerPool(db: Db, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** The pool of a PostgreSQL database opened by open.ts; undefined on SQLite or a transaction. */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}
