/**
 * `npm run bench -- orders`: order details and the order list under autocannon over 10,000 orders
 * with pallets and cartons, next to a bare Fastify route returning a constant in the same run
 * (issue 7; goal: details at least 35 % of bare), then the median latency of creating an order
 * over HTTP (goal: under 5 ms).
 *
 * Like bench/request-path.ts, one child process hosts the service and the bare app, so autocannon
 * in this process does not take their core. The child imports the seed bundle (the bench bundle
 * plus the orders) at start, as `npm run serve -- --seed FILE` would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { Agent } from 'undici';
import { BENCH_EMAIL, BENCH_PASSWORD, benchBundle, ids } from './fixtures';
import { postJson } from './harness';
import { median, ms, percentile, summarise, timeRuns } from './stats';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const CONNECTIONS = 10;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = 3;
const WARMUP_SECONDS = 1;
const CREATE_WARMUP = 30;
const CREATE_MEASURED = 300;
const GOAL_DETAILS_SHARE = 0.35;
const GOAL_CREATE_MEDIAN_MS = 5;
const profiling = Boolean(process.env.BENCH_CPU_PROF);

const orderId = (n: number) => `0d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const palletId = (n: number, p: number) =>
  `1d000000-0000-4000-8000-${String(n * 10 + p).padStart(12, '0')}`;
const cartonId = (n: number, c: number) =>
  `2d000000-0000-4000-8000-${String(n * 10 + c).padStart(12, '0')}`;

/**
 * Order n: 3 lines; from status Packed on, 2 pallets of 2 cartons, each carton with 2 SKU lines
 * (one with serial numbers). Statuses cycle, so about 4 orders in 7 carry pallets.
 */
function benchOrder(n: number) {
  const statuses = ['Open', 'Picking', 'Packed', 'Staged', 'Loaded', 'Shipped', 'Cancelled'];
  const status = statuses[n % statuses.length]!;
  const at = new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
  const withPallets = ['Packed', 'Staged', 'Loaded', 'Shipped'].includes(status);
  const skus = ['TENT-2P', 'BAG-20F', 'STOVE-1'];
  return {
    id: orderId(n),
    status,
    po_number: `PO${4_500_000 + n}`,
    picksheet_code: `PS-${String(n).padStart(6, '0')}`,
    external_order_id: `EXT-${n}`,
    brand_id: ids.brand,
    retailer_id: ids.retailer(1 + (n % 8)),
    facility_id: ids.facility,
    transportation_method: 'FREIGHT',
    carrier: 'XPO Logistics',
    items: skus.map((sku, i) => ({
      sku,
      upc: `08100010000${i}${n % 10}`,
      quantity: 12 * (i + 1),
    })),
    address_data: {
      ship_to_contact: { name: 'Big Box DC 4471', address_line1: '4200 Distribution Pkwy' },
      bill_to_contact: { name: 'Big Box AP', email: 'ap@bigbox.example' },
    },
    dates: { requested_ship_date: '2026-02-01', cancel_by_date: '2026-02-20' },
    created_at: at,
    ...(withPallets ? { started_at: at, packed_at: at } : {}),
    pallets: withPallets
      ? [1, 2].map((p) => ({
          id: palletId(n, p),
          status: 'Open',
          created_at: at,
          dim_unit: 'in',
          height: 48,
          width: 40,
          length: 48,
          weight_unit: 'lb',
          weight: 220,
          cartons: [1, 2].map((c) => ({
            id: cartonId(n, p * 2 + c),
            created_at: at,
            packed_by: 'bench',
            packing_complete_at: at,
            dim_unit: 'in',
            height: 12,
            width: 16,
            length: 20,
            weight_unit: 'lb',
            weight: 14.5,
            skus: [
              { sku: skus[0]!, upc: '081000100001', quantity: 2, serial_numbers: ['S1', 'S2'] },
              { sku: skus[1]!, upc: '081000100002', quantity: 6 },
            ],
          })),
        }))
      : [],
  };
}

/** The bench's orders (exported for ad-hoc query timing). */
export const runOrdersBenchOrders = (count: number) =>
  Array.from({ length: count }, (_, i) => benchOrder(i + 1));

