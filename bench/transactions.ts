/**
 * `npm run bench -- transactions`: the transaction log (endpoint 11) at 1,000,000 rows. A
 * generator fills a throwaway data dir (bare better-sqlite3 inserts in one transaction, before
 * migration 0008 so that migration builds the search index and the counts as an upgrade would),
 * then each query runs through the real service (Fastify inject, as the demo user) and as the very
 * same SQL on bare better-sqlite3, alternating; the domain function alone (our layer: Kysely and the
 * row shaping, no HTTP) is timed beside them. Goals: p95 under 20 ms, ours within 1.5x of bare.
 * `BENCH_DATA_DIR=<dir>` reruns the queries on a database kept by `BENCH_KEEP_DATA_DIR=1`.
 * See docs/benchmarks.md.
 */
import { forgetTransactionPages } from '../src/server/transactions/page-cache';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { defaultDeliveryPolicy } from '../src/server/inventory/transmission/types';
import { openDatabase } from '../src/server/db/database';
import { migrationProvider } from '../src/server/db/migrations';
import type { Database } from '../src/server/db/schema';
import { compileTransactionQueries } from '../src/server/transactions/queries';
import type { ServiceContext } from '../src/server/core/context';
import { DEMO_EMAIL, DEMO_PASSWORD, importDemoWorkspace } from '../src/server/seed/demo';
import { authUserById } from '../src/server/access/auth-cache';
import { seededRandom } from '../src/server/seed/seeded-random';
import { transactionFilter, transactionList } from '../src/server/transactions/list';
import { parseTransactionListQuery } from '../src/server/transactions/query';
import { transactionScope } from '../src/server/transactions/scope';
import { buildApp } from '../src/server/http/app';
import { ACTION_TYPES } from '../src/shared/transactions';
import { ms, summarise, type LatencySummary } from './stats';

export const ROWS = Number(process.env.BENCH_TRANSACTIONS ?? 1_000_000);
const WARMUP = 5;
const MEASURED = Number(process.env.BENCH_RUNS ?? 60);
const GOAL_P95_MS = 20;
const GOAL_RATIO = 1.5;

const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** The demo's facilities and brands (resources/demo-workspace.json) and their links. */
export const F = [1, 2, 3].map((n) => uuid('0f', n));
const B = [1, 2, 3].map((n) => uuid('0b', n));
const R = [1, 2, 3, 4].map((n) => uuid('0e', n));
/** Facility → brands working there; the last pair is another tenant's (the demo user sees none of it). */
const PLACES: [string | null, string, string[]][] = [
  [F[0]!, B[0]!, [R[0]!, R[3]!]],
  [F[0]!, B[1]!, [R[1]!]],
  [F[1]!, B[0]!, [R[0]!, R[3]!]],
  [F[2]!, B[0]!, [R[2]!]],
  [F[2]!, B[2]!, [R[2]!]],
  [null, B[0]!, [R[0]!, R[3]!]],
  [uuid('0f', 900), uuid('0b', 900), [uuid('0e', 900)]],
];
const ORDERS = 50_000;
const orderId = (n: number) => uuid('0d', 100_000 + n);
const SPAN_MS = 365 * 86_400_000;
const END = Date.parse('2026-11-20T00:00:00.000Z');
const ERRORS = [
  'timeout after 30000 ms waiting for partner',
  '502: Bad Gateway',
  '503: Service Unavailable',
  '401: Unauthorized (token expired)',
  'ECONNRESET: connection reset by peer',
  'EDI 997 rejected: segment N1 missing',
  'ASN rejected: carton count mismatch',
  'Invoice rejected: unknown PO number',
];

