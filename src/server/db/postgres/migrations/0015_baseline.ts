import { sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: the schema SQLite has after 0015_edi_inbound, in one step (docs/decisions,
 * "PostgreSQL twins and migrations"). The same tables, columns, keys, indexes and constraints
 * (test/postgres/schema-twin.test.ts compares them); SQLite's integer is bigint here, real is
 * double precision. Instead of the FTS5 tables and their id side tables: pg_trgm GIN indexes
 * matched with ILIKE. The roll-up triggers (transaction counts, billing totals) are PL/pgSQL
 * functions doing what the SQLite triggers of the same names do.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE TABLE "organizations" ("id" text primary key, "name" text not null)`.execute(db);
  await sql`CREATE TABLE "facilities" ("id" text primary key, "organization_id" text not null references "organizations" ("id"), "name" text not null, "external_facility_code" text not null)`.execute(
    db,
  );
  await sql`CREATE TABLE "brands" ("id" text primary key, "name" text not null, "external_brand_code" text, "gs1_company_prefix" text)`.execute(
    db,
  );
  await sql`CREATE TABLE "retailers" ("id" text primary key, "name" text not null)`.execute(db);
  await sql`CREATE TABLE "brand_facilities" ("brand_id" text not null references "brands" ("id"), "facility_id" text not null references "facilities" ("id"), constraint "brand_facilities_pk" primary key ("brand_id", "facility_id"))`.execute(
    db,
  );
  await sql`CREATE TABLE "users" ("id" text primary key, "email" text not null unique, "password_hash" text not null, "brand_id" text references "brands" ("id"), "seed_source" text)`.execute(
    db,
  );
  await sql`CREATE TABLE "user_facilities" ("user_id" text not null references "users" ("id") on delete cascade, "facility_id" text not null references "facilities" ("id"), constraint "user_facilities_pk" primary key ("user_id", "facility_id"))`.execute(
    db,
  );
  await sql`CREATE TABLE "user_admin" ("user_id" text not null references "users" ("id") on delete cascade, "brand_id" text not null references "brands" ("id"), "facility_id" text not null references "facilities" ("id"), constraint "user_admin_pk" primary key ("user_id", "brand_id", "facility_id"))`.execute(
    db,
  );
  await sql`CREATE TABLE "sign_in_failures" ("email" text primary key, "failures" bigint not null, "last_attempt_at" bigint not null, "locked_until" bigint)`.execute(
    db,
  );
  await sql`CREATE TABLE "connections" ("id" text primary key, "organization_id" text not null references "organizations" ("id"), "brand_id" text not null references "brands" ("id"), "retailer_id" text not null references "retailers" ("id"), "kind" text not null, "enabled" bigint not null, "transport_json" text not null, "edi_json" text, "interchange_counter" bigint default 0 not null, "group_counter" bigint default 0 not null, sender text NOT NULL DEFAULT 'central', order_documents_json text)`.execute(
    db,
  );
  await sql`CREATE INDEX "connections_brand_org" on "connections" ("brand_id", "organization_id")`.execute(
    db,
  );
  await sql`CREATE TABLE "advice_snapshots" ("id" text primary key, "brand_id" text not null references "brands" ("id"), "facility_id" text references "facilities" ("id"), "user_id" text not null, "items_json" text not null, "item_count" bigint not null, "created_at" text not null)`.execute(
    db,
  );
  await sql`CREATE INDEX "advice_snapshots_brand_facility" on "advice_snapshots" ("brand_id", "facility_id", "created_at")`.execute(
    db,
  );
  await sql`CREATE TABLE "advice_deliveries" ("id" text primary key, "snapshot_id" text not null references "advice_snapshots" ("id") on delete cascade, "connection_id" text references "connections" ("id"), "organization_id" text, "retailer_id" text, "kind" text, "status" text not null, "document" text, "content_type" text, "file_name" text, "interchange_control_number" bigint, "error" text, "attempts" bigint default 0 not null, "created_at" text not null, "updated_at" text not null, "next_attempt_at" text, "auto_retries" bigint default 0 not null, "given_up" bigint default 0 not null, sender_id text)`.execute(
    db,
  );
  await sql`CREATE INDEX "advice_deliveries_snapshot" on "advice_deliveries" ("snapshot_id")`.execute(
    db,
  );
  await sql`CREATE INDEX "advice_deliveries_connection_status" on "advice_deliveries" ("connection_id", "status", "created_at")`.execute(
    db,
  );
  await sql`CREATE TABLE "transactions" ("transaction_id" text primary key, "action_type" text not null, "action_type_label" text not null, "brand_id" text, "retailer_id" text, "facility_id" text, "order_id" text, "carton_id" text, "load_id" text, "correlation_id" text, "duration_ms" bigint not null, "error_message" text, "execution_status" text not null, "request_method" text not null, "request_url" text not null, "request_payload" text, "response_body" text, "response_status" bigint, "created_at" text not null, "updated_at" text not null)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_correlation ON transactions (correlation_id)`.execute(db);
  await sql`CREATE INDEX "sign_in_failures_last_attempt" on "sign_in_failures" ("last_attempt_at")`.execute(
    db,
  );
  await sql`CREATE INDEX "advice_deliveries_due" on "advice_deliveries" ("next_attempt_at") where "next_attempt_at" is not null`.execute(
    db,
  );
  await sql`CREATE TABLE "orders" ("id" text primary key, "brand_id" text not null references "brands" ("id"), "retailer_id" text not null references "retailers" ("id"), "facility_id" text not null references "facilities" ("id"), "picksheet_code" text not null, "po_number" text, "external_order_id" text, "dept_number" text, "purchase_order_type" text, "transportation_method" text, "carrier" text, "carrier_alpha_code" text, "service_method" text, "parcel_account_number" text, "parcel_billing_type" text, "bill_of_lading_number" text, "pro_number" text, "external_load_number" text, "ship_to_json" text, "bill_to_json" text, "mark_for_json" text, "requested_delivery_date" text, "earliest_delivery_date" text, "latest_delivery_date" text, "earliest_ship_date" text, "latest_ship_date" text, "cancel_by_date" text, "requested_ship_date" text, "stage_by" text, "status" text not null, "created_at" text not null, "updated_at" text not null, "pickup_date" text, "requested_pickup_date" text, "scheduled_delivery_date" text, "delivery_appointment_date" text, "started_at" text, "packed_at" text, "staged_at" text, "loaded_at" text, "shipped_at" text, "cancelled_at" text, "parcel_print_start_time" text, "parcel_print_end_time" text, "asn_sent_at" text, "invoice_sent_at" text, "po_acknowledgment_sent_at" text)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX "orders_facility_picksheet" on "orders" ("facility_id", "picksheet_code")`.execute(
    db,
  );
  await sql`CREATE INDEX "orders_picksheet" on "orders" ("picksheet_code")`.execute(db);
  await sql`CREATE INDEX "orders_facility_created" on "orders" ("facility_id", "created_at")`.execute(
    db,
  );
  await sql`CREATE INDEX "orders_po_number" on "orders" ("po_number")`.execute(db);
  await sql`CREATE INDEX "orders_external_order_id" on "orders" ("external_order_id")`.execute(db);
  await sql`CREATE TABLE "order_items" ("id" text primary key, "order_id" text not null references "orders" ("id") on delete cascade, "line_number" bigint not null, "sku" text not null, "upc" text, "quantity" bigint not null, "case_pack_quantity" bigint, "case_barcode" text, "vendor_pn" text, "description" text, "trackers_json" text, "pass_through_json" text)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX "order_items_order" on "order_items" ("order_id", "line_number")`.execute(
    db,
  );
  await sql`CREATE TABLE "pallets" ("id" text primary key, "order_id" text not null references "orders" ("id") on delete cascade, "sscc" text, "status" text not null, "created_at" text not null, "staged_by" text, "staged_at" text, "dim_unit" text, "height" double precision, "width" double precision, "length" double precision, "weight_unit" text, "weight" double precision)`.execute(
    db,
  );
  await sql`CREATE INDEX "pallets_order" on "pallets" ("order_id")`.execute(db);
  await sql`CREATE UNIQUE INDEX "pallets_sscc" on "pallets" ("sscc")`.execute(db);
  await sql`CREATE TABLE "cartons" ("id" text primary key, "order_id" text not null references "orders" ("id") on delete cascade, "pallet_id" text references "pallets" ("id") on delete set null, "sscc" text, "created_at" text not null, "packed_by" text, "packing_complete_at" text, "parcel_tracking_number" text, "dim_unit" text, "height" double precision, "width" double precision, "length" double precision, "weight_unit" text, "weight" double precision)`.execute(
    db,
  );
  await sql`CREATE INDEX "cartons_order" on "cartons" ("order_id")`.execute(db);
  await sql`CREATE INDEX "cartons_pallet" on "cartons" ("pallet_id")`.execute(db);
  await sql`CREATE UNIQUE INDEX "cartons_sscc" on "cartons" ("sscc")`.execute(db);
  await sql`CREATE TABLE "carton_skus" ("id" text primary key, "carton_id" text not null references "cartons" ("id") on delete cascade, "sku" text not null, "upc" text, "quantity" bigint not null, "serial_numbers_json" text default '[]' not null)`.execute(
    db,
  );
  await sql`CREATE INDEX "carton_skus_carton" on "carton_skus" ("carton_id")`.execute(db);
  await sql`CREATE TABLE "order_idempotency" ("user_id" text not null, "idempotency_key" text not null, "request_hash" text not null, "response_status" bigint not null, "response_json" text not null, "order_id" text, "created_at" text not null, constraint "order_idempotency_pk" primary key ("user_id", "idempotency_key"))`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_order ON transactions (order_id)`.execute(db);
  await sql`CREATE TABLE "order_bol_versions" ("id" text primary key, "order_id" text not null references "orders" ("id") on delete cascade, "version" bigint not null, "sha256" text not null, "file_name" text not null, "size" bigint not null, "page_count" bigint not null, "uploaded_by" text not null, "uploaded_at" text not null, "bill_of_lading_number" text, "pro_number" text, "carrier" text, "carrier_alpha_code" text, "scheduled_delivery_date" text, "external_load_number" text)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX "order_bol_versions_order_version" on "order_bol_versions" ("order_id", "version")`.execute(
    db,
  );
  await sql`CREATE TABLE "sscc_counters" ("company_prefix" text primary key, "last_serial" bigint not null)`.execute(
    db,
  );
  await sql`CREATE TABLE "order_activity" ("id" text primary key, "order_id" text not null references "orders" ("id") on delete cascade, "kind" text not null, "action_type" text, "metric" text not null, "count" bigint not null, "carton_id" text, "pallet_id" text, "sscc" text, "user_id" text, "created_at" text not null)`.execute(
    db,
  );
  await sql`CREATE INDEX "order_activity_order" on "order_activity" ("order_id", "kind")`.execute(
    db,
  );
  await sql`CREATE TABLE "app_settings" ("key" text primary key, "value_json" text not null, "updated_at" text not null)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_created_id ON transactions (created_at, transaction_id)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_updated_id ON transactions (updated_at, transaction_id)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_status_created ON transactions (execution_status, created_at, transaction_id)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_action_created ON transactions (action_type, created_at, transaction_id)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_facility_created ON transactions (facility_id, created_at)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_brand_created ON transactions (brand_id, created_at)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_retailer_created ON transactions (retailer_id, created_at)`.execute(
    db,
  );
  await sql`CREATE TABLE transaction_counts (day TEXT NOT NULL, facility_key TEXT NOT NULL, brand_key TEXT NOT NULL, retailer_key TEXT NOT NULL, action_type TEXT NOT NULL, execution_status TEXT NOT NULL, has_error bigint NOT NULL, n bigint NOT NULL, PRIMARY KEY (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error))`.execute(
    db,
  );
  await sql`CREATE TABLE "billing_prices" ("brand_id" text not null references "brands" ("id") on delete cascade, "metric" text not null, "price_cents" bigint not null, "updated_at" text not null, constraint "billing_prices_pk" primary key ("brand_id", "metric"))`.execute(
    db,
  );
  await sql`CREATE TABLE "billing_action_prices" ("brand_id" text not null references "brands" ("id") on delete cascade, "action_type" text not null, "metric" text not null, "price_cents" bigint not null, "updated_at" text not null, constraint "billing_action_prices_pk" primary key ("brand_id", "action_type", "metric"))`.execute(
    db,
  );
  await sql`CREATE INDEX cartons_order_cover ON cartons (order_id, id)`.execute(db);
  await sql`CREATE INDEX carton_skus_cover ON carton_skus (carton_id, sku, quantity)`.execute(db);
  await sql`CREATE INDEX order_activity_cover ON order_activity (order_id, kind, action_type, metric, count)`.execute(
    db,
  );
  await sql`CREATE INDEX orders_asn_sent_at ON orders (asn_sent_at)`.execute(db);
  await sql`CREATE INDEX orders_packed_at ON orders (packed_at)`.execute(db);
  await sql`CREATE INDEX orders_created ON orders (created_at, id)`.execute(db);
  await sql`CREATE INDEX orders_facility_created_id ON orders (facility_id, created_at, id)`.execute(
    db,
  );
  await sql`CREATE INDEX orders_invoice_cover ON orders (facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at, id)`.execute(
    db,
  );
  await sql`CREATE TABLE "order_billing_totals" ("facility_id" text not null, "brand_id" text not null, "status" text not null, "retailer_id" text not null, "transportation_method" text, "asn_sent_at" text, "packed_at" text, "order_id" text not null unique references "orders" ("id") on delete cascade, "pallets" bigint default 0 not null, "cartons" bigint default 0 not null, "units" bigint default 0 not null, "skus" bigint default 0 not null, "labels_generated" bigint default 0 not null, "pallet_label_qr" bigint default 0 not null, "pallet_label_gs1" bigint default 0 not null, "pallet_label_placard" bigint default 0 not null, "carton_label_gs1" bigint default 0 not null, "carton_label_qr" bigint default 0 not null, "carton_label_parcel" bigint default 0 not null, "vas_actions" bigint default 0 not null, "packing_slips" bigint default 0 not null, constraint "order_billing_totals_pk" primary key ("brand_id", "order_id"))`.execute(
    db,
  );
  await sql`CREATE TABLE "order_action_totals" ("order_id" text not null references "orders" ("id") on delete cascade, "action_type" text not null, "metric" text not null, "count" bigint not null, "facility_id" text not null, "brand_id" text not null, "status" text not null, "retailer_id" text not null, "transportation_method" text, "asn_sent_at" text, "packed_at" text, constraint "order_action_totals_pk" primary key ("brand_id", "action_type", "metric", "order_id"))`.execute(
    db,
  );
  await sql`CREATE INDEX order_action_totals_order ON order_action_totals (order_id)`.execute(db);
  await sql`CREATE TABLE "chargebacks" ("id" text primary key, "brand_id" text not null references "brands" ("id"), "retailer_id" text not null references "retailers" ("id"), "chargeback_id" text not null, "po_number" text default '' not null, "amount_cents" bigint not null, "amount_won_back_cents" bigint default 0 not null, "retailer_chargeback_code" text default '' not null, "category" text default '' not null, "description" text default '' not null, "chargeback_date" text not null, "uploaded_at" text not null, "dispute_deadline" text, "dispute_status" text not null, "import_id" text, "updated_at" text not null)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX "chargebacks_natural_key" on "chargebacks" ("brand_id", "retailer_id", "chargeback_id", "po_number")`.execute(
    db,
  );
  await sql`CREATE INDEX chargebacks_brand_date ON chargebacks (brand_id, chargeback_date DESC, uploaded_at DESC, id DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX chargebacks_brand_retailer_date ON chargebacks (brand_id, retailer_id, chargeback_date DESC, uploaded_at DESC, id DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX "chargebacks_brand_po" on "chargebacks" ("brand_id", "po_number")`.execute(
    db,
  );
  await sql`CREATE INDEX "chargebacks_brand_number" on "chargebacks" ("brand_id", "chargeback_id")`.execute(
    db,
  );
  await sql`CREATE INDEX "chargebacks_retailer" on "chargebacks" ("retailer_id")`.execute(db);
  await sql`CREATE TABLE "pos_rows" ("id" text primary key, "brand_id" text not null references "brands" ("id"), "retailer_id" text not null references "retailers" ("id"), "sku" text not null, "location" text default '' not null, "start_date" text not null, "end_date" text not null, "units_sold" bigint not null, "revenue_cents" bigint not null, "cogs_cents" bigint not null, "returns" bigint not null, "net_units" bigint not null, "gross_margin_cents" bigint not null, "margin_percent" double precision not null, "inventory_units" bigint not null, "inventory_cost_cents" bigint not null, "damaged_inventory_units" bigint not null, "damaged_inventory_cost_cents" bigint not null, "on_order_units" bigint not null, "on_order_cost_cents" bigint not null, "import_id" text, "uploaded_at" text not null, "updated_at" text not null)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX "pos_rows_natural_key" on "pos_rows" ("brand_id", "retailer_id", "sku", "location", "start_date", "end_date")`.execute(
    db,
  );
  await sql`CREATE INDEX pos_rows_brand_date ON pos_rows (brand_id, end_date DESC, start_date DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX pos_rows_brand_retailer_date ON pos_rows (brand_id, retailer_id, end_date DESC, start_date DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX "pos_rows_retailer" on "pos_rows" ("retailer_id")`.execute(db);
  await sql`CREATE TABLE sync_state (id bigint PRIMARY KEY CHECK (id = 1), device_id text NOT NULL, acked_seq bigint NOT NULL DEFAULT 0, cursor text, last_push_at text, last_pull_at text)`.execute(
    db,
  );
  await sql`CREATE TABLE sync_capture (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, tbl text NOT NULL, op text NOT NULL, row_key text NOT NULL, old_json text, new_json text, base_version bigint)`.execute(
    db,
  );
  await sql`CREATE TABLE sync_mutations (client_id text NOT NULL, seq bigint NOT NULL, name text NOT NULL, args text NOT NULL, base_version bigint, at text NOT NULL, outcome text, applied_version bigint, PRIMARY KEY (client_id, seq))`.execute(
    db,
  );
  await sql`CREATE TABLE sync_clients (client_id text PRIMARY KEY, last_seq bigint NOT NULL DEFAULT 0, last_push_at text, last_pull_at text)`.execute(
    db,
  );
  await sql`CREATE TABLE sync_meta (id bigint PRIMARY KEY CHECK (id = 1), epoch text NOT NULL)`.execute(
    db,
  );
  await sql`CREATE TABLE sync_row_versions (tbl text NOT NULL, row_key text NOT NULL, version bigint NOT NULL, deleted bigint NOT NULL DEFAULT 0, facility_id text, order_id text, src_rowid bigint, PRIMARY KEY (tbl, row_key))`.execute(
    db,
  );
  await sql`CREATE INDEX sync_row_versions_version ON sync_row_versions (version)`.execute(db);
  await sql`CREATE INDEX sync_row_versions_order ON sync_row_versions (order_id) WHERE order_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE TABLE sync_evictions (version bigint NOT NULL, facility_id text NOT NULL, order_id text NOT NULL)`.execute(
    db,
  );
  await sql`CREATE INDEX sync_evictions_version ON sync_evictions (version)`.execute(db);
  await sql`CREATE TABLE sync_conflicts (id text PRIMARY KEY, client_id text NOT NULL, seq bigint NOT NULL, mutation text NOT NULL, order_id text, facility_id text, reason text NOT NULL, fields_json text NOT NULL, changes_json text NOT NULL, status text NOT NULL DEFAULT 'open', resolution text, created_at text NOT NULL, resolved_at text, resolved_by text, updated_at text NOT NULL, brand_id text)`.execute(
    db,
  );
  await sql`CREATE INDEX sync_conflicts_status ON sync_conflicts (status, created_at DESC)`.execute(
    db,
  );
  await sql`CREATE TABLE devices (id text PRIMARY KEY, name text NOT NULL, secret_hash text NOT NULL, seed_source text, created_at text NOT NULL, disabled_at text)`.execute(
    db,
  );
  await sql`CREATE TABLE device_facilities (device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE, facility_id text NOT NULL REFERENCES facilities(id), PRIMARY KEY (device_id, facility_id))`.execute(
    db,
  );
  await sql`CREATE TABLE sscc_serial_blocks (company_prefix text NOT NULL, first_serial bigint NOT NULL, last_serial bigint NOT NULL, device_id text NOT NULL, leased_at text NOT NULL, PRIMARY KEY (company_prefix, first_serial))`.execute(
    db,
  );
  await sql`CREATE INDEX sscc_serial_blocks_device ON sscc_serial_blocks (device_id, company_prefix, last_serial)`.execute(
    db,
  );
  await sql`CREATE TABLE sync_file_uploads (device_id text NOT NULL, sha256 text NOT NULL, order_id text NOT NULL, size bigint NOT NULL, uploaded_at text NOT NULL, PRIMARY KEY (device_id, sha256))`.execute(
    db,
  );
  await sql`CREATE INDEX sync_file_uploads_at ON sync_file_uploads (device_id, uploaded_at)`.execute(
    db,
  );
  await sql`CREATE TABLE edi_interchanges (id text PRIMARY KEY, connection_id text, organization_id text, brand_id text, retailer_id text, sender_qualifier text NOT NULL, sender_id text NOT NULL, receiver_id text NOT NULL, control_number text NOT NULL, source text NOT NULL, file_name text, user_id text, received_at text NOT NULL, raw text NOT NULL, outcome text NOT NULL, duplicate_of text, summary_json text NOT NULL)`.execute(
    db,
  );
  await sql`CREATE UNIQUE INDEX edi_interchanges_sender_control ON edi_interchanges (sender_qualifier, sender_id, control_number) WHERE outcome NOT IN ('duplicate', 'refused')`.execute(
    db,
  );
  await sql`CREATE INDEX edi_interchanges_received ON edi_interchanges (organization_id, received_at)`.execute(
    db,
  );
  await sql`CREATE TABLE order_po_lines (order_id text NOT NULL REFERENCES orders (id) ON DELETE CASCADE, line_id text NOT NULL, sku text NOT NULL, upc text, quantity bigint NOT NULL, unit_price double precision, unit text, PRIMARY KEY (order_id, line_id))`.execute(
    db,
  );
  await sql`CREATE TABLE "order_documents" (id text PRIMARY KEY, order_id text REFERENCES orders (id) ON DELETE CASCADE, brand_id text NOT NULL, facility_id text, connection_id text, organization_id text, retailer_id text, type text NOT NULL, direction text NOT NULL, status text NOT NULL, interchange_control_number bigint, group_control_number bigint, transaction_control_number text, document text, content_type text, file_name text, error text, attempts bigint NOT NULL DEFAULT 0, next_attempt_at text, sender_id text, sent_at text, acknowledged_at text, created_at text NOT NULL, updated_at text NOT NULL, interchange_id text)`.execute(
    db,
  );
  await sql`CREATE INDEX order_documents_order ON order_documents (order_id, created_at)`.execute(
    db,
  );
  await sql`CREATE INDEX order_documents_due ON order_documents (status, next_attempt_at)`.execute(
    db,
  );
  await sql`CREATE INDEX order_documents_group ON order_documents (connection_id, group_control_number)`.execute(
    db,
  );
  await sql`CREATE INDEX transactions_search_trgm ON transactions USING gin (transaction_id gin_trgm_ops, order_id gin_trgm_ops, correlation_id gin_trgm_ops, error_message gin_trgm_ops, request_url gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX orders_code_search_trgm ON orders USING gin (picksheet_code gin_trgm_ops, po_number gin_trgm_ops)`.execute(
    db,
  );
  await sql`CREATE FUNCTION transaction_counts_add(t transactions, delta bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO transaction_counts AS c (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error, n)
  VALUES ('', coalesce(t.facility_id, ''), coalesce(t.brand_id, ''), coalesce(t.retailer_id, ''), t.action_type, t.execution_status, (t.error_message IS NOT NULL)::int, delta),
    (substr(t.created_at, 1, 10), coalesce(t.facility_id, ''), coalesce(t.brand_id, ''), coalesce(t.retailer_id, ''), t.action_type, t.execution_status, (t.error_message IS NOT NULL)::int, delta)
  ON CONFLICT (day, facility_key, brand_key, retailer_key, action_type, execution_status, has_error) DO UPDATE SET n = c.n + excluded.n
$$`.execute(db);
  await sql`CREATE FUNCTION transaction_counts_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM transaction_counts_add(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM transaction_counts_add(NEW, 1); END IF;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE TRIGGER transaction_counts_insert AFTER INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION transaction_counts_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER transaction_counts_delete AFTER DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION transaction_counts_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER transaction_counts_update AFTER UPDATE OF facility_id, brand_id, retailer_id, action_type, execution_status, error_message, created_at ON transactions FOR EACH ROW EXECUTE FUNCTION transaction_counts_row()`.execute(
    db,
  );
  await sql`CREATE FUNCTION billing_ensure_row(target text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = target
  ON CONFLICT DO NOTHING
$$`.execute(db);
  await sql`CREATE FUNCTION billing_count_pallets(target text) RETURNS void LANGUAGE sql AS $$
  SELECT billing_ensure_row(target);
  UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = target) WHERE order_id = target
$$`.execute(db);
  await sql`CREATE FUNCTION billing_count_units(target text) RETURNS void LANGUAGE sql AS $$
  SELECT billing_ensure_row(target);
  UPDATE order_billing_totals SET (units, skus) = (
    SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
    FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = target)
  WHERE order_id = target
$$`.execute(db);
  await sql`CREATE FUNCTION billing_count_cartons(target text) RETURNS void LANGUAGE sql AS $$
  SELECT billing_ensure_row(target);
  UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = target) WHERE order_id = target;
  SELECT billing_count_units(target)
$$`.execute(db);
  await sql`CREATE FUNCTION billing_count_activity(target text) RETURNS void LANGUAGE sql AS $$
  SELECT billing_ensure_row(target);
  UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
    SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
    FROM order_activity WHERE order_id = target)
  WHERE order_id = target;
  DELETE FROM order_action_totals WHERE order_id = target;
  INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL AND a.order_id = target GROUP BY a.order_id, a.action_type, a.metric, o.id
$$`.execute(db);
  await sql`CREATE FUNCTION billing_orders_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM billing_ensure_row(NEW.id);
  ELSE
    UPDATE order_billing_totals SET (facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at) = (NEW.facility_id, NEW.brand_id, NEW.status, NEW.retailer_id, NEW.transportation_method, NEW.asn_sent_at, NEW.packed_at) WHERE order_id = NEW.id;
    UPDATE order_action_totals SET (facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at) = (NEW.facility_id, NEW.brand_id, NEW.status, NEW.retailer_id, NEW.transportation_method, NEW.asn_sent_at, NEW.packed_at) WHERE order_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE TRIGGER order_billing_totals_order AFTER INSERT ON orders FOR EACH ROW EXECUTE FUNCTION billing_orders_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER order_billing_totals_order_keys AFTER UPDATE OF facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at ON orders FOR EACH ROW EXECUTE FUNCTION billing_orders_row()`.execute(
    db,
  );
  await sql`CREATE FUNCTION pallets_billing_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM billing_count_pallets(OLD.order_id); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM billing_count_pallets(NEW.order_id); END IF;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE TRIGGER pallets_billing_insert AFTER INSERT ON pallets FOR EACH ROW EXECUTE FUNCTION pallets_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER pallets_billing_delete AFTER DELETE ON pallets FOR EACH ROW EXECUTE FUNCTION pallets_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER pallets_billing_update AFTER UPDATE OF order_id ON pallets FOR EACH ROW EXECUTE FUNCTION pallets_billing_row()`.execute(
    db,
  );
  await sql`CREATE FUNCTION cartons_billing_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM billing_count_cartons(OLD.order_id); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM billing_count_cartons(NEW.order_id); END IF;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE TRIGGER cartons_billing_insert AFTER INSERT ON cartons FOR EACH ROW EXECUTE FUNCTION cartons_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER cartons_billing_delete AFTER DELETE ON cartons FOR EACH ROW EXECUTE FUNCTION cartons_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER cartons_billing_update AFTER UPDATE OF order_id ON cartons FOR EACH ROW EXECUTE FUNCTION cartons_billing_row()`.execute(
    db,
  );
  await sql`CREATE FUNCTION carton_skus_billing_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM billing_count_units((SELECT order_id FROM cartons WHERE id = OLD.carton_id)); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM billing_count_units((SELECT order_id FROM cartons WHERE id = NEW.carton_id)); END IF;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE TRIGGER carton_skus_billing_insert AFTER INSERT ON carton_skus FOR EACH ROW EXECUTE FUNCTION carton_skus_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER carton_skus_billing_delete AFTER DELETE ON carton_skus FOR EACH ROW EXECUTE FUNCTION carton_skus_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER carton_skus_billing_update AFTER UPDATE OF carton_id, sku, quantity ON carton_skus FOR EACH ROW EXECUTE FUNCTION carton_skus_billing_row()`.execute(
    db,
  );
  await sql`CREATE FUNCTION order_activity_billing_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('DELETE', 'UPDATE') THEN PERFORM billing_count_activity(OLD.order_id); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM billing_count_activity(NEW.order_id); END IF;
  RETURN NULL;
END
$$`.execute(db);
  await sql`CREATE TRIGGER order_activity_billing_insert AFTER INSERT ON order_activity FOR EACH ROW EXECUTE FUNCTION order_activity_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER order_activity_billing_delete AFTER DELETE ON order_activity FOR EACH ROW EXECUTE FUNCTION order_activity_billing_row()`.execute(
    db,
  );
  await sql`CREATE TRIGGER order_activity_billing_update AFTER UPDATE OF order_id, kind, action_type, metric, count ON order_activity FOR EACH ROW EXECUTE FUNCTION order_activity_billing_row()`.execute(
    db,
  );
}
