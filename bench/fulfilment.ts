/**
 * `npm run bench -- fulfilment`: scan-to-screen latency of the packing station. One "pack one
 * unit" is the scan request (POST /api/v1/orders/{id}/scan) followed by the read the packing
 * screen makes (GET /api/v1/orders/{id}/fulfilment); goal: p95 under 10 ms at the service.
 *
 * In-process (Fastify inject, so no network), on a real data dir (WAL, synchronous = FULL: every
 * scan's commit is fsynced, as in production), then on an in-memory database (the same work
 * without the fsync), with the cost of a bare commit on that disk measured alongside, since the
 * fsync dominates when the disk is busy. The order has 3 lines and 40 earlier cartons on 4
 * pallets; the open carton is closed every 24 scans (not timed), like a real carton.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { sql } from 'kysely';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/server/db/database';
import { importSeedBundle } from '../src/server/seed/seed';
import { buildApp } from '../src/server/http/app';
import { BENCH_EMAIL, BENCH_PASSWORD, benchBundle, ids } from './fixtures';
import { benchContext, injectedAuthorization } from './in-process';
import { ms, percentile, summarise } from './stats';

const WARMUP = 50;
const MEASURED = 600;
const UNITS_PER_CARTON = 24;
const GOAL_P95_MS = 10;
const ORDER = '0d000000-0000-4000-8000-000000000001';
const SKUS = ['TENT-2P', 'BAG-20F', 'STOVE-1'];

const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ssccOf = (extension: number, n: number) => {
  const body = `${extension}0614141${String(900_000_000 + n).padStart(9, '0')}`;
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
};

/** The bench bundle with a GS1 prefix and one Picking order that already has 40 cartons. */
function bundle() {
  const base = benchBundle(['http://127.0.0.1:9/unused']);
  const at = '2026-01-05T10:00:00.000Z';
  return {
    ...base,
    brands: base.brands.map((b) => ({ ...b, gs1_company_prefix: '0614141' })),
    orders: [
      {
        id: ORDER,
        status: 'Picking',
        picksheet_code: 'PS-BENCH-1',
        po_number: 'PO-BENCH-1',
        brand_id: ids.brand,
        retailer_id: ids.retailer(1),
        facility_id: ids.facility,
        transportation_method: 'FREIGHT',
        created_at: at,
        started_at: at,
        items: SKUS.map((sku, i) => ({ sku, upc: `08100010000${i}0`, quantity: 1_000_000 })),
        pallets: [1, 2, 3, 4].map((p) => ({
          id: uuid('1d', p),
          sscc: ssccOf(1, p),
          status: 'Open',
          created_at: at,
          cartons: Array.from({ length: 10 }, (_, c) => ({
            id: uuid('2d', p * 100 + c),
            sscc: ssccOf(0, p * 100 + c),
            created_at: at,
            packing_complete_at: at,
            packed_by: BENCH_EMAIL,
            skus: SKUS.map((sku) => ({ sku, quantity: 8 })),
          })),
        })),
      },
    ],
  };
}

export async function runFulfilmentBench() {
  console.log(
    `fulfilment: scan-to-screen over ${MEASURED} scans (${cpus().length} cores, load ${loadavg()[0]?.toFixed(2)})`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-fulfilment-'));
  try {
    console.log(`  bare commit on the data dir's disk: ${await bareCommit(dataDir)}`);
    await measure(dataDir, 'data dir (fsync per commit)');
    await measure(':memory:', 'in memory (no fsync)');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Median and p95 of a one-row insert committed on the data dir's disk (synchronous = FULL). */
async function bareCommit(dataDir: string) {
  const database = await openDatabase(mkdtempSync(join(dataDir, 'commit-')));
  try {
    await sql`CREATE TABLE bench_commit (x INTEGER)`.execute(database.db);
    const samples: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const t0 = performance.now();
      await database.db.transaction().execute(async (trx) => {
        await sql`INSERT INTO bench_commit VALUES (1)`.execute(trx);
      });
      samples.push(performance.now() - t0);
    }
    const s = summarise(samples, 1);
    return `median ${ms(s.medianMs)}, p95 ${ms(s.p95Ms)}`;
  } finally {
    await database.close();
  }
}

async function measure(dataDir: string, label: string) {
  const database = await openDatabase(dataDir);
  const ctx = benchContext(database.db, dataDir);
  const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
  try {
    await importSeedBundle(ctx.db, bundle());
    await app.ready();
    const authorization = await injectedAuthorization(app, BENCH_EMAIL, BENCH_PASSWORD);
    const scanUrl = `/api/v1/orders/${ORDER}/scan`;
    const readUrl = `/api/v1/orders/${ORDER}/fulfilment`;

    const scans: number[] = [];
    const reads: number[] = [];
    const both: number[] = [];
    const started = performance.now();
    for (let i = 0; i < WARMUP + MEASURED; i += 1) {
      const t0 = performance.now();
      const scan = await app.inject({
        method: 'POST',
        url: scanUrl,
        headers: { authorization },
        payload: { code: SKUS[i % SKUS.length]! },
      });
      const t1 = performance.now();
      const read = await app.inject({ method: 'GET', url: readUrl, headers: { authorization } });
      const t2 = performance.now();
      if (scan.statusCode !== 200 || read.statusCode !== 200) {
        throw new Error(`fulfilment bench: ${scan.statusCode} ${scan.body} / ${read.statusCode}`);
      }
      if (i >= WARMUP) {
        scans.push(t1 - t0);
        reads.push(t2 - t1);
        both.push(t2 - t0);
      }
      if ((i + 1) % UNITS_PER_CARTON === 0) {
        const carton = (read.json() as { data: { open_carton: { id: string } } }).data.open_carton;
        await app.inject({
          method: 'POST',
          url: `/api/v1/orders/${ORDER}/cartons/${carton.id}/close`,
          headers: { authorization },
          payload: {},
        });
      }
    }
    const wall = performance.now() - started;
    const total = summarise(both, wall);
    const p99 = percentile(
      [...both].sort((a, b) => a - b),
      0.99,
    );
    const line = (name: string, samples: number[]) => {
      const s = summarise(samples, wall);
      return `  ${name.padEnd(22)} median ${ms(s.medianMs)}  p95 ${ms(s.p95Ms)}  max ${ms(s.maxMs)}`;
    };
    console.log(` ${label}`);
    console.log(line('scan (POST …/scan)', scans));
    console.log(line('read (GET …/fulfilment)', reads));
    console.log(line('scan + read', both));
    console.log(
      `  scan + read p99 ${ms(p99)}; goal p95 < ${GOAL_P95_MS} ms: ${total.p95Ms < GOAL_P95_MS ? 'met' : 'NOT met'}`,
    );
  } finally {
    await app.close();
    await database.close();
  }
}
