import type { Kysely } from 'kysely';

/**
 * Fulfilment on the floor: SSCC serials, brand GS1 prefixes, activity (prints, slips, actions),
 * settings.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The brand's GS1 company prefix (7-10 digits); SSCCs of its cartons and pallets start with it.
  await db.schema.alterTable('brands').addColumn('gs1_company_prefix', 'text').execute();
  // One durable serial counter per company prefix: serials are never reused, across restarts.
  await db.schema
    .createTable('sscc_counters')
    .addColumn('company_prefix', 'text', (c) => c.primaryKey())
    .addColumn('last_serial', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('order_activity')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    // LABEL_PRINT | PACKING_SLIP | ACTION (src/shared/fulfilment-activity.ts)
    .addColumn('kind', 'text', (c) => c.notNull())
    // ACTION only: Carton Workflow | Pallet Workflow | VAS
    .addColumn('action_type', 'text')
    // LABEL_PRINT: the label metric; PACKING_SLIP: 'Packing Slips'; ACTION: the action name
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    // No foreign keys: a carton may be unpacked after its label was printed; the print stays.
    .addColumn('carton_id', 'text')
    .addColumn('pallet_id', 'text')
    .addColumn('sscc', 'text')
    .addColumn('user_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('order_activity_order')
    .on('order_activity')
    .columns(['order_id', 'kind'])
    .execute();
  // Workstation settings (label printer address, ...): one JSON value per key.
  await db.schema
    .createTable('app_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value_json', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}
