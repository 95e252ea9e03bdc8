/**
 * `npm run bench -- request-path [route ...]`: the reads a local integration makes in a loop,
 * driven by autocannon against the real service (`--seed demo`), next to a bare Fastify route
 * returning the same small JSON, in the same run (issue 11). See docs/benchmarks.md.
 *
 * Both servers run in one child process (the service as `npm run serve` would run it, plus a
 * bare Fastify app on another port), so autocannon in this process does not steal their core.
 * BENCH_CPU_PROF=<dir> starts the child with `--cpu-prof` and writes its profile there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { request } from 'undici';
import { median, percentile } from './stats';

const CONNECTIONS = 10;
/** Seconds per slice; each route runs ROUNDS slices of bare and ROUNDS of ours, alternating. */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = 3;
const WARMUP_SECONDS = 1;

/** The demo workspace's ids (resources/demo-workspace.json). */
const demo = {
  email: 'demo@example.com',
  password: 'demo-password',
  reno: '0f000000-0000-4000-8000-000000000001',
  summit: '0b000000-0000-4000-8000-000000000001',
  shippedOrder: '0d000000-0000-4000-8000-000000000011',
};

interface BenchRoute {
  name: string;
  /** null: the route does not exist yet; the row is printed as a reminder (a hook for later). */
  path: string | null;
  token: boolean;
  /** The goal as a share of bare; null where it sets none. */
  goalShare: number | null;
}

export const REQUEST_PATH_ROUTES: BenchRoute[] = [
  { name: 'health', path: '/api/health', token: false, goalShare: 0.7 },
  {
    name: 'facilities',
    path: '/api/user-facilities/v1/facilities',
    token: true,
    goalShare: 0.45,
  },
  { name: 'brands', path: `/api/brand/v1/facility/${demo.reno}`, token: true, goalShare: 0.45 },
  {
    name: 'retailers',
    path: `/api/retailer/v1/facility/${demo.reno}`,
    token: true,
    goalShare: 0.45,
  },
  {
    name: 'inventory-history',
    path: `/api/v1/inventory/snapshots?brand_id=${demo.summit}&facility_id=${demo.reno}&page_size=5`,
    token: true,
    goalShare: null,
  },
  // Issue 11's other reads (goal 35 % of bare each).
  {
    // A shipped demo order with pallets, cartons and SKU lines.
    name: 'order-details',
    path: `/api/v1/orders/${demo.shippedOrder}`,
    token: true,
    goalShare: 0.35,
  },
  // The first page (50 rows) of the demo's transaction log.
  { name: 'transactions-page', path: '/api/transactions', token: true, goalShare: 0.35 },
];

/** The bare route answers JSON the size of the health answer. */
const BARE_BODY = { status: 'ok', version: '0.1.0' };

interface Measured {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time of the server process per request: less sensitive than req/s to other load. */
  cpuMicrosPerRequest: number;
}

/**
 * One autocannon run. Its own latency histogram counts whole milliseconds, too coarse here, so
 * the percentiles come from the per-response times it reports (in fractional ms).
 */
async function cannon(
  server: ServerUrls,
  url: string,
  headers: Record<string, string>,
  seconds: number,
) {
  const latencies: number[] = [];
  const cpuBefore = await serverCpuMicros(server);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, headers },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  const cpuMicros = (await serverCpuMicros(server)) - cpuBefore;
  if (result.non2xx || result.errors) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpuMicros / result.requests.total,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  } satisfies Measured;
}

/** Mean throughput and median percentiles over the rounds. */
function combine(runs: Measured[]): Measured {
  return {
    requestsPerSecond: runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length,
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuMicrosPerRequest: median(runs.map((r) => r.cpuMicrosPerRequest)),
  };
}

interface ServerUrls {
  service: string;
  bare: string;
}

/** User + system CPU time of the child so far (the bare app answers it). */
async function serverCpuMicros(server: ServerUrls): Promise<number> {
  const response = await json(`${server.bare}/cpu`, {});
  const usage = JSON.parse(response.body) as NodeJS.CpuUsage;
  return usage.user + usage.system;
}

/** Starts the child; resolves with the two base URLs it prints once listening. */
function startChild(
  dataDir: string,
): Promise<{ child: ChildProcess; service: string; bare: string }> {
  const self = fileURLToPath(import.meta.url);
  const profileDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', self, '--child', dataDir],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench child exited early (${code})`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      const urls = JSON.parse(line) as { service: string; bare: string };
      resolve({ child, ...urls });
    });
  });
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function json(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: object; body?: string },
) {
  const response = await request(url, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body,
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text };
}

