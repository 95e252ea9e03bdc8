/**
 * `npm run bench -- reports`: invoices (12) over every order, and orders analytics v2 (9) page 1,
 * on BENCH_ORDERS (default 100,000) orders with pallets, cartons and activity. Each is timed
 * through the service (Fastify inject: routing, auth, parsing, domain, Kysely, JSON) and as its
 * raw SQL: the very statements the service ran, captured from Kysely's log and replayed with
 * better-sqlite3 prepared statements; and as the domain function alone (Kysely, no HTTP), our
 * layer. Goals: invoices under 200 ms; our layer within 1.5x of raw.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { openDatabase } from '../src/server/db/database';
import {
  billingRollupTriggerNames,
  createBillingRollupTriggers,
  refillBillingRollup,
} from '../src/server/billing/rollup';
import type { Database } from '../src/server/db/schema';
import { analyticsTableV2 } from '../src/server/analytics/table';
import { authUserById } from '../src/server/access/auth-cache';
import { invoices as invoiceSummary } from '../src/server/billing/invoices';
import { invoiceOrderDetails } from '../src/server/billing/order-details';
import { importSeedBundle } from '../src/server/seed/seed';
import { buildApp } from '../src/server/http/app';
import {
  fillReportOrders,
  REPORT_EMAIL,
  REPORT_PASSWORD,
  reportIds,
  reportsBundle,
} from './reports-data';
import { benchContext, injectedAuthorization } from './in-process';
import { ms, summarise, timeRuns, type LatencySummary } from './stats';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const WARMUP = 5;
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const GOAL_INVOICE_MS = 200;
const GOAL_RATIO = 1.5;

export async function runReportsBench() {
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-reports-'));
  const database = await openDatabase(dataDir);
  try {
    const cost = { N: 1024, r: 8, p: 1 };
    await importSeedBundle(database.db, reportsBundle(), { passwordCost: cost });
    // A bulk load: the totals triggers are dropped while the rows go in, then the totals are
    // recomputed in one pass and the triggers come back (as the migration does for old data).
    let started = performance.now();
    for (const name of billingRollupTriggerNames()) database.sqlite.exec(`DROP TRIGGER ${name}`);
    fillReportOrders(database.sqlite, ORDERS);
    const fillMs = performance.now() - started;
    started = performance.now();
    await createBillingRollupTriggers(database.db as never);
    await refillBillingRollup(database.db as never);
    const refillMs = performance.now() - started;

    const ctx = benchContext(database.db, dataDir, { passwordCost: cost });
    const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
    await app.ready();
    // A twin of the service whose Kysely logs its statements: the raw SQL to replay.
    let captured: CompiledQuery[] = [];
    const logged = new Kysely<Database>({
      dialect: new SqliteDialect({ database: database.sqlite }),
      log: (event) => {
        if (event.level === 'query') captured.push(event.query);
      },
    });
    const twin = await buildApp({ ...ctx, db: logged }, { host: '127.0.0.1', uiDir: null });
    await twin.ready();
    const authorization = await injectedAuthorization(app, REPORT_EMAIL, REPORT_PASSWORD);
    const userId = database.sqlite
      .prepare('SELECT id FROM users WHERE email = ?')
      .pluck()
      .get(REPORT_EMAIL) as string;

    const measure = async (url: string, domain: () => Promise<unknown>) => {
      const call = async () => {
        const response = await app.inject({ method: 'GET', url, headers: { authorization } });
        if (response.statusCode !== 200) throw new Error(`${url}: ${response.body}`);
        return response;
      };
      captured = [];
      const twinCall = await twin.inject({ method: 'GET', url, headers: { authorization } });
      if (twinCall.statusCode !== 200) throw new Error(`${url}: ${twinCall.body}`);
      // The user and its facilities come from the service's auth cache: not replayed.
      const reportStatements = captured.filter(
        (q) => !/"user_facilities"|from "users"/.test(q.sql),
      );
      const statements = reportStatements.map((q) => ({
        statement: database.sqlite.prepare(q.sql),
        parameters: q.parameters as unknown[],
      }));
      const raw = () => {
        for (const { statement, parameters } of statements) statement.all(...parameters);
      };
      // Interleaved, one of each per round, so all three see the same machine load.
      const samples = { ours: [] as number[], domain: [] as number[], raw: [] as number[] };
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const ours = await timeRuns(1, 0, call);
        const inDomain = await timeRuns(1, 0, domain);
        const bare = await timeRuns(1, 0, raw);
        if (i < WARMUP) continue;
        samples.ours.push(ours.samples[0]!);
        samples.domain.push(inDomain.samples[0]!);
        samples.raw.push(bare.samples[0]!);
      }
      const total = (list: number[]) => list.reduce((a, b) => a + b, 0);
      return {
        ours: summarise(samples.ours, total(samples.ours)),
        domain: summarise(samples.domain, total(samples.domain)),
        raw: summarise(samples.raw, total(samples.raw)),
        statements: statements.length,
      };
    };

    const user = (await authUserById(ctx.db, userId))!;
    started = performance.now();
    const invoices = await measure('/api/v1/fintech/invoices', () => invoiceSummary(ctx, user, {}));
    const monthQuery = {
      packed_from: '2025-03-01',
      packed_to: '2025-03-31',
      transportation_method: 'FREIGHT',
    };
    const filtered = await measure(
      `/api/v1/fintech/invoices?${new URLSearchParams(monthQuery).toString()}`,
      () => invoiceSummary(ctx, user, monthQuery),
    );
    const analytics = await measure(`/api/v2/orders/analytics/table/${reportIds.facility}`, () =>
      analyticsTableV2(ctx, user, reportIds.facility, {}),
    );
    const details = await measure(
      '/api/v1/fintech/invoice-order-details?page=20&page_size=100',
      () => invoiceOrderDetails(ctx, user, { page: '20', page_size: '100' }),
    );
    const benchMs = performance.now() - started;
    await app.close();
    await twin.close();

    const load = loadavg()[0] ?? 0;
    console.log(
      `\nReports: ${ORDERS.toLocaleString('en-US')} orders (4 in 7 with 2 pallets x 2 cartons ` +
        `and activity), filled in ${(fillMs / 1000).toFixed(1)} s, totals recomputed in ${(refillMs / 1000).toFixed(1)} s; ${RUNS} rounds (service, domain, raw interleaved) after ` +
        `${WARMUP} warm-up; ${cpus().length} CPUs, ${process.version}, load ${load.toFixed(1)}`,
    );
    console.log(`\n${''.padEnd(48)}${'median'.padStart(11)}${'p95'.padStart(11)}`);
    const line = (label: string, s: LatencySummary) =>
      console.log(`${label.padEnd(48)}${ms(s.medianMs).padStart(11)}${ms(s.p95Ms).padStart(11)}`);
    const block = (label: string, r: Awaited<ReturnType<typeof measure>>) => {
      console.log(label);
      line('  service (HTTP inject)', r.ours);
      line('  domain function (Kysely)', r.domain);
      line(`  raw SQL (${r.statements} statements)`, r.raw);
      console.log(
        `  ratio to raw: service ${(r.ours.medianMs / r.raw.medianMs).toFixed(2)}x, ` +
          `domain ${(r.domain.medianMs / r.raw.medianMs).toFixed(2)}x`,
      );
    };
    block('invoices, all orders', invoices);
    block('invoices, packed in a month + FREIGHT', filtered);
    block('analytics v2, page 1', analytics);
    block('invoice order details, page 20 of 100', details);
    const verdict = (ok: boolean) => (ok ? 'MET' : 'NOT MET');
    console.log(
      `\ngoal invoices median < ${GOAL_INVOICE_MS} ms: ` +
        `${verdict(invoices.ours.medianMs < GOAL_INVOICE_MS)} (${ms(invoices.ours.medianMs)})`,
    );
    for (const [label, r] of [
      ['invoices', invoices],
      ['analytics v2', analytics],
    ] as const) {
      const ratio = r.domain.medianMs / r.raw.medianMs;
      console.log(
        `goal ${label}: our layer (domain + Kysely) within ${GOAL_RATIO}x of raw SQL: ` +
          `${verdict(ratio < GOAL_RATIO)} (${ratio.toFixed(2)}x; with HTTP ` +
          `${(r.ours.medianMs / r.raw.medianMs).toFixed(2)}x)`,
      );
    }
    console.log(`(measured in ${(benchMs / 1000).toFixed(1)} s)`);
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