interface Measured {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  cpuMicrosPerRequest: number;
}

interface Child {
  child: ChildProcess;
  service: string;
  bare: string;
}

async function getJson(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.text() };
}

async function serverCpuMicros(bare: string): Promise<number> {
  const usage = JSON.parse((await getJson(`${bare}/cpu`)).body) as NodeJS.CpuUsage;
  return usage.user + usage.system;
}

/** One autocannon run; `paths` rotate, so the reads spread over every order. */
async function cannon(
  server: Child,
  base: string,
  paths: readonly string[],
  headers: Record<string, string>,
  seconds: number,
): Promise<Measured> {
  const latencies: number[] = [];
  let next = 0;
  const cpuBefore = await serverCpuMicros(server.bare);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        headers,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  const cpuMicros = (await serverCpuMicros(server.bare)) - cpuBefore;
  if (result.non2xx || result.errors) {
    throw new Error(`${base}${paths[0]}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  latencies.sort((a, b) => a - b);
  return {
    requestsPerSecond: result.requests.average,
    cpuMicrosPerRequest: cpuMicros / result.requests.total,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

function combine(runs: Measured[]): Measured {
  return {
    requestsPerSecond: runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / runs.length,
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    cpuMicrosPerRequest: median(runs.map((r) => r.cpuMicrosPerRequest)),
  };
}

function startChild(dataDir: string, seedPath: string): Promise<Child> {
  const self = fileURLToPath(import.meta.url);
  // BENCH_CPU_PROF=<dir>: the child writes a CPU profile there at exit (as in request-path).
  const profileDir = process.env.BENCH_CPU_PROF;
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', self, '--child', dataDir, seedPath],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench child exited early (${code})`)));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      resolve({ child, ...(JSON.parse(line) as { service: string; bare: string }) });
    });
  });
}

