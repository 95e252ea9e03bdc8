import type BetterSqlite from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../src/server/db/schema';
import { RENO } from './cluster';

/**
 * What both tiers of the convergence property share (convergence.property.test.ts in-process,
 * convergence.processes.property.test.ts with real processes): the orders the commands touch, the
 * request bodies, and how a replica's Reno rows are read and compared with the central's.
 */

/** Demo orders the commands touch: Reno Open, Picking, Picking (packed on), Shipped. */
export const ORDER_IDS: Record<string, string> = {
  'PS-SUM-2611001': '0d000000-0000-4000-8000-000000000001',
  'PS-BRM-2611003': '0d000000-0000-4000-8000-000000000003',
  'PS-SUM-2611004': '0d000000-0000-4000-8000-000000000004',
  'PS-SUM-2611011': '0d000000-0000-4000-8000-000000000011',
};
export const CODES = Object.keys(ORDER_IDS);
export const PACKED_ORDER = ORDER_IDS['PS-SUM-2611004']!;

/** PUT /api/v1/orders: a new PO number. */
export const poEdit = (code: string, value: string) => ({ picksheet_code: code, po_number: value });

/** PUT /api/v1/orders: a new ship-to city (the rest of the address fixed). */
export const cityEdit = (code: string, city: string) => ({
  picksheet_code: code,
  address_data: {
    ship_to_contact: {
      name: 'Dock',
      address_line1: '1 Main St',
      city,
      country: 'US',
      zip: '89501',
    },
  },
});

/** POST /api/v1/orders/:id/cartons: one unit of `sku`. */
export const packOne = (sku: string) => ({ skus: [{ sku, quantity: 1 }] });

export type Row = Record<string, unknown>;
export type RenoState = Record<string, Row[]>;

const reno = `'${RENO}'`;
const renoOrderChild = (table: string) =>
  `SELECT * FROM ${table} WHERE order_id IN (SELECT id FROM orders WHERE facility_id = ${reno}) ORDER BY id`;

/**
 * The Reno order aggregates (their documents too), Reno log and advice, and the conflicts, keyed
 * by their first column.
 * Deliveries leave out what each replica keeps for itself (the document, attempts, next try).
 */
const RENO_STATE_SQL: Record<string, string> = {
  orders: `SELECT * FROM orders WHERE facility_id = ${reno} ORDER BY id`,
  order_items: renoOrderChild('order_items'),
  cartons: renoOrderChild('cartons'),
  carton_skus: `SELECT * FROM carton_skus WHERE carton_id IN (SELECT c.id FROM cartons c
    JOIN orders o ON o.id = c.order_id WHERE o.facility_id = ${reno}) ORDER BY id`,
  order_activity: renoOrderChild('order_activity'),
  transactions: `SELECT * FROM transactions WHERE facility_id = ${reno} ORDER BY transaction_id`,
  advice_snapshots: `SELECT * FROM advice_snapshots WHERE facility_id = ${reno} ORDER BY id`,
  order_documents: renoOrderChild('order_documents'),
  advice_deliveries: `SELECT d.id, d.snapshot_id, d.connection_id, d.status, d.sender_id,
    d.given_up, d.error FROM advice_deliveries d JOIN advice_snapshots s ON s.id = d.snapshot_id
    WHERE s.facility_id = ${reno} ORDER BY d.id`,
  sync_conflicts: `SELECT id, status FROM sync_conflicts ORDER BY id`,
};
const FINISHED_ORDERS_SQL = `SELECT * FROM orders WHERE status IN ('Shipped', 'Cancelled') ORDER BY id`;

/** A replica's Reno state, read on a better-sqlite3 handle (a process's data dir, read-only). */
export function renoStateIn(db: BetterSqlite.Database): RenoState {
  return Object.fromEntries(
    Object.entries(RENO_STATE_SQL).map(([table, text]) => [table, db.prepare(text).all() as Row[]]),
  );
}

/**
 * Columns a PostgreSQL central alone has, left out of its rows: the log's stored search key
 * (migration 0018_transactions_search_key), which PostgreSQL computes from the row itself.
 */
const POSTGRES_ONLY_COLUMNS = ['search_key'];

function withoutPostgresOnly(rows: Row[]): Row[] {
  return rows.map((row) =>
    Object.fromEntries(Object.entries(row).filter(([c]) => !POSTGRES_ONLY_COLUMNS.includes(c))),
  );
}

/** The same, through an in-process service's Kysely (which waits for a write in progress). */
export async function renoStateOf(db: Kysely<Database>): Promise<RenoState> {
  const state: RenoState = {};
  for (const [table, text] of Object.entries(RENO_STATE_SQL))
    state[table] = withoutPostgresOnly((await sql.raw<Row>(text).execute(db)).rows);
  return state;
}

/** The same, through any async query function (a central process's PostgreSQL database). */
export async function renoStateBy(query: (text: string) => Promise<Row[]>): Promise<RenoState> {
  const state: RenoState = {};
  for (const [table, text] of Object.entries(RENO_STATE_SQL))
    state[table] = withoutPostgresOnly(await query(text));
  return state;
}

export async function finishedOrdersBy(
  query: (text: string) => Promise<Row[]>,
): Promise<Map<string, string>> {
  return finishedById(await query(FINISHED_ORDERS_SQL));
}

/** Shipped and Cancelled orders by id, as JSON rows: a finished order must never change. */
export function finishedOrdersIn(db: BetterSqlite.Database): Map<string, string> {
  return finishedById(db.prepare(FINISHED_ORDERS_SQL).all() as Row[]);
}

export async function finishedOrdersOf(db: Kysely<Database>): Promise<Map<string, string>> {
  return finishedById((await sql.raw<Row>(FINISHED_ORDERS_SQL).execute(db)).rows);
}

/** What sending one of its documents records on an order (its sender may, once it is finished). */
const SENT_COLUMNS = ['asn_sent_at', 'po_acknowledgment_sent_at', 'invoice_sent_at'];

const finishedById = (rows: Row[]) =>
  new Map(
    rows.map((row) => [
      String(row.id),
      JSON.stringify(
        Object.fromEntries(Object.entries(row).filter(([c]) => !SENT_COLUMNS.includes(c))),
      ),
    ]),
  );

/** Adds the finished orders not seen before to `finals` (the first sighting is the one kept). */
export function rememberFinals(finals: Map<string, string>, now: Map<string, string>): void {
  for (const [id, row] of now) if (!finals.has(id)) finals.set(id, row);
}

/** Which rows differ from the central's, by table and key, for a readable failure. */
export function differences(actual: RenoState, expected: RenoState): string[] {
  const out: string[] = [];
  for (const table of Object.keys(expected)) {
    const keyOf = (row: Row) => JSON.stringify(Object.values(row)[0]);
    const mine = new Map(actual[table]!.map((r) => [keyOf(r), JSON.stringify(r)]));
    const theirs = new Map(expected[table]!.map((r) => [keyOf(r), JSON.stringify(r)]));
    for (const [key, row] of theirs) {
      if (!mine.has(key)) out.push(`${table} ${key}: missing here; central ${row}`);
      else if (mine.get(key) !== row)
        out.push(`${table} ${key}: here ${mine.get(key)} central ${row}`);
    }
    for (const [key, row] of mine)
      if (!theirs.has(key)) out.push(`${table} ${key}: only here ${row}`);
  }
  return out;
}
