/**
 * `npm run bench -- central [push] [pull] [search]` (issue 17, "Benchmarks"): the central on
 * SQLite and on PostgreSQL, each figure on both engines in the same run, on this machine, both
 * durable (SQLite WAL with synchronous = FULL as the service opens it; PostgreSQL in a cluster
 * this bench starts in a temp dir with fsync, synchronous_commit and full_page_writes on, stopped
 * at the end or on a signal).
 *
 * 1. push: 50 workstations push 200 mutations each while pulling (bench/central-push.ts).
 *    paced: the same 50, each pushing a batch per sync round of the workstation's cadence.
 * 2. pull: a 100,000-row first pull (bench/central-pull.ts).
 * 3. search: the transaction log at 1,000,000 rows, p95 per query (bench/central-search.ts).
 *
 * An engine that cannot run a part says why in its column, never a figure. See
 * docs/benchmarks.md, "The central on PostgreSQL".
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ENGINES,
  startDurableCluster,
  writeStatementStats,
  type Engine,
  type PgServer,
} from './central-engines';
import { benchFirstPull, type PullFigures } from './central-pull';
import {
  benchPush,
  BATCH,
  DEVICES,
  MUTATIONS,
  PACED_MUTATIONS,
  ROUND_INTERVAL_MS,
  type PushFigures,
} from './central-push';
import { benchSearch, type SearchFigures } from './central-search';
import { ms } from './stats';

const GOALS = { pushRatio: 2, pushP95Ms: 100, searchP95Ms: 20 };
const PARTS = ['push', 'paced', 'pull', 'search'] as const;
type Part = (typeof PARTS)[number];
type Column<T> = Record<Engine, T | { missing: string }>;

const load = () => loadavg()[0] ?? 0;
const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const missing = <T extends object>(value: T | { missing: string }): value is { missing: string } =>
  'missing' in value && typeof value.missing === 'string';
/** A part's column before its engines run: an engine BENCH_CENTRAL_ENGINES leaves out stays so. */
const notRun = <T extends object>(): Column<T> => ({
  sqlite: { missing: 'not run (BENCH_CENTRAL_ENGINES)' },
  postgres: { missing: 'not run (BENCH_CENTRAL_ENGINES)' },
});

export async function runCentralBench(args: string[], progress: () => void): Promise<void> {
  // `central [push] [paced] [pull] [search]`; none means every part.
  const unknown = args.filter((a) => !(PARTS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`central bench: unknown part ${unknown.join(', ')}`);
  const parts = new Set<Part>(args.length ? (args as Part[]) : PARTS);
  const loadBefore = load();
  const pg = await startDurableCluster();
  const stop = () => {
    if (pg.missing === undefined) pg.cluster.stop();
  };
  // The cluster must not outlive the bench, however it ends.
  const onSignal = (signal: NodeJS.Signals) => {
    stop();
    process.kill(process.pid, signal);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, onSignal);
  process.once('exit', stop);
  const results: {
    push?: Column<PushFigures>;
    paced?: Column<PushFigures>;
    pull?: Column<PullFigures>;
    search?: Column<SearchFigures>;
  } = {};
  try {
    console.log(
      `\nThe central on SQLite and PostgreSQL (${cpus().length} CPUs, ${process.version}, ` +
        `load ${loadBefore.toFixed(2)}); PostgreSQL: ${pg.missing ?? 'durable cluster started'}`,
    );
    // Each part's figures as soon as it ends: a later part may take long or be stopped.
    if (parts.has('push')) {
      results.push = await pushPart(pg, progress);
      report({ push: results.push }, loadBefore, load());
    }
    if (parts.has('paced')) {
      results.paced = await pushPart(pg, progress, true);
      report({ paced: results.paced }, loadBefore, load());
    }
    if (parts.has('pull')) {
      results.pull = await pullPart(pg, progress);
      report({ pull: results.pull }, loadBefore, load());
    }
    if (parts.has('search')) {
      results.search = await benchSearch(pg, progress);
      report({ search: results.search }, loadBefore, load());
    }
  } finally {
    if (pg.missing === undefined) await writeStatementStats(pg.cluster);
    stop();
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(signal, onSignal);
    process.off('exit', stop);
  }
  const loadAfter = load();
  const resultsDir = join(dirname(fileURLToPath(import.meta.url)), 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'central.json'),
    `${JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: { cpus: cpus().length, node: process.version, load: [loadBefore, loadAfter] },
        ...results,
      },
      null,
      2,
    )}\n`,
  );
  console.log('written: bench/results/central.json');
}

async function pushPart(
  pg: PgServer,
  progress: () => void,
  paced = false,
): Promise<Column<PushFigures>> {
  const column = notRun<PushFigures>();
  let templates = null;
  for (const engine of ENGINES) {
    const mutations = paced ? PACED_MUTATIONS : MUTATIONS;
    console.log(
      `${paced ? 'paced' : 'push'}: ${engine}, ${DEVICES} devices x ${mutations} mutations, ` +
        `load ${load().toFixed(2)}…`,
    );
    const outcome = await benchPush(engine, pg, progress, templates, paced);
    progress();
    if ('missing' in outcome) column[engine] = { missing: outcome.missing };
    else {
      templates = outcome.templates;
      column[engine] = outcome.figures;
    }
  }
  return column;
}

