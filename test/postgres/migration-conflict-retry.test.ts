import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Database } from '../../src/server/db/schema';
import { runMigrations } from '../../src/server/db/postgres/open';
import { databaseUrl, onAdmin } from '../helpers/postgres/databases';

/**
 * A data migration that deadlocks with another writer at start-up is run again, not left to fail
 * the start (docs/operations.md, Several central processes). The other writer waits with a long
 * `deadlock_timeout`, so the migration's backend finds the deadlock and is the one ended.
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)('PostgreSQL migrations ended by a deadlock', () => {
  const name = `t_mig_${randomBytes(5).toString('hex')}`;
  let url = '';
  beforeAll(async () => {
    await onAdmin(postgres!.adminUrl, [`CREATE DATABASE ${name}`]);
    url = databaseUrl(postgres!.adminUrl, name);
    await onAdmin(url, [
      'CREATE TABLE counters (id int PRIMARY KEY, v int NOT NULL)',
      'INSERT INTO counters VALUES (1, 0), (2, 0)',
    ]);
  });
  afterAll(async () => {
    if (postgres)
      await onAdmin(postgres.adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
  });

  it('rolls the run back and applies it on the next attempt', async () => {
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    let runs = 0;
    // Takes row 1, lets the other writer take row 2 and wait for row 1, then wants row 2.
    const migration: Migration = {
      async up(db) {
        runs++;
        await sql`UPDATE counters SET v = v + 10 WHERE id = 1`.execute(db);
        if (runs === 1) {
          await other.query("SET deadlock_timeout = '20s'");
          await other.query('BEGIN');
          await other.query('UPDATE counters SET v = v + 1 WHERE id = 2');
          const waiting = other.query('UPDATE counters SET v = v + 1 WHERE id = 1');
          waiting.then(
            () => other.query('COMMIT'),
            () => undefined,
          );
          await waitUntilBlocked(url);
        }
        await sql`UPDATE counters SET v = v + 10 WHERE id = 2`.execute(db);
      },
    };
    const provider: MigrationProvider = { getMigrations: async () => ({ m1: migration }) };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    try {
      await runMigrations(db, provider);
      expect(runs).toBe(2);
      const applied = await sql<{ name: string }>`SELECT name FROM kysely_migration`.execute(db);
      expect(applied.rows.map((r) => r.name)).toEqual(['m1']);
      // The other writer's +1 on both rows committed after the first run rolled back; the second
      // run's +10 on each is there once.
      const rows = await sql<{
        id: number;
        v: number;
      }>`SELECT id, v FROM counters ORDER BY id`.execute(db);
      expect(rows.rows).toEqual([
        { id: 1, v: 11 },
        { id: 2, v: 11 },
      ]);
    } finally {
      await db.destroy();
      await other.end();
    }
  });

  it('still fails the start on any other error, naming the migration', async () => {
    const provider: MigrationProvider = {
      getMigrations: async () => ({
        m1: { up: async () => undefined }, // the test above may have applied it
        m2: { up: (db) => sql`SELECT * FROM no_such_table`.execute(db).then(() => undefined) },
      }),
    };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
    });
    try {
      await expect(runMigrations(db, provider)).rejects.toThrow(
        /migration m2 failed: .*no_such_table/,
      );
    } finally {
      await db.destroy();
    }
  });
});

/** Until some backend of the database waits for a row lock. */
async function waitUntilBlocked(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (let i = 0; i < 200; i++) {
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the other writer never waited');
  } finally {
    await client.end();
  }
}
