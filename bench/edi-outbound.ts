/**
 * `npm run bench -- edi` (issue 16, outbound and 997s): building one 856 for an order of 1,000
 * cartons on 40 pallets (build856 and the X12 writer, goal median under 20 ms), and taking in
 * 10,000 inbound 997s that each answer one of our outbound 856 groups (goal under 1 s). The 997
 * fixture is a scratch database on disk: the outbound documents written through the service's
 * insertOrderDocument, the 997s taken in through ingestInterchange (the route's own path, minus
 * HTTP), in its one transaction.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/server/db/database';
import { build856, type AsnCarton, type AsnFacts } from '../src/server/edi/asn-856';
import { ingestInterchange } from '../src/server/edi/ingest';
import { findInboundConnections } from '../src/server/edi/ingest-queries';
import { insertOrderDocument } from '../src/server/edi/queries';
import { writeInterchange } from '../src/server/edi/x12/writer';
import { importSeedBundle } from '../src/server/seed/seed';
import { gs1CheckDigit } from '../src/shared/sscc';
import { benchBundle } from './fixtures';
import { benchContext } from './in-process';
import { ms, summarise } from './stats';

const CARTONS = 1_000;
const PALLETS = 40;
const BUILD_RUNS = 30;
const BUILD_GOAL_MS = 20;
const ACKS = 10_000;
const ACK_RUNS = 3;
const ACK_GOAL_MS = 1_000;
const US = 'ACMEBRANDS';
const THEM = 'NORTHMARKET';

const sscc = (extension: number, serial: number) => {
  const body = `${extension}0614141${String(serial).padStart(9, '0')}`;
  return body + String(gs1CheckDigit(body));
};

/** 1,000 cartons of 3 SKUs each, 25 to a pallet. */
function bigShipment(): AsnFacts {
  const pallets = Array.from({ length: PALLETS }, (_, p) => ({
    id: `p${p}`,
    sscc: sscc(1, p + 1),
    weight: 400,
    weight_unit: 'lb',
  }));
  const cartons: AsnCarton[] = Array.from({ length: CARTONS }, (_, c) => ({
    id: `c${c}`,
    sscc: sscc(0, 1000 + c),
    pallet_id: `p${c % PALLETS}`,
    parcel_tracking_number: null,
    weight: 12.5,
    weight_unit: 'lb',
    lines: [0, 1, 2].map((k) => ({
      sku: `SKU-${(c * 3 + k) % 200}`,
      upc: String(12345678900 + ((c * 3 + k) % 200)).padStart(12, '0'),
      quantity: 6,
    })),
  }));
  const party = { name: 'DC', code: '6021', city: 'Columbus', state: 'OH', zip: '43217' };
  return {
    shipmentId: 'BOL-778812',
    createdAt: new Date('2026-03-04T15:30:00Z'),
    shippedAt: new Date('2026-03-04T15:29:00Z'),
    poNumber: '4500012345',
    deptNumber: '042',
    billOfLadingNumber: 'BOL-778812',
    proNumber: 'PRO99812',
    carrier: 'Old Dominion Freight Line',
    carrierAlphaCode: 'ODFL',
    transportationMethod: 'LTL',
    shipFrom: { ...party, name: 'Acme Warehouse East', code: 'WH-EAST' },
    shipTo: party,
    pallets,
    cartons,
  };
}

function benchBuild856() {
  const facts = bigShipment();
  const samples: number[] = [];
  const started = performance.now();
  let bytes = 0;
  for (let run = 0; run < 3 + BUILD_RUNS; run++) {
    const t0 = performance.now();
    const written = writeInterchange({
      edi: {
        sender_qualifier: 'ZZ',
        sender_id: US,
        receiver_qualifier: 'ZZ',
        receiver_id: THEM,
        version: '004010',
        usage_indicator: 'P',
      },
      functionalId: 'SH',
      interchangeControlNumber: run + 1,
      groupControlNumber: run + 1,
      createdAt: facts.createdAt,
      transactionSets: [build856(facts)],
    });
    const elapsed = performance.now() - t0;
    bytes = written.text.length;
    if (run >= 3) samples.push(elapsed);
  }
  const summary = summarise(samples, performance.now() - started);
  console.log(
    `\nEDI 856 for ${CARTONS} cartons on ${PALLETS} pallets (3 lines each; build856 + writer, ` +
      `${(bytes / 1024).toFixed(0)} KiB)`,
  );
  console.log(`  median ${ms(summary.medianMs)}  p95 ${ms(summary.p95Ms)}`);
  console.log(
    `goal median < ${BUILD_GOAL_MS} ms: ${summary.medianMs < BUILD_GOAL_MS ? 'MET' : 'NOT MET'}`,
  );
}

