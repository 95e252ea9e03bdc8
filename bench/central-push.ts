/**
 * Part 1 of `npm run bench -- central`: DEVICES workstations, registered on the central, each
 * pushing MUTATIONS mutations in batches of BATCH over the real protocol while pulling
 * continuously (the devices run in a child process, bench/central-devices.ts). Measured: time
 * until every device has pulled everything of its facility, pushes per second, p95 push latency,
 * and the CPU of the devices' process, of this process (the central) and of the PostgreSQL
 * server over the same interval. Paced (`paced`): the same devices and mix, each pushing one batch
 * per workstation round (push, pull, wait ROUND_INTERVAL_MS), for the latency at the load real
 * workstations offer rather than at saturation (decision "The central bench's p95 push: at
 * saturation and at the workstations' cadence").
 */
import { fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RunningService } from '../src/server/http/server';
import type { SeedDevice } from '../src/shared/sync-seed';
import { defaultSyncClientOptions } from '../src/server/sync/client';
import { COLUMBUS, DEMO_EMAIL, RENO, SAVANNAH } from '../test/sync/helpers/cluster';
import type { DevicesJob, DevicesResult, Row } from './central-devices';
import { postgresCpuMs, startEngineCentral, type Engine, type PgServer } from './central-engines';
import { summarise, type LatencySummary } from './stats';

export const DEVICES = Number(process.env.BENCH_CENTRAL_DEVICES ?? 50);
export const MUTATIONS = Number(process.env.BENCH_CENTRAL_MUTATIONS ?? 200);
export const BATCH = 10;
/** Paced run: each device's mutations, pushed one batch per workstation round. */
export const PACED_MUTATIONS = Number(process.env.BENCH_CENTRAL_PACED_MUTATIONS ?? 100);
/** The workstation's own time between sync rounds (sync/client.ts). */
export const ROUND_INTERVAL_MS = defaultSyncClientOptions.intervalMs;
const PULL_INTERVAL_MS = 200;
const TIMEOUT_MS = 240_000;
const FACILITIES = [RENO, COLUMBUS, SAVANNAH];

export interface PushFigures {
  /** Paced: the round interval each device keeps; null when the devices push back to back. */
  roundIntervalMs: number | null;
  devices: number;
  mutations: number;
  pushes: number;
  convergedMs: number;
  pushWallMs: number;
  pushesPerSecond: number;
  mutationsPerSecond: number;
  push: LatencySummary;
  slowestPush: DevicesResult['slowest'];
  outcome: { applied: number; duplicates: number; rejected: number; conflicts: number };
  pulls: number;
  pulledRows: number;
  /** CPU over the run, in cores (CPU ms / wall ms). */
  cores: { devices: number; central: number; postgres: number | null };
  /** CPU over the run per push, the pulls until every device has everything included, in ms. */
  cpuMsPerPush: { devices: number; central: number; postgres: number | null };
}

const benchDevices: SeedDevice[] = Array.from({ length: DEVICES }, (_, n) => ({
  id: `d2000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  name: `Bench workstation ${n}`,
  facility_ids: [FACILITIES[n % FACILITIES.length]!],
  secret: `bench-device-secret-${n}`,
}));

/**
 * What the devices copy, read from the SQLite central (the workstation's capture sends SQLite
 * rows, whatever engine the central runs on): per facility an order still open to changes and
 * one of its lines, and the demo user.
 */
export async function templatesOf(central: RunningService) {
  const db = central.context.db;
  const templates: DevicesJob['templates'] = {};
  for (const facility of FACILITIES) {
    const order = await db
      .selectFrom('orders')
      .selectAll()
      .where('facility_id', '=', facility)
      .where('status', 'not in', ['Shipped', 'Cancelled'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const item = await db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', order.id)
      .orderBy('line_number')
      .executeTakeFirstOrThrow();
    templates[facility] = { order: order as Row, item: item as Row };
  }
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', DEMO_EMAIL)
    .executeTakeFirstOrThrow();
  return { templates, userId: user.id };
}

/** Runs the devices' process against `url`; `measure` brackets the measured interval. */
function runDevices(
  job: DevicesJob,
  measure: { start(): void; stop(): void },
  progress: () => void,
): Promise<DevicesResult> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'central-devices.ts');
  // Same node flags as this process: tsx's loader runs the TypeScript.
  const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<DevicesResult>((resolve, reject) => {
    child.on(
      'message',
      (message: { ready?: true; pushes?: number; result?: DevicesResult; error?: string }) => {
        if (message.pushes) progress();
        else if (message.ready) {
          measure.start();
          child.send({ go: true });
        } else if (message.result) {
          measure.stop();
          resolve(message.result);
        } else if (message.error) reject(new Error(`devices: ${message.error}`));
      },
    );
    child.on('exit', (code) => reject(new Error(`devices' process exited with ${code}`)));
    child.on('error', reject);
    child.send({ job });
  });
}

