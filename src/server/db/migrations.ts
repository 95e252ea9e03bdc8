import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { billingMigrations } from './migration-sets/billing';
import { claimsMigrations } from './migration-sets/claims';
import { fulfilmentMigrations } from './migration-sets/fulfilment';
import { syncMigrations } from './migration-sets/sync';
import { transactionsSearchMigrations } from './migration-sets/transactions-search';

/**
 * Migrations are code, keyed by a sortable name, and imported statically so that bundlers
 * (electron-vite) keep them; Kysely's FileMigrationProvider would need the files on disk.
 */
const migrations: Record<string, Migration> = {
  '0001_core': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('organizations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('facilities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('external_facility_code', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('brands')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('external_brand_code', 'text')
        .execute();
      await db.schema
        .createTable('retailers')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('brand_facilities')
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addPrimaryKeyConstraint('brand_facilities_pk', ['brand_id', 'facility_id'])
        .execute();
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('brand_id', 'text', (c) => c.references('brands.id'))
        .execute();
      await db.schema
        .createTable('user_facilities')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addPrimaryKeyConstraint('user_facilities_pk', ['user_id', 'facility_id'])
        .execute();
      await db.schema
        .createTable('user_admin')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addPrimaryKeyConstraint('user_admin_pk', ['user_id', 'brand_id', 'facility_id'])
        .execute();
      await db.schema
        .createTable('sign_in_failures')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('window_started_at', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'integer')
        .execute();
      await db.schema
        .createTable('connections')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('retailer_id', 'text', (c) => c.notNull().references('retailers.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('transport_json', 'text', (c) => c.notNull())
        .addColumn('edi_json', 'text')
        .addColumn('interchange_counter', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('group_counter', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('connections_brand_org')
        .on('connections')
        .columns(['brand_id', 'organization_id'])
        .execute();
    },
  },
  '0002_advice': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('advice_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('facility_id', 'text', (c) => c.references('facilities.id'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('items_json', 'text', (c) => c.notNull())
        .addColumn('item_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('advice_snapshots_brand_facility')
        .on('advice_snapshots')
        .columns(['brand_id', 'facility_id', 'created_at'])
        .execute();
      await db.schema
        .createTable('advice_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('snapshot_id', 'text', (c) =>
          c.notNull().references('advice_snapshots.id').onDelete('cascade'),
        )
        .addColumn('connection_id', 'text', (c) => c.references('connections.id'))
        .addColumn('organization_id', 'text')
        .addColumn('retailer_id', 'text')
        .addColumn('kind', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('document', 'text')
        .addColumn('content_type', 'text')
        .addColumn('file_name', 'text')
        .addColumn('interchange_control_number', 'integer')
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('advice_deliveries_snapshot')
        .on('advice_deliveries')
        .column('snapshot_id')
        .execute();
      await db.schema
        .createIndex('advice_deliveries_connection_status')
        .on('advice_deliveries')
        .columns(['connection_id', 'status', 'created_at'])
        .execute();
      await db.schema
        .createTable('transactions')
        .addColumn('transaction_id', 'text', (c) => c.primaryKey())
        .addColumn('action_type', 'text', (c) => c.notNull())
        .addColumn('action_type_label', 'text', (c) => c.notNull())
        .addColumn('brand_id', 'text')
        .addColumn('retailer_id', 'text')
        .addColumn('facility_id', 'text')
        .addColumn('order_id', 'text')
        .addColumn('carton_id', 'text')
        .addColumn('load_id', 'text')
        .addColumn('correlation_id', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('error_message', 'text')
        .addColumn('execution_status', 'text', (c) => c.notNull())
        .addColumn('request_method', 'text', (c) => c.notNull())
        .addColumn('request_url', 'text', (c) => c.notNull())
        .addColumn('request_payload', 'text')
        .addColumn('response_body', 'text')
        .addColumn('response_status', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await sql`CREATE INDEX transactions_created ON transactions (created_at)`.execute(db);
      await sql`CREATE INDEX transactions_correlation ON transactions (correlation_id)`.execute(db);
    },
  },
  '0003_signin_throttle': {
    async up(db: Kysely<unknown>) {
      // Every sign-in attempt is counted before the password is checked; the row keeps the last one.
      await sql`ALTER TABLE sign_in_failures RENAME COLUMN window_started_at TO last_attempt_at`.execute(
        db,
      );
      await db.schema
        .createIndex('sign_in_failures_last_attempt')
        .on('sign_in_failures')
        .column('last_attempt_at')
        .execute();
      // The seed source that last set or confirmed the password, so re-importing it skips scrypt.
      await db.schema.alterTable('users').addColumn('seed_source', 'text').execute();
    },
  },
  '0004_outbox_drain': {
    async up(db: Kysely<unknown>) {
      // The background drainer's durable state (src/server/inventory/transmission/outbox-drainer.ts).
      await db.schema
        .alterTable('advice_deliveries')
        .addColumn('next_attempt_at', 'text')
        .execute();
      await db.schema
        .alterTable('advice_deliveries')
        .addColumn('auto_retries', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('advice_deliveries')
        .addColumn('given_up', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // What a crash left PENDING is due at once; older failures stay with the clerk.
      await sql`UPDATE advice_deliveries SET next_attempt_at = updated_at
        WHERE status = 'PENDING' AND document IS NOT NULL AND connection_id IS NOT NULL`.execute(
        db,
      );
      await db.schema
        .createIndex('advice_deliveries_due')
        .on('advice_deliveries')
        .column('next_attempt_at')
        .where(sql.ref('next_attempt_at'), 'is not', null)
        .execute();
    },
  },
  '0005_orders': {
    async up(db: Kysely<unknown>) {
      // Orders: the create body's fields as columns, the three address contacts as JSON text,
      // dates YYYY-MM-DD and timestamps ISO 8601 UTC as text (portable to Postgres).
      await db.schema
        .createTable('orders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
        .addColumn('retailer_id', 'text', (c) => c.notNull().references('retailers.id'))
        .addColumn('facility_id', 'text', (c) => c.notNull().references('facilities.id'))
        .addColumn('picksheet_code', 'text', (c) => c.notNull())
        .addColumn('po_number', 'text')
        .addColumn('external_order_id', 'text')
        .addColumn('dept_number', 'text')
        .addColumn('purchase_order_type', 'text')
        .addColumn('transportation_method', 'text')
        .addColumn('carrier', 'text')
        .addColumn('carrier_alpha_code', 'text')
        .addColumn('service_method', 'text')
        .addColumn('parcel_account_number', 'text')
        .addColumn('parcel_billing_type', 'text')
        .addColumn('bill_of_lading_number', 'text')
        .addColumn('pro_number', 'text')
        .addColumn('external_load_number', 'text')
        .addColumn('ship_to_json', 'text')
        .addColumn('bill_to_json', 'text')
        .addColumn('mark_for_json', 'text')
        .addColumn('requested_delivery_date', 'text')
        .addColumn('earliest_delivery_date', 'text')
        .addColumn('latest_delivery_date', 'text')
        .addColumn('earliest_ship_date', 'text')
        .addColumn('latest_ship_date', 'text')
        .addColumn('cancel_by_date', 'text')
        .addColumn('requested_ship_date', 'text')
        .addColumn('stage_by', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('pickup_date', 'text')
        .addColumn('requested_pickup_date', 'text')
        .addColumn('scheduled_delivery_date', 'text')
        .addColumn('delivery_appointment_date', 'text')
        .addColumn('started_at', 'text')
        .addColumn('packed_at', 'text')
        .addColumn('staged_at', 'text')
        .addColumn('loaded_at', 'text')
        .addColumn('shipped_at', 'text')
        .addColumn('cancelled_at', 'text')
        .addColumn('parcel_print_start_time', 'text')
        .addColumn('parcel_print_end_time', 'text')
        .addColumn('asn_sent_at', 'text')
        .addColumn('invoice_sent_at', 'text')
        .addColumn('po_acknowledgment_sent_at', 'text')
        .execute();
      // A picksheet code names one order per facility; the index also serves lookups by code.
      await db.schema
        .createIndex('orders_facility_picksheet')
        .on('orders')
        .columns(['facility_id', 'picksheet_code'])
        .unique()
        .execute();
      await db.schema
        .createIndex('orders_picksheet')
        .on('orders')
        .column('picksheet_code')
        .execute();
      await db.schema
        .createIndex('orders_facility_created')
        .on('orders')
        .columns(['facility_id', 'created_at'])
        .execute();
      await db.schema.createIndex('orders_po_number').on('orders').column('po_number').execute();
      await db.schema
        .createIndex('orders_external_order_id')
        .on('orders')
        .column('external_order_id')
        .execute();
      await db.schema
        .createTable('order_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) =>
          c.notNull().references('orders.id').onDelete('cascade'),
        )
        .addColumn('line_number', 'integer', (c) => c.notNull())
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('upc', 'text')
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('case_pack_quantity', 'integer')
        .addColumn('case_barcode', 'text')
        .addColumn('vendor_pn', 'text')
        .addColumn('description', 'text')
        .addColumn('trackers_json', 'text')
        .addColumn('pass_through_json', 'text')
        .execute();
      await db.schema
        .createIndex('order_items_order')
        .on('order_items')
        .columns(['order_id', 'line_number'])
        .unique()
        .execute();
      await db.schema
        .createTable('pallets')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) =>
          c.notNull().references('orders.id').onDelete('cascade'),
        )
        .addColumn('sscc', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('staged_by', 'text')
        .addColumn('staged_at', 'text')
        .addColumn('dim_unit', 'text')
        .addColumn('height', 'real')
        .addColumn('width', 'real')
        .addColumn('length', 'real')
        .addColumn('weight_unit', 'text')
        .addColumn('weight', 'real')
        .execute();
      await db.schema.createIndex('pallets_order').on('pallets').column('order_id').execute();
      await db.schema.createIndex('pallets_sscc').on('pallets').column('sscc').unique().execute();
      await db.schema
        .createTable('cartons')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) =>
          c.notNull().references('orders.id').onDelete('cascade'),
        )
        // Null until the carton is put on a pallet.
        .addColumn('pallet_id', 'text', (c) => c.references('pallets.id').onDelete('set null'))
        .addColumn('sscc', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('packed_by', 'text')
        .addColumn('packing_complete_at', 'text')
        .addColumn('parcel_tracking_number', 'text')
        .addColumn('dim_unit', 'text')
        .addColumn('height', 'real')
        .addColumn('width', 'real')
        .addColumn('length', 'real')
        .addColumn('weight_unit', 'text')
        .addColumn('weight', 'real')
        .execute();
      await db.schema.createIndex('cartons_order').on('cartons').column('order_id').execute();
      await db.schema.createIndex('cartons_pallet').on('cartons').column('pallet_id').execute();
      await db.schema.createIndex('cartons_sscc').on('cartons').column('sscc').unique().execute();
      await db.schema
        .createTable('carton_skus')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('carton_id', 'text', (c) =>
          c.notNull().references('cartons.id').onDelete('cascade'),
        )
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('upc', 'text')
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('serial_numbers_json', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createIndex('carton_skus_carton')
        .on('carton_skus')
        .column('carton_id')
        .execute();
      // The first answer to a create per (user, Idempotency-Key); a retry replays it.
      await db.schema
        .createTable('order_idempotency')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer', (c) => c.notNull())
        .addColumn('response_json', 'text', (c) => c.notNull())
        .addColumn('order_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('order_idempotency_pk', ['user_id', 'idempotency_key'])
        .execute();
      await sql`CREATE INDEX transactions_order ON transactions (order_id)`.execute(db);
    },
  },
  '0006_order_bol': {
    async up(db: Kysely<unknown>) {
      // Every bill of lading uploaded to an order; the file is in the data dir under its sha256.
      await db.schema
        .createTable('order_bol_versions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('order_id', 'text', (c) =>
          c.notNull().references('orders.id').onDelete('cascade'),
        )
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('page_count', 'integer', (c) => c.notNull())
        .addColumn('uploaded_by', 'text', (c) => c.notNull())
        .addColumn('uploaded_at', 'text', (c) => c.notNull())
        .addColumn('bill_of_lading_number', 'text')
        .addColumn('pro_number', 'text')
        .addColumn('carrier', 'text')
        .addColumn('carrier_alpha_code', 'text')
        .addColumn('scheduled_delivery_date', 'text')
        .addColumn('external_load_number', 'text')
        .execute();
      await db.schema
        .createIndex('order_bol_versions_order_version')
        .on('order_bol_versions')
        .columns(['order_id', 'version'])
        .unique()
        .execute();
    },
  },
};

/** Later features keep their migrations in migration-sets/, one file each. */
const allMigrations: Record<string, Migration> = {
  ...migrations,
  ...fulfilmentMigrations,
  ...transactionsSearchMigrations,
  ...billingMigrations,
  ...claimsMigrations,
  ...syncMigrations,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => allMigrations,
};
