/**
 * The two engines of `npm run bench -- central`: a central on SQLite in a temp data dir (WAL,
 * synchronous = FULL, as the service opens it) and a central on PostgreSQL, a fresh database in
 * a cluster the bench starts itself with fsync, synchronous_commit and full_page_writes on
 * (the tests' cluster runs without them). Both in this process, on real loopback HTTP.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startService, type RunningService } from '../src/server/http/server';
import { DEFAULT_POOL_SIZE } from '../src/server/http/config';
import type { SeedDevice } from '../src/shared/sync-seed';
import { TEST_PASSWORD_COST } from '../test/helpers/service';
import {
  serverBinaries,
  startCluster,
  type ThrowawayCluster,
} from '../test/helpers/postgres/cluster';
import { createTemplate } from '../test/helpers/postgres/databases';
import { seedInto } from '../test/sync/helpers/cluster';

export type Engine = 'sqlite' | 'postgres';
/**
 * Both by default; `BENCH_CENTRAL_ENGINES=postgres` (or `sqlite`) runs the push, paced and pull
 * parts on one alone, to profile it (the other's column says it was not run; search runs both).
 */
export const ENGINES: Engine[] = (['sqlite', 'postgres'] as const).filter((engine) =>
  (process.env.BENCH_CENTRAL_ENGINES ?? 'sqlite,postgres').split(',').includes(engine),
);

/** A started central, or why this engine has none (printed in its column, never a figure). */
export type Central =
  | { central: RunningService; close(): Promise<void>; missing?: undefined }
  | { missing: string; central?: undefined };

/** The bench's durable PostgreSQL cluster, or why there is none. */
export type PgServer = { cluster: ThrowawayCluster; missing?: undefined } | { missing: string };

export async function startDurableCluster(): Promise<PgServer> {
  if (process.env.DATABASE_URL) {
    // A server of unknown settings: the comparison needs fsync on, which only ours guarantees.
    console.log('central bench: DATABASE_URL is ignored; the bench starts its own durable cluster');
  }
  const bin = serverBinaries();
  if (!bin) {
    return {
      missing: 'no PostgreSQL server in /usr/lib/postgresql (apt-get install postgresql) or PG_BIN',
    };
  }
  const cluster = await startCluster(bin, {
    durable: true,
    settings: [
      ...(STATEMENT_STATS
        ? [
            'shared_preload_libraries=pg_stat_statements',
            'pg_stat_statements.track=all',
            'pg_stat_statements.track_planning=on',
          ]
        : []),
      ...EXTRA_SETTINGS,
    ],
  });
  return { cluster };
}

/**
 * `BENCH_CENTRAL_PG_STATS=<file>`: the cluster loads pg_stat_statements (statements inside
 * functions and triggers too), and the bench writes the 60 statements of most execution time,
 * one JSON line each, to the file before the cluster stops (the push's profile,
 * docs/benchmarks.md). Off by default: it costs the server some time per statement.
 */
const STATEMENT_STATS = process.env.BENCH_CENTRAL_PG_STATS;

/**
 * `BENCH_CENTRAL_PG_SETTINGS="name=value name=value"`: more server settings for the bench's
 * cluster, to try one docs/operations.md might recommend. The durability settings are refused:
 * a run without them would not compare with SQLite's `synchronous = FULL`.
 */
const EXTRA_SETTINGS = (process.env.BENCH_CENTRAL_PG_SETTINGS ?? '').split(/\s+/).filter(Boolean);
for (const setting of EXTRA_SETTINGS) {
  if (/^(fsync|synchronous_commit|full_page_writes)\b/.test(setting)) {
    throw new Error(`BENCH_CENTRAL_PG_SETTINGS: ${setting} would make the engines incomparable`);
  }
}

export async function writeStatementStats(cluster: ThrowawayCluster): Promise<void> {
  if (!STATEMENT_STATS) return;
  const client = new pg.Client({ connectionString: cluster.adminUrl });
  await client.connect();
  try {
    await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const { rows } = await client.query(
      `SELECT calls, round(total_exec_time::numeric, 1) AS total_ms,
              round(mean_exec_time::numeric, 3) AS mean_ms, plans,
              round(total_plan_time::numeric, 1) AS plan_ms, rows, toplevel,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 200) AS query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 60`,
    );
    writeFileSync(STATEMENT_STATS, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    console.log(`statement statistics: ${STATEMENT_STATS}`);
  } finally {
    await client.end();
  }
}

/** The central's pool on PostgreSQL: BENCH_CENTRAL_POOL, else the service's default. */
const POOL_SIZE = Number(process.env.BENCH_CENTRAL_POOL) || DEFAULT_POOL_SIZE;

let databases = 0;
/** A new empty database (with pg_trgm) on the bench cluster. */
export async function freshDatabase(cluster: ThrowawayCluster, purpose: string): Promise<string> {
  databases += 1;
  return createTemplate(cluster.adminUrl, `bench_${purpose}_${databases}`);
}

/** The demo workspace as a sync central, with `devices` registered, on `engine`. */
export async function startEngineCentral(
  engine: Engine,
  pg: PgServer,
  devices: SeedDevice[],
  purpose: string,
): Promise<Central> {
  if (engine === 'postgres' && pg.missing) return { missing: pg.missing };
  const dataDir = mkdtempSync(join(tmpdir(), `fi-bench-central-${engine}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.once('exit', removeDir); // the watchdog exits without unwinding
  let central: RunningService;
  try {
    central = await startService(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir,
        seed: 'demo',
        uiDir: null,
        outboxDrain: false,
        sync: { role: 'central' },
        ...(engine === 'postgres' && pg.missing === undefined
          ? { databaseUrl: await freshDatabase(pg.cluster, purpose), poolSize: POOL_SIZE }
          : {}),
      },
      { passwordCost: TEST_PASSWORD_COST },
    );
  } catch (error) {
    removeDir();
    process.off('exit', removeDir);
    if (engine === 'postgres') return { missing: `the central did not start: ${String(error)}` };
    throw error;
  }
  const close = async () => {
    await central.close();
    removeDir();
    process.off('exit', removeDir);
  };
  // Without a sync twin for PostgreSQL the service starts standalone: no sync routes to call.
  if (!central.context.sync) {
    await close();
    return {
      missing:
        'sync is not on PostgreSQL in this build (startService installs no sync there, ' +
        'and --role central is refused with --database-url)',
    };
  }
  await seedInto(central, { devices });
  return { central, close };
}

const TICKS_PER_SECOND = 100; // Linux USER_HZ
const ticksOf = (pid: string) => {
  try {
    // Fields after the command name: state ppid … utime(14) stime(15) cutime(16) cstime(17).
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: fields[1]!,
      own: Number(fields[11]) + Number(fields[12]),
      children: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null; // the process ended meanwhile
  }
};

/**
 * CPU (ms) used so far by the PostgreSQL server: the postmaster, its live backends and the
 * backends that already ended (counted in the postmaster's children times).
 */
export function postgresCpuMs(cluster: ThrowawayCluster): number {
  const postmaster = readFileSync(join(cluster.dir, 'data', 'postmaster.pid'), 'utf8').split(
    '\n',
  )[0]!;
  const root = ticksOf(postmaster);
  if (!root) return Number.NaN;
  let ticks = root.own + root.children;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || pid === postmaster) continue;
    const process = ticksOf(pid);
    if (process?.ppid === postmaster) ticks += process.own;
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}
