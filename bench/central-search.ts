/**
 * Part 3 of `npm run bench -- central`: the transaction log's queries at 1,000,000 rows on both
 * engines. bench/transactions.ts generates the rows into SQLite (its generator, then migration
 * 0008 builds the search index and counts); the very same rows are copied into a fresh
 * PostgreSQL database migrated by the service (its pg_trgm GIN indexes are dropped for the copy
 * and built again after it from their own definitions; the per-row triggers are off during the
 * copy and the counts they keep are computed once at the end, as their function does). Then each
 * of bench/transactions.ts's queries runs through the real service on both engines (Fastify
 * inject as the demo user, page cache cleared before each), alternating, and p95 is taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import pg from 'pg';
import { openPostgres } from '../src/server/db/postgres/open';
import { importDemoWorkspace } from '../src/server/seed/demo';
import { freshDatabase, type Engine, type PgServer } from './central-engines';
import { percentile } from './stats';
import { CASES, generated } from './transactions';
import { ROWS } from './transactions-data';
import {
  listUrl,
  sampleTransactionId,
  transactionLogService,
  type TransactionLogService,
} from './transaction-log-service';

const WARMUP = 5;
const MEASURED = Number(process.env.BENCH_CENTRAL_SEARCH_RUNS ?? 40);
const COPY_BATCH = 5_000;

export interface SearchFigures {
  rows: number;
  /** Time to fill this engine's database (generation + migration, or the copy + indexes). */
  loadMs: number;
  cases: { name: string; totalCount: number; medianMs: number; p95Ms: number }[];
  worstP95Ms: number;
}

/** Copies `table`'s rows from SQLite into PostgreSQL, in batches of unnest arrays. */
async function copyTable(
  sqlite: SQLite.Database,
  client: pg.Client,
  table: string,
  progress: () => void,
) {
  const { rows: types } = await client.query<{ name: string; type: string }>(
    `SELECT column_name AS name, udt_name AS type FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  const sqliteColumns = new Set(
    (sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]).map(
      (c) => c.name,
    ),
  );
  const columns = types.filter((c) => sqliteColumns.has(c.name));
  const insert = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')})
    SELECT * FROM unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})
    ON CONFLICT DO NOTHING`;
  // In rowid ranges rather than one open iterator, which would keep the service's own
  // connection busy (its WAL checkpoints would fail meanwhile).
  const select = sqlite.prepare(
    `SELECT rowid AS rowid_, ${columns.map((c) => c.name).join(', ')} FROM ${table}
     WHERE rowid > ? ORDER BY rowid LIMIT ${COPY_BATCH}`,
  );
  await client.query('BEGIN');
  for (let after = 0; ;) {
    const rows = select.all(after) as Record<string, unknown>[];
    if (rows.length === 0) break;
    const batch = columns.map((c) => rows.map((row) => row[c.name]));
    await client.query(insert, batch);
    after = rows[rows.length - 1]!.rowid_ as number;
    progress();
  }
  await client.query('COMMIT');
  console.log(`search: ${table} copied`);
}

const INDEX_BUILD_MAX_MS = 600_000;

/** Calls `progress` every 10 s while `work` runs, for at most INDEX_BUILD_MAX_MS. */
async function withHeartbeat<T>(progress: () => void, work: () => Promise<T>): Promise<T> {
  const until = performance.now() + INDEX_BUILD_MAX_MS;
  const beat = setInterval(() => {
    if (performance.now() < until) progress();
  }, 10_000);
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/** The generated log copied into a fresh PostgreSQL database of the bench cluster. */
async function copiedToPostgres(
  sqlite: SQLite.Database,
  adminUrl: Awaited<ReturnType<typeof freshDatabase>>,
  progress: () => void,
) {
  const opened = await openPostgres(adminUrl, 10);
  await importDemoWorkspace(opened.db);
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = 'transactions'
         AND indexname NOT IN (SELECT conname FROM pg_constraint)`,
    );
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`);
    // The generator's rows name another tenant's brand and facility that exist nowhere (its
    // SQLite copy is written with foreign keys off); the same here, for the copy only.
    await client.query('ALTER TABLE orders DISABLE TRIGGER ALL');
    await client.query('ALTER TABLE transactions DISABLE TRIGGER ALL');
    await copyTable(sqlite, client, 'orders', progress);
    await copyTable(sqlite, client, 'transactions', progress);
    await client.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) {
      // One statement can outlast the watchdog on a busy machine (the trigram index took over
      // 90 s at load 15): it is told the build moves, for at most INDEX_BUILD_MAX_MS.
      await withHeartbeat(progress, () => client.query(index.definition));
      progress();
    }
    await client.query('ALTER TABLE orders ENABLE TRIGGER ALL');
    await client.query('ALTER TABLE transactions ENABLE TRIGGER ALL');
    // What transaction_counts_add (migration 0015_baseline) adds per row, for all rows at once,
    // in day order: a central's triggers add a day's count rows on that day, so a date range's
    // rows lie together (in hash order, 30 days' rows were spread over 3,169 pages instead of
    // 295, and their count took 9 ms instead of 4).
    await client.query(`DELETE FROM transaction_counts`);
    await client.query(`INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key,
        action_type, execution_status, has_error, n)
      SELECT d.day, coalesce(t.facility_id, ''), coalesce(t.brand_id, ''),
        coalesce(t.retailer_id, ''), t.action_type, t.execution_status,
        (t.error_message IS NOT NULL)::int, count(*)
      FROM transactions t CROSS JOIN LATERAL (VALUES (''), (substr(t.created_at, 1, 10))) d(day)
      GROUP BY 1, 2, 3, 4, 5, 6, 7 ORDER BY 1`);
    // The state autovacuum leaves after a load, before any query is timed: otherwise its first
    // pass over the 1M copied rows (about a minute of one core) runs during the measurements,
    // and any GIN pending list left by the copy is scanned by every search until then.
    await withHeartbeat(progress, () => client.query('VACUUM (ANALYZE)'));
    // And the load's dirty pages written out: the durable cluster's next checkpoint would
    // otherwise write ~1 GiB while the queries are timed.
    await withHeartbeat(progress, () => client.query('CHECKPOINT'));
  } finally {
    await client.end();
  }
  return opened;
}

