import { PostgresAdapter, type Kysely } from 'kysely';

/**
 * The two engines the service runs on (DESIGN.md, Data layer): SQLite in the data dir, or
 * PostgreSQL with `--database-url`. Engine-specific modules choose their twin by this value.
 */
export type Engine = 'sqlite' | 'postgres';

/**
 * The engine behind `db`, read from its dialect's adapter, so a transaction (its own Kysely
 * instance) answers like the database it came from.
 */
export function engineOf(db: Pick<Kysely<never>, 'getExecutor'>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
