import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only (no SQLite twin): the central's version stamps (docs/sync.md, "A central on
 * PostgreSQL"). SQLite stamps with TEMP triggers and a JS function on its one connection
 * (sync/stamps.ts); a pool has many connections, so here the triggers are permanent and the
 * version comes from a sequence, one per transaction (`sync_version()`), with the writing
 * transaction's id (`xid`) beside it so a pull can wait for transactions still open.
 *
 * The triggers exist on every PostgreSQL database but act only on a central: they return at once
 * while `sync_meta` has no row (the central's first start writes it after stamping every existing
 * row), so a standalone service pays one lookup per written row and stores nothing.
 *
 * Rows copied from a SQLite central keep their versions and get xid 0 (older than every
 * transaction): the column default. The per-table functions were generated from
 * REPLICATED_TABLES (sync/synced-tables.ts) once and pasted: a later change to that list is a new
 * migration.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE SEQUENCE sync_version_seq`.execute(db);
  await sql`ALTER TABLE sync_row_versions ADD COLUMN xid xid8 NOT NULL DEFAULT '0'`.execute(db);
  await sql`ALTER TABLE sync_evictions ADD COLUMN xid xid8 NOT NULL DEFAULT '0'`.execute(db);
  await sql`CREATE INDEX sync_row_versions_xid ON sync_row_versions (xid)`.execute(db);
  await sql`CREATE INDEX sync_evictions_xid ON sync_evictions (xid)`.execute(db);
  // The current transaction's version: the first call takes the next value and keeps it in a
  // transaction-local setting, which ends with the transaction.
  await sql`CREATE FUNCTION sync_version() RETURNS bigint LANGUAGE plpgsql AS $$
    DECLARE
      current text := current_setting('sync.version', true);
    BEGIN
      IF current IS NULL OR current = '' THEN
        current := nextval('sync_version_seq')::text;
        PERFORM set_config('sync.version', current, true);
      END IF;
      RETURN current::bigint;
    END $$`.execute(db);
  await sql`CREATE FUNCTION sync_central() RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT EXISTS (SELECT 1 FROM sync_meta) $$`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_row(p_tbl text, p_key text, p_deleted bigint,
      p_facility text, p_order text) RETURNS void LANGUAGE sql AS $$
    INSERT INTO sync_row_versions (tbl, row_key, version, deleted, facility_id, order_id, xid)
      VALUES (p_tbl, p_key, sync_version(), p_deleted, p_facility, p_order, pg_current_xact_id())
      ON CONFLICT (tbl, row_key) DO UPDATE SET version = excluded.version,
        deleted = excluded.deleted, src_rowid = NULL, xid = excluded.xid,
        facility_id = coalesce(excluded.facility_id, sync_row_versions.facility_id),
        order_id = coalesce(excluded.order_id, sync_row_versions.order_id) $$`.execute(db);
  await sql`CREATE FUNCTION sync_tombstone(p_tbl text, p_key text) RETURNS void LANGUAGE sql AS $$
    UPDATE sync_row_versions SET version = sync_version(), deleted = 1, src_rowid = NULL,
        xid = pg_current_xact_id()
      WHERE tbl = p_tbl AND row_key = p_key $$`.execute(db);
  // An order moving to another facility: the old facility's devices drop it, the new one's get it all.
  await sql`CREATE FUNCTION sync_evict_moved_order() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      INSERT INTO sync_evictions (version, facility_id, order_id, xid)
        VALUES (sync_version(), OLD.facility_id, NEW.id, pg_current_xact_id());
      UPDATE sync_row_versions SET version = sync_version(), facility_id = NEW.facility_id,
          xid = pg_current_xact_id()
        WHERE order_id = NEW.id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_orders_moved AFTER UPDATE OF facility_id ON orders
    FOR EACH ROW WHEN (OLD.facility_id <> NEW.facility_id)
    EXECUTE FUNCTION sync_evict_moved_order()`.execute(db);
  // A new grant or facility link brings the user's or brand's row (and the brand's rows without a
  // facility) down with the next pull (sync/stamps.ts installGrantTriggers).
  await sql`CREATE FUNCTION sync_touch_granted_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'users' AND row_key = '[' || to_json(NEW.user_id)::text || ']';
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_grant_user_facilities AFTER INSERT ON user_facilities
    FOR EACH ROW EXECUTE FUNCTION sync_touch_granted_user()`.execute(db);
  await sql`CREATE TRIGGER sync_grant_user_admin AFTER INSERT ON user_admin
    FOR EACH ROW EXECUTE FUNCTION sync_touch_granted_user()`.execute(db);
  await sql`CREATE FUNCTION sync_touch_linked_brand() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'brands' AND row_key = '[' || to_json(NEW.brand_id)::text || ']';
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'billing_prices' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.brand_id)::text || ',' || to_json(x.metric)::text || ']' FROM billing_prices x WHERE x.brand_id = NEW.brand_id);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'billing_action_prices' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.brand_id)::text || ',' || to_json(x.action_type)::text || ',' || to_json(x.metric)::text || ']' FROM billing_action_prices x WHERE x.brand_id = NEW.brand_id);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'chargebacks' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.id)::text || ']' FROM chargebacks x WHERE x.brand_id = NEW.brand_id);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'pos_rows' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.id)::text || ']' FROM pos_rows x WHERE x.brand_id = NEW.brand_id);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'transactions' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.transaction_id)::text || ']' FROM transactions x WHERE x.brand_id = NEW.brand_id AND x.facility_id IS NULL);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'advice_snapshots' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.id)::text || ']' FROM advice_snapshots x WHERE x.brand_id = NEW.brand_id AND x.facility_id IS NULL);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'advice_deliveries' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.id)::text || ']' FROM advice_deliveries x JOIN advice_snapshots s ON s.id = x.snapshot_id
            WHERE s.brand_id = NEW.brand_id AND s.facility_id IS NULL);
      UPDATE sync_row_versions SET version = sync_version(), xid = pg_current_xact_id()
        WHERE tbl = 'advice_documents' AND facility_id IS NULL AND deleted = 0
          AND row_key IN (SELECT '[' || to_json(x.delivery_id)::text || ']' FROM advice_documents x JOIN advice_deliveries d ON d.id = x.delivery_id
            JOIN advice_snapshots s ON s.id = d.snapshot_id WHERE s.brand_id = NEW.brand_id AND s.facility_id IS NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_grant_brand_facilities AFTER INSERT ON brand_facilities
    FOR EACH ROW EXECUTE FUNCTION sync_touch_linked_brand()`.execute(db);
  // One stamping function per replicated table: its key as sync_row_versions.row_key (the JSON
  // array text SQLite's json_array writes) and its facility and order scope.
  await sql`CREATE FUNCTION sync_stamp_organizations() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_organizations AFTER INSERT OR UPDATE OR DELETE ON organizations
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_organizations()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_facilities AFTER INSERT OR UPDATE OR DELETE ON facilities
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_facilities()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_brands() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_brands AFTER INSERT OR UPDATE OR DELETE ON brands
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_brands()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_retailers() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_retailers AFTER INSERT OR UPDATE OR DELETE ON retailers
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_retailers()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_brand_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.facility_id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_brand_facilities AFTER INSERT OR UPDATE OR DELETE ON brand_facilities
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_brand_facilities()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_users() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_users AFTER INSERT OR UPDATE OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_users()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_user_facilities() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.facility_id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_user_facilities AFTER INSERT OR UPDATE OR DELETE ON user_facilities
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_user_facilities()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_user_admin() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.facility_id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_user_admin AFTER INSERT OR UPDATE OR DELETE ON user_admin
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_user_admin()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_connections() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_connections AFTER INSERT OR UPDATE OR DELETE ON connections
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_connections()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_orders() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.facility_id, NEW.id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_orders AFTER INSERT OR UPDATE OR DELETE ON orders
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_orders()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_order_items() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_order_items AFTER INSERT OR UPDATE OR DELETE ON order_items
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_order_items()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_pallets() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_pallets AFTER INSERT OR UPDATE OR DELETE ON pallets
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_pallets()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_cartons() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_cartons AFTER INSERT OR UPDATE OR DELETE ON cartons
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_cartons()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_carton_skus() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM cartons c JOIN orders o ON o.id = c.order_id WHERE c.id = NEW.carton_id), (SELECT c.order_id FROM cartons c WHERE c.id = NEW.carton_id));
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_carton_skus AFTER INSERT OR UPDATE OR DELETE ON carton_skus
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_carton_skus()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_order_activity() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_order_activity AFTER INSERT OR UPDATE OR DELETE ON order_activity
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_order_activity()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_order_bol_versions() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_order_bol_versions AFTER INSERT OR UPDATE OR DELETE ON order_bol_versions
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_order_bol_versions()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_edi_interchanges() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('edi_interchanges', '[' || to_json(OLD.id)::text || ']', 1,
          NULL, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('edi_interchanges', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('edi_interchanges', '[' || to_json(NEW.id)::text || ']', 0,
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_edi_interchanges AFTER INSERT OR UPDATE OR DELETE ON edi_interchanges
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_edi_interchanges()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_order_po_lines() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_order_po_lines AFTER INSERT OR UPDATE OR DELETE ON order_po_lines
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_order_po_lines()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_order_documents() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('order_documents', '[' || to_json(OLD.id)::text || ']', 1,
          (SELECT o.facility_id FROM orders o WHERE o.id = OLD.order_id), OLD.order_id);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.id)::text || ']' <> '[' || to_json(NEW.id)::text || ']' THEN
        PERFORM sync_tombstone('order_documents', '[' || to_json(OLD.id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('order_documents', '[' || to_json(NEW.id)::text || ']', 0,
        (SELECT o.facility_id FROM orders o WHERE o.id = NEW.order_id), NEW.order_id);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_order_documents AFTER INSERT OR UPDATE OR DELETE ON order_documents
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_order_documents()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_advice_snapshots() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.facility_id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_advice_snapshots AFTER INSERT OR UPDATE OR DELETE ON advice_snapshots
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_advice_snapshots()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_advice_deliveries() RETURNS trigger LANGUAGE plpgsql AS $$
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
        (SELECT s.facility_id FROM advice_snapshots s WHERE s.id = NEW.snapshot_id), NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_advice_deliveries AFTER INSERT OR UPDATE OR DELETE ON advice_deliveries
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_advice_deliveries()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_advice_documents() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('advice_documents', '[' || to_json(OLD.delivery_id)::text || ']', 1,
          (SELECT s.facility_id FROM advice_deliveries d JOIN advice_snapshots s ON s.id = d.snapshot_id WHERE d.id = OLD.delivery_id), NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.delivery_id)::text || ']' <> '[' || to_json(NEW.delivery_id)::text || ']' THEN
        PERFORM sync_tombstone('advice_documents', '[' || to_json(OLD.delivery_id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('advice_documents', '[' || to_json(NEW.delivery_id)::text || ']', 0,
        (SELECT s.facility_id FROM advice_deliveries d JOIN advice_snapshots s ON s.id = d.snapshot_id WHERE d.id = NEW.delivery_id), NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_advice_documents AFTER INSERT OR UPDATE OR DELETE ON advice_documents
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_advice_documents()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_transactions() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NOT sync_central() THEN RETURN NULL; END IF;
      IF TG_OP = 'DELETE' THEN
        PERFORM sync_stamp_row('transactions', '[' || to_json(OLD.transaction_id)::text || ']', 1,
          OLD.facility_id, NULL);
        RETURN NULL;
      END IF;
      IF TG_OP = 'UPDATE' AND '[' || to_json(OLD.transaction_id)::text || ']' <> '[' || to_json(NEW.transaction_id)::text || ']' THEN
        PERFORM sync_tombstone('transactions', '[' || to_json(OLD.transaction_id)::text || ']');
      END IF;
      PERFORM sync_stamp_row('transactions', '[' || to_json(NEW.transaction_id)::text || ']', 0,
        NEW.facility_id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_transactions AFTER INSERT OR UPDATE OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_transactions()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_billing_prices() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_billing_prices AFTER INSERT OR UPDATE OR DELETE ON billing_prices
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_billing_prices()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_billing_action_prices() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_billing_action_prices AFTER INSERT OR UPDATE OR DELETE ON billing_action_prices
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_billing_action_prices()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_chargebacks() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_chargebacks AFTER INSERT OR UPDATE OR DELETE ON chargebacks
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_chargebacks()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_pos_rows() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_pos_rows AFTER INSERT OR UPDATE OR DELETE ON pos_rows
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_pos_rows()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_sscc_serial_blocks() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NULL, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_sscc_serial_blocks AFTER INSERT OR UPDATE OR DELETE ON sscc_serial_blocks
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_sscc_serial_blocks()`.execute(db);
  await sql`CREATE FUNCTION sync_stamp_sync_conflicts() RETURNS trigger LANGUAGE plpgsql AS $$
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
        NEW.facility_id, NULL);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER sync_stamp_sync_conflicts AFTER INSERT OR UPDATE OR DELETE ON sync_conflicts
    FOR EACH ROW EXECUTE FUNCTION sync_stamp_sync_conflicts()`.execute(db);
}