async function pullPart(pg: PgServer, progress: () => void): Promise<Column<PullFigures>> {
  const column = notRun<PullFigures>();
  for (const engine of ENGINES) {
    console.log(`pull: ${engine}, load ${load().toFixed(2)}…`);
    column[engine] = await benchFirstPull(engine, pg, progress);
    progress();
  }
  return column;
}

/** CPU per push (pulls included) in all, devices, central and server. */
const cpuMsOfPush = (f: PushFigures) =>
  f.cpuMsPerPush.devices + f.cpuMsPerPush.central + (f.cpuMsPerPush.postgres ?? 0);

/**
 * Where the machine's CPUs put the ceiling: the pushes a second all of them would give at the
 * run's CPU per push, devices included (they share the machine with the central and server).
 */
function cpuPerPushRows(
  row: (label: string, column: Column<PushFigures>, show: (f: PushFigures) => string) => void,
  column: Column<PushFigures>,
) {
  row(
    '  CPU ms per push: devices / central / server',
    column,
    (f) =>
      `${f.cpuMsPerPush.devices.toFixed(2)} / ${f.cpuMsPerPush.central.toFixed(2)} / ` +
      (f.cpuMsPerPush.postgres === null ? '-' : f.cpuMsPerPush.postgres.toFixed(2)),
  );
  row(
    `  pushes/s if all ${cpus().length} CPUs were busy`,
    column,
    (f) => `${((cpus().length * 1000) / cpuMsOfPush(f)).toFixed(0)}/s`,
  );
}

/** What `ratio` times SQLite's rate leaves each push on this machine's CPUs, and what PG used. */
function cpuBudget([sqlite, postgres]: [PushFigures, PushFigures], ratio: number): string {
  const budget = (cpus().length * 1000) / (ratio * sqlite.pushesPerSecond);
  return (
    `on ${cpus().length} CPUs that leaves ${budget.toFixed(2)} ms of CPU per push in all, ` +
    `devices included; PostgreSQL used ${cpuMsOfPush(postgres).toFixed(2)} ms, ` +
    `SQLite ${cpuMsOfPush(sqlite).toFixed(2)} ms`
  );
}