export async function benchSearch(
  pgServer: PgServer,
  progress: () => void,
): Promise<Record<Engine, SearchFigures | { missing: string }>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-central-search-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', removeDir); // the watchdog exits without unwinding
  const closers: (() => Promise<void>)[] = [];
  try {
    console.log(`search: generating ${ROWS.toLocaleString('en')} rows on SQLite…`);
    let t0 = performance.now();
    const sqlite = await generated(dataDir, progress);
    closers.push(() => sqlite.close());
    const loadMs: Record<Engine, number> = { sqlite: performance.now() - t0, postgres: 0 };
    const services: Partial<Record<Engine, TransactionLogService>> = {
      sqlite: await transactionLogService(sqlite.db, dataDir),
    };
    closers.push(() => services.sqlite!.close());
    if (pgServer.missing === undefined) {
      console.log('search: copying them into PostgreSQL and building its indexes…');
      t0 = performance.now();
      const url = await freshDatabase(pgServer.cluster, 'search');
      const postgres = await copiedToPostgres(sqlite.sqlite, url, progress);
      closers.push(() => postgres.close());
      loadMs.postgres = performance.now() - t0;
      services.postgres = await transactionLogService(postgres.db, dataDir);
      closers.push(() => services.postgres!.close());
    }
    const someTx = await sampleTransactionId(sqlite.db);
    const engines = Object.keys(services) as Engine[];
    const figures = Object.fromEntries(
      engines.map((e) => [e, { rows: ROWS, loadMs: loadMs[e], cases: [], worstP95Ms: 0 }]),
    ) as unknown as Record<Engine, SearchFigures>;
    for (const testCase of CASES) {
      const url = listUrl(testCase.query, someTx);
      const samples = Object.fromEntries(engines.map((e) => [e, [] as number[]]));
      const totals: Partial<Record<Engine, number>> = {};
      for (const engine of engines) {
        for (let i = 0; i < WARMUP; i++) totals[engine] = await services[engine]!.listed(url);
      }
      for (let i = 0; i < MEASURED; i++) {
        // Each engine goes first in turn.
        for (let k = 0; k < engines.length; k++) {
          const engine = engines[(i + k) % engines.length]!;
          const started = performance.now();
          await services[engine]!.listed(url);
          samples[engine]!.push(performance.now() - started);
        }
      }
      if (engines.length === 2 && totals.sqlite !== totals.postgres) {
        console.log(
          `search: WARNING ${testCase.name}: SQLite counts ${totals.sqlite}, PostgreSQL ${totals.postgres}`,
        );
      }
      for (const engine of engines) {
        const sorted = samples[engine]!.sort((a, b) => a - b);
        const p95Ms = percentile(sorted, 0.95);
        figures[engine].cases.push({
          name: testCase.name,
          totalCount: totals[engine]!,
          medianMs: percentile(sorted, 0.5),
          p95Ms,
        });
        figures[engine].worstP95Ms = Math.max(figures[engine].worstP95Ms, p95Ms);
      }
      progress();
    }
    return {
      sqlite: figures.sqlite,
      postgres: pgServer.missing ? { missing: pgServer.missing } : figures.postgres,
    };
  } finally {
    for (const close of closers.reverse()) await close();
    removeDir();
    process.off('exit', removeDir);
  }
}