export async function benchPush(
  engine: Engine,
  pg: PgServer,
  progress: () => void,
  templates: Awaited<ReturnType<typeof templatesOf>> | null,
  paced = false,
): Promise<
  { figures: PushFigures; templates: Awaited<ReturnType<typeof templatesOf>> } | { missing: string }
> {
  const started = await startEngineCentral(engine, pg, benchDevices, 'push');
  if (started.missing !== undefined) return { missing: started.missing };
  const { central } = started;
  try {
    const copied = templates ?? (await templatesOf(central));
    let cpu = process.cpuUsage();
    let pgCpu = 0;
    let wall = 0;
    const pgCpuNow = () =>
      engine === 'postgres' && pg.missing === undefined ? postgresCpuMs(pg.cluster) : 0;
    const result = await runDevices(
      {
        url: central.url,
        devices: benchDevices.map((d) => ({
          id: d.id,
          secret: d.secret,
          facilityId: d.facility_ids[0]!,
        })),
        ...copied,
        mutationsPerDevice: paced ? PACED_MUTATIONS : MUTATIONS,
        batch: BATCH,
        pullIntervalMs: PULL_INTERVAL_MS,
        ...(paced ? { roundIntervalMs: ROUND_INTERVAL_MS } : {}),
        timeoutMs: TIMEOUT_MS,
      },
      {
        start() {
          cpu = process.cpuUsage();
          pgCpu = pgCpuNow();
          wall = performance.now();
        },
        stop() {
          const used = process.cpuUsage(cpu);
          wall = performance.now() - wall;
          cpu = { user: used.user, system: used.system };
          pgCpu = pgCpuNow() - pgCpu;
        },
      },
      progress,
    );
    const centralCpuMs = (cpu.user + cpu.system) / 1000;
    const centralCores = centralCpuMs / wall;
    const pushes = result.pushMs.length;
    const push = summarise(result.pushMs, result.pushWallMs);
    return {
      templates: copied,
      figures: {
        roundIntervalMs: paced ? ROUND_INTERVAL_MS : null,
        devices: DEVICES,
        mutations: result.mutations,
        pushes,
        convergedMs: result.convergedMs,
        pushWallMs: result.pushWallMs,
        pushesPerSecond: push.perSecond,
        mutationsPerSecond: (result.mutations * 1000) / result.pushWallMs,
        push,
        slowestPush: result.slowest,
        outcome: {
          applied: result.applied,
          duplicates: result.duplicates,
          rejected: result.rejected,
          conflicts: result.conflicts,
        },
        pulls: result.pulls,
        pulledRows: result.pulledRows,
        cores: {
          devices: result.cpuMs / result.wallMs,
          central: centralCores,
          postgres: engine === 'postgres' ? pgCpu / wall : null,
        },
        cpuMsPerPush: {
          devices: result.cpuMs / pushes,
          central: centralCpuMs / pushes,
          postgres: engine === 'postgres' ? pgCpu / pushes : null,
        },
      },
    };
  } finally {
    await started.close();
  }
}
