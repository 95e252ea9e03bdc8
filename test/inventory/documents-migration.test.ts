/**
 * Upgrading a data dir to documents of their own (migration 0016_advice_documents): every stored
 * document moves to advice_documents unchanged, the old column empties, and on a central the
 * moved document takes its delivery's row version (so a device pulling from the start gets it).
 */
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/server/db/migrations';
import type { Database } from '../../src/server/db/schema';

const MIGRATION = '0016_advice_documents';

describe(MIGRATION, () => {
  let db: Kysely<Database> | null = null;
  afterEach(async () => {
    await db?.destroy();
    db = null;
  });

  it('moves every stored document, byte for byte, and versions it like its delivery', async () => {
    const sqlite = new SQLite(':memory:');
    sqlite.pragma('foreign_keys = ON');
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    const names = Object.keys(await migrationProvider.getMigrations()).sort();
    const before = names[names.indexOf(MIGRATION) - 1]!;
    const migrator = new Migrator({ db, provider: migrationProvider });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();

    const at = '2030-01-01T00:00:00.000Z';
    const big = `ISA*00*${'LIN*1*SK*K~'.repeat(10_000)}IEA*1*000000001~`;
    sqlite.exec(`
      INSERT INTO organizations (id, name) VALUES ('o', 'Org');
      INSERT INTO brands (id, name) VALUES ('b', 'Brand');
      INSERT INTO retailers (id, name) VALUES ('r', 'Retailer');
      INSERT INTO connections (id, organization_id, brand_id, retailer_id, kind, enabled, transport_json)
        VALUES ('c', 'o', 'b', 'r', 'DIRECT_API', 1, '{"type":"file","directory":"x"}');
      INSERT INTO advice_snapshots (id, brand_id, facility_id, user_id, items_json, item_count, created_at)
        VALUES ('s', 'b', NULL, 'u', '[]', 0, '${at}');
      INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, src_rowid)
        VALUES ('advice_deliveries', json_array('sent'), 41, 0, NULL, NULL, 1);
    `);
    const insert = sqlite.prepare(
      `INSERT INTO advice_deliveries (id, snapshot_id, connection_id, status, document, created_at, updated_at)
       VALUES (?, 's', ?, ?, ?, '${at}', '${at}')`,
    );
    insert.run('sent', 'c', 'SUCCESS', big);
    insert.run('pending', 'c', 'PENDING', '{"items":[]}');
    insert.run('unbuilt', null, 'FAILURE', null);

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const documents = await db
      .selectFrom('advice_documents')
      .select(['delivery_id', 'body'])
      .orderBy('delivery_id')
      .execute();
    expect(documents).toEqual([
      { delivery_id: 'pending', body: '{"items":[]}' },
      { delivery_id: 'sent', body: big },
    ]);
    const legacy = await db
      .selectFrom('advice_deliveries')
      .select('id')
      .where('document', 'is not', null)
      .execute();
    expect(legacy).toEqual([]);
    const versions = sqlite
      .prepare(`SELECT row_key, version FROM sync_row_versions WHERE tbl = 'advice_documents'`)
      .all();
    expect(versions).toEqual([{ row_key: '["sent"]', version: 41 }]);
  });
});
