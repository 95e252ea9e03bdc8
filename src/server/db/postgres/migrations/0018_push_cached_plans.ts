import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only (no SQLite twin): the helper functions the per-row triggers call on every
 * pushed row, rewritten from LANGUAGE sql to PL/pgSQL with the same statements. PostgreSQL 15
 * plans every statement of a non-inlined SQL function again on each call, while PL/pgSQL keeps
 * its plans for the connection's life: in the central bench's push profile (pg_stat_statements,
 * docs/benchmarks.md) `billing_count_activity` cost 3.1 ms a call, most of it planning its
 * aggregate, and `sync_stamp_row` 0.6 ms around a 0.2 ms insert. What the functions write is
 * unchanged (decision "The central's push on PostgreSQL: cached plans, fewer statements").
 *
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE FUNCTION billing_ensure_row(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = target
  ON CONFLICT DO NOTHING;
END
$$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION billing_count_pallets(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM billing_ensure_row(target);
  UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = target) WHERE order_id = target;
END
$$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION billing_count_units(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM billing_ensure_row(target);
  UPDATE order_billing_totals SET (units, skus) = (
    SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
    FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = target)
  WHERE order_id = target;
END
$$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION billing_count_cartons(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM billing_ensure_row(target);
  UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = target) WHERE order_id = target;
  PERFORM billing_count_units(target);
END
$$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION billing_count_activity(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM billing_ensure_row(target);
  UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
    SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
    FROM order_activity WHERE order_id = target)
  WHERE order_id = target;
  DELETE FROM order_action_totals WHERE order_id = target;
  INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL AND a.order_id = target GROUP BY a.order_id, a.action_type, a.metric, o.id;
END
$$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_row(p_tbl text, p_key text, p_deleted bigint,
      p_facility text, p_order text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, xid)
        VALUES (p_tbl, p_key, sync_version(), p_deleted, p_facility, p_order, pg_current_xact_id())
        ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version,
          deleted = excluded.deleted, src_rowid = NULL, xid = excluded.xid,
          facility_id = coalesce(excluded.facility_id, sync_row_versions.facility_id),
          order_id = coalesce(excluded.order_id, sync_row_versions.order_id);
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_tombstone(p_tbl text, p_key text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE sync_row_versions SET version = sync_version(), deleted = 1, src_rowid = NULL,
          xid = pg_current_xact_id()
        WHERE tbl = p_tbl AND row_key = p_key;
    END $$`.execute(db);
}