/** Rows and orders written straight into the tables of migrations up to 0007. */
function generate(file: string) {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  // Orders name the demo's brands and facilities, imported after the migrations.
  sqlite.pragma('foreign_keys = OFF');
  // Deterministic, so every run generates the same rows.
  const random = seededRandom(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const insertOrder = sqlite.prepare(`INSERT INTO orders (id, brand_id, retailer_id, facility_id,
    picksheet_code, po_number, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, 'Shipped', ?, ?)`);
  const insert = sqlite.prepare(`INSERT INTO transactions (transaction_id, action_type,
    action_type_label, brand_id, retailer_id, facility_id, order_id, carton_id, load_id,
    correlation_id, duration_ms, error_message, execution_status, request_method, request_url,
    request_payload, response_body, response_status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, 'POST', ?, ?, ?, ?, ?, ?)`);
  const orderPlace = (n: number) => PLACES[n % PLACES.length]!;
  sqlite.transaction(() => {
    for (let n = 0; n < ORDERS; n++) {
      const [facility, brand, retailers] = orderPlace(n);
      const at = new Date(END - SPAN_MS + (n / ORDERS) * SPAN_MS).toISOString();
      insertOrder.run(
        orderId(n),
        brand,
        retailers[0],
        facility ?? F[0],
        `PS-${n}`,
        `PO${4_600_000 + n}`,
        at,
        at,
      );
    }
    for (let i = 0; i < ROWS; i++) {
      const place = random() < 0.9 ? PLACES[Math.floor(random() * 6)]! : PLACES[6]!;
      const [facility, brand, retailers] = place;
      // One row in 50,000 is a failure carrying the rare word.
      const rare = i % 50_000 === 7;
      const roll = random();
      const status = rare
        ? 'FAILURE'
        : roll < 0.8
          ? 'SUCCESS'
          : roll < 0.88
            ? 'FAILURE'
            : roll < 0.93
              ? 'RETRY'
              : roll < 0.97
                ? 'PENDING'
                : 'SKIP';
      const action = facility === null ? 'SEND_INVENTORY_ADVICE' : pick(ACTION_TYPES);
      const failed = status === 'FAILURE' || status === 'RETRY';
      const error = failed ? (rare ? 'Partner says QUOKKA' : pick(ERRORS)) : null;
      const order = action === 'SEND_INVENTORY_ADVICE' ? null : Math.floor(random() * ORDERS);
      const at = new Date(END - SPAN_MS + (i / ROWS) * SPAN_MS).toISOString();
      const retailer = pick(retailers);
      insert.run(
        crypto.randomUUID(),
        action,
        action.charAt(0) + action.slice(1).toLowerCase().replaceAll('_', ' '),
        brand,
        retailer,
        facility,
        order === null ? null : orderId(order),
        random() < 0.5 ? `corr-${Math.floor(random() * 2 ** 40).toString(16)}` : null,
        Math.floor(random() * 900),
        error,
        status,
        `https://edi.partner${retailer.slice(-1)}.example/v1/${action.toLowerCase()}/${i}`,
        `{"attempt":1,"bytes":${Math.floor(random() * 20_000)}}`,
        failed ? `{"text":"${error}"}` : '{"text":"ok"}',
        failed ? 502 : 200,
        at,
        at,
      );
    }
  })();
  sqlite.close();
}

export interface Case {
  name: string;
  query: string;
}

export const CASES: Case[] = [
  { name: 'first page, unfiltered', query: '' },
  { name: 'transaction_id', query: 'transaction_id=<tx>' },
  { name: 'order_id', query: `order_id=${orderId(123)}` },
  { name: 'po_number', query: `po_number=PO${4_600_000 + 123}` },
  { name: 'execution_status=SKIP', query: 'execution_status=SKIP' },
  { name: 'action_type=SEND_ASN', query: 'action_type=SEND_ASN' },
  { name: 'retailer_ids (one)', query: `retailer_ids=${R[2]}` },
  { name: 'brand_ids (one)', query: `brand_ids=${B[1]}` },
  { name: 'facility_ids (one)', query: `facility_ids=${F[1]}` },
  { name: 'has_error=true', query: 'has_error=true' },
  { name: 'created_from (last 30 days)', query: 'created_from=2026-10-21' },
  { name: 'created_to (first 30 days)', query: 'created_to=2025-12-20' },
  { name: 'order_by=execution_status asc', query: 'order_by=execution_status&order_direction=asc' },
  { name: 'page 100', query: 'page=100' },
  { name: 'search, rare term (quokka)', query: 'search=quokka' },
  { name: 'search, common term (econnreset)', query: 'search=econnreset' },
  { name: 'search, uuid fragment', query: 'search=<txpart>' },
  {
    name: '7 days + execution_status=FAILURE',
    query: 'created_from=2026-06-01&created_to=2026-06-07&execution_status=FAILURE',
  },
  {
    name: '7 days + facility_ids (one)',
    query: `created_from=2026-06-01T08:00:00Z&created_to=2026-06-07&facility_ids=${F[0]}`,
  },
];

interface CaseResult {
  name: string;
  totalCount: number;
  ours: LatencySummary;
  domain: LatencySummary;
  bare: LatencySummary;
}

/** A fresh database of ROWS transactions, opened by the service (migration 0008 indexes them). */
export async function generated(dataDir: string, progress: () => void) {
  const file = join(dataDir, 'app.sqlite');
  // 1. Tables up to 0007, then the rows.
  let started = performance.now();
  const early = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new SQLite(file) }),
  });
  const migrated = await new Migrator({ db: early, provider: migrationProvider }).migrateTo(
    '0007_fulfilment',
  );
  if (migrated.error) throw migrated.error;
  await early.destroy();
  generate(file);
  const generateMs = performance.now() - started;
  progress();
  // 2. The service's own open: migration 0008 indexes what is there.
  started = performance.now();
  const database = await openDatabase(dataDir);
  const migrateMs = performance.now() - started;
  progress();
  await importDemoWorkspace(database.db);
  database.sqlite.exec('ANALYZE');
  console.log(
    `\nTransaction log: ${ROWS.toLocaleString('en')} rows generated in ${(generateMs / 1000).toFixed(1)} s; ` +
      `migration 0008 (search index, counts, indexes) ${(migrateMs / 1000).toFixed(1)} s`,
  );

  return database;
}

