import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only (no SQLite twin): each version entry keeps the JSON of the row it stamps, as
 * `row_to_json` writes it when the row is written, so a pull serves the text it stored instead
 * of looking the row up and converting it again for every device that pulls it (the ~17 devices
 * of a facility each pull every row of it). `row_json` NULL means "look the row up", as every
 * entry was before: tombstones, restamps, rows stamped at a central's first start, rows copied by
 * migrate-central, and the tables whose rows are large or not sent whole (the log, which has a
 * generated column; the advice and order documents; the interchanges). Decision "A version entry
 * keeps its row's JSON".
 *
 * The stamping functions of the other tables are those of 0017_sync_stamps, their new row's
 * stamp given `row_to_json(NEW)::text`; the triggers stay as they are (AFTER INSERT OR UPDATE OR
 * DELETE, each row), so every write of such a row writes its JSON.
 *
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sync_row_versions ADD COLUMN row_json text`.execute(db);
  // An order's JSON is about 2 KB: past the default 2 KB target PostgreSQL would compress every
  // stamp of an order (pglz) on its way in; up to a page, the entry stays one plain tuple.
  await sql`ALTER TABLE sync_row_versions SET (toast_tuple_target = 8160)`.execute(db);
  // Without the row: the JSON stored before would be stale, so it goes.
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_row(p_tbl text, p_key text, p_deleted bigint,
      p_facility text, p_order text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, xid)
        VALUES (p_tbl, p_key, sync_version(), p_deleted, p_facility, p_order, pg_current_xact_id())
        ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version,
          deleted = excluded.deleted, src_rowid = NULL, xid = excluded.xid, row_json = NULL,
          facility_id = coalesce(excluded.facility_id, sync_row_versions.facility_id),
          order_id = coalesce(excluded.order_id, sync_row_versions.order_id);
    END $$`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_row(p_tbl text, p_key text, p_deleted bigint,
      p_facility text, p_order text, p_row text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, xid,
          row_json)
        VALUES (p_tbl, p_key, sync_version(), p_deleted, p_facility, p_order, pg_current_xact_id(),
          p_row)
        ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version,
          deleted = excluded.deleted, src_rowid = NULL, xid = excluded.xid,
          row_json = excluded.row_json,
          facility_id = coalesce(excluded.facility_id, sync_row_versions.facility_id),
          order_id = coalesce(excluded.order_id, sync_row_versions.order_id);
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_tombstone(p_tbl text, p_key text) RETURNS void LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE sync_row_versions SET version = sync_version(), deleted = 1, src_rowid = NULL,
          xid = pg_current_xact_id(), row_json = NULL
        WHERE tbl = p_tbl AND row_key = p_key;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('organizations', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('organizations', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('organizations', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('facilities', '[' || to_json(OLD.id)::text || ']', 1,
          OLD.id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('facilities', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('facilities', '[' || to_json(NEW.id)::text || ']', 0,
        NEW.id, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_brands() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('brands', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('brands', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('brands', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_retailers() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('retailers', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('retailers', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('retailers', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_brand_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('brand_facilities', '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.facility_id)::text || ']', 1,
          OLD.facility_id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.facility_id)::text || ']' <> '[' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.facility_id)::text || ']' THEN
        PERFORM sync_tombstone('brand_facilities', '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.facility_id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('brand_facilities', '[' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.facility_id)::text || ']', 0,
        NEW.facility_id, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_users() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('users', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('users', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('users', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_user_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('user_facilities', '[' || to_json(OLD.user_id)::text || ',' || to_json(OLD.facility_id)::text || ']', 1,
          OLD.facility_id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.user_id)::text || ',' || to_json(OLD.facility_id)::text || ']' <> '[' || to_json(NEW.user_id)::text || ',' || to_json(NEW.facility_id)::text || ']' THEN
        PERFORM sync_tombstone('user_facilities', '[' || to_json(OLD.user_id)::text || ',' || to_json(OLD.facility_id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('user_facilities', '[' || to_json(NEW.user_id)::text || ',' || to_json(NEW.facility_id)::text || ']', 0,
        NEW.facility_id, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_user_admin() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('user_admin', '[' || to_json(OLD.user_id)::text || ',' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.facility_id)::text || ']', 1,
          OLD.facility_id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.user_id)::text || ',' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.facility_id)::text || ']' <> '[' || to_json(NEW.user_id)::text || ',' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.facility_id)::text || ']' THEN
        PERFORM sync_tombstone('user_admin', '[' || to_json(OLD.user_id)::text || ',' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.facility_id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('user_admin', '[' || to_json(NEW.user_id)::text || ',' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.facility_id)::text || ']', 0,
        NEW.facility_id, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_connections() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('connections', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('connections', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('connections', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_orders() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('orders', '[' || to_json(OLD.id)::text || ']', 1,
          OLD.facility_id, OLD.id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('orders', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('orders', '[' || to_json(NEW.id)::text || ']', 0,
        NEW.facility_id, NEW.id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_order_items() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('order_items', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('order_items', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('order_items', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_pallets() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('pallets', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('pallets', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('pallets', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_cartons() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('cartons', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('cartons', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('cartons', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_carton_skus() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('carton_skus', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM cartons c JOIN orders o ON o.id = c.order_id WHERE c.id = OLD.carton_id), (SELECT c.order_id FROM cartons c WHERE c.id = OLD.carton_id));
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('carton_skus', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('carton_skus', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM cartons c JOIN orders o ON o.id = c.order_id WHERE c.id = NEW.carton_id), (SELECT c.order_id FROM cartons c WHERE c.id = NEW.carton_id), row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_order_activity() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('order_activity', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('order_activity', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('order_activity', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_order_bol_versions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('order_bol_versions', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('order_bol_versions', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('order_bol_versions', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_order_po_lines() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('order_po_lines', '[' || to_json(OLD.order_id)::text || ',' || to_json(OLD.line_id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.order_id)::text || ',' || to_json(OLD.line_id)::text || ']' <> '[' || to_json(NEW.order_id)::text || ',' || to_json(NEW.line_id)::text || ']' THEN
        PERFORM sync_tombstone('order_po_lines', '[' || to_json(OLD.order_id)::text || ',' || to_json(OLD.line_id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('order_po_lines', '[' || to_json(NEW.order_id)::text || ',' || to_json(NEW.line_id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_advice_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('advice_snapshots', '[' || to_json(OLD.id)::text || ']', 1,
          OLD.facility_id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('advice_snapshots', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('advice_snapshots', '[' || to_json(NEW.id)::text || ']', 0,
        NEW.facility_id, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_advice_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('advice_deliveries', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT s.facility_id FROM advice_snapshots s WHERE s.id = OLD.snapshot_id), NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('advice_deliveries', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('advice_deliveries', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT s.facility_id FROM advice_snapshots s WHERE s.id = NEW.snapshot_id), NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_billing_prices() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('billing_prices', '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.metric)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.metric)::text || ']' <> '[' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.metric)::text || ']' THEN
        PERFORM sync_tombstone('billing_prices', '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.metric)::text || ']');
      END IF;
      PERFORM sync_stamp_row('billing_prices', '[' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.metric)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_billing_action_prices() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('billing_action_prices', '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.action_type)::text || ',' || to_json(OLD.metric)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.action_type)::text || ',' || to_json(OLD.metric)::text || ']' <> '[' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.action_type)::text || ',' || to_json(NEW.metric)::text || ']' THEN
        PERFORM sync_tombstone('billing_action_prices', '[' || to_json(OLD.brand_id)::text || ',' || to_json(OLD.action_type)::text || ',' || to_json(OLD.metric)::text || ']');
      END IF;
      PERFORM sync_stamp_row('billing_action_prices', '[' || to_json(NEW.brand_id)::text || ',' || to_json(NEW.action_type)::text || ',' || to_json(NEW.metric)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_chargebacks() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('chargebacks', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('chargebacks', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('chargebacks', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_pos_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('pos_rows', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('pos_rows', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('pos_rows', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_sscc_serial_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('sscc_serial_blocks', '[' || to_json(OLD.company_prefix)::text || ',' || to_json(OLD.first_serial)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.company_prefix)::text || ',' || to_json(OLD.first_serial)::text || ']' <> '[' || to_json(NEW.company_prefix)::text || ',' || to_json(NEW.first_serial)::text || ']' THEN
        PERFORM sync_tombstone('sscc_serial_blocks', '[' || to_json(OLD.company_prefix)::text || ',' || to_json(OLD.first_serial)::text || ']');
      END IF;
      PERFORM sync_stamp_row('sscc_serial_blocks', '[' || to_json(NEW.company_prefix)::text || ',' || to_json(NEW.first_serial)::text || ']', 0,
        NULL, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE FUNCTION sync_stamp_sync_conflicts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('sync_conflicts', '[' || to_json(OLD.id)::text || ']', 1,
          OLD.facility_id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('sync_conflicts', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('sync_conflicts', '[' || to_json(NEW.id)::text || ']', 0,
        NEW.facility_id, NULL, row_to_json(NEW)::text);
      RETURN NULL;
    END $$`.execute(db);
}
