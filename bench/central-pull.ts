/**
 * Part 2 of `npm run bench -- central`: a first pull of 100,000 rows. The central gets 10,000 Reno
 * orders and 90,000 lines (copies of the demo's, 500 orders per transaction as bench/sync.ts
 * writes them), then a Reno device signs in and pulls from no cursor to the end over HTTP, in the
 * default pages, as its workstation's first round does (the workstation's own apply is not timed:
 * it is the same SQLite on both engines). Then 50 devices of the same facility, at that cursor,
 * pull 20 times each with nothing new, all at once: what a central pays for devices polling.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/server/db/schema';
import type { SeedDevice } from '../src/shared/sync-seed';
import { RENO } from '../test/sync/helpers/cluster';
import { signInDevice } from '../test/sync/helpers/raw-push';
import { startEngineCentral, type Engine, type PgServer } from './central-engines';
import { summarise, type LatencySummary } from './stats';
import { insertOrders, TEMPLATE_ORDER } from './sync';

export const PULL_ORDERS = Number(process.env.BENCH_CENTRAL_PULL_ORDERS ?? 10_000);
export const ITEMS_PER_ORDER = 9; // 10,000 orders + 90,000 lines = 100,000 rows
export const ORDERS_PER_TRANSACTION = 500;

const device: SeedDevice = {
  id: 'd3000000-0000-4000-8000-000000000001',
  name: 'Bench first pull',
  facility_ids: [RENO],
  secret: 'bench-first-pull-secret',
};
const EMPTY_DEVICES = 50;
const EMPTY_PULLS_EACH = 20;
/** The polling devices: Reno's too, so the first pull's cursor is theirs (same scope tag). */
const pollers: SeedDevice[] = Array.from({ length: EMPTY_DEVICES }, (_, i) => ({
  id: `d3000000-0000-4000-8000-${String(i + 2).padStart(12, '0')}`,
  name: `Bench poller ${i + 1}`,
  facility_ids: [RENO],
  secret: `bench-poller-secret-${i + 1}`,
}));

export interface PullFigures {
  generatedRows: number;
  pulledRows: number;
  pages: number;
  bytes: number;
  ms: number;
  rowsPerSecond: number;
  /** Pulls that find nothing new: 50 devices, 20 each, all at once. */
  empty: LatencySummary;
}

type Pulled = { cursor: string; more: boolean; changes: unknown[] };

async function pullOnce(url: string, auth: string, cursor: string | undefined) {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  const response = await fetch(`${url}/api/sync/v1/pull${query}`, {
    headers: { 'x-sync-protocol': '1', authorization: auth },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`pull: ${response.status} ${text.slice(0, 300)}`);
  return { text, page: JSON.parse(text) as Pulled };
}

/** Each poller pulls EMPTY_PULLS_EACH times from `cursor` on, one after the other, all at once. */
async function emptyPulls(url: string, cursor: string): Promise<LatencySummary> {
  const auths = await Promise.all(pollers.map((poller) => signInDevice(url, poller)));
  const samples: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    auths.map(async (auth) => {
      let at = cursor;
      for (let i = 0; i < EMPTY_PULLS_EACH; i++) {
        const started = performance.now();
        const { page } = await pullOnce(url, auth, at);
        samples.push(performance.now() - started);
        if (page.changes.length > 0) throw new Error('empty pulls: a pull found something new');
        at = page.cursor;
      }
    }),
  );
  return summarise(samples, performance.now() - t0);
}

/** PostgreSQL twin of bench/sync.ts insertOrders: the same rows, from generate_series. */
export async function insertOrdersPostgres(
  db: Kysely<Database>,
  from: number,
  to: number,
  items: number,
) {
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
  const started = await startEngineCentral(engine, pg, [device, ...pollers], 'pull');
  if (started.missing !== undefined) return { missing: started.missing };
  const { central } = started;
  try {
    const insert = engine === 'sqlite' ? insertOrders : insertOrdersPostgres;
    for (let from = 0; from < PULL_ORDERS; from += ORDERS_PER_TRANSACTION) {
      await insert(central.context.db, from, from + ORDERS_PER_TRANSACTION, ITEMS_PER_ORDER);
      progress();
    }
    // A central that has run a while has statistics (autovacuum analyzes after 10% of a table
    // changed); without them the planner guesses, and the pull runs under other plans than it will.
    if (engine === 'postgres') await sql`ANALYZE`.execute(central.context.db);
    console.log(`pull: ${engine}, rows written; the device pulls…`);
    const t0 = performance.now();
    const auth = await signInDevice(central.url, device);
    let cursor: string | undefined;
    let pulledRows = 0;
    let pages = 0;
    let bytes = 0;
    for (;;) {
      const { text, page } = await pullOnce(central.url, auth, cursor);
      bytes += text.length;
      pages += 1;
      pulledRows += page.changes.length;
      cursor = page.cursor;
      progress();
      if (!page.more) break;
    }
    const ms = performance.now() - t0;
    console.log(
      `pull: ${engine}, first pull done; ${EMPTY_DEVICES} devices pull with nothing new…`,
    );
    const empty = await emptyPulls(central.url, cursor!);
    return {
      generatedRows: PULL_ORDERS * (1 + ITEMS_PER_ORDER),
      pulledRows,
      pages,
      bytes,
      ms,
      rowsPerSecond: (pulledRows * 1000) / ms,
      empty,
    };
  } finally {
    await started.close();
  }
}
