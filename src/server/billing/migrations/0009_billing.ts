import { sql, type Kysely } from 'kysely';

/**
 * Billing prices per brand, the indexes the analytics and invoice queries read through, and the
 * per-order totals an invoice sums, kept by triggers (billing/rollup.ts tells why and how).
 * Frozen (see db/migrations.ts): imports nothing but Kysely; a later change is a new migration.
 * The totals' SQL is what billing/rollup.ts emitted when this was written, with
 * LABEL_PRINT_METRICS (src/shared/fulfilment-activity.ts) written out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Unit prices of the invoice's line metrics (Orders, Cartons, ...), in integer cents.
  await db.schema
    .createTable('billing_prices')
    .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_prices_pk', ['brand_id', 'metric'])
    .execute();
  // Unit prices of actions (Carton Workflow / Pallet Workflow / VAS, by action name).
  await db.schema
    .createTable('billing_action_prices')
    .addColumn('brand_id', 'text', (c) => c.notNull().references('brands.id').onDelete('cascade'))
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('price_cents', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('billing_action_prices_pk', ['brand_id', 'action_type', 'metric'])
    .execute();
  // Covering indexes: the invoice sums read these columns without touching the tables.
  await sql`CREATE INDEX cartons_order_cover ON cartons (order_id, id)`.execute(db);
  await sql`CREATE INDEX carton_skus_cover ON carton_skus (carton_id, sku, quantity)`.execute(db);
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
  // Per-order totals kept by triggers, so an invoice over every order stays fast. Both tables
  // carry copies of the order's columns an invoice filters and groups by.
  // Keyed by brand first (WITHOUT ROWID: the rows are stored in key order), so an invoice's
  // per-brand sums are one scan in group order, never sorted; triggers find a row by order_id.
  await db.schema
    .createTable('order_billing_totals')
    .addColumn('facility_id', 'text', (c) => c.notNull())
    .addColumn('brand_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('retailer_id', 'text', (c) => c.notNull())
    .addColumn('transportation_method', 'text')
    .addColumn('asn_sent_at', 'text')
    .addColumn('packed_at', 'text')
    .addColumn('order_id', 'text', (c) =>
      c.notNull().unique().references('orders.id').onDelete('cascade'),
    )
    .addColumn('pallets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cartons', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skus', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('labels_generated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pallet_label_qr', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pallet_label_gs1', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pallet_label_placard', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('carton_label_gs1', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('carton_label_qr', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('carton_label_parcel', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('vas_actions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('packing_slips', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('order_billing_totals_pk', ['brand_id', 'order_id'])
    .modifyEnd(sql`WITHOUT ROWID`)
    .execute();
  await db.schema
    .createTable('order_action_totals')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('facility_id', 'text', (c) => c.notNull())
    .addColumn('brand_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('retailer_id', 'text', (c) => c.notNull())
    .addColumn('transportation_method', 'text')
    .addColumn('asn_sent_at', 'text')
    .addColumn('packed_at', 'text')
    // In the invoice's group order (brand, action, name), as above.
    .addPrimaryKeyConstraint('order_action_totals_pk', [
      'brand_id',
      'action_type',
      'metric',
      'order_id',
    ])
    .modifyEnd(sql`WITHOUT ROWID`)
    .execute();
  const statements = [
    sql`CREATE INDEX order_action_totals_order ON order_action_totals (order_id)`,
    // Each trigger recomputes the part of its order's totals that its table feeds, from the rows
    // themselves, so the totals cannot drift; the order's copied columns follow the order.
    sql`CREATE TRIGGER order_billing_totals_order AFTER INSERT ON orders BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.id; END`,
    sql`CREATE TRIGGER order_billing_totals_order_keys AFTER UPDATE OF facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at ON orders BEGIN
       UPDATE order_billing_totals SET (facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at) = (SELECT NEW.facility_id, NEW.brand_id, NEW.status, NEW.retailer_id, NEW.transportation_method, NEW.asn_sent_at, NEW.packed_at)
         WHERE order_id = NEW.id;
       UPDATE order_action_totals SET (facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at) = (SELECT NEW.facility_id, NEW.brand_id, NEW.status, NEW.retailer_id, NEW.transportation_method, NEW.asn_sent_at, NEW.packed_at)
         WHERE order_id = NEW.id;
     END`,
    sql`CREATE TRIGGER pallets_billing_insert AFTER INSERT ON pallets BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.order_id;
UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = NEW.order_id) WHERE order_id = NEW.order_id; END`,
    sql`CREATE TRIGGER pallets_billing_delete AFTER DELETE ON pallets BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = OLD.order_id;
UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = OLD.order_id) WHERE order_id = OLD.order_id; END`,
    sql`CREATE TRIGGER pallets_billing_update AFTER UPDATE OF order_id ON pallets BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = OLD.order_id;
UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = OLD.order_id) WHERE order_id = OLD.order_id;
INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.order_id;
UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = NEW.order_id) WHERE order_id = NEW.order_id; END`,
    sql`CREATE TRIGGER cartons_billing_insert AFTER INSERT ON cartons BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.order_id;
UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = NEW.order_id) WHERE order_id = NEW.order_id;
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = NEW.order_id)
   WHERE order_id = NEW.order_id; END`,
    sql`CREATE TRIGGER cartons_billing_delete AFTER DELETE ON cartons BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = OLD.order_id;
UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = OLD.order_id) WHERE order_id = OLD.order_id;
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = OLD.order_id)
   WHERE order_id = OLD.order_id; END`,
    sql`CREATE TRIGGER cartons_billing_update AFTER UPDATE OF order_id ON cartons BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = OLD.order_id;
UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = OLD.order_id) WHERE order_id = OLD.order_id;
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = OLD.order_id)
   WHERE order_id = OLD.order_id;
INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.order_id;
UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = NEW.order_id) WHERE order_id = NEW.order_id;
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = NEW.order_id)
   WHERE order_id = NEW.order_id; END`,
    sql`CREATE TRIGGER carton_skus_billing_insert AFTER INSERT ON carton_skus BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = (SELECT order_id FROM cartons WHERE id = NEW.carton_id);
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = (SELECT order_id FROM cartons WHERE id = NEW.carton_id))
   WHERE order_id = (SELECT order_id FROM cartons WHERE id = NEW.carton_id); END`,
    sql`CREATE TRIGGER carton_skus_billing_delete AFTER DELETE ON carton_skus BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = (SELECT order_id FROM cartons WHERE id = OLD.carton_id);
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = (SELECT order_id FROM cartons WHERE id = OLD.carton_id))
   WHERE order_id = (SELECT order_id FROM cartons WHERE id = OLD.carton_id); END`,
    sql`CREATE TRIGGER carton_skus_billing_update AFTER UPDATE OF carton_id, sku, quantity ON carton_skus BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = (SELECT order_id FROM cartons WHERE id = OLD.carton_id);
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = (SELECT order_id FROM cartons WHERE id = OLD.carton_id))
   WHERE order_id = (SELECT order_id FROM cartons WHERE id = OLD.carton_id);
INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = (SELECT order_id FROM cartons WHERE id = NEW.carton_id);
UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = (SELECT order_id FROM cartons WHERE id = NEW.carton_id))
   WHERE order_id = (SELECT order_id FROM cartons WHERE id = NEW.carton_id); END`,
    sql`CREATE TRIGGER order_activity_billing_insert AFTER INSERT ON order_activity BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.order_id;
UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
     SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
     FROM order_activity WHERE order_id = NEW.order_id)
   WHERE order_id = NEW.order_id;
DELETE FROM order_action_totals WHERE order_id = NEW.order_id;
   INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL AND a.order_id = NEW.order_id GROUP BY a.order_id, a.action_type, a.metric; END`,
    sql`CREATE TRIGGER order_activity_billing_delete AFTER DELETE ON order_activity BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = OLD.order_id;
UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
     SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
     FROM order_activity WHERE order_id = OLD.order_id)
   WHERE order_id = OLD.order_id;
DELETE FROM order_action_totals WHERE order_id = OLD.order_id;
   INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL AND a.order_id = OLD.order_id GROUP BY a.order_id, a.action_type, a.metric; END`,
    sql`CREATE TRIGGER order_activity_billing_update AFTER UPDATE OF order_id, kind, action_type, metric, count ON order_activity BEGIN INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = OLD.order_id;
UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
     SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
     FROM order_activity WHERE order_id = OLD.order_id)
   WHERE order_id = OLD.order_id;
DELETE FROM order_action_totals WHERE order_id = OLD.order_id;
   INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL AND a.order_id = OLD.order_id GROUP BY a.order_id, a.action_type, a.metric;
INSERT OR IGNORE INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
   SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o WHERE o.id = NEW.order_id;
UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
     SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
     FROM order_activity WHERE order_id = NEW.order_id)
   WHERE order_id = NEW.order_id;
DELETE FROM order_action_totals WHERE order_id = NEW.order_id;
   INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL AND a.order_id = NEW.order_id GROUP BY a.order_id, a.action_type, a.metric; END`,
    // Totals of the orders already there.
    sql`DELETE FROM order_action_totals`,
    sql`DELETE FROM order_billing_totals`,
    sql`INSERT INTO order_billing_totals (order_id, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at) SELECT o.id, o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at FROM orders o`,
    sql`UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = order_billing_totals.order_id) WHERE order_id = order_billing_totals.order_id`,
    sql`UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = order_billing_totals.order_id) WHERE order_id = order_billing_totals.order_id`,
    sql`UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = order_billing_totals.order_id)
   WHERE order_id = order_billing_totals.order_id`,
    sql`UPDATE order_billing_totals SET (labels_generated, pallet_label_qr, pallet_label_gs1, pallet_label_placard, carton_label_gs1, carton_label_qr, carton_label_parcel, vas_actions, packing_slips) = (
     SELECT coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric IN ('Pallet Label Printed - QR Code', 'Pallet Label Printed - GS1 Label', 'Pallet Label Printed - Placard', 'Carton Label Printed - GS1 Label', 'Carton Label Printed - QR Code', 'Carton Label Printed - Parcel Label') THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'ACTION' AND action_type = 'VAS' THEN count END), 0), coalesce(sum(CASE WHEN kind = 'PACKING_SLIP' THEN count END), 0)
     FROM order_activity WHERE order_id = order_billing_totals.order_id)
   WHERE order_id = order_billing_totals.order_id`,
    sql`INSERT INTO order_action_totals (order_id, action_type, metric, count, facility_id, brand_id, status, retailer_id, transportation_method, asn_sent_at, packed_at)
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), o.facility_id, o.brand_id, o.status, o.retailer_id, o.transportation_method, o.asn_sent_at, o.packed_at
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL GROUP BY a.order_id, a.action_type, a.metric`,
  ];
  for (const statement of statements) await statement.execute(db);
}