/** One interchange from the retailer: a FA group of `count` 997s, the n-th answering group `first + n`. */
function ackInterchange(control: number, first: number, count: number): string {
  const lines = [
    `ISA*00*          *00*          *ZZ*${THEM.padEnd(15)}*ZZ*${US.padEnd(15)}*260304*1530*U*00401*${String(control).padStart(9, '0')}*0*P*>`,
    `GS*FA*${THEM}*${US}*20260304*1530*${control}*X*004010`,
  ];
  for (let n = 0; n < count; n++) {
    const st = String(n + 1).padStart(4, '0');
    lines.push(
      `ST*997*${st}`,
      `AK1*SH*${first + n}`,
      'AK2*856*0001',
      'AK5*A',
      'AK9*A*1*1*1',
      `SE*6*${st}`,
    );
  }
  lines.push(`GE*${count}*${control}`, `IEA*1*${String(control).padStart(9, '0')}`);
  return lines.map((line) => `${line}~\n`).join('');
}

async function benchAcks() {
  const samples: number[] = [];
  let accepted = 0;
  for (let run = 0; run < ACK_RUNS; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'fi-bench-997-'));
    const database = await openDatabase(dataDir);
    const ctx = benchContext(database.db, dataDir);
    try {
      const base = benchBundle(['http://127.0.0.1:9/unused']);
      await importSeedBundle(ctx.db, {
        ...base,
        connections: base.connections.map((c) => ({
          ...c,
          transport: { type: 'file', directory: 'outbox' },
          edi: { ...c.edi!, sender_id: US, receiver_id: THEM },
          order_documents: { send: ['856'] },
        })),
      });
      const [connection] = await findInboundConnections(ctx.db, THEM, US);
      const at = new Date().toISOString();
      await ctx.db.transaction().execute(async (trx) => {
        for (let n = 1; n <= ACKS; n++) {
          await insertOrderDocument(trx, {
            id: crypto.randomUUID(),
            order_id: null,
            brand_id: connection!.brand_id,
            facility_id: null,
            connection_id: connection!.id,
            organization_id: connection!.organization_id,
            retailer_id: connection!.retailer_id,
            type: '856',
            direction: 'out',
            status: 'sent',
            interchange_control_number: n,
            group_control_number: n,
            transaction_control_number: '0001',
            document: null,
            content_type: null,
            file_name: null,
            error: null,
            next_attempt_at: null,
            sender_id: null,
            sent_at: at,
            acknowledged_at: null,
            created_at: at,
            updated_at: at,
            interchange_id: null,
          });
        }
      });
      const text = ackInterchange(900 + run, 1, ACKS);
      const t0 = performance.now();
      const answer = await ingestInterchange(
        ctx,
        { text, source: 'http', fileName: null, userId: null, requestUrl: '/bench' },
        () => Promise.resolve(true),
      );
      samples.push(performance.now() - t0);
      if (answer.data.outcome !== 'accepted') {
        throw new Error(`edi 997 bench: ${answer.data.outcome} ${answer.message}`);
      }
      const marked = await ctx.db
        .selectFrom('order_documents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'accepted')
        .executeTakeFirstOrThrow();
      accepted = Number(marked.n);
    } finally {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const summary = summarise(samples, 0);
  console.log(
    `\nEDI ${ACKS} inbound 997s in one interchange, each matched to its outbound 856 group ` +
      `(marked, log row each); data dir on disk; ${cpus().length} CPUs, load ` +
      `${(loadavg()[0] ?? 0).toFixed(1)}`,
  );
  console.log(
    `  median ${ms(summary.medianMs)}  (runs: ${samples.map(ms).join(', ')}); ` +
      `${accepted} of ${ACKS} documents marked accepted`,
  );
  console.log(
    `goal 10,000 997s < ${ACK_GOAL_MS} ms: ${summary.medianMs < ACK_GOAL_MS ? 'MET' : 'NOT MET'}`,
  );
}

export async function runEdiOutboundBench(): Promise<void> {
  benchBuild856();
  await benchAcks();
}
