import pg from 'pg';

/**
 * E2E_DATABASE_URL: a PostgreSQL server (a role that may create databases) for the spec services.
 * Unset, they run on SQLite in their data dirs. Set, each spec file's service gets a database of
 * its own, made empty here and migrated and seeded by the service, so the UI is tested on what
 * head-office users sign in to (issue 17).
 */
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL || null;

/** A new empty database on the E2E_DATABASE_URL server for one spec; its URL and a drop. */
export async function createSpecDatabase(
  adminUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const database = `e2e_${name.replace(/\W/g, '_')}_${process.pid}_${Date.now()}`.toLowerCase();
  await onServer(adminUrl, `CREATE DATABASE "${database}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    // The service has closed its pool by then; WITH (FORCE) covers one that was killed.
    drop: () => onServer(adminUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`),
  };
}

async function onServer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
