/**
 * The PostgreSQL half of `npm run bench -- transactions` (BENCH_ENGINE=postgres): the same
 * generated log (./transactions-data.ts) in a throwaway cluster (test/helpers/postgres/cluster.ts:
 * fsync off, which a read bench does not feel), loaded as an upgrade would meet it. The schema is
 * migrated up to LOAD_AT, the rows are loaded with multi-row INSERTs from arrays (unnest), the
 * log's secondary indexes are dropped for the load and rebuilt after it (CREATE INDEX over the
 * rows, each from its own definition), then the service's own open runs any later migration over
 * the rows that are there.
 * `BENCH_DATABASE_URL=<url>` reruns the queries on a database kept by `BENCH_KEEP_DATA_DIR=1`.
 */
import { CompiledQuery, Migrator, Kysely, PostgresDialect, sql } from 'kysely';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import type { Db } from '../src/server/db/db';
import { postgresMigrationProvider } from '../src/server/db/postgres/migrations';
import { openPostgres, type OpenedPostgres } from '../src/server/db/postgres/open';
import type { Database } from '../src/server/db/schema';
import { importDemoWorkspace } from '../src/server/seed/demo';
import {
  serverBinaries,
  startCluster,
  type ThrowawayCluster,
} from '../test/helpers/postgres/cluster';
import {
  LOG_COLUMNS,
  ORDER_COLUMNS,
  ROWS,
  generatedOrders,
  generatedTransactions,
} from './transactions-data';

/** The schema the rows are loaded into; the service's open applies any later migration. */
const LOAD_AT = '0016_edi_document_status';
const BATCH = 10_000;
const POOL_SIZE = 8;
/** Linux's USER_HZ, the unit of /proc/<pid>/stat times. */
const CLOCK_TICKS = 100;

export interface PostgresBench {
  db: Db;
  url: string;
  /**
   * The same compiled statements on a bare `pg` client, unnamed as Kysely sends them, so each run
   * is planned for its values as the service's are. A statement prepared by name gets
   * PostgreSQL's generic plan after five runs, which for a search guesses the term's matches
   * (`LIKE lower($1)`) and cost the common term twice the CPU of the service's plan.
   */
  bare(page: CompiledQuery, count: CompiledQuery | null): () => Promise<unknown>;
  /**
   * CPU time (ms) the bare client's server process has used so far, from /proc: what a query
   * costs the server whatever else the machine runs (wall times on a shared machine wait too).
   */
  serverCpuMs(): number | null;
  close(): Promise<void>;
}

/** A database with ROWS transactions, or the kept one of BENCH_DATABASE_URL. */
export async function postgresBench(progress: () => void): Promise<PostgresBench> {
  const reused = process.env.BENCH_DATABASE_URL;
  let cluster: ThrowawayCluster | null = null;
  let url = reused;
  if (!url) {
    const bin = serverBinaries();
    if (!bin)
      throw new Error('BENCH_ENGINE=postgres: no server in /usr/lib/postgresql (or PG_BIN)');
    cluster = await startCluster(bin);
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    url = new URL(cluster.adminUrl).toString().replace(/\/postgres$/, '/bench');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE EXTENSION pg_trgm');
    await client.end();
  }
  const stopCluster = () => cluster?.stop();
  process.once('exit', stopCluster);
  let opened: OpenedPostgres;
  try {
    opened = reused ? await openPostgres(url, POOL_SIZE) : await generated(url, progress);
  } catch (error) {
    stopCluster();
    throw error;
  }
  const bareClient = new pg.Client({ connectionString: url });
  await bareClient.connect();
  const backend = await bareClient.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const pid = backend.rows[0]!.pid;
  return {
    db: opened.db,
    url,
    bare(page, count) {
      return async () => {
        const rows = await bareClient.query(page.sql, [...page.parameters]);
        const total = count ? await bareClient.query(count.sql, [...count.parameters]) : null;
        return [rows, total];
      };
    },
    serverCpuMs: () => processCpuMs(pid),
    async close() {
      await bareClient.end();
      await opened.close();
      if (process.env.BENCH_KEEP_DATA_DIR && cluster) {
        console.log(`kept: ${url} (cluster in ${cluster.dir}; stop it with pg_ctl -D …/data stop)`);
        process.off('exit', stopCluster);
      } else stopCluster();
    },
  };
}

