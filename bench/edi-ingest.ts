/**
 * `npm run bench -- edi` (inbound part): reading and planning one interchange of 500 850s with
 * 20 lines each, the 997 included (issue 16 goal: the whole ingest under 2 s). This measures the
 * pure part (reader, mapping, create-body validation, 997); the database writes are not in it.
 */
import { cpus, loadavg } from 'node:os';
import { planIngest } from '../src/server/edi/inbound/ingest-plan';
import { readX12 } from '../src/server/edi/x12/reader';
import { ms, summarise, timeRuns } from './stats';

const POS = 500;
const LINES = 20;
const WARMUP = 2;
const RUNS = 7;
const GOAL_MS = 2000;

const CONNECTION = {
  sender_id: 'ACMEBRANDS',
  receiver_id: 'NORTHMARKET',
  brand_id: '11111111-1111-4111-8111-111111111111',
  retailer_id: '22222222-2222-4222-8222-222222222222',
  facility_id: '33333333-3333-4333-8333-333333333333',
};

function purchaseOrder(n: number): string[] {
  const control = String(n + 1).padStart(4, '0');
  const body = [
    `BEG*00*SA*45${String(n).padStart(8, '0')}**20260115`,
    'REF*DP*042',
    'DTM*010*20260120',
    'DTM*002*20260127',
    'DTM*001*20260205',
    `N1*ST*NORTHMARKET DC ${6000 + (n % 40)}*92*${6000 + (n % 40)}`,
    'N3*4100 COMMERCE PKWY',
    'N4*COLUMBUS*OH*43219*US',
  ];
  let total = 0;
  for (let line = 1; line <= LINES; line++) {
    const quantity = 6 * line;
    total += quantity;
    body.push(
      `PO1*${line}*${quantity}*EA*${(4 + line / 4).toFixed(2)}*PE*UP*0${String(12345600000 + line)}*VN*SKU-${n}-${line}`,
      `PID*F****ITEM ${line} OF PO ${n}`,
      'PO4*6',
    );
  }
  body.push(`CTT*${LINES}*${total}`);
  return [`ST*850*${control}`, ...body, `SE*${body.length + 2}*${control}`];
}

export function benchInterchange(): string {
  const isa =
    'ISA*00*          *00*          *ZZ*NORTHMARKET    *ZZ*ACMEBRANDS     *260115*1030*U*00401*000000417*0*P*>';
  const segments = [isa, 'GS*PO*NORTHMARKET*ACMEBRANDS*20260115*1030*417*X*004010'];
  for (let n = 0; n < POS; n++) segments.push(...purchaseOrder(n));
  segments.push(`GE*${POS}*417`, 'IEA*1*000000417');
  return segments.map((segment) => `${segment}~\n`).join('');
}

export async function runEdiIngestBench(): Promise<void> {
  const text = benchInterchange();
  // The connection's order facility counts only as one of the brand's facilities.
  const facilities = [{ id: CONNECTION.facility_id, external_facility_code: 'WH-BENCH' }];
  const ingest = () =>
    planIngest({ read: readX12(text), connection: CONNECTION, facilities, seenBefore: false });
  const check = ingest();
  const sets = check.groups[0]?.sets ?? [];
  if (sets.length !== POS || sets.some((set) => set.status !== 'accepted')) {
    throw new Error(`edi bench: expected ${POS} accepted POs, got ${JSON.stringify(check.errors)}`);
  }
  if (check.groups[0]?.ack_status !== 'A') throw new Error('edi bench: the 997 does not accept');

  const whole = await timeRuns(RUNS, WARMUP, ingest);
  const readOnly = await timeRuns(RUNS, WARMUP, () => readX12(text));
  const summary = summarise(whole.samples, whole.wallMs);
  const read = summarise(readOnly.samples, readOnly.wallMs);
  const load = loadavg()[0] ?? 0;
  console.log(
    `\nEDI ingest plan: one interchange of ${POS} 850s x ${LINES} lines ` +
      `(${(text.length / 1024).toFixed(0)} KiB), 997 included; ${cpus().length} CPUs, load ${load.toFixed(1)}`,
  );
  console.log(
    `  read + map + validate + 997   median ${ms(summary.medianMs)}  p95 ${ms(summary.p95Ms)}`,
  );
  console.log(`  of which the reader           median ${ms(read.medianMs)}`);
  console.log(
    `goal whole ingest plan < ${GOAL_MS} ms: ${summary.medianMs < GOAL_MS ? 'MET' : 'NOT MET'} ` +
      '(database writes not included)',
  );
}
