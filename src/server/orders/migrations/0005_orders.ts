import { sql, type Kysely } from 'kysely';

/**
 * Orders, their items, pallets, cartons and carton SKUs, and create idempotency.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
  await db.schema.createIndex('orders_picksheet').on('orders').column('picksheet_code').execute();
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
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
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
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
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
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
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
    .addColumn('carton_id', 'text', (c) => c.notNull().references('cartons.id').onDelete('cascade'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('upc', 'text')
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('serial_numbers_json', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.createIndex('carton_skus_carton').on('carton_skus').column('carton_id').execute();
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
}
