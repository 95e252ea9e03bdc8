import { sql, type Kysely } from 'kysely';

/**
 * The transaction search also finds an order's picksheet code and PO number (issue 19): a
 * trigram index of every order's codes, contentless like the transactions' one, with
 * `orders_search_ids` giving each order a stable integer (VACUUM may renumber the orders table's
 * own rowid). Triggers keep it in step with every write to orders.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 * The SQL is what transactions/search-queries.ts emitted when this was written.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    sql`CREATE TABLE orders_search_ids (id INTEGER PRIMARY KEY, order_id TEXT NOT NULL UNIQUE)`,
    sql`CREATE VIRTUAL TABLE orders_code_search USING fts5(picksheet_code, po_number,
      content='', contentless_delete=1, tokenize='trigram')`,
    sql`CREATE TRIGGER orders_code_search_insert AFTER INSERT ON orders BEGIN
      INSERT INTO orders_search_ids (order_id) VALUES (new.id);
      INSERT INTO orders_code_search (rowid, picksheet_code, po_number)
        VALUES ((SELECT id FROM orders_search_ids WHERE order_id = new.id), new.picksheet_code, new.po_number);
    END`,
    sql`CREATE TRIGGER orders_code_search_delete AFTER DELETE ON orders BEGIN
      DELETE FROM orders_code_search WHERE rowid = (SELECT id FROM orders_search_ids WHERE order_id = old.id);
      DELETE FROM orders_search_ids WHERE order_id = old.id;
    END`,
    sql`CREATE TRIGGER orders_code_search_update AFTER UPDATE OF id, picksheet_code, po_number
      ON orders WHEN old.id IS NOT new.id OR old.picksheet_code IS NOT new.picksheet_code
        OR old.po_number IS NOT new.po_number BEGIN
      DELETE FROM orders_code_search WHERE rowid = (SELECT id FROM orders_search_ids WHERE order_id = old.id);
      UPDATE orders_search_ids SET order_id = new.id WHERE order_id = old.id;
      INSERT INTO orders_code_search (rowid, picksheet_code, po_number)
        VALUES ((SELECT id FROM orders_search_ids WHERE order_id = new.id), new.picksheet_code, new.po_number);
    END`,
    sql`INSERT INTO orders_search_ids (order_id) SELECT id FROM orders ORDER BY created_at, id`,
    sql`INSERT INTO orders_code_search (rowid, picksheet_code, po_number)
      SELECT m.id, o.picksheet_code, o.po_number
      FROM orders_search_ids m JOIN orders o ON o.id = m.order_id`,
  ];
  for (const statement of statements) await statement.execute(db);
}
