import { sql, type Kysely } from 'kysely';
import { LABEL_PRINT_METRICS } from '../../../shared/fulfilment-activity';

/*
 * Per-order totals for invoices (12): summing pallets, cartons, SKU lines and activity of 100,000
 * orders at every request takes seconds, so SQLite triggers keep one row per order (and one per
 * order and action) up to date inside every writing statement, whoever writes (fulfilment steps,
 * seed imports, a test writing rows by hand). Each trigger recomputes the part of the order's
 * row its table feeds, from the rows themselves, so the totals cannot drift. SQLite-specific: a
 * PostgreSQL twin would use the same recomputations in plpgsql trigger functions.
 */

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
  `INSERT OR IGNORE INTO order_billing_totals (order_id) SELECT id FROM orders WHERE id = ${id};`;

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

const ACTION_TOTALS = `INSERT INTO order_action_totals (order_id, action_type, metric, count)
  SELECT order_id, action_type, metric, sum(count) FROM order_activity
  WHERE kind = 'ACTION' AND action_type IS NOT NULL`;

const recomputeActions = (id: string) =>
  `DELETE FROM order_action_totals WHERE order_id = ${id};
   ${ACTION_TOTALS} AND order_id = ${id} GROUP BY order_id, action_type, metric;`;

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
  await sql`INSERT INTO order_billing_totals (order_id) SELECT id FROM orders`.execute(db);
  for (const recompute of [
    recomputePallets,
    recomputeCartons,
    recomputeContents,
    recomputeActivity,
  ]) {
    await sql.raw(recompute('order_billing_totals.order_id').replace(/;\s*$/, '')).execute(db);
  }
  await sql.raw(`${ACTION_TOTALS} GROUP BY order_id, action_type, metric`).execute(db);
}

/** Creates the totals tables and their triggers, and fills them for the orders already there. */
export async function createBillingRollup(db: Kysely<unknown>) {
  let table = db.schema
    .createTable('order_billing_totals')
    .addColumn('order_id', 'text', (c) =>
      c.primaryKey().references('orders.id').onDelete('cascade'),
    )
    .addColumn('pallets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cartons', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('units', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skus', 'integer', (c) => c.notNull().defaultTo(0));
  for (const column of ROLLUP_ACTIVITY_COLUMNS) {
    table = table.addColumn(column, 'integer', (c) => c.notNull().defaultTo(0));
  }
  // WITHOUT ROWID: an invoice looks up every order's row by id; one b-tree search, not two.
  await table.modifyEnd(sql`WITHOUT ROWID`).execute();
  await db.schema
    .createTable('order_action_totals')
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id').onDelete('cascade'))
    .addColumn('action_type', 'text', (c) => c.notNull())
    .addColumn('metric', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('order_action_totals_pk', ['order_id', 'action_type', 'metric'])
    .modifyEnd(sql`WITHOUT ROWID`)
    .execute();
  await createBillingRollupTriggers(db);
  await refillBillingRollup(db);
}
