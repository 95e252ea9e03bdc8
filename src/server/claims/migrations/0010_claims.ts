import { sql, type Kysely } from 'kysely';

/**
 * Claims: chargebacks and POS report rows, with the indexes their lists read through.
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Money in integer cents; dates YYYY-MM-DD and timestamps ISO 8601 UTC as text.
  await db.schema
    .createTable('chargebacks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
    .addColumn('retailer_id', 'text', (c) => c.notNull().references('retailers.id'))
    .addColumn('chargeback_id', 'text', (c) => c.notNull())
    .addColumn('po_number', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('amount_won_back_cents', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('retailer_chargeback_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('category', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('chargeback_date', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text', (c) => c.notNull())
    .addColumn('dispute_deadline', 'text')
    .addColumn('dispute_status', 'text', (c) => c.notNull())
    .addColumn('import_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The natural key of a CSV import: a re-import updates, never duplicates.
  await db.schema
    .createIndex('chargebacks_natural_key')
    .on('chargebacks')
    .columns(['brand_id', 'retailer_id', 'chargeback_id', 'po_number'])
    .unique()
    .execute();
  // Newest first within the user's brands, with or without a retailer filter.
  await sql`CREATE INDEX chargebacks_brand_date ON chargebacks
        (brand_id, chargeback_date DESC, uploaded_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX chargebacks_brand_retailer_date ON chargebacks
        (brand_id, retailer_id, chargeback_date DESC, uploaded_at DESC, id DESC)`.execute(db);
  await db.schema
    .createIndex('chargebacks_brand_po')
    .on('chargebacks')
    .columns(['brand_id', 'po_number'])
    .execute();
  await db.schema
    .createIndex('chargebacks_brand_number')
    .on('chargebacks')
    .columns(['brand_id', 'chargeback_id'])
    .execute();
  await db.schema
    .createIndex('chargebacks_retailer')
    .on('chargebacks')
    .column('retailer_id')
    .execute();

  await db.schema
    .createTable('pos_rows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id'))
    .addColumn('retailer_id', 'text', (c) => c.notNull().references('retailers.id'))
    .addColumn('sku', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('units_sold', 'integer', (c) => c.notNull())
    .addColumn('revenue_cents', 'integer', (c) => c.notNull())
    .addColumn('cogs_cents', 'integer', (c) => c.notNull())
    .addColumn('returns', 'integer', (c) => c.notNull())
    .addColumn('net_units', 'integer', (c) => c.notNull())
    .addColumn('gross_margin_cents', 'integer', (c) => c.notNull())
    .addColumn('margin_percent', 'real', (c) => c.notNull())
    .addColumn('inventory_units', 'integer', (c) => c.notNull())
    .addColumn('inventory_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('damaged_inventory_units', 'integer', (c) => c.notNull())
    .addColumn('damaged_inventory_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('on_order_units', 'integer', (c) => c.notNull())
    .addColumn('on_order_cost_cents', 'integer', (c) => c.notNull())
    .addColumn('import_id', 'text')
    .addColumn('uploaded_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('pos_rows_natural_key')
    .on('pos_rows')
    .columns(['brand_id', 'retailer_id', 'sku', 'location', 'start_date', 'end_date'])
    .unique()
    .execute();
  await sql`CREATE INDEX pos_rows_brand_date ON pos_rows
        (brand_id, end_date DESC, start_date DESC)`.execute(db);
  await sql`CREATE INDEX pos_rows_brand_retailer_date ON pos_rows
        (brand_id, retailer_id, end_date DESC, start_date DESC)`.execute(db);
  await db.schema.createIndex('pos_rows_retailer').on('pos_rows').column('retailer_id').execute();
}
