import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cloneTemplate, type ClonedDatabase } from '../helpers/postgres/databases';

/*
 * The central's stamps on PostgreSQL (db/postgres/migrations/0017_sync_stamps.ts): one version per
 * transaction from sync_version(), the writing transaction's id beside it, and nothing at all on a
 * database that is not a central (no sync_meta row).
 */
const postgres = inject('postgres');

describe.skipIf(!postgres)('PostgreSQL version stamps', () => {
  let cloned: ClonedDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    cloned = await cloneTemplate(postgres!);
    client = new pg.Client({ connectionString: cloned.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await cloned?.drop();
  });
  const versions = async () =>
    (
      await client.query<{
        tbl: string;
        row_key: string;
        version: string;
        deleted: string;
        xid: string;
      }>(
        `SELECT tbl, row_key, version, deleted, xid::text AS xid FROM sync_row_versions ORDER BY tbl, row_key COLLATE "C"`,
      )
    ).rows;

  it('stamps nothing on a database that is not a central', async () => {
    await client.query(`INSERT INTO retailers (id, name) VALUES ('r0', 'Zero')`);
    expect(await versions()).toEqual([]);
  });

  it('gives every row of one transaction the same version and the writer xid', async () => {
    await client.query(
      `INSERT INTO sync_meta (id, epoch) VALUES (1, '00000000-0000-4000-8000-000000000000')`,
    );
    await client.query('BEGIN');
    await client.query(`INSERT INTO retailers (id, name) VALUES ('r1', 'One'), ('r"2', 'Two')`);
    const xid = (await client.query<{ x: string }>(`SELECT pg_current_xact_id()::text AS x`))
      .rows[0]!.x;
    const inside = (await client.query<{ v: string }>(`SELECT sync_version() AS v`)).rows[0]!.v;
    await client.query('COMMIT');
    const rows = await versions();
    expect(rows.map((r) => r.row_key)).toEqual(['["r1"]', '["r\\"2"]']);
    expect(new Set(rows.map((r) => String(r.version)))).toEqual(new Set([String(inside)]));
    expect(rows.every((r) => r.xid === xid)).toBe(true);
    // The next transaction takes the next version.
    await client.query(`UPDATE retailers SET name = 'Uno' WHERE id = 'r1'`);
    const after = (await versions()).find((r) => r.row_key === '["r1"]')!;
    expect(Number(after.version)).toBe(Number(inside) + 1);
  });

  it('writes a tombstone for a deleted row and for the old key of a changed one', async () => {
    await client.query(`UPDATE retailers SET id = 'r3' WHERE id = 'r1'`);
    await client.query(`DELETE FROM retailers WHERE id = 'r"2'`);
    const rows = await versions();
    expect(rows.map((r) => [r.row_key, Number(r.deleted)])).toEqual([
      ['["r1"]', 1],
      ['["r3"]', 0],
      ['["r\\"2"]', 1],
    ]);
  });
});
