import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { PullPage } from '../../src/server/sync/protocol';
import { buildPostgresPullPage } from '../../src/server/sync/pull.postgres';
import { postgresRow } from '../../src/server/sync/pull-scope.postgres';
import { RENO, startCentral, type TestCentral } from '../sync/helpers/cluster';

/*
 * A version entry keeps the JSON of the row it stamps (migration 0019_sync_row_json), and a pull
 * serves that text instead of looking the row up (pull-page.postgres.ts). What it serves must be
 * what the lookup gives, byte for byte: after inserts, updates, a key change and deletes on
 * tables with one and two key columns, a device's whole first pull is the same text with the
 * stored JSON and with every entry's JSON dropped (the lookup for all).
 */
const postgres = inject('postgres');
const DEVICE = { id: 'd0000000-0000-4000-8000-0000000000aa', facilityIds: [RENO] };

describe.skipIf(!postgres)('pulls serve the JSON a version entry keeps (PostgreSQL)', () => {
  let central: TestCentral;
  beforeAll(async () => {
    central = await startCentral({ engine: 'postgres' });
  });
  afterAll(async () => {
    await central?.close();
  });

  const db = () => central.context.db;

  const sortedChanges = (text: string) =>
    (JSON.parse(text) as unknown[]).map((change) => JSON.stringify(change)).sort();

  /** Every page of a first pull, as the device gets them (text of each page's changes). */
  async function firstPull(): Promise<string[]> {
    const pages: string[] = [];
    let page: PullPage | undefined;
    do {
      page = await buildPostgresPullPage(db(), DEVICE, page?.cursor, 40);
      pages.push(JSON.stringify(page.changes));
    } while (page.more);
    return pages;
  }

  it('serves the stored JSON, the same text the lookup gives, after every kind of write', async () => {
    const order = (
      await sql<{
        id: string;
      }>`SELECT id FROM orders WHERE facility_id = ${RENO} ORDER BY id LIMIT 1`.execute(db())
    ).rows[0]!.id;
    await sql`UPDATE orders SET po_number = 'PO-"quoted" \\ é', updated_at = '2026-11-26T12:00:00.000Z'
      WHERE id = ${order}`.execute(db());
    await sql`UPDATE order_items SET description = E'tab\\there\\nnew line', quantity = quantity + 1
      WHERE order_id = ${order}`.execute(db());
    await sql`INSERT INTO order_activity (id, order_id, kind, action_type, metric, count, created_at)
      VALUES ('row-json-activity-1', ${order}, 'ACTION', 'LABEL_PRINT', 'carton_label_gs1', 2,
        '2026-11-26T12:00:00.000Z')`.execute(db());
    await sql`INSERT INTO order_activity (id, order_id, kind, action_type, metric, count, created_at)
      VALUES ('row-json-activity-2', ${order}, 'ACTION', 'LABEL_PRINT', 'carton_label_gs1', 1,
        '2026-11-26T12:00:00.000Z')`.execute(db());
    await sql`DELETE FROM order_activity WHERE id = 'row-json-activity-2'`.execute(db());
    await sql`UPDATE order_activity SET id = 'row-json-activity-3' WHERE id = 'row-json-activity-1'`.execute(
      db(),
    );
    await sql`UPDATE billing_prices SET price_cents = price_cents + 1`.execute(db());
    await sql`UPDATE brands SET name = name || ' (renamed)'`.execute(db());

    const stored = await sql<{ tbl: string; n: number }>`SELECT tbl, count(*)::int AS n
      FROM sync_row_versions WHERE row_json IS NOT NULL GROUP BY tbl ORDER BY tbl`.execute(db());
    const storedTables = stored.rows.map((r) => r.tbl);
    for (const table of ['orders', 'order_items', 'order_activity', 'billing_prices', 'brands']) {
      expect(storedTables, table).toContain(table);
    }
    // Byte for byte what the lookup writes for the row as it is now.
    for (const table of storedTables) {
      const differing = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sync_row_versions v
        WHERE v.tbl = ${table} AND v.row_json IS NOT NULL AND v.row_json IS DISTINCT FROM
          (SELECT row_to_json(x)::text FROM ${sql.table(table)} x WHERE ${sql.raw(postgresRow(table))})`.execute(
        db(),
      );
      expect(differing.rows[0]!.n, table).toBe(0);
    }
    // Tombstones and the log never keep a row.
    const kept = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sync_row_versions
      WHERE row_json IS NOT NULL AND (deleted = 1 OR tbl = 'transactions')`.execute(db());
    expect(kept.rows[0]!.n).toBe(0);

    const served = await firstPull();
    const changes = served.flatMap(
      (text) => JSON.parse(text) as { t: string; k: unknown[]; row?: unknown }[],
    );
    expect(changes.some((c) => c.t === 'order_activity' && c.k[0] === 'row-json-activity-3')).toBe(
      true,
    );
    // Gone rows come as tombstones (a first pull's pages after its first), never as rows.
    for (const gone of ['row-json-activity-1', 'row-json-activity-2']) {
      expect(changes.some((c) => c.k[0] === gone && c.row !== undefined)).toBe(false);
    }
    expect(JSON.stringify(changes)).toContain('PO-\\"quoted\\" \\\\ é');

    await sql`UPDATE sync_row_versions SET row_json = NULL`.execute(db());
    // The same changes, the same page ends (a page ends at a version): entries of one version
    // come in no set order, and rewriting every entry moved them on disk.
    const looked = await firstPull();
    expect(looked.map(sortedChanges)).toEqual(served.map(sortedChanges));
  });
});
