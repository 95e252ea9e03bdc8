/**
 * `npx tsx bench/central-pull-pages.ts`: the PostgreSQL first pull's pages timed in-process, without
 * HTTP and the device's JSON.parse (which both engines share in `npm run bench -- central pull`).
 * The central of that bench (10,000 Reno orders, 90,000 lines, ANALYZE) on the durable cluster;
 * then ROUNDS times the whole first pull, `postgresPull` page after page as the route calls it,
 * and the median, with the CPU time this process and the PostgreSQL server used meanwhile.
 * `BENCH_PULL_PAGES_ROUNDS` changes the rounds.
 */
import { sql } from 'kysely';
import { postgresPull } from '../src/server/sync/pull.postgres';
import type { PullAnswer, PullRequest } from '../src/server/sync/pull-cursor.postgres';
import type { Db } from '../src/server/db/db';
import type { SeedDevice } from '../src/shared/sync-seed';
import { RENO } from '../test/sync/helpers/cluster';
import { postgresCpuMs, startDurableCluster, startEngineCentral } from './central-engines';
import {
  insertOrdersPostgres,
  ITEMS_PER_ORDER,
  ORDERS_PER_TRANSACTION,
  PULL_ORDERS,
} from './central-pull';

const ROUNDS = Number(process.env.BENCH_PULL_PAGES_ROUNDS ?? 7);
const device: SeedDevice = {
  id: 'd3000000-0000-4000-8000-000000000001',
  name: 'Bench first pull',
  facility_ids: [RENO],
  secret: 'bench-first-pull-secret',
};

type Pull = (db: Db, request: PullRequest) => Promise<PullAnswer>;

/** One first pull to the end: its time, pages and bytes. */
async function firstPull(db: Db, pull: Pull) {
  const t0 = performance.now();
  let cursor: string | undefined;
  let pages = 0;
  let bytes = 0;
  for (;;) {
    const answer = await pull(db, {
      device: { id: device.id, facilityIds: [RENO] },
      cursor,
      limit: 5000,
      at: new Date().toISOString(),
    });
    pages += 1;
    bytes += answer.json.length;
    // The cursor is the page's; reading it parses the small head only.
    cursor = /"cursor":("[^"]*")/.exec(answer.json)![1]!.slice(1, -1);
    if (!answer.more) break;
  }
  return { ms: performance.now() - t0, pages, bytes };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

export async function timePulls(
  pulls: Record<string, Pull>,
  check?: (db: Db) => Promise<void>,
): Promise<void> {
  const pg = await startDurableCluster();
  if (pg.missing !== undefined) throw new Error(pg.missing);
  try {
    const started = await startEngineCentral('postgres', pg, [device], 'pages');
    if (started.missing !== undefined) throw new Error(started.missing);
    const db = started.central.context.db;
    try {
      for (let from = 0; from < PULL_ORDERS; from += ORDERS_PER_TRANSACTION) {
        await insertOrdersPostgres(db, from, from + ORDERS_PER_TRANSACTION, ITEMS_PER_ORDER);
      }
      await sql`ANALYZE`.execute(db);
      await check?.(db);
      const times: Record<string, number[]> = {};
      const nodeCpu: Record<string, number[]> = {};
      const serverCpu: Record<string, number[]> = {};
      for (const name of Object.keys(pulls)) await firstPull(db, pulls[name]!); // warm up
      for (let round = 0; round < ROUNDS; round++) {
        // Alternated within each round, so a busy moment of the machine hits both.
        for (const [name, pull] of Object.entries(pulls)) {
          const cpu = process.cpuUsage();
          const server = postgresCpuMs(pg.cluster);
          const { ms, pages, bytes } = await firstPull(db, pull);
          const used = process.cpuUsage(cpu);
          (times[name] ??= []).push(ms);
          (nodeCpu[name] ??= []).push((used.user + used.system) / 1000);
          (serverCpu[name] ??= []).push(postgresCpuMs(pg.cluster) - server);
          if (round === 0)
            console.log(`${name}: ${pages} pages, ${(bytes / 2 ** 20).toFixed(1)} MiB`);
        }
      }
      for (const [name, list] of Object.entries(times)) {
        console.log(
          `${name}: median ${median(list).toFixed(0)} ms (${list.map((t) => t.toFixed(0)).join(', ')}); ` +
            `CPU median: this process ${median(nodeCpu[name]!).toFixed(0)} ms, ` +
            `PostgreSQL ${median(serverCpu[name]!).toFixed(0)} ms`,
        );
      }
    } finally {
      await started.close();
    }
  } finally {
    pg.cluster.stop();
  }
}

if (process.argv[1]?.endsWith('central-pull-pages.ts')) {
  await timePulls({ pull: postgresPull });
}
