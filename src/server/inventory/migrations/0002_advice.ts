import { sql, type Kysely } from 'kysely';

/**
 * Inventory advice: snapshots, their deliveries to retailers, and the transaction log they
 * write.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
}
