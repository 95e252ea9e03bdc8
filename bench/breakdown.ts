/**
 * Where one advice's time goes, in-process (no inbound HTTP):
 * - phases: the real phases of sendInventoryAdvice (./phases), medians and means per phase;
 * - functions: the CPU-heavy pure functions of the path, timed alone on 1000 items;
 * - the real `sendInventoryAdvice` in one call, as a check that the phases add up.
 */
import { randomUUID } from 'node:crypto';
import { buildDirectFeed } from '../src/server/inventory/transmission/direct-feed';
import { build846 } from '../src/server/inventory/transmission/x12-846';
import { findUserByEmail } from '../src/server/access/user-queries';
import type { AuthUser, ServiceContext } from '../src/server/core/context';
import { sendInventoryAdvice } from '../src/server/inventory/advise';
import type { AdviceScope } from '../src/server/inventory/targets';
import { localDay, parseInventoryAdvice, rowProblems } from '../src/shared/inventory';
import { BENCH_EDI, BENCH_EMAIL, ids } from './fixtures';
import { measurePhases, type PhaseRow } from './phases';
import { summarise, timeRuns, type LatencySummary } from './stats';
import { measureWalPages, type WalPages } from './wal-pages';

export interface FunctionRow {
  fn: string;
  /** How many times one advice runs it. */
  perAdvice: number;
  /** One call. */
  medianMs: number;
  p95Ms: number;
}

export interface Breakdown {
  phases: PhaseRow[];
  functions: FunctionRow[];
  /** The real sendInventoryAdvice, called directly: deliveries included, no inbound HTTP. */
  inProcessAdvice: LatencySummary;
  /** WAL pages (4 KiB) of the outbox and the outcome commit of one advice (median). */
  walPages: WalPages;
}

export async function measureBreakdown(
  ctx: ServiceContext,
  requestBody: string,
  runs: number,
): Promise<Breakdown> {
  const warmup = 5;
  const raw: unknown = JSON.parse(requestBody);
  const parsed = parseInventoryAdvice(raw);
  if (!parsed.ok) throw new Error('bench body does not validate');
  const items = parsed.value.items;
  const createdAt = new Date();
  const account = await findUserByEmail(ctx.db, BENCH_EMAIL);
  if (!account) throw new Error('bench user missing');
  const user: AuthUser = { id: account.id, email: account.email, brandId: account.brand_id };
  const scope: AdviceScope = { kind: 'facility', brandId: ids.brand, facilityId: ids.facility };

  const phases = await measurePhases(ctx, user, scope, raw, runs, warmup);

  const functions: FunctionRow[] = [];
  const time = async (fn: string, perAdvice: number, call: () => unknown) => {
    const { samples, wallMs } = await timeRuns(runs, warmup, call);
    const s = summarise(samples, wallMs);
    functions.push({ fn, perAdvice, medianMs: s.medianMs, p95Ms: s.p95Ms });
  };
  await time('JSON.parse request body (~ Fastify body parser)', 1, () => JSON.parse(requestBody));
  await time('parseInventoryAdvice (hand check; zod on errors)', 1, () =>
    parseInventoryAdvice(raw),
  );
  await time('rowProblems', 1, () =>
    rowProblems(items, { statusRequiredAtZero: true, today: localDay(new Date()) }),
  );
  // One advice's documents: a fresh snapshot array each time, because the line-item loop and the
  // feed's items JSON are built once per snapshot and shared by its four documents of each kind.
  await time('4 x build846 for one snapshot', 1, () => {
    const snapshotItems = [...items];
    for (let n = 1; n <= 4; n++) {
      build846({
        edi: BENCH_EDI,
        interchangeControlNumber: 100 + n,
        groupControlNumber: 100 + n,
        referenceId: `INV-bench-${n}`,
        createdAt,
        shipFrom: { name: 'Bench DC', code: 'BDC1' },
        vendorId: 'BB',
        items: snapshotItems,
      });
    }
  });
  await time('4 x buildDirectFeed for one snapshot', 1, () => {
    const snapshotItems = [...items];
    for (let n = 1; n <= 4; n++) {
      buildDirectFeed({
        idempotencyKey: randomUUID(),
        generatedAt: createdAt,
        brand: { brand_id: ids.brand, name: 'Bench Brand', external_brand_code: 'BB' },
        facility: { id: ids.facility, name: 'Bench DC', external_facility_code: 'BDC1' },
        organization_id: ids.organization,
        retailer_id: ids.retailer(n),
        items: snapshotItems,
      });
    }
  });
  await time('JSON.stringify items (snapshot items_json)', 1, () => JSON.stringify(items));

  const inProcess = await timeRuns(runs, warmup, async () => {
    const response = await sendInventoryAdvice(ctx, user, scope, raw);
    if (response.outcome !== 'all_succeeded') {
      throw new Error(`in-process advice failed: ${response.message}`);
    }
  });
  const walPages = await measureWalPages(ctx, user, scope, raw, runs);
  return {
    phases: phases.rows,
    functions,
    inProcessAdvice: summarise(inProcess.samples, inProcess.wallMs),
    walPages,
  };
}