export async function runTransactionsBench(
  _args: string[] = [],
  /** Called after each phase (generation, migration, each query), so a watchdog knows it moves. */
  progress: () => void = () => {},
): Promise<void> {
  const reused = process.env.BENCH_DATA_DIR;
  const dataDir = reused ?? mkdtempSync(join(tmpdir(), 'fi-bench-tx-'));
  try {
    const database = reused ? await openDatabase(dataDir) : await generated(dataDir, progress);
    const ctx: ServiceContext = {
      db: database.db,
      secret: new TextEncoder().encode('bench-secret-bench-secret-bench-secret'),
      clock: { now: () => new Date() },
      dataDir,
      deliveryPolicy: defaultDeliveryPolicy,
      deliveryConcurrency: 8,
      deliveriesInFlight: new Set(),
    };
    const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
    await app.ready();
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/token',
      payload: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    const authorization = `Bearer ${login.json<{ data: { access_token: string } }>().data.access_token}`;
    const userId = (
      database.sqlite.prepare('SELECT id FROM users WHERE email = ?').get(DEMO_EMAIL) as {
        id: string;
      }
    ).id;
    const user = (await authUserById(database.db, userId))!;
    const someTx = (
      database.sqlite
        .prepare(
          `SELECT transaction_id FROM transactions WHERE facility_id = ? LIMIT 1 OFFSET 5000`,
        )
        .get(F[0]) as { transaction_id: string }
    ).transaction_id;

    const results: CaseResult[] = [];
    for (const testCase of CASES) {
      const query = testCase.query.replace('<tx>', someTx).replace('<txpart>', someTx.slice(9, 23));
      const url = `/api/transactions${query ? `?${query}` : ''}`;
      const ours = async () => {
        // Repeats of one query are served from the page cache; measure the database path.
        forgetTransactionPages(database.db);
        const response = await app.inject({ method: 'GET', url, headers: { authorization } });
        if (response.statusCode !== 200)
          throw new Error(`${url}: ${response.statusCode} ${response.body}`);
        return response.json<{ data: { total_count: number } }>().data.total_count;
      };
      // The same statements the service runs, prepared once, on bare better-sqlite3.
      const parsed = parseTransactionListQuery(Object.fromEntries(new URLSearchParams(query)));
      const filter = transactionFilter(await transactionScope(ctx, user), parsed);
      const compiled = compileTransactionQueries(
        database.db,
        filter,
        { field: parsed.order_by, direction: parsed.order_direction },
        { limit: parsed.page_size, offset: (parsed.page - 1) * parsed.page_size },
      )!;
      const pageStatement = database.sqlite.prepare(compiled.page.sql);
      const count = compiled.count;
      const countStatement = count ? database.sqlite.prepare(count.sql) : null;
      const bare = () => {
        const rows = pageStatement.all(...(compiled.page.parameters as unknown[]));
        return [rows, countStatement?.get(...(count!.parameters as unknown[]))];
      };
      // Our layer alone: the domain function (Kysely, the queries, the row shaping), no HTTP.
      const domain = () => transactionList(ctx, user, parsed);
      let totalCount = 0;
      for (let i = 0; i < WARMUP; i++) {
        totalCount = await ours();
        await domain();
        bare();
      }
      const oursSamples: number[] = [];
      const domainSamples: number[] = [];
      const bareSamples: number[] = [];
      const runs: [() => unknown, number[]][] = [
        [ours, oursSamples],
        [domain, domainSamples],
        [bare, bareSamples],
      ];
      for (let i = 0; i < MEASURED; i++) {
        // Each goes first, second and third in turn, so none always pays the garbage the
        // request before it left (the inject path allocates most).
        for (let k = 0; k < runs.length; k++) {
          const [run, samples] = runs[(i + k) % runs.length]!;
          const t0 = performance.now();
          await run();
          samples.push(performance.now() - t0);
        }
      }
      const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
      progress();
      results.push({
        name: testCase.name,
        totalCount,
        ours: summarise(oursSamples, sum(oursSamples)),
        domain: summarise(domainSamples, sum(domainSamples)),
        bare: summarise(bareSamples, sum(bareSamples)),
      });
    }
    await app.close();
    await database.close();
    report(results);
  } finally {
    // BENCH_KEEP_DATA_DIR=1 keeps the generated database for a look with sqlite3.
    if (process.env.BENCH_KEEP_DATA_DIR || reused) console.log(`kept: ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(results: CaseResult[]) {
  const load = loadavg()[0] ?? 0;
  console.log(
    `demo user (3 facilities, no brand), page_size 50; ${WARMUP} warm-up, ${MEASURED} measured, ` +
      `ours (inject), domain (function alone) and bare (same SQL) in rotating order; ${cpus().length} CPUs, ${process.version}, load ${load.toFixed(1)}`,
  );
  const pad = (text: string, width: number) => text.padStart(width);
  console.log(
    `\n${'query'.padEnd(38)}${pad('rows', 9)}${pad('ours med', 11)}${pad('ours p95', 11)}` +
      `${pad('domain med', 11)}${pad('bare med', 11)}${pad('bare p95', 11)}${pad('ratio', 8)}` +
      `${pad('dom/bare', 9)}`,
  );
  let worstP95 = 0;
  let worstRatio = 0;
  let worstDomainRatio = 0;
  for (const r of results) {
    const ratio = r.ours.medianMs / r.bare.medianMs;
    const domainRatio = r.domain.medianMs / r.bare.medianMs;
    worstP95 = Math.max(worstP95, r.ours.p95Ms);
    worstRatio = Math.max(worstRatio, ratio);
    worstDomainRatio = Math.max(worstDomainRatio, domainRatio);
    console.log(
      `${r.name.padEnd(38)}${pad(String(r.totalCount), 9)}${pad(ms(r.ours.medianMs), 11)}` +
        `${pad(ms(r.ours.p95Ms), 11)}${pad(ms(r.domain.medianMs), 11)}` +
        `${pad(ms(r.bare.medianMs), 11)}${pad(ms(r.bare.p95Ms), 11)}${pad(`${ratio.toFixed(2)}x`, 8)}` +
        `${pad(`${domainRatio.toFixed(2)}x`, 9)}`,
    );
  }
  const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
  console.log(
    `goal p95 < ${GOAL_P95_MS} ms: ${verdict(worstP95 < GOAL_P95_MS)} (worst ${ms(worstP95)})`,
  );
  console.log(
    `goal ratio < ${GOAL_RATIO}x: ${verdict(worstRatio < GOAL_RATIO)} (worst median ratio ${worstRatio.toFixed(2)}x)`,
  );
  console.log(
    `our layer (domain / bare) < ${GOAL_RATIO}x: ${verdict(worstDomainRatio < GOAL_RATIO)} ` +
      `(worst median ratio ${worstDomainRatio.toFixed(2)}x)`,
  );
}
