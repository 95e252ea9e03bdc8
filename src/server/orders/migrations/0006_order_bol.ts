import type { Kysely } from 'kysely';

/**
 * Bills of lading uploaded to an order, one row per version.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Every bill of lading uploaded to an order; the file is in the data dir under its sha256.
  await db.schema
    .createTable('order_bol_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
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
}
