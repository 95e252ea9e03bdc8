import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL only: what several central processes on one database share besides the data.
 *
 * - `cache_versions`: counters that permanent triggers move inside the writing transaction, so
 *   a counter and the rows it covers become visible together; every process reads them before
 *   it uses a cache (db/cache-versions.postgres.ts). The triggers are deferred to the commit and
 *   bump once per transaction and name: the row lock is taken last and held only through the
 *   commit, so it adds no deadlock with the transaction's other locks. 16 stripes (one row each,
 *   chosen by the writing backend's pid) keep concurrent commits from queueing on one row; a
 *   reader sums them. The watched tables and columns are those of the SQLite TEMP triggers
 *   (db/auth-version.ts, db/transactions-version.ts, orders/read-queries.ts).
 * - `delivery_claims`: a lease per outbound delivery being sent, written and committed before
 *   the send, deleted after its outcome is committed, so two processes never send the same
 *   delivery at once (inventory/transmission/delivery-lease.ts).
 * - `service_secrets`: the token signing secret every process signs and verifies with.
 *
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE TABLE cache_versions (
    stripe integer PRIMARY KEY,
    auth bigint NOT NULL,
    transactions bigint NOT NULL,
    orders bigint NOT NULL
  )`.execute(db);
  await sql`INSERT INTO cache_versions (stripe, auth, transactions, orders)
    SELECT s, 0, 0, 0 FROM generate_series(0, 15) AS s`.execute(db);
  // Once per transaction and name (a transaction-local setting remembers it), at commit.
  await sql`CREATE FUNCTION bump_cache_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('cache_versions.' || TG_ARGV[0], true) = 'bumped' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('cache_versions.' || TG_ARGV[0], 'bumped', true);
  UPDATE cache_versions SET
    auth = auth + CASE WHEN TG_ARGV[0] = 'auth' THEN 1 ELSE 0 END,
    transactions = transactions + CASE WHEN TG_ARGV[0] = 'transactions' THEN 1 ELSE 0 END,
    orders = orders + CASE WHEN TG_ARGV[0] = 'orders' THEN 1 ELSE 0 END
  WHERE stripe = pg_backend_pid() % 16;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_users AFTER INSERT OR DELETE OR UPDATE OF id, email, brand_id ON users DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_user_facilities AFTER INSERT OR DELETE OR UPDATE ON user_facilities DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_user_admin AFTER INSERT OR DELETE OR UPDATE ON user_admin DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_facilities AFTER INSERT OR DELETE OR UPDATE ON facilities DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_brands AFTER INSERT OR DELETE OR UPDATE ON brands DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_brand_facilities AFTER INSERT OR DELETE OR UPDATE ON brand_facilities DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_retailers AFTER INSERT OR DELETE OR UPDATE ON retailers DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_auth_connections AFTER INSERT OR DELETE OR UPDATE OF id, organization_id, brand_id, retailer_id ON connections DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('auth')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_transactions_transactions AFTER INSERT OR DELETE OR UPDATE ON transactions DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('transactions')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_transactions_orders AFTER INSERT OR DELETE OR UPDATE OF po_number, picksheet_code ON orders DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('transactions')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_orders AFTER INSERT OR DELETE OR UPDATE ON orders DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_order_items AFTER INSERT OR DELETE OR UPDATE ON order_items DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_pallets AFTER INSERT OR DELETE OR UPDATE ON pallets DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_cartons AFTER INSERT OR DELETE OR UPDATE ON cartons DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_carton_skus AFTER INSERT OR DELETE OR UPDATE ON carton_skus DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_brands AFTER UPDATE OF name, external_brand_code ON brands DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_facilities AFTER UPDATE OF name, external_facility_code ON facilities DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );
  await sql`CREATE CONSTRAINT TRIGGER cache_orders_retailers AFTER UPDATE OF name ON retailers DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_cache_version('orders')`.execute(
    db,
  );

  await sql`CREATE TABLE delivery_claims (
    delivery_id text PRIMARY KEY,
    owner text NOT NULL,
    expires_at timestamptz NOT NULL
  )`.execute(db);

  await sql`CREATE TABLE service_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at text NOT NULL
  )`.execute(db);
}
