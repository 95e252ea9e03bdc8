/**
 * `npm run bench -- transactions`: the transaction log (endpoint 11) at 1,000,000 rows. A
 * generator fills a throwaway data dir (bare better-sqlite3 inserts in one transaction, before
 * migration 0008 so that migration builds the search index and the counts as an upgrade would),
 * then each query runs through the real service (Fastify inject, as the demo user) and as the very
 * same SQL on bare better-sqlite3, alternating; the domain function alone (our layer: Kysely and the
 * row shaping, no HTTP) is timed beside them. Goals: p95 under 20 ms, ours within 1.5x of bare.
 * `BENCH_DATA_DIR=<dir>` reruns the queries on a database kept by `BENCH_KEEP_DATA_DIR=1`;
 * `BENCH_CASES=<text>` runs only the queries whose name contains it. `BENCH_ENGINE=postgres` runs
 * the same rows and queries on PostgreSQL (./transactions-postgres.ts), bare being a `pg` client.
 * See docs/benchmarks.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type CompiledQuery } from 'kysely';
import type { Db } from '../src/server/db/db';
import { postgresBench } from './transactions-postgres';
import { openDatabase } from '../src/server/db/database';
import { migrationProvider } from '../src/server/db/migrations';
import type { Database } from '../src/server/db/schema';
import { compileTransactionQueries } from '../src/server/transactions/queries';
import { DEMO_EMAIL, importDemoWorkspace } from '../src/server/seed/demo';
import { authUserById } from '../src/server/access/auth-cache';
import { transactionFilter, transactionList } from '../src/server/transactions/list';
import { parseTransactionListQuery } from '../src/server/transactions/query';
import { transactionScope } from '../src/server/transactions/scope';
import { ms, summarise, type LatencySummary } from './stats';
import { listUrl, sampleTransactionId, transactionLogService } from './transaction-log-service';

import {
  B,
  F,
  LOG_COLUMNS,
  ORDER_COLUMNS,
  R,
  ROWS,
  generatedOrders,
  generatedTransactions,
  orderId,
} from './transactions-data';

const WARMUP = 5;
const MEASURED = Number(process.env.BENCH_RUNS ?? 60);
const GOAL_P95_MS = 20;
const GOAL_RATIO = 1.5;

/** Rows and orders written straight into the tables of migrations up to 0007. */
function generate(file: string) {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = OFF');
  // Orders name the demo's brands and facilities, imported after the migrations.
  sqlite.pragma('foreign_keys = OFF');
  const insertOrder = sqlite.prepare(`INSERT INTO orders (${ORDER_COLUMNS.join(', ')}, status)
    VALUES (${ORDER_COLUMNS.map(() => '?').join(', ')}, 'Shipped')`);
  const insert = sqlite.prepare(`INSERT INTO transactions (${LOG_COLUMNS.join(', ')},
    request_method) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')}, 'POST')`);
  sqlite.transaction(() => {
    for (const order of generatedOrders()) insertOrder.run(...order);
    for (const row of generatedTransactions()) insert.run(...row);
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
  /** PostgreSQL: the server's CPU per bare run (page and count statements), in ms. */
  serverCpuMs: number | null;
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

/** The database the queries run on, with the same statements on the engine's bare driver. */
interface BenchDatabase {
  db: Db;
  bare(page: CompiledQuery, count: CompiledQuery | null): () => unknown;
  /** PostgreSQL: the CPU ms the bare client's server process has used so far. */
  serverCpuMs?(): number | null;
  close(): Promise<void>;
}

/** SQLite in a throwaway data dir (or the kept BENCH_DATA_DIR). */
async function sqliteBench(progress: () => void): Promise<BenchDatabase & { dataDir: string }> {
  const reused = process.env.BENCH_DATA_DIR;
  const dataDir = reused ?? mkdtempSync(join(tmpdir(), 'fi-bench-tx-'));
  const database = reused ? await openDatabase(dataDir) : await generated(dataDir, progress);
  return {
    dataDir,
    db: database.db,
    // The same statements the service runs, prepared once, on bare better-sqlite3.
    bare(page, count) {
      const pageStatement = database.sqlite.prepare(page.sql);
      const countStatement = count ? database.sqlite.prepare(count.sql) : null;
      return () => {
        const rows = pageStatement.all(...(page.parameters as unknown[]));
        return [rows, countStatement?.get(...(count!.parameters as unknown[]))];
      };
    },
    async close() {
      await database.close();
      // BENCH_KEEP_DATA_DIR=1 keeps the generated database for a look with sqlite3.
      if (process.env.BENCH_KEEP_DATA_DIR || reused) console.log(`kept: ${dataDir}`);
      else rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function runTransactionsBench(
  _args: string[] = [],
  /** Called after each phase (generation, migration, each query), so a watchdog knows it moves. */
  progress: () => void = () => {},
): Promise<void> {
  const engine = process.env.BENCH_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
  const database: BenchDatabase =
    engine === 'postgres' ? await postgresBench(progress) : await sqliteBench(progress);
  // Only the cases whose name contains BENCH_CASES (all when unset).
  const only = process.env.BENCH_CASES;
  try {
    const service = await transactionLogService(
      database.db,
      'dataDir' in database ? (database.dataDir as string) : tmpdir(),
    );
    const { ctx } = service;
    const { id: userId } = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_EMAIL)
      .executeTakeFirstOrThrow();
    const user = (await authUserById(database.db, userId))!;
    const someTx = await sampleTransactionId(database.db);

    const results: CaseResult[] = [];
    for (const testCase of CASES.filter((c) => !only || c.name.includes(only))) {
      const url = listUrl(testCase.query, someTx);
      const ours = () => service.listed(url);
      const parsed = parseTransactionListQuery(
        Object.fromEntries(new URL(url, 'http://bench').searchParams),
      );
      const filter = transactionFilter(await transactionScope(ctx, user), parsed);
      const compiled = compileTransactionQueries(
        database.db,
        filter,
        { field: parsed.order_by, direction: parsed.order_direction },
        { limit: parsed.page_size, offset: (parsed.page - 1) * parsed.page_size },
      )!;
      const bare = database.bare(compiled.page, compiled.count);
      // Our layer alone: the domain function (Kysely, the queries, the row shaping), no HTTP.
      const domain = () => transactionList(ctx, user, parsed);
      let totalCount = 0;
      for (let i = 0; i < WARMUP; i++) {
        totalCount = await ours();
        await domain();
        await bare();
      }
      const oursSamples: number[] = [];
      const domainSamples: number[] = [];
      const bareSamples: number[] = [];
      const runs: [() => unknown, number[]][] = [
        [ours, oursSamples],
        [domain, domainSamples],
        [bare, bareSamples],
      ];
      const cpuBefore = database.serverCpuMs?.() ?? null;
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
      const cpuAfter = database.serverCpuMs?.() ?? null;
      const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
      progress();
      results.push({
        name: testCase.name,
        totalCount,
        ours: summarise(oursSamples, sum(oursSamples)),
        domain: summarise(domainSamples, sum(domainSamples)),
        bare: summarise(bareSamples, sum(bareSamples)),
        serverCpuMs:
          cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / MEASURED,
      });
    }
    await service.close();
    report(engine, results);
  } finally {
    await database.close();
  }
}

function report(engine: string, results: CaseResult[]) {
  const load = loadavg()[0] ?? 0;
  console.log(
    `${engine}: demo user (3 facilities, no brand), page_size 50; ${WARMUP} warm-up, ${MEASURED} measured, ` +
      `ours (inject), domain (function alone) and bare (same SQL) in rotating order; ${cpus().length} CPUs, ${process.version}, load ${load.toFixed(1)}`,
  );
  const pad = (text: string, width: number) => text.padStart(width);
  console.log(
    `\n${'query'.padEnd(38)}${pad('rows', 9)}${pad('ours med', 11)}${pad('ours p95', 11)}` +
      `${pad('domain med', 11)}${pad('bare med', 11)}${pad('bare p95', 11)}${pad('ratio', 8)}` +
      `${pad('dom/bare', 9)}${engine === 'postgres' ? pad('server CPU', 12) : ''}`,
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
        `${pad(`${domainRatio.toFixed(2)}x`, 9)}` +
        `${r.serverCpuMs === null ? '' : pad(ms(r.serverCpuMs), 12)}`,
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
