import type { Kysely } from 'kysely';

/**
 * The two engines the service runs on (DESIGN.md, Data layer): SQLite in the data dir, or
 * PostgreSQL with `--database-url`. Engine-specific modules choose their twin by this value.
 */
export type Engine = 'sqlite' | 'postgres';

const engines = new WeakMap<object, Engine>();

/** Tags a Kysely instance with its engine when it is opened. */
export function registerEngine(db: Kysely<never> | object, engine: Engine): void {
  engines.set(db, engine);
}

/** The engine behind `db`; SQLite for an instance nobody tagged (tests that open their own). */
export function engineOf(db: object): Engine {
  return engines.get(db) ?? 'sqlite';
}

/** Thrown at start-up (never mid-request) for what has no PostgreSQL twin yet. */
export class NotOnPostgresError extends Error {
  constructor(what: string) {
    super(`${what} is not available on PostgreSQL yet`);
    this.name = 'NotOnPostgresError';
  }
}
