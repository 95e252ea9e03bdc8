/**
 * Upgrading a data dir to the drainer (migration 0004_outbox_drain): what a crash left PENDING
 * before the upgrade is due at once; earlier failures stay with the clerk.
 */
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/server/db/migrations';
import type { Database } from '../../src/server/db/schema';

const MIGRATION = '0004_outbox_drain';

describe(MIGRATION, () => {
  let db: Kysely<Database> | null = null;
  afterEach(async () => {
    await db?.destroy();
    db = null;
  });

  it('makes PENDING rows of an earlier version due at once, and leaves failures alone', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const before = names[names.indexOf(MIGRATION) - 1]!;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();

    const at = '2030-01-01T00:00:00.000Z';
    sqlite.exec(`
      INSERT INTO organizations (id, name) VALUES ('o', 'Org');
      INSERT INTO brands (id, name) VALUES ('b', 'Brand');
      INSERT INTO retailers (id, name) VALUES ('r', 'Retailer');
      INSERT INTO connections (id, organization_id, brand_id, retailer_id, kind, enabled, transport_json)
        VALUES ('c', 'o', 'b', 'r', 'DIRECT_API', 1, '{"type":"file","directory":"x"}');
      INSERT INTO advice_snapshots (id, brand_id, facility_id, user_id, items_json, item_count, created_at)
        VALUES ('s', 'b', NULL, 'u', '[]', 0, '${at}');
    `);
    const insert = sqlite.prepare(
      `INSERT INTO advice_deliveries (id, snapshot_id, connection_id, status, document, created_at, updated_at)
       VALUES (?, 's', ?, ?, ?, '${at}', ?)`,
    );
    insert.run('pending', 'c', 'PENDING', '{}', '2030-01-01T00:00:05.000Z');
    insert.run('failed', 'c', 'FAILURE', '{}', at);
    insert.run('unbuilt', null, 'FAILURE', null, at);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const rows = await db
      .selectFrom('advice_deliveries')
      .select(['id', 'next_attempt_at', 'auto_retries', 'given_up'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { id: 'failed', next_attempt_at: null, auto_retries: 0, given_up: 0 },
      { id: 'pending', next_attempt_at: '2030-01-01T00:00:05.000Z', auto_retries: 0, given_up: 0 },
      { id: 'unbuilt', next_attempt_at: null, auto_retries: 0, given_up: 0 },
    ]);
  });
});
