/**
 * `npm run bench -- sync` (issue 10): an in-process central and workstations over real HTTP on
 * loopback, real data dirs (WAL, synchronous = FULL).
 *
 * 1. Push: 10,000 mutations queued on a workstation while its network is cut (a TCP proxy in
 *    'drop' mode), then the network comes back: time until nothing is pending (goal < 5 s).
 * 2. Pull: 100,000 Reno rows (orders + order_items, 5,000 rows per central transaction) into a
 *    fresh workstation: time from its start until its first full pull is done (goal < 10 s).
 * 3. Overhead: the same one-row write (an order's po_number, one transaction) on a standalone
 *    service and on a workstation whose client is idle, interleaved (goal: the median
 *    difference under 0.2 ms), once as deployed (fsync per commit) and once with
 *    synchronous = OFF (the CPU cost alone). Run order: push, overhead (on the same workstation),
 *    pull. ARGS pick parts: push, overhead, pull.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/server/db/schema';
import type { AuthUser } from '../src/server/core/context';
import { recordAction } from '../src/server/fulfilment/actions';
import { startService, type RunningService } from '../src/server/http/server';
import {
  DEMO_EMAIL,
  DEVICES,
  pendingMutations,
  RENO,
  removeTempDirs,
  startCentral,
  startWorkstation,
} from '../test/sync/helpers/cluster';
import { startTcpProxy } from '../test/sync/helpers/tcp-proxy';
import { TEST_PASSWORD_COST } from '../test/helpers/service';
import { ms, summarise } from './stats';

const MUTATIONS = 10_000;
const PUSH_ORDERS = 200;
const PULL_ORDERS = 10_000;
const ITEMS_PER_ORDER = 9; // 10,000 orders + 90,000 items = 100,000 rows
const ORDERS_PER_TRANSACTION = 500; // 5,000 rows per central version
const OVERHEAD_WARMUP = 50;
const OVERHEAD_MEASURED = 1_000;
const GOALS = { pushS: 5, pullS: 10, overheadMs: 0.2 };
/** The demo's Reno order (Open) every generated order copies. */
const TEMPLATE_ORDER = '0d000000-0000-4000-8000-000000000001';
/**
 * No timed rounds: besides the round at start and rounds kicked by writes (which fail while the
 * network is cut, and then back off for an hour), only the bench's syncNow() runs one.
 */
const IDLE_CLIENT = {
  intervalMs: 3_600_000,
  maxBackoffMs: 3_600_000,
  onError: (error: unknown) => {
    lastRoundError = error;
    if (reportErrors) console.error(`sync bench: round failed: ${String(error)}`);
  },
};
/** Failures are expected while the network is cut, reported while it is up. */
let reportErrors = true;
let lastRoundError: unknown = null;

