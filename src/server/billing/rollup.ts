import { sql, type Kysely } from 'kysely';
import { LABEL_PRINT_METRICS } from '../../shared/fulfilment-activity';

/*
 * Per-order totals for invoices (12): summing pallets, cartons, SKU lines and activity of 100,000
 * orders at every request takes seconds, so SQLite triggers keep one row per order (and one per
 * order and action) up to date inside every writing statement, whoever writes (fulfilment steps,
 * seed imports, a test writing rows by hand). Each trigger recomputes the part of the order's
 * row its table feeds, from the rows themselves, so the totals cannot drift. Both tables also
 * carry copies of the order's columns an invoice filters and groups by (ORDER_KEY_COLUMNS, kept
 * by a trigger on orders), so an invoice is one scan of the totals, not a lookup per order.
 * SQLite-specific: a PostgreSQL twin would use the same recomputations in plpgsql trigger
 * functions.
 *
 * Migration 0009_billing (./migrations) created the tables and triggers from a frozen copy of this
 * SQL. This module rebuilds the triggers and refills the totals after a bulk load (bench), so it
 * must emit what the migrations installed (test/unit/migrations-frozen.test.ts checks it): a
 * change to a trigger is a new migration, and this module follows it.
 */

/** The order's columns copied into both totals tables (brand, scope, status, filters). */
export const ORDER_KEY_COLUMNS = [
  'facility_id',
  'brand_id',
  'status',
  'retailer_id',
  'transportation_method',
  'asn_sent_at',
  'packed_at',
] as const;
const orderKeys = ORDER_KEY_COLUMNS.join(', ');
const orderKeysOf = (row: string) => ORDER_KEY_COLUMNS.map((c) => `${row}.${c}`).join(', ');

/** Columns of order_billing_totals fed by activity, with the SQL summing each over an order's rows. */
const ACTIVITY_COLUMNS: [string, string][] = [
  [
    'labels_generated',
    `kind = 'LABEL_PRINT' AND metric IN (${LABEL_PRINT_METRICS.map((m) => `'${m}'`).join(', ')})`,
  ],
  ['pallet_label_qr', `kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - QR Code'`],
  ['pallet_label_gs1', `kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - GS1 Label'`],
  ['pallet_label_placard', `kind = 'LABEL_PRINT' AND metric = 'Pallet Label Printed - Placard'`],
  ['carton_label_gs1', `kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - GS1 Label'`],
  ['carton_label_qr', `kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - QR Code'`],
  [
    'carton_label_parcel',
    `kind = 'LABEL_PRINT' AND metric = 'Carton Label Printed - Parcel Label'`,
  ],
  ['vas_actions', `kind = 'ACTION' AND action_type = 'VAS'`],
  ['packing_slips', `kind = 'PACKING_SLIP'`],
];
export const ROLLUP_ACTIVITY_COLUMNS = ACTIVITY_COLUMNS.map(([column]) => column);

const ensureRow = (id: string) =>
  `INSERT OR IGNORE INTO order_billing_totals (order_id, ${orderKeys})
   SELECT o.id, ${orderKeysOf('o')} FROM orders o WHERE o.id = ${id};`;

const recomputePallets = (id: string) =>
  `UPDATE order_billing_totals SET pallets = (SELECT count(*) FROM pallets WHERE order_id = ${id}) WHERE order_id = ${id};`;

const recomputeCartons = (id: string) =>
  `UPDATE order_billing_totals SET cartons = (SELECT count(*) FROM cartons WHERE order_id = ${id}) WHERE order_id = ${id};`;

const recomputeContents = (id: string) =>
  `UPDATE order_billing_totals SET (units, skus) = (
     SELECT coalesce(sum(s.quantity), 0), count(DISTINCT s.sku)
     FROM cartons c JOIN carton_skus s ON s.carton_id = c.id WHERE c.order_id = ${id})
   WHERE order_id = ${id};`;

const recomputeActivity = (id: string) =>
  `UPDATE order_billing_totals SET (${ROLLUP_ACTIVITY_COLUMNS.join(', ')}) = (
     SELECT ${ACTIVITY_COLUMNS.map(([, when]) => `coalesce(sum(CASE WHEN ${when} THEN count END), 0)`).join(', ')}
     FROM order_activity WHERE order_id = ${id})
   WHERE order_id = ${id};`;

