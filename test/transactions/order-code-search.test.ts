import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { migrationProvider } from '../../src/server/db/migrations';

/*
 * The transaction search reaches an order's picksheet code and PO number through a trigram
 * index of its own (db/transactions-search.ts, createOrderCodeSearch): whatever writes orders,
 * and for orders already there when migration 0013 runs, the index must find the current codes
 * only.
 */

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const ORDER_SQL = `INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code,
  po_number, status, created_at, updated_at) VALUES (?, 'b1', 'r1', 'f1', ?, ?, 'Open', ?, ?)`;

function insertOrder(db: SQLite.Database, id: string, code: string, po: string | null) {
  db.prepare(ORDER_SQL).run(id, code, po, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
}

const found = (db: SQLite.Database, term: string) =>
  (
    db
      .prepare(
        `SELECT m.order_id AS id FROM orders_code_search s
          JOIN orders_search_ids m ON m.id = s.rowid
          WHERE orders_code_search MATCH ? ORDER BY 1`,
      )
      .all(`"${term}"`) as { id: string }[]
  ).map((row) => row.id);

it('indexes the orders a database has when migration 0013 runs, and follows every write after', async () => {
  dir = mkdtempSync(join(tmpdir(), 'fi-order-codes-'));
  const file = join(dir, 'app.sqlite');
  const early = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  const { error } = await new Migrator({ db: early, provider: migrationProvider }).migrateTo(
    '0012_sscc_serial_blocks',
  );
  expect(error).toBeUndefined();
  await early.destroy();
  const raw = new SQLite(file);
  raw.pragma('foreign_keys = OFF');
  insertOrder(raw, 'o1', 'PS-SUM-2611001', 'BB4500157');
  insertOrder(raw, 'o2', 'PS-BRM-2611002', null);
  raw.close();

  const database = await openDatabase(dir);
  try {
    const db = database.sqlite;
    db.pragma('foreign_keys = OFF');
    // Upgraded rows, any capitals, any part of 3+ characters.
    expect(found(db, 'ps-sum')).toEqual(['o1']);
    expect(found(db, '4500157')).toEqual(['o1']);
    expect(found(db, '2611')).toEqual(['o1', 'o2']);
    // A new order, a renamed one, a PO removed, a deleted one.
    insertOrder(db, 'o3', 'PS-NEW-1', 'NW4500999');
    db.prepare(`UPDATE orders SET picksheet_code = 'PS-RENAMED' WHERE id = 'o2'`).run();
    db.prepare(`UPDATE orders SET po_number = NULL WHERE id = 'o1'`).run();
    db.prepare(`UPDATE orders SET status = 'Picking' WHERE id = 'o3'`).run();
    expect(found(db, 'nw4500999')).toEqual(['o3']);
    expect(found(db, 'renamed')).toEqual(['o2']);
    expect(found(db, 'ps-brm')).toEqual([]);
    expect(found(db, 'bb4500157')).toEqual([]);
    db.prepare(`DELETE FROM orders WHERE id = 'o3'`).run();
    expect(found(db, 'ps-new')).toEqual([]);
    expect(db.prepare('SELECT order_id FROM orders_search_ids ORDER BY 1').pluck().all()).toEqual([
      'o1',
      'o2',
    ]);
  } finally {
    await database.close();
  }
});