const load = () => (loadavg()[0] ?? 0).toFixed(2);
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
const generatedOrderId = (n: number) => `0e000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Sync requests the workstation's client makes (global fetch), so time per step can be split. */
interface SyncCall {
  kind: 'push' | 'pull' | 'session';
  startedMs: number;
  ms: number;
  requestBytes: number;
  answerBytes: number;
}

function tapSyncCalls(): { calls: SyncCall[]; restore(): void } {
  const original = globalThis.fetch;
  const calls: SyncCall[] = [];
  globalThis.fetch = async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    const kind = url.includes('/sync/v1/push')
      ? 'push'
      : url.includes('/sync/v1/pull')
        ? 'pull'
        : url.includes('/sync/v1/session')
          ? 'session'
          : null;
    const startedMs = performance.now();
    const response = await original(input, init);
    if (!kind) return response;
    // Read here so the time includes the answer's transfer; the caller gets the same bytes.
    const text = await response.text();
    calls.push({
      kind,
      startedMs,
      ms: performance.now() - startedMs,
      requestBytes: typeof init?.body === 'string' ? Buffer.byteLength(init.body) : 0,
      answerBytes: Buffer.byteLength(text),
    });
    return new Response(text, { status: response.status, headers: response.headers });
  };
  return { calls, restore: () => void (globalThis.fetch = original) };
}

/** Columns of `table`, in order. */
async function columnsOf(db: Kysely<Database>, table: string): Promise<string[]> {
  const { rows } = await sql<{
    name: string;
  }>`SELECT name FROM pragma_table_info(${table})`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Copies of the template order, numbered `from` .. `to - 1`, each with `items` copies of its first
 * line, in one transaction (one central version). Generated in SQL: the rows are the subject,
 * not how fast the bench builds them.
 */
async function insertOrders(db: Kysely<Database>, from: number, to: number, items: number) {
  const orderColumns = await columnsOf(db, 'orders');
  const itemColumns = await columnsOf(db, 'order_items');
  const orderExpr: Record<string, string> = {
    id: `printf('0e000000-0000-4000-8000-%012d', n.i)`,
    picksheet_code: `printf('PS-SYNC-%07d', n.i)`,
    po_number: `printf('PO-SYNC-%07d', n.i)`,
    status: `'Open'`,
  };
  const itemExpr: Record<string, string> = {
    id: `printf('1e000000-0000-4000-8000-%012d', n.i * ${items} + m.j)`,
    order_id: `printf('0e000000-0000-4000-8000-%012d', n.i)`,
    line_number: 'm.j',
  };
  const numbers = `n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i < ${to - 1})`;
  await db.transaction().execute(async (trx) => {
    await sql
      .raw(
        `WITH RECURSIVE ${numbers}
         INSERT INTO orders (${orderColumns.join(', ')})
         SELECT ${orderColumns.map((c) => orderExpr[c] ?? `t.${c}`).join(', ')}
         FROM n JOIN orders t ON t.id = '${TEMPLATE_ORDER}'`,
      )
      .execute(trx);
    if (items === 0) return;
    await sql
      .raw(
        `WITH RECURSIVE ${numbers}, m(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM m WHERE j < ${items - 1})
         INSERT INTO order_items (${itemColumns.join(', ')})
         SELECT ${itemColumns.map((c) => itemExpr[c] ?? `t.${c}`).join(', ')}
         FROM n JOIN m JOIN (SELECT * FROM order_items WHERE order_id = '${TEMPLATE_ORDER}'
                             ORDER BY line_number LIMIT 1) t`,
      )
      .execute(trx);
  });
}

async function demoUser(ws: RunningService): Promise<AuthUser> {
  const user = await ws.context.db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', '=', DEMO_EMAIL)
    .executeTakeFirstOrThrow();
  return { id: user.id, email: user.email, brandId: null };
}

/**
 * Runs rounds until `done` (a round may fail part-way, e.g. on a keep-alive socket the outage
 * cut; the next one goes on from where it stopped, as the client's own loop would).
 */
async function syncUntil(ws: RunningService, done: () => Promise<boolean> | boolean) {
  const client = ws.context.sync!.client!;
  const until = performance.now() + 60_000;
  for (;;) {
    await client.syncNow();
    if (await done()) return;
    if (performance.now() > until) {
      throw new Error(`sync bench: rounds did not finish: ${String(lastRoundError)}`);
    }
  }
}

const firstPullDone = async (ws: RunningService) =>
  Boolean(
    (
      await ws.context.db
        .selectFrom('sync_state')
        .select('last_pull_at')
        .where('id', '=', 1)
        .executeTakeFirst()
    )?.last_pull_at,
  );

/**
 * Mixed fulfilment-like writes, each its own transaction (= one mutation): 7 in 10 are recorded
 * actions through the domain command (activity row + transaction log row), 2 in 10 label-print
 * activity rows, 1 in 10 a po_number edit.
 */
async function queueMutations(ws: RunningService, orderIds: string[]) {
  const ctx = ws.context;
  const user = await demoUser(ws);
  for (let i = 0; i < MUTATIONS; i += 1) {
    const orderId = orderIds[i % orderIds.length]!;
    const kind = i % 10;
    if (kind < 7) {
      await recordAction(ctx, user, orderId, { action_type: 'VAS', metric: 'Ticketing', count: 1 });
    } else if (kind < 9) {
      await ctx.db.transaction().execute((trx) =>
        trx
          .insertInto('order_activity')
          .values({
            id: randomUUID(),
            order_id: orderId,
            kind: 'LABEL_PRINT',
            action_type: null,
            metric: 'Carton Label Printed - GS1 Label',
            count: 1,
            carton_id: null,
            pallet_id: null,
            sscc: null,
            user_id: user.id,
            created_at: new Date().toISOString(),
          })
          .execute(),
      );
    } else {
      await ctx.db.transaction().execute((trx) =>
        trx
          .updateTable('orders')
          .set({ po_number: `PO-EDIT-${i}`, updated_at: new Date().toISOString() })
          .where('id', '=', orderId)
          .execute(),
      );
    }
  }
}

interface PushFigures {
  mutations: number;
  queueMs: number;
  pushMs: number;
  roundMs: number;
  load: string;
  pushes: SyncCall[];
  pulls: SyncCall[];
}

interface IdleCluster {
  central: RunningService;
  ws: RunningService;
  /** Network up: the proxy forwards (the client still syncs only when the bench asks). */
  network(up: boolean): void;
  close(): Promise<void>;
}

/** A central with PUSH_ORDERS more Reno orders, and workstation W1 after its first pull, offline. */
async function startIdleCluster(): Promise<IdleCluster> {
  const central = await startCentral();
  await insertOrders(central.context.db, 0, PUSH_ORDERS, 0);
  const proxy = await startTcpProxy({ targetPort: central.port });
  const ws = await startWorkstation(proxy.url, DEVICES.w1, { client: IDLE_CLIENT });
  const network = (up: boolean) => {
    reportErrors = up; // failed rounds are expected while the network is cut
    proxy.setMode(up ? 'pass' : 'drop');
  };
  await syncUntil(ws, () => firstPullDone(ws));
  network(false);
  return {
    central,
    ws,
    network,
    async close() {
      await ws.close();
      await central.close();
      await proxy.close();
    },
  };
}

async function benchPush({ ws, network }: IdleCluster): Promise<PushFigures> {
  const orderIds = Array.from({ length: PUSH_ORDERS }, (_, n) => generatedOrderId(n));
  const queueStarted = performance.now();
  // Queueing is not what is measured: no fsync per commit while the queue builds.
  await sql.raw(`PRAGMA synchronous = OFF`).execute(ws.context.db);
  await queueMutations(ws, orderIds);
  await sql.raw(`PRAGMA synchronous = FULL`).execute(ws.context.db);
  const queueMs = performance.now() - queueStarted;
  const queued = await pendingMutations(ws);
  if (queued !== MUTATIONS) throw new Error(`sync bench: ${queued} mutations queued`);

  // A round the writes kicked may still be failing against the cut network: let it end.
  await ws.context.sync!.client!.syncNow();
  const tap = tapSyncCalls();
  const loadAt = load();
  network(true);
  const started = performance.now();
  let pushMs: number | null = null;
  // Pending reaches 0 with the last push's acknowledgement, before the round's pull.
  const pending = ws.context.sync!.sqlite!.prepare(
    `SELECT count(*) AS n FROM sync_mutations m JOIN sync_state s ON s.id = 1
     WHERE m.seq > s.acked_seq`,
  );
  const poll = setInterval(() => {
    if (pushMs === null && (pending.get() as { n: number }).n === 0) {
      pushMs = performance.now() - started;
    }
  }, 2);
  try {
    await syncUntil(ws, () => pushMs !== null);
  } finally {
    clearInterval(poll);
    tap.restore();
    network(false); // idle again for the overhead measurement
  }
  return {
    mutations: MUTATIONS,
    queueMs,
    pushMs: pushMs ?? Number.NaN,
    roundMs: performance.now() - started,
    load: loadAt,
    pushes: tap.calls.filter((c) => c.kind === 'push'),
    pulls: tap.calls.filter((c) => c.kind === 'pull'),
  };
}

interface PullFigures {
  rows: number;
  wallMs: number;
  startMs: number;
  load: string;
  pulls: SyncCall[];
}

async function benchPull(): Promise<PullFigures> {
  const central = await startCentral();
  let ws: RunningService | null = null;
  try {
    for (let from = 0; from < PULL_ORDERS; from += ORDERS_PER_TRANSACTION) {
      await insertOrders(central.context.db, from, from + ORDERS_PER_TRANSACTION, ITEMS_PER_ORDER);
    }
    const rows = PULL_ORDERS * (1 + ITEMS_PER_ORDER);
    const renoRows = async (db: Kysely<Database>) => {
      const { rows: counted } = await sql<{ n: number }>`
        SELECT (SELECT count(*) FROM orders WHERE facility_id = ${RENO})
             + (SELECT count(*) FROM order_items i JOIN orders o ON o.id = i.order_id
                WHERE o.facility_id = ${RENO}) AS n`.execute(db);
      return Number(counted[0]?.n);
    };
    const expected = await renoRows(central.context.db);
    const tap = tapSyncCalls();
    const loadAt = load();
    const started = performance.now();
    let startMs = 0;
    try {
      ws = await startWorkstation(central.url, DEVICES.w2, { client: IDLE_CLIENT });
      startMs = performance.now() - started;
      const pulled = ws;
      // The first syncNow joins the round the client starts by itself (or starts it).
      await syncUntil(pulled, async () => (await renoRows(pulled.context.db)) === expected);
    } finally {
      tap.restore();
    }
    const wallMs = performance.now() - started;
    return {
      rows,
      wallMs,
      startMs,
      load: loadAt,
      pulls: tap.calls.filter((c) => c.kind === 'pull'),
    };
  } finally {
    await ws?.close();
    await central.close();
  }
}

interface OverheadFigures {
  label: string;
  standalone: ReturnType<typeof summarise>;
  workstation: ReturnType<typeof summarise>;
  load: string;
}

/** One transaction changing an order's po_number: the smallest local write command. */
async function editPo(db: Kysely<Database>, n: number): Promise<number> {
  const t0 = performance.now();
  await db.transaction().execute((trx) =>
    trx
      .updateTable('orders')
      .set({ po_number: `PO-BENCH-${n}`, updated_at: new Date().toISOString() })
      .where('id', '=', TEMPLATE_ORDER)
      .execute(),
  );
  return performance.now() - t0;
}

async function benchOverhead(ws: RunningService): Promise<OverheadFigures[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-sync-standalone-'));
  const standalone = await startService(
    { host: '127.0.0.1', port: 0, dataDir, seed: 'demo', uiDir: null, outboxDrain: false },
    { passwordCost: TEST_PASSWORD_COST },
  );
  try {
    const results: OverheadFigures[] = [];
    for (const synchronous of ['FULL', 'OFF'] as const) {
      for (const service of [standalone, ws]) {
        await sql.raw(`PRAGMA synchronous = ${synchronous}`).execute(service.context.db);
      }
      const loadAt = load();
      const standaloneMs: number[] = [];
      const workstationMs: number[] = [];
      for (let i = 0; i < OVERHEAD_WARMUP + OVERHEAD_MEASURED; i += 1) {
        // Alternate which goes first, so neither always follows the other's commit.
        const standaloneFirst = i % 2 === 0;
        const early = standaloneFirst ? await editPo(standalone.context.db, i) : 0;
        const onWorkstation = await editPo(ws.context.db, i);
        const onStandalone = standaloneFirst ? early : await editPo(standalone.context.db, i);
        if (i >= OVERHEAD_WARMUP) {
          standaloneMs.push(onStandalone);
          workstationMs.push(onWorkstation);
        }
      }
      results.push({
        label: synchronous === 'FULL' ? 'fsync per commit' : 'synchronous = OFF',
        standalone: summarise(standaloneMs, 1),
        workstation: summarise(workstationMs, 1),
        load: loadAt,
      });
    }
    await sql.raw(`PRAGMA synchronous = FULL`).execute(ws.context.db);
    return results;
  } finally {
    await standalone.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const PARTS = ['push', 'overhead', 'pull'] as const;

/** One line of the closing table. */
interface SummaryRow {
  what: string;
  figure: string;
  rate: string;
  load: string;
  goal: string;
}

/** ARGS: any of push, overhead, pull (default: all three). */
export async function runSyncBench(
  args: string[] = [],
  /** Called after each part, so a watchdog knows the bench moves. */
  progress: () => void = () => {},
): Promise<void> {
  const unknown = args.filter((a) => !(PARTS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`sync bench: unknown part ${unknown.join(', ')}`);
  const parts = args.length ? args : PARTS;
  console.log(`\nsync (issue 10): ${cpus().length} cores, ${process.version}, load ${load()}`);
  const summary: SummaryRow[] = [];
  let cluster: IdleCluster | null = null;
  try {
    if (parts.includes('push') || parts.includes('overhead')) cluster = await startIdleCluster();
    if (cluster && parts.includes('push')) {
      summary.push(reportPush(await benchPush(cluster)));
      progress();
    }
    if (cluster && parts.includes('overhead')) {
      summary.push(...reportOverhead(await benchOverhead(cluster.ws)));
      progress();
    }
    await cluster?.close();
    cluster = null;
    if (parts.includes('pull')) summary.push(reportPull(await benchPull()));
  } finally {
    await cluster?.close();
    removeTempDirs();
  }
  const row = (r: SummaryRow) =>
    console.log(
      `  ${r.what.padEnd(46)}${r.figure.padStart(10)}  ${r.rate.padEnd(18)}` +
        `${r.load.padStart(5)}  ${r.goal}`,
    );
  console.log('');
  row({ what: 'sync', figure: 'time', rate: 'rate', load: 'load', goal: 'goal' });
  summary.forEach(row);
}

const sum = (calls: SyncCall[], pick: (c: SyncCall) => number) =>
  calls.reduce((total, c) => total + pick(c), 0);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
const count = (n: number) => n.toLocaleString('en-US');

function reportPush(f: PushFigures): SummaryRow {
  const centralMs = sum(f.pushes, (c) => c.ms);
  console.log(
    `\n push: ${count(f.mutations)} mutations queued offline (7/10 recorded actions, 2/10 ` +
      `label prints, 1/10 po edits; queued in ${seconds(f.queueMs)}), then the network is up`,
  );
  console.log(
    `  until none pending ${seconds(f.pushMs)} (load ${f.load}): ${f.pushes.length} pushes, ` +
      `${mib(sum(f.pushes, (c) => c.requestBytes))} sent; in the central's answers ` +
      `${seconds(centralMs)}, on the workstation ${seconds(f.pushMs - centralMs)}`,
  );
  console.log(
    `  the round goes on pulling its own rows back: ${f.pulls.length} pages, ` +
      `${mib(sum(f.pulls, (c) => c.answerBytes))}; whole round ${seconds(f.roundMs)}`,
  );
  return {
    what: `push ${count(f.mutations)} queued mutations`,
    figure: seconds(f.pushMs),
    rate: `${((f.mutations * 1000) / f.pushMs).toFixed(0)} mutations/s`,
    load: f.load,
    goal: `< ${GOALS.pushS} s: ${verdict(f.pushMs < GOALS.pushS * 1000)}`,
  };
}