function report(
  results: {
    push?: Column<PushFigures>;
    paced?: Column<PushFigures>;
    pull?: Column<PullFigures>;
    search?: Column<SearchFigures>;
  },
  loadBefore: number,
  loadAfter: number,
) {
  const width = 26;
  const cell = <T extends object>(value: T | { missing: string }, show: (v: T) => string) =>
    (missing(value) ? 'missing (see below)' : show(value)).padStart(width);
  const row = <T extends object>(label: string, column: Column<T>, show: (v: T) => string) =>
    console.log(`${label.padEnd(44)}${cell(column.sqlite, show)}${cell(column.postgres, show)}`);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const both = <T extends object>(column: Column<T>): [T, T] | null =>
    missing(column.sqlite) || missing(column.postgres) ? null : [column.sqlite, column.postgres];
  console.log(
    `\n${''.padEnd(44)}${'SQLite'.padStart(width)}${'PostgreSQL'.padStart(width)}` +
      `\n(load ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)})`,
  );
  const goals: string[] = [];
  const notes: string[] = [];
  const why = (part: string, column: Column<object>) => {
    for (const engine of ENGINES) {
      const value = column[engine];
      if (missing(value)) notes.push(`${part}, ${engine}: ${value.missing}`);
    }
  };
  if (results.push) {
    const p = results.push;
    console.log(`push: ${DEVICES} devices x ${MUTATIONS} mutations, batches of ${BATCH}`);
    row('  until every device has everything', p, (f) => seconds(f.convergedMs));
    row('  pushes per second', p, (f) => `${f.pushesPerSecond.toFixed(1)}/s`);
    row('  mutations per second', p, (f) => `${f.mutationsPerSecond.toFixed(0)}/s`);
    row('  push latency median / p95', p, (f) => `${ms(f.push.medianMs)} / ${ms(f.push.p95Ms)}`);
    row('  slowest push: ms (device, nth push, at)', p, (f) => {
      const slow = f.slowestPush;
      return `${slow.ms.toFixed(0)} (${slow.device}, ${slow.nth}, +${seconds(slow.startedMs)})`;
    });
    row(
      '  applied / rejected / conflicts',
      p,
      (f) => `${f.outcome.applied} / ${f.outcome.rejected} / ${f.outcome.conflicts}`,
    );
    row('  pulls (rows)', p, (f) => `${f.pulls} (${f.pulledRows})`);
    row(
      '  CPU cores: devices / central',
      p,
      (f) => `${f.cores.devices.toFixed(2)} / ${f.cores.central.toFixed(2)}`,
    );
    row('  CPU cores: PostgreSQL server', p, (f) =>
      f.cores.postgres === null ? '-' : f.cores.postgres.toFixed(2),
    );
    cpuPerPushRows(row, p);
    why('push', p);
    const pair = both(p);
    goals.push(
      pair
        ? `PostgreSQL push throughput >= ${GOALS.pushRatio}x SQLite's: ` +
            `${verdict(pair[1].pushesPerSecond >= GOALS.pushRatio * pair[0].pushesPerSecond)} ` +
            `(${(pair[1].pushesPerSecond / pair[0].pushesPerSecond).toFixed(2)}x; ` +
            `${cpuBudget(pair, GOALS.pushRatio)})`
        : `PostgreSQL push throughput >= ${GOALS.pushRatio}x SQLite's: not measured`,
      missing(p.postgres)
        ? `PostgreSQL p95 push < ${GOALS.pushP95Ms} ms (saturated): not measured`
        : `PostgreSQL p95 push < ${GOALS.pushP95Ms} ms (saturated): ` +
            `${verdict(p.postgres.push.p95Ms < GOALS.pushP95Ms)} (${ms(p.postgres.push.p95Ms)})`,
    );
  }
  if (results.paced) {
    const p = results.paced;
    console.log(
      `paced: ${DEVICES} devices x ${PACED_MUTATIONS} mutations, a batch of ${BATCH} per round, ` +
        `rounds ${ROUND_INTERVAL_MS} ms apart (offered about ` +
        `${((DEVICES * 1000) / ROUND_INTERVAL_MS).toFixed(0)} pushes/s at most)`,
    );
    row('  pushes per second', p, (f) => `${f.pushesPerSecond.toFixed(1)}/s`);
    row('  push latency median / p95', p, (f) => `${ms(f.push.medianMs)} / ${ms(f.push.p95Ms)}`);
    row('  slowest push: ms', p, (f) => f.slowestPush.ms.toFixed(0));
    row(
      '  applied / rejected / conflicts',
      p,
      (f) => `${f.outcome.applied} / ${f.outcome.rejected} / ${f.outcome.conflicts}`,
    );
    row(
      '  CPU cores: devices / central',
      p,
      (f) => `${f.cores.devices.toFixed(2)} / ${f.cores.central.toFixed(2)}`,
    );
    row('  CPU cores: PostgreSQL server', p, (f) =>
      f.cores.postgres === null ? '-' : f.cores.postgres.toFixed(2),
    );
    cpuPerPushRows(row, p);
    why('paced', p);
    goals.push(
      missing(p.postgres)
        ? `PostgreSQL p95 push < ${GOALS.pushP95Ms} ms at the workstations' cadence: not measured`
        : `PostgreSQL p95 push < ${GOALS.pushP95Ms} ms at the workstations' cadence: ` +
            `${verdict(p.postgres.push.p95Ms < GOALS.pushP95Ms)} (${ms(p.postgres.push.p95Ms)})`,
    );
  }
  if (results.pull) {
    const p = results.pull;
    console.log('first pull');
    row(
      '  rows pulled (pages, MiB)',
      p,
      (f) => `${f.pulledRows} (${f.pages}, ${(f.bytes / 2 ** 20).toFixed(1)})`,
    );
    row('  time', p, (f) => seconds(f.ms));
    row('  rows per second', p, (f) => `${f.rowsPerSecond.toFixed(0)}/s`);
    console.log('pulls with nothing new (50 devices x 20, all at once)');
    row('  pulls per second', p, (f) => `${f.empty.perSecond.toFixed(0)}/s`);
    row('  latency median / p95', p, (f) => `${ms(f.empty.medianMs)} / ${ms(f.empty.p95Ms)}`);
    why('pull', p);
    const pair = both(p);
    goals.push(
      pair
        ? `PostgreSQL first pull no slower than SQLite's: ${verdict(pair[1].ms <= pair[0].ms)} ` +
            `(${seconds(pair[1].ms)} vs ${seconds(pair[0].ms)})`
        : `PostgreSQL first pull no slower than SQLite's: not measured`,
    );
  }
  if (results.search) {
    const s = results.search;
    console.log(`transaction search at 1M rows (p95 per query, ms)`);
    const names = ENGINES.map((e) => s[e]).find((v) => !missing(v)) as SearchFigures | undefined;
    for (const c of names?.cases ?? []) {
      row(`  ${c.name}`, s, (f) => {
        const found = f.cases.find((x) => x.name === c.name)!;
        return `${ms(found.p95Ms)} (${found.totalCount})`;
      });
    }
    row('  worst p95', s, (f) => ms(f.worstP95Ms));
    why('search', s);
    for (const engine of ENGINES) {
      const value = s[engine];
      goals.push(
        missing(value)
          ? `${engine} search p95 < ${GOALS.searchP95Ms} ms at 1M rows: not measured`
          : `${engine} search p95 < ${GOALS.searchP95Ms} ms at 1M rows: ` +
              `${verdict(value.worstP95Ms < GOALS.searchP95Ms)} (worst ${ms(value.worstP95Ms)})`,
      );
    }
  }
  console.log('\ngoals:');
  for (const goal of goals) console.log(`  ${goal}`);
  if (notes.length) console.log('\nmissing figures:');
  for (const note of notes) console.log(`  ${note}`);
}
