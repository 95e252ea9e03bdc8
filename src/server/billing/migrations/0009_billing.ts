import { sql, type Kysely, type Migration } from 'kysely';
import { createBillingRollup } from '../rollup';

/** Billing prices per brand, and the indexes the analytics and invoice queries read through. */
export const billingMigrations: Record<string, Migration> = {
  '0009_billing': {
    async up(db: Kysely<unknown>) {
      // Unit prices of the invoice's line metrics (Orders, Cartons, ...), in integer cents.
      await db.schema
        .createTable('billing_prices')
        .addColumn('brand_id', 'text', (c) =>
          c.notNull().references('brands.id').onDelete('cascade'),
        )
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('billing_prices_pk', ['brand_id', 'metric'])
        .execute();
      // Unit prices of actions (Carton Workflow / Pallet Workflow / VAS, by action name).
      await db.schema
        .createTable('billing_action_prices')
        .addColumn('brand_id', 'text', (c) =>
          c.notNull().references('brands.id').onDelete('cascade'),
        )
        .addColumn('action_type', 'text', (c) => c.notNull())
        .addColumn('metric', 'text', (c) => c.notNull())
        .addColumn('price_cents', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('billing_action_prices_pk', ['brand_id', 'action_type', 'metric'])
        .execute();
      // Covering indexes: the invoice sums read these columns without touching the tables.
      await sql`CREATE INDEX cartons_order_cover ON cartons (order_id, id)`.execute(db);
      await sql`CREATE INDEX carton_skus_cover ON carton_skus (carton_id, sku, quantity)`.execute(
        db,
      );
      await sql`CREATE INDEX order_activity_cover
        ON order_activity (order_id, kind, action_type, metric, count)`.execute(db);
      // The invoice date bounds, and v1 analytics (newest first across facilities).
      await sql`CREATE INDEX orders_asn_sent_at ON orders (asn_sent_at)`.execute(db);
      await sql`CREATE INDEX orders_packed_at ON orders (packed_at)`.execute(db);
      await sql`CREATE INDEX orders_created ON orders (created_at, id)`.execute(db);
      await sql`CREATE INDEX orders_facility_created_id ON orders (facility_id, created_at, id)`.execute(
        db,
      );
      // Everything an invoice filters and groups orders by: its scan never reads the wide rows.
      await sql`CREATE INDEX orders_invoice_cover ON orders (facility_id, brand_id, status,
        retailer_id, transportation_method, asn_sent_at, packed_at, id)`.execute(db);
      // Per-order totals kept by triggers, so an invoice over every order stays fast.
      await createBillingRollup(db);
    },
  },
};
