/**
 * Part 2 of `npm run bench -- central`: a first pull of 100,000 rows. The central gets 10,000 Reno
 * orders and 90,000 lines (copies of the demo's, 500 orders per transaction as bench/sync.ts
 * writes them), then a Reno device signs in and pulls from no cursor to the end over HTTP, in the
 * default pages, as its workstation's first round does (the workstation's own apply is not timed:
 * it is the same SQLite on both engines).
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/server/db/schema';
import type { SeedDevice } from '../src/shared/sync-seed';
import { RENO } from '../test/sync/helpers/cluster';
import { signInDevice } from '../test/sync/helpers/raw-push';
import { startEngineCentral, type Engine, type PgServer } from './central-engines';
import { insertOrders, TEMPLATE_ORDER } from './sync';

export const PULL_ORDERS = Number(process.env.BENCH_CENTRAL_PULL_ORDERS ?? 10_000);
const ITEMS_PER_ORDER = 9; // 10,000 orders + 90,000 lines = 100,000 rows
const ORDERS_PER_TRANSACTION = 500;

const device: SeedDevice = {
  id: 'd3000000-0000-4000-8000-000000000001',
  name: 'Bench first pull',
  facility_ids: [RENO],
  secret: 'bench-first-pull-secret',
};

export interface PullFigures {
  generatedRows: number;
  pulledRows: number;
  pages: number;
  bytes: number;
  ms: number;
  rowsPerSecond: number;
}

/** PostgreSQL twin of bench/sync.ts insertOrders: the same rows, from generate_series. */
async function insertOrdersPostgres(db: Kysely<Database>, from: number, to: number, items: number) {
  const columnsOf = async (table: string) =>
    (
      await sql<{ name: string }>`SELECT column_name AS name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table}
        ORDER BY ordinal_position`.execute(db)
    ).rows.map((r) => r.name);
  const padded = (prefix: string, n: string, width: number) =>
    `'${prefix}' || lpad((${n})::text, ${width}, '0')`;
  const orderExpr: Record<string, string> = {
    id: padded('0e000000-0000-4000-8000-', 'n.i', 12),
    picksheet_code: padded('PS-SYNC-', 'n.i', 7),
    po_number: padded('PO-SYNC-', 'n.i', 7),
    status: `'Open'`,
  };
  const itemExpr: Record<string, string> = {
    id: padded('1e000000-0000-4000-8000-', `n.i * ${items} + m.j`, 12),
    order_id: padded('0e000000-0000-4000-8000-', 'n.i', 12),
    line_number: 'm.j',
  };
  const orderColumns = await columnsOf('orders');
  const itemColumns = await columnsOf('order_items');
  await db.transaction().execute(async (trx) => {
    await sql
      .raw(
        `INSERT INTO orders (${orderColumns.join(', ')})
         SELECT ${orderColumns.map((c) => orderExpr[c] ?? `t.${c}`).join(', ')}
         FROM generate_series(${from}, ${to - 1}) AS n(i) JOIN orders t ON t.id = '${TEMPLATE_ORDER}'`,
      )
      .execute(trx);
    await sql
      .raw(
        `INSERT INTO order_items (${itemColumns.join(', ')})
         SELECT ${itemColumns.map((c) => itemExpr[c] ?? `t.${c}`).join(', ')}
         FROM generate_series(${from}, ${to - 1}) AS n(i)
         CROSS JOIN generate_series(0, ${items - 1}) AS m(j)
         CROSS JOIN (SELECT * FROM order_items WHERE order_id = '${TEMPLATE_ORDER}'
                     ORDER BY line_number LIMIT 1) t`,
      )
      .execute(trx);
  });
}

export async function benchFirstPull(
  engine: Engine,
  pg: PgServer,
  progress: () => void,
): Promise<PullFigures | { missing: string }> {
  const started = await startEngineCentral(engine, pg, [device], 'pull');
  if (started.missing !== undefined) return { missing: started.missing };
  const { central } = started;
  try {
    const insert = engine === 'sqlite' ? insertOrders : insertOrdersPostgres;
    for (let from = 0; from < PULL_ORDERS; from += ORDERS_PER_TRANSACTION) {
      await insert(central.context.db, from, from + ORDERS_PER_TRANSACTION, ITEMS_PER_ORDER);
      progress();
    }
    console.log(`pull: ${engine}, rows written; the device pulls…`);
    const t0 = performance.now();
    const auth = await signInDevice(central.url, device);
    let cursor: string | undefined;
    let pulledRows = 0;
    let pages = 0;
    let bytes = 0;
    for (;;) {
      const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
      const response = await fetch(`${central.url}/api/sync/v1/pull${query}`, {
        headers: { 'x-sync-protocol': '1', authorization: auth },
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`pull: ${response.status} ${text.slice(0, 300)}`);
      const page = JSON.parse(text) as { cursor: string; more: boolean; changes: unknown[] };
      bytes += text.length;
      pages += 1;
      pulledRows += page.changes.length;
      cursor = page.cursor;
      progress();
      if (!page.more) break;
    }
    const ms = performance.now() - t0;
    return {
      generatedRows: PULL_ORDERS * (1 + ITEMS_PER_ORDER),
      pulledRows,
      pages,
      bytes,
      ms,
      rowsPerSecond: (pulledRows * 1000) / ms,
    };
  } finally {
    await started.close();
  }
}
