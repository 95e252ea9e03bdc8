/**
 * `npm run bench -- labels`: a 100-label GS1 PDF (goal: under 1 s), built by the pure builder
 * and through the service (GET /api/v1/orders/{id}/labels over Fastify inject: order read,
 * SSCC checks, PDF), plus the same labels as ZPL. In-process, an in-memory database.
 */
import { cpus, loadavg } from 'node:os';
import { openDatabase } from '../src/server/db/database';
import { importSeedBundle } from '../src/server/seed/seed';
import { buildLabelsPdf } from '../src/server/documents/label-pdf';
import { buildLabelsZpl } from '../src/server/documents/label-zpl';
import type { LabelRequest, LabelUnit } from '../src/server/documents/label-model';
import { gs1CheckDigit } from '../src/server/documents/sscc-check';
import { buildApp } from '../src/server/http/app';
import { BENCH_EMAIL, BENCH_PASSWORD, benchBundle, ids } from './fixtures';
import { benchContext, injectedAuthorization } from './in-process';
import { ms, summarise, timeRuns } from './stats';

const LABELS = 100;
const PALLETS = 4;
const CARTONS = LABELS - PALLETS;
const WARMUP = 3;
const RUNS = 15;
const GOAL_MS = 1000;

const sscc = (n: number) => {
  const body = `0061414100${String(n).padStart(7, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
};
const uuid = (prefix: string, n: number) =>
  `${prefix}000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function pureRequest(): LabelRequest {
  const units: LabelUnit[] = Array.from({ length: LABELS }, (_, i) => ({
    unit: i < CARTONS ? 'carton' : 'pallet',
    id: uuid('2d', i),
    sscc: sscc(i + 1),
    sequence: i < CARTONS ? i + 1 : i - CARTONS + 1,
    total: i < CARTONS ? CARTONS : PALLETS,
    contents: [
      { sku: 'TENT-2P', quantity: 2 },
      { sku: 'BAG-20F', quantity: 4 },
    ],
    cartonCount: i < CARTONS ? null : CARTONS / PALLETS,
    units: 6,
  }));
  return {
    kind: 'gs1',
    shipment: {
      shipFrom: ['Summit Outdoor', 'c/o Reno DC', 'Facility RNO1'],
      shipTo: ['Big Box DC 7', '1 Warehouse Way', 'Reno, NV 89501', 'US'],
      shipToZip: '89501',
      dcNumber: '7',
      poNumber: 'PO4500123',
      picksheetCode: 'PS-000123',
      deptNumber: '42',
      carrier: 'XPO Logistics',
      proNumber: 'PRO-1',
      bolNumber: 'BOL-1',
      retailerName: 'Big Box',
    },
    units,
  };
}

/** The bench bundle plus one Packed order with 96 cartons on 4 pallets. */
function labelBundle() {
  const cartonsPerPallet = CARTONS / PALLETS;
  const order = {
    id: uuid('0d', 1),
    status: 'Packed',
    po_number: 'PO4500123',
    picksheet_code: 'PS-000123',
    brand_id: ids.brand,
    retailer_id: ids.retailer(1),
    facility_id: ids.facility,
    transportation_method: 'FREIGHT',
    carrier: 'XPO Logistics',
    address_data: { ship_to_contact: { name: 'Big Box DC 7', city: 'Reno', zip: '89501' } },
    items: [
      { sku: 'TENT-2P', quantity: 2 * CARTONS },
      { sku: 'BAG-20F', quantity: 4 * CARTONS },
    ],
    packed_at: '2026-01-06T12:00:00.000Z',
    pallets: Array.from({ length: PALLETS }, (_, p) => ({
      id: uuid('1d', p + 1),
      sscc: sscc(1000 + p),
      status: 'Open',
      created_at: '2026-01-06T11:00:00.000Z',
      cartons: Array.from({ length: cartonsPerPallet }, (_, c) => ({
        id: uuid('2d', p * cartonsPerPallet + c + 1),
        sscc: sscc(p * cartonsPerPallet + c + 1),
        created_at: new Date(
          Date.UTC(2026, 0, 6, 10) + (p * cartonsPerPallet + c) * 1000,
        ).toISOString(),
        skus: [
          { sku: 'TENT-2P', quantity: 2 },
          { sku: 'BAG-20F', quantity: 4 },
        ],
      })),
    })),
  };
  // One connection, so retailer 1 exists and works with the brand; nothing is sent.
  return { ...benchBundle(['http://127.0.0.1:9/unused']), orders: [order] };
}

export async function runLabelsBench() {
  const request = pureRequest();
  const pure = await timeRuns(RUNS, WARMUP, () => buildLabelsPdf(request, new Date()));
  const bytes = (await buildLabelsPdf(request, new Date())).length;
  const zpl = await timeRuns(RUNS, WARMUP, () => buildLabelsZpl(request));

  const database = await openDatabase(':memory:');
  const ctx = benchContext(database.db, '/tmp/fi-bench-labels');
  const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
  try {
    await importSeedBundle(ctx.db, labelBundle());
    await app.ready();
    const authorization = await injectedAuthorization(app, BENCH_EMAIL, BENCH_PASSWORD);
    const url = `/api/v1/orders/${uuid('0d', 1)}/labels`;
    const route = await timeRuns(RUNS, WARMUP, async () => {
      const response = await app.inject({ method: 'GET', url, headers: { authorization } });
      if (response.statusCode !== 200)
        throw new Error(`labels: ${response.statusCode} ${response.body}`);
    });

    const pureSummary = summarise(pure.samples, pure.wallMs);
    const routeSummary = summarise(route.samples, route.wallMs);
    const zplSummary = summarise(zpl.samples, zpl.wallMs);
    const load = loadavg()[0] ?? 0;
    console.log(
      `\nLabels: ${LABELS} GS1 labels (${CARTONS} cartons, ${PALLETS} pallets), 4 x 6 in PDF ` +
        `${(bytes / 1024).toFixed(0)} KiB; ${WARMUP} warm-up, ${RUNS} measured; ` +
        `${cpus().length} CPUs, ${process.version}, load ${load.toFixed(1)}`,
    );
    const line = (label: string, s: ReturnType<typeof summarise>) =>
      console.log(`${label.padEnd(46)}${ms(s.medianMs).padStart(11)}${ms(s.p95Ms).padStart(11)}`);
    console.log(`${''.padEnd(46)}${'median'.padStart(11)}${'p95'.padStart(11)}`);
    line('PDF, pure builder', pureSummary);
    line('PDF, GET .../labels (inject, order read)', routeSummary);
    line('ZPL, pure builder', zplSummary);
    const met = routeSummary.medianMs < GOAL_MS;
    console.log(
      `goal 100-label PDF < ${GOAL_MS} ms: ${met ? 'MET' : 'NOT MET'} (${ms(routeSummary.medianMs)})`,
    );
  } finally {
    await app.close();
    await database.close();
  }
}