/** User and system CPU of a local process, in ms (null where /proc cannot tell: a remote server). */
function processCpuMs(pid: number): number | null {
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

async function generated(url: string, progress: () => void): Promise<OpenedPostgres> {
  let started = performance.now();
  const early = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 1 }) }),
  });
  const migrated = await new Migrator({ db: early, provider: postgresMigrationProvider }).migrateTo(
    LOAD_AT,
  );
  if (migrated.error) throw migrated.error;
  await early.destroy();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let loadMs = 0;
  let indexMs = 0;
  let indexes = 0;
  try {
    // The log's secondary indexes, to rebuild after the load (each as its migration wrote it).
    const { rows: definitions } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
        WHERE tablename = 'transactions' AND indexname <> 'transactions_pkey'`,
    );
    for (const index of definitions) await client.query(`DROP INDEX ${index.name}`);
    indexes = definitions.length;
    // Replica mode skips triggers and foreign keys for this session: the orders name the demo's
    // brands and facilities, imported after; the daily counts are summed once below.
    await client.query('SET session_replication_role = replica');
    await client.query('BEGIN');
    await insertAll(
      client,
      'orders',
      ORDER_COLUMNS,
      generatedOrders(),
      {
        column: 'status',
        value: "'Shipped'",
      },
      progress,
    );
    await insertAll(
      client,
      'transactions',
      LOG_COLUMNS,
      generatedTransactions(),
      {
        column: 'request_method',
        value: "'POST'",
      },
      progress,
    );
    await client.query(`INSERT INTO transaction_counts (day, facility_key, brand_key, retailer_key,
        action_type, execution_status, has_error, n)
      SELECT d.day, coalesce(facility_id, ''), coalesce(brand_id, ''), coalesce(retailer_id, ''),
          action_type, execution_status, (error_message IS NOT NULL)::int, count(*)
        FROM transactions CROSS JOIN LATERAL (VALUES (''), (substr(created_at, 1, 10))) d(day)
        GROUP BY 1, 2, 3, 4, 5, 6, 7`);
    await client.query('COMMIT');
    await client.query('RESET session_replication_role');
    loadMs = performance.now() - started;
    progress();
    started = performance.now();
    await client.query(`SET maintenance_work_mem = '512MB'`);
    for (const index of definitions) await whileAlive(progress, client.query(index.definition));
    indexMs = performance.now() - started;
  } finally {
    await client.end();
  }
  // The service's own open: the later migrations meet the rows there.
  started = performance.now();
  const opened = await whileAlive(progress, openPostgres(url, POOL_SIZE));
  const migrateMs = performance.now() - started;
  progress();
  await importDemoWorkspace(opened.db);
  started = performance.now();
  await whileAlive(progress, sql`VACUUM ANALYZE`.execute(opened.db));
  const vacuumMs = performance.now() - started;
  console.log(
    `\nTransaction log on PostgreSQL: ${ROWS.toLocaleString('en')} rows loaded in ` +
      `${(loadMs / 1000).toFixed(1)} s (INSERT … SELECT FROM unnest, ${BATCH.toLocaleString('en')} ` +
      `rows a statement, one transaction), ${indexes} indexes of the log rebuilt in ` +
      `${(indexMs / 1000).toFixed(1)} s, migrations after ${LOAD_AT} ${(migrateMs / 1000).toFixed(1)} s, ` +
      `VACUUM ANALYZE ${(vacuumMs / 1000).toFixed(1)} s`,
  );
  return opened;
}

/**
 * `work`, telling the watchdog every 10 s that the bench moves: one statement (a trigram index
 * over a million rows) takes minutes on a busy machine, and it ends by itself.
 */
async function whileAlive<T>(progress: () => void, work: Promise<T>): Promise<T> {
  const timer = setInterval(progress, 10_000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}

/** Every row of `rows` into `table`, BATCH rows a statement, as text arrays unnested to rows. */
async function insertAll(
  client: pg.Client,
  table: string,
  columns: readonly string[],
  rows: Iterable<(string | number | null)[]>,
  constant: { column: string; value: string },
  progress: () => void,
) {
  const { rows: types } = await client.query<{ name: string; type: string }>(
    `SELECT column_name AS name, data_type AS type FROM information_schema.columns
      WHERE table_name = $1`,
    [table],
  );
  const typeOf = new Map(types.map((column) => [column.name, column.type]));
  const text = `INSERT INTO ${table} (${columns.join(', ')}, ${constant.column})
    SELECT ${columns.map((c, i) => `c${i}::${typeOf.get(c)!}`).join(', ')}, ${constant.value}
      FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(', ')})
        AS u(${columns.map((_, i) => `c${i}`).join(', ')})`;
  let batch: (string | null)[][] = columns.map(() => []);
  let size = 0;
  const flush = async () => {
    if (size === 0) return;
    await client.query({ name: `load_${table}`, text, values: batch });
    batch = columns.map(() => []);
    size = 0;
    progress();
  };
  for (const row of rows) {
    row.forEach((value, i) => batch[i]!.push(value === null ? null : String(value)));
    if (++size === BATCH) await flush();
  }
  await flush();
}