async function stopChild(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Row {
  name: string;
  ours: Measured;
  bare: Measured;
  /** Bare Fastify answering a constant body as large as ours. */
  bareSized: Measured;
  goalShare: number | null;
}

/** `parts`: any of `details`, `list`, `create`; all when empty. */
export async function runOrdersBench(parts: readonly string[] = []): Promise<void> {
  const runs = (part: string) => parts.length === 0 || parts.includes(part);
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-orders-'));
  const loadBefore = loadavg()[0] ?? 0;
  const seedPath = join(dataDir, 'orders-seed.json');
  const partners = Array.from({ length: 8 }, (_, i) => `http://127.0.0.1:9/partner-${i + 1}`);
  const orders = Array.from({ length: ORDERS }, (_, i) => benchOrder(i + 1));
  writeFileSync(seedPath, JSON.stringify({ ...benchBundle(partners), orders }));
  const seedStarted = performance.now();
  const server = await startChild(dataDir, seedPath);
  const startMs = performance.now() - seedStarted;
  const agent = new Agent();
  try {
    const token = await postJson(
      agent,
      `${server.service}/api/auth/token`,
      JSON.stringify({ email: BENCH_EMAIL, password: BENCH_PASSWORD }),
    );
    if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`);
    const authorization = `Bearer ${JSON.parse(token.text).data.access_token as string}`;
    const headers = { authorization };

    const detailPaths = orders.map((o) => `/api/v1/orders/${o.id}`);
    const listPaths = Array.from(
      { length: 20 },
      (_, page) => `/api/v1/orders?page=${page + 1}&page_size=50`,
    );
    const withPallets = orders.find((o) => o.pallets.length > 0)!;
    const check = await getJson(`${server.service}/api/v1/orders/${withPallets.id}`, headers);
    if (check.status !== 200) throw new Error(`details: ${check.status} ${check.body}`);
    const bytes = Buffer.byteLength(check.body);
    const listCheck = await getJson(`${server.service}${listPaths[0]!}`, headers);
    if (listCheck.status !== 200) throw new Error(`list: ${listCheck.status} ${listCheck.body}`);
    const sizes = { details: bytes, list: Buffer.byteLength(listCheck.body) };

    const rows: Row[] = [];
    for (const [part, name, paths, goalShare] of [
      ['details', 'order details', detailPaths, GOAL_DETAILS_SHARE],
      ['list', 'order list (50)', listPaths, null],
    ] as const) {
      if (!runs(part)) continue;
      if (profiling) {
        // The profile should hold the service alone: no bare runs in the same child.
        const runs: Measured[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          runs.push(await cannon(server, server.service, paths, headers, SECONDS));
        }
        const ours = combine(runs);
        console.log(
          `${name}: ${ours.requestsPerSecond.toFixed(0)} req/s, CPU ${ours.cpuMicrosPerRequest.toFixed(0)} us (profiling, no bare)`,
        );
        continue;
      }
      const sizedPath = `/sized/${sizes[part]}`;
      await cannon(server, server.service, paths, headers, WARMUP_SECONDS);
      await cannon(server, server.bare, ['/bare'], {}, WARMUP_SECONDS);
      await cannon(server, server.bare, [sizedPath], {}, WARMUP_SECONDS);
      const oursRuns: Measured[] = [];
      const bareRuns: Measured[] = [];
      const sizedRuns: Measured[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        bareRuns.push(await cannon(server, server.bare, ['/bare'], {}, SECONDS));
        sizedRuns.push(await cannon(server, server.bare, [sizedPath], {}, SECONDS));
        oursRuns.push(await cannon(server, server.service, paths, headers, SECONDS));
      }
      rows.push({
        name,
        ours: combine(oursRuns),
        bare: combine(bareRuns),
        bareSized: combine(sizedRuns),
        goalShare,
      });
    }

    // Create: one at a time, as an integration posting orders would, each a new picksheet code.
    let created = 0;
    const create = async () => {
      created += 1;
      const body = benchOrder(ORDERS + created);
      const response = await postJson(
        agent,
        `${server.service}/api/v1/orders/create`,
        JSON.stringify({
          po_number: body.po_number,
          picksheet_code: `NEW-${created}`,
          brand_id: body.brand_id,
          retailer_id: body.retailer_id,
          facility_id: body.facility_id,
          external_order_id: body.external_order_id,
          transportation_method: body.transportation_method,
          carrier: body.carrier,
          items: body.items,
          address_data: body.address_data,
          dates: body.dates,
        }),
        headers,
      );
      if (response.status !== 201) throw new Error(`create: ${response.status} ${response.text}`);
    };
    const createRuns = runs('create')
      ? await timeRuns(CREATE_MEASURED, CREATE_WARMUP, create)
      : null;
    const createSummary = createRuns && summarise(createRuns.samples, createRuns.wallMs);

    const loadAfter = loadavg()[0] ?? 0;
    report(rows, createSummary, { sizes, startMs, load: { before: loadBefore, after: loadAfter } });
  } finally {
    await agent.close();
    await stopChild(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function report(
  rows: Row[],
  create: ReturnType<typeof summarise> | null,
  info: {
    sizes: { details: number; list: number };
    startMs: number;
    load: { before: number; after: number };
  },
) {
  const pad = (text: string, width: number) => text.padStart(width);
  const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
  console.log(
    `\nOrders: ${ORDERS} orders (4 in 7 with 2 pallets x 2 cartons x 2 SKU lines), seeded at ` +
      `start (${(info.startMs / 1000).toFixed(1)} s with the import); answers of ` +
      `${info.sizes.details} bytes (details) and ${info.sizes.list} bytes (list).\nautocannon, ${CONNECTIONS} connections, ids rotating over every ` +
      `order; ${ROUNDS} x ${SECONDS} s of bare and of the service, alternating, after ` +
      `${WARMUP_SECONDS} s warm-up each. ${cpus().length} CPUs, ${process.version}, load ` +
      `${info.load.before.toFixed(1)} -> ${info.load.after.toFixed(1)}`,
  );
  if (Math.max(info.load.before, info.load.after) > cpus().length) {
    console.log('WARNING: the machine is busy (load > CPUs); figures are noisy.');
  }
  console.log(
    `\n${'route'.padEnd(18)}${pad('req/s', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}` +
      `${pad('CPU us', 8)}${pad('bare req/s', 11)}${pad('CPU us', 8)}${pad('share', 7)}` +
      `${pad('CPU share', 10)}${pad('goal', 6)}`,
  );
  for (const { name, ours, bare, bareSized, goalShare } of rows) {
    const share = ours.requestsPerSecond / bare.requestsPerSecond;
    const goal = goalShare === null ? '-' : percent(goalShare);
    const verdict = goalShare === null ? '' : share >= goalShare ? ' MET' : ' NOT MET';
    console.log(
      `${name.padEnd(18)}${pad(ours.requestsPerSecond.toFixed(0), 8)}` +
        `${pad(ours.p50Ms.toFixed(2), 8)}${pad(ours.p99Ms.toFixed(2), 8)}` +
        `${pad(ours.cpuMicrosPerRequest.toFixed(0), 8)}${pad(bare.requestsPerSecond.toFixed(0), 11)}` +
        `${pad(bare.cpuMicrosPerRequest.toFixed(0), 8)}${pad(percent(share), 7)}` +
        `${pad(percent(bare.cpuMicrosPerRequest / ours.cpuMicrosPerRequest), 10)}` +
        `${pad(goal, 6)}${verdict}`,
    );
    console.log(
      `${'  bare, same size'.padEnd(18)}${pad(bareSized.requestsPerSecond.toFixed(0), 8)}` +
        `${pad(bareSized.p50Ms.toFixed(2), 8)}${pad(bareSized.p99Ms.toFixed(2), 8)}` +
        `${pad(bareSized.cpuMicrosPerRequest.toFixed(0), 8)}  ours / it: ` +
        `${percent(ours.requestsPerSecond / bareSized.requestsPerSecond)} req/s, ` +
        `${percent(bareSized.cpuMicrosPerRequest / ours.cpuMicrosPerRequest)} CPU`,
    );
  }
  if (!create) return;
  const met = create.medianMs < GOAL_CREATE_MEDIAN_MS ? 'MET' : 'NOT MET';
  console.log(
    `\ncreate order (POST /api/v1/orders/create, 3 lines, sequential, ${CREATE_MEASURED} after ` +
      `${CREATE_WARMUP} warm-up): median ${ms(create.medianMs)}, p95 ${ms(create.p95Ms)}, ` +
      `max ${ms(create.maxMs)}; goal median < ${GOAL_CREATE_MEDIAN_MS} ms: ${met}`,
  );
}

/** The child: the real service seeded with the bench bundle and orders, and the bare app. */
async function runChild(dataDir: string, seedPath: string) {
  const { startService } = await import('../src/server/http/server');
  const service = await startService({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    seed: seedPath,
    uiDir: null,
  });
  const bareApp = Fastify();
  bareApp.get('/bare', async () => ({ status: 'ok', version: '0.1.0' }));
  bareApp.get('/cpu', async () => process.cpuUsage());
  // A constant JSON body of the size asked for: the floor for an answer as large as ours.
  const sized = new Map<number, string>();
  bareApp.get<{ Params: { bytes: string } }>('/sized/:bytes', async (request, reply) => {
    const bytes = Math.min(1_000_000, Number(request.params.bytes));
    let body = sized.get(bytes);
    if (!body) {
      body = JSON.stringify({ message: 'x'.repeat(Math.max(0, bytes - 15)) });
      sized.set(bytes, body);
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
  await bareApp.listen({ host: '127.0.0.1', port: 0 });
  const address = bareApp.server.address();
  const barePort = typeof address === 'object' && address ? address.port : 0;
  console.log(JSON.stringify({ service: service.url, bare: `http://127.0.0.1:${barePort}` }));
  process.once('SIGTERM', () => {
    void (async () => {
      await bareApp.close();
      await service.close();
      process.exit(0);
    })();
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    void runChild(process.argv[childAt + 1]!, process.argv[childAt + 2]!);
  } else {
    runOrdersBench(process.argv.slice(2)).catch((error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    });
  }
}