/** A token for the demo user, and two snapshots in the history so that page is not empty. */
async function prepare(service: string) {
  const token = await json(`${service}/api/auth/token`, {
    method: 'POST',
    body: JSON.stringify({ email: demo.email, password: demo.password }),
  });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${token.body}`);
  const authorization = `Bearer ${JSON.parse(token.body).data.access_token as string}`;
  for (const quantity of [10, 12]) {
    const items = Array.from({ length: 20 }, (_, i) => ({
      sku: `SUM-${i + 1}`,
      available_quantity: quantity,
    }));
    const advice = await json(
      `${service}/api/v1/inventory/brand/${demo.summit}/facility/${demo.reno}`,
      { method: 'POST', headers: { authorization }, body: JSON.stringify({ items }) },
    );
    if (advice.status >= 300) throw new Error(`advice: ${advice.status} ${advice.body}`);
  }
  return authorization;
}

const profiling = Boolean(process.env.BENCH_CPU_PROF);

export async function runRequestPathBench(selected: readonly string[] = []): Promise<void> {
  const routes = REQUEST_PATH_ROUTES.filter(
    (r) => selected.length === 0 || selected.includes(r.name),
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-path-'));
  const loadBefore = loadavg()[0] ?? 0;
  const { child, ...server } = await startChild(dataDir);
  const { service, bare } = server;
  try {
    const authorization = await prepare(service);
    const rows: Row[] = [];
    for (const route of routes) {
      if (!route.path) {
        rows.push({ route });
        continue;
      }
      const url = `${service}${route.path}`;
      const headers: Record<string, string> = route.token ? { authorization } : {};
      const check = await json(url, { headers });
      if (check.status !== 200) throw new Error(`${route.name}: ${check.status} ${check.body}`);
      // Bare and ours alternate in short slices so both see the same load (others share the
      // machine). While profiling, bare is skipped so the profile holds the service alone.
      await cannon(server, url, headers, WARMUP_SECONDS);
      if (!profiling) await cannon(server, `${bare}/bare`, {}, WARMUP_SECONDS);
      const bareRuns: Measured[] = [];
      const oursRuns: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        if (!profiling) bareRuns.push(await cannon(server, `${bare}/bare`, {}, SECONDS));
        oursRuns.push(await cannon(server, url, headers, SECONDS));
      }
      const ours = combine(oursRuns);
      const bareRun = profiling ? undefined : combine(bareRuns);
      rows.push({ route, ours, bare: bareRun });
    }
    const loadAfter = loadavg()[0] ?? 0;

    report(rows, { before: loadBefore, after: loadAfter });
  } finally {
    await stopChild(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Row = { route: BenchRoute; ours?: Measured; bare?: Measured };

function report(rows: Row[], load: { before: number; after: number }) {
  const pad = (text: string, width: number) => text.padStart(width);
  const ms = (value: number) => `${value.toFixed(2)}`;
  console.log(
    `\nRequest path: autocannon, ${CONNECTIONS} connections; per route ${ROUNDS} x ${SECONDS} s ` +
      `of bare Fastify and of the service, alternating, after ${WARMUP_SECONDS} s warm-up each.\n` +
      `${cpus().length} CPUs, ${process.version}, load ${load.before.toFixed(1)} -> ` +
      `${load.after.toFixed(1)}`,
  );
  if (Math.max(load.before, load.after) > cpus().length) {
    console.log('WARNING: the machine is busy (load > CPUs); figures are noisy.');
  }
  console.log(
    `\n${'route'.padEnd(20)}${pad('req/s', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}` +
      `${pad('CPU us', 8)}${pad('bare req/s', 11)}${pad('p50', 6)}${pad('CPU us', 8)}` +
      `${pad('share', 7)}${pad('CPU share', 10)}${pad('goal', 6)}`,
  );
  for (const { route, ours, bare } of rows) {
    const goal = route.goalShare === null ? '-' : `${route.goalShare * 100}%`;
    if (!ours) {
      console.log(`${route.name.padEnd(20)}  (no such route yet; goal ${goal})`);
      continue;
    }
    const line =
      `${route.name.padEnd(20)}${pad(ours.requestsPerSecond.toFixed(0), 8)}` +
      `${pad(ms(ours.p50Ms), 8)}${pad(ms(ours.p99Ms), 8)}${pad(ours.cpuMicrosPerRequest.toFixed(0), 8)}`;
    if (!bare) {
      console.log(line);
      continue;
    }
    const share = ours.requestsPerSecond / bare.requestsPerSecond;
    const cpuShare = bare.cpuMicrosPerRequest / ours.cpuMicrosPerRequest;
    const verdict = route.goalShare === null ? '' : share >= route.goalShare ? ' MET' : ' NOT MET';
    const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
    console.log(
      `${line}${pad(bare.requestsPerSecond.toFixed(0), 11)}${pad(ms(bare.p50Ms), 6)}` +
        `${pad(bare.cpuMicrosPerRequest.toFixed(0), 8)}${pad(percent(share), 7)}` +
        `${pad(percent(cpuShare), 10)}${pad(goal, 6)}${verdict}`,
    );
  }
  console.log(
    '\nshare = req/s of the service / req/s of bare (the goal); CPU share = bare CPU time per ' +
      'request / the service CPU time per request (server process, user + system).',
  );
}

/** The child: the real service on a fresh data dir with the demo seed, and the bare app. */
async function runChild(dataDir: string) {
  const { startService } = await import('../src/server/http/server');
  const service = await startService({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    seed: 'demo',
    // Like `npm run serve`: the built UI is served too when it exists.
    uiDir: existsSync('out/renderer') ? resolve('out/renderer') : null,
  });
  const bareApp = Fastify();
  bareApp.get('/bare', async () => BARE_BODY);
  bareApp.get('/cpu', async () => process.cpuUsage());
  await bareApp.listen({ host: '127.0.0.1', port: 0 });
  const address = bareApp.server.address();
  const barePort = typeof address === 'object' && address ? address.port : 0;
  console.log(JSON.stringify({ service: service.url, bare: `http://127.0.0.1:${barePort}` }));
  const stop = async () => {
    await bareApp.close();
    await service.close();
    process.exit(0); // --cpu-prof writes its profile at exit
  };
  process.once('SIGTERM', () => void stop());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    void runChild(process.argv[childAt + 1]!);
  } else {
    runRequestPathBench(process.argv.slice(2)).catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
  }
}
