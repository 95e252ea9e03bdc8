import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only (no SQLite twin, whose one writer cannot interleave): the billing triggers
 * recount an order's totals from its rows, and on the pool (READ COMMITTED) a recount's UPDATE
 * reads the rows with the snapshot it took before waiting for another writer's lock on the same
 * `order_billing_totals` row, so it missed that writer's row once it committed (60 parallel
 * label prints, slips and actions on one order: a label or a slip lost about one run in two,
 * test/races/billing-totals.test.ts). `billing_ensure_row`, which every recount calls first, now
 * also locks the row: the recount that follows is a new statement whose snapshot sees what the
 * writer before it committed. Same lock, same order as the UPDATE's, taken a statement earlier.
 *
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION billing_ensure_row(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = target
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM order_billing_totals WHERE order_id = target FOR UPDATE;
END
$$`.execute(db);
}