// The order's columns are the same on every row of a group (it is one order's).
const ACTION_TOTALS = `INSERT INTO order_action_totals (order_id, action_type, metric, count, ${orderKeys})
  SELECT a.order_id, a.action_type, a.metric, sum(a.count), ${orderKeysOf('o')}
  FROM order_activity a JOIN orders o ON o.id = a.order_id
  WHERE a.kind = 'ACTION' AND a.action_type IS NOT NULL`;
const ACTION_GROUPS = 'GROUP BY a.order_id, a.action_type, a.metric';

const recomputeActions = (id: string) =>
  `DELETE FROM order_action_totals WHERE order_id = ${id};
   ${ACTION_TOTALS} AND a.order_id = ${id} ${ACTION_GROUPS};`;

/** What each table's triggers recompute, given an SQL expression naming the order. */
const TRIGGERS: {
  table: string;
  updateOf: string;
  orderOf: (row: 'NEW' | 'OLD') => string;
  recompute: ((id: string) => string)[];
}[] = [
  {
    table: 'pallets',
    updateOf: 'order_id',
    orderOf: (row) => `${row}.order_id`,
    recompute: [recomputePallets],
  },
  {
    table: 'cartons',
    updateOf: 'order_id',
    orderOf: (row) => `${row}.order_id`,
    recompute: [recomputeCartons, recomputeContents],
  },
  {
    table: 'carton_skus',
    updateOf: 'carton_id, sku, quantity',
    orderOf: (row) => `(SELECT order_id FROM cartons WHERE id = ${row}.carton_id)`,
    recompute: [recomputeContents],
  },
  {
    table: 'order_activity',
    updateOf: 'order_id, kind, action_type, metric, count',
    orderOf: (row) => `${row}.order_id`,
    recompute: [recomputeActivity, recomputeActions],
  },
];

function triggerSql(): string[] {
  const statements: string[] = [
    `CREATE TRIGGER order_billing_totals_order AFTER INSERT ON orders BEGIN ${ensureRow('NEW.id')} END`,
    // The copied order columns follow the order.
    `CREATE TRIGGER order_billing_totals_order_keys AFTER UPDATE OF ${orderKeys} ON orders BEGIN
       UPDATE order_billing_totals SET (${orderKeys}) = (SELECT ${orderKeysOf('NEW')})
         WHERE order_id = NEW.id;
       UPDATE order_action_totals SET (${orderKeys}) = (SELECT ${orderKeysOf('NEW')})
         WHERE order_id = NEW.id;
     END`,
  ];
  for (const { table, updateOf, orderOf, recompute } of TRIGGERS) {
    const body = (rows: ('NEW' | 'OLD')[]) =>
      rows
        .map((row) =>
          [ensureRow(orderOf(row)), ...recompute.map((r) => r(orderOf(row)))].join('\n'),
        )
        .join('\n');
    statements.push(
      `CREATE TRIGGER ${table}_billing_insert AFTER INSERT ON ${table} BEGIN ${body(['NEW'])} END`,
      `CREATE TRIGGER ${table}_billing_delete AFTER DELETE ON ${table} BEGIN ${body(['OLD'])} END`,
      `CREATE TRIGGER ${table}_billing_update AFTER UPDATE OF ${updateOf} ON ${table} BEGIN ${body(['OLD', 'NEW'])} END`,
    );
  }
  return statements;
}

/** The names of the triggers that keep the totals (a bulk load may drop them, then refill). */
export function billingRollupTriggerNames(): string[] {
  return triggerSql().map((statement) => /^CREATE TRIGGER (\S+)/.exec(statement)![1]!);
}

export async function createBillingRollupTriggers(db: Kysely<unknown>) {
  for (const statement of triggerSql()) await sql.raw(statement).execute(db);
}

/** Recomputes every order's totals from its rows (after a migration or a bulk load). */
export async function refillBillingRollup(db: Kysely<unknown>) {
  await sql`DELETE FROM order_action_totals`.execute(db);
  await sql`DELETE FROM order_billing_totals`.execute(db);
  await sql
    .raw(
      `INSERT INTO order_billing_totals (order_id, ${orderKeys}) SELECT o.id, ${orderKeysOf('o')} FROM orders o`,
    )
    .execute(db);
  for (const recompute of [
    recomputePallets,
    recomputeCartons,
    recomputeContents,
    recomputeActivity,
  ]) {
    await sql.raw(recompute('order_billing_totals.order_id').replace(/;\s*$/, '')).execute(db);
  }
  // o.id too: PostgreSQL then takes the order's columns as grouped (o.id is its key); the
  // triggers' statements keep the SQLite text their migration stored.
  await sql.raw(`${ACTION_TOTALS} ${ACTION_GROUPS}, o.id`).execute(db);
}
