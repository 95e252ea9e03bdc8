import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openPostgres, type OpenedPostgres } from '../../src/server/db/postgres/open';
import { sql } from 'kysely';
import { buildPostgresPullPage } from '../../src/server/sync/pull.postgres';
import { scopeTag } from '../../src/server/sync/pull';
import { installPostgresStamps } from '../../src/server/sync/stamps.postgres';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/*
 * A central on PostgreSQL takes versions from a sequence, so they commit out of order: a pull
 * serves only what transactions older than its snapshot's xmin wrote (pull.postgres.ts). Retailers
 * reach every device, so a device with no facility sees them all.
 */
const postgres = inject('postgres');
const DEVICE = { id: 'd0000000-0000-4000-8000-000000000001', facilityIds: [] as string[] };

describe.skipIf(!postgres)('pulls from a central on PostgreSQL', () => {
  let cloned: ClonedDatabase;
  let store: OpenedPostgres;
  let other: pg.Client;
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    // Rows written before the service became the central get a version at its first start.
    store = await openPostgres(cloned.url, 4);
    await sql`INSERT INTO retailers (id, name) VALUES ('before', 'Before')`.execute(store.db);
    await installPostgresStamps(store.db);
    other = new pg.Client({ connectionString: cloned.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await store?.close();
    await cloned?.drop();
  });

  const page = (cursor: string | undefined, limit = 1000) =>
    buildPostgresPullPage(store.db, DEVICE, cursor, limit);
  const keysOf = (changes: { k: unknown[] }[]) => changes.map((c) => c.k[0]);
  const write = (id: string) =>
    sql`INSERT INTO retailers (id, name) VALUES (${id}, ${id})`.execute(store.db);

  it('makes a late commit with a lower version wait, then serves both once', async () => {
    const first = await page(undefined);
    expect(first.reset).toBe(true);
    expect(keysOf(first.changes)).toEqual(['before']);

    // Another connection takes a version and stays open; a later transaction commits after it.
    await other.query('BEGIN');
    await other.query(`INSERT INTO retailers (id, name) VALUES ('early', 'Early')`);
    await write('late');
    const versions = await sql<{ row_key: string; version: number }>`
      SELECT row_key, version FROM sync_row_versions WHERE tbl = 'retailers'`.execute(store.db);
    const versionOf = (id: string) =>
      versions.rows.find((r) => r.row_key === JSON.stringify([id]))?.version;
    expect(versionOf('late')).toBeDefined(); // the open transaction's row is not visible yet

    const waiting = await page(first.cursor);
    expect(waiting.changes).toEqual([]);
    expect(waiting.more).toBe(false);

    await other.query('COMMIT');
    const both = await page(waiting.cursor);
    expect(keysOf(both.changes)).toEqual(['early', 'late']);
    expect(both.changes[0]!.v).toBeLessThan(both.changes[1]!.v);
    const again = await page(both.cursor);
    expect(again.changes).toEqual([]);
  });

  it('pages a window by version; what commits between its pages comes in the next window', async () => {
    const start = await page(undefined);
    await write('p1');
    await write('p2');
    const one = await page(start.cursor, 1);
    expect(keysOf(one.changes)).toEqual(['p1']);
    expect(one.more).toBe(true);
    // Between two pages: p1 changes again and p3 is new; both have higher versions and xids.
    await sql`UPDATE retailers SET name = 'P1 again' WHERE id = 'p1'`.execute(store.db);
    await write('p3');
    const two = await page(one.cursor, 1);
    expect(keysOf(two.changes)).toEqual(['p2']);
    const rest = await page(two.cursor, 1000);
    expect(keysOf(rest.changes)).toEqual(['p1', 'p3']);
    expect(rest.changes[0]!.row).toMatchObject({ name: 'P1 again' });
    expect((await page(rest.cursor)).changes).toEqual([]);
  });

  it('takes a SQLite-era cursor of a copied central: nothing twice, nothing lost', async () => {
    // Rows copied from a SQLite central keep their versions and get xid 0 (the column default).
    const { epoch } = (await sql<{ epoch: string }>`SELECT epoch FROM sync_meta`.execute(store.db))
      .rows[0]!;
    const top = (
      await sql<{ v: number }>`SELECT max(version) AS v FROM sync_row_versions`.execute(store.db)
    ).rows[0]!.v;
    await sql`INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id)
      VALUES ('retailers', '["copied-seen"]', ${top + 100}, 1, NULL),
             ('retailers', '["copied-new"]', ${top + 101}, 1, NULL)`.execute(store.db);
    // The central's next start keeps the sequence past the copied versions.
    await installPostgresStamps(store.db);
    await write('after-copy');
    const cursor = `${epoch}:${top + 100}:${scopeTag(DEVICE.facilityIds)}`;
    const pulled = await page(cursor);
    expect(pulled.reset).toBe(false);
    expect(keysOf(pulled.changes)).toEqual(['copied-new', 'after-copy']);
    expect(pulled.changes[0]).toMatchObject({ deleted: true, v: top + 101 });
    expect(pulled.changes[1]!.v).toBeGreaterThan(top + 101);
  });

  it('loses and repeats nothing while 50 transactions commit in random order during pulls', async () => {
    const writers = await openPostgres(cloned.url, 20);
    try {
      let cursor = (await page(undefined)).cursor;
      const received = new Map<string, number>();
      const versions = new Map<string, number>();
      const take = async () => {
        for (;;) {
          const answer = await page(cursor, 7);
          for (const change of answer.changes) {
            const key = String(change.k[0]);
            received.set(key, (received.get(key) ?? 0) + 1);
            versions.set(key, change.v);
          }
          cursor = answer.cursor;
          if (!answer.more) return;
        }
      };
      let writing = true;
      const puller = (async () => {
        while (writing) await take();
      })();
      await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          writers.db.transaction().execute(async (trx) => {
            await sql`INSERT INTO retailers (id, name) VALUES (${`c${i}a`}, 'A')`.execute(trx);
            // Hold the transaction open a random while, so commits come out of version order.
            await sql`SELECT pg_sleep(random() * 0.2)`.execute(trx);
            await sql`INSERT INTO retailers (id, name) VALUES (${`c${i}b`}, 'B')`.execute(trx);
          }),
        ),
      );
      writing = false;
      await puller;
      await take();
      const expected = Array.from({ length: 50 }, (_, i) => [`c${i}a`, `c${i}b`]).flat();
      expect([...received.keys()].sort()).toEqual(expected.sort());
      expect([...received.values()].every((n) => n === 1)).toBe(true);
      // One version per transaction: both rows of a writer share it, and no two writers do.
      const perWriter = Array.from({ length: 50 }, (_, i) => versions.get(`c${i}a`));
      for (let i = 0; i < 50; i++) expect(versions.get(`c${i}b`)).toBe(perWriter[i]);
      expect(new Set(perWriter).size).toBe(50);
    } finally {
      await writers.close();
    }
  });
});
