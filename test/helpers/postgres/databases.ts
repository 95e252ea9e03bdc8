import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** What the global setup hands each test file (vitest `provide`/`inject`). */
export interface PostgresForTests {
  /** A superuser connection to the cluster's `postgres` database. */
  adminUrl: string;
  /** The migrated database, with pg_trgm, that each test file clones. */
  template: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Null when the PostgreSQL tests are skipped (no server here, no DATABASE_URL). */
    postgres: PostgresForTests | null;
  }
}

/** `postgres://…/postgres` with another database name. */
export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs statements on the admin connection, one client for the call. */
export async function onAdmin(adminUrl: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database with pg_trgm (the service's one required extension). */
export async function createTemplate(adminUrl: string, name: string): Promise<string> {
  await onAdmin(adminUrl, [
    `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`,
    `CREATE DATABASE ${name}`,
  ]);
  await onAdmin(databaseUrl(adminUrl, name), ['CREATE EXTENSION IF NOT EXISTS pg_trgm']);
  return databaseUrl(adminUrl, name);
}

export interface ClonedDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database for one test service, cloned from the template (about 0.05 s). */
export async function cloneTemplate(pg: PostgresForTests): Promise<ClonedDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  await onAdmin(pg.adminUrl, [`CREATE DATABASE ${name} TEMPLATE ${pg.template} STRATEGY WAL_LOG`]);
  return {
    url: databaseUrl(pg.adminUrl, name),
    drop: () => onAdmin(pg.adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]),
  };
}