function reportPull(f: PullFigures): SummaryRow {
  const centralMs = sum(f.pulls, (c) => c.ms);
  console.log(
    `\n pull: ${count(f.rows)} Reno rows (orders + order_items, ${count(ORDERS_PER_TRANSACTION * (1 + ITEMS_PER_ORDER))} ` +
      `per central transaction) into a fresh workstation`,
  );
  console.log(
    `  start to pulled ${seconds(f.wallMs)} (load ${f.load}): service start ` +
      `${seconds(f.startMs)}, ${f.pulls.length} pages (${mib(sum(f.pulls, (c) => c.answerBytes))}) ` +
      `in the central's answers ${seconds(centralMs)}, applying ` +
      `${seconds(f.wallMs - f.startMs - centralMs)}`,
  );
  return {
    what: `first pull of ${count(f.rows)} rows, ${f.pulls.length} pages`,
    figure: seconds(f.wallMs),
    rate: `${((f.rows * 1000) / f.wallMs).toFixed(0)} rows/s`,
    load: f.load,
    goal: `< ${GOALS.pullS} s: ${verdict(f.wallMs < GOALS.pullS * 1000)}`,
  };
}

function reportOverhead(results: OverheadFigures[]): SummaryRow[] {
  console.log(
    `\n overhead: one transaction changing an order's po_number, standalone and workstation ` +
      `(capture on, client idle) interleaved, ${count(OVERHEAD_MEASURED)} each`,
  );
  const pad = (text: string, width: number) => text.padStart(width);
  console.log(`  ${''.padEnd(20)}${pad('median', 10)}${pad('p95', 10)}`);
  return results.flatMap((r) => {
    const medianDiff = r.workstation.medianMs - r.standalone.medianMs;
    const p95Diff = r.workstation.p95Ms - r.standalone.p95Ms;
    console.log(`  ${r.label} (load ${r.load})`);
    for (const [name, median, p95] of [
      ['standalone', r.standalone.medianMs, r.standalone.p95Ms],
      ['workstation', r.workstation.medianMs, r.workstation.p95Ms],
      ['difference', medianDiff, p95Diff],
    ] as const) {
      console.log(`    ${name.padEnd(18)}${pad(ms(median), 10)}${pad(ms(p95), 10)}`);
    }
    return {
      what: `local write overhead, ${r.label}`,
      figure: ms(medianDiff),
      rate: `p95 ${ms(p95Diff)}`,
      load: r.load,
      goal: `median < ${GOALS.overheadMs} ms: ${verdict(medianDiff < GOALS.overheadMs)}`,
    };
  });
}
