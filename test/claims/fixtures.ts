/** Seeded chargebacks and POS rows for the claims tests: the orders read bundle plus both sections. */
import { id } from '../helpers/fixtures';
import { manualClock } from '../helpers/clock';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import type { Engine } from '../../src/server/db/engine';
import { ordersBundle } from '../orders/read-fixtures';

/** "Today" of every claims test: deadlines before 2026-03-15 have passed. */
export const TODAY = '2026-03-15';
export const claimsClock = () => manualClock(`${TODAY}T12:00:00.000Z`);

export const chargebackUuid = (n: number) =>
  `3c000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const posUuid = (n: number) => `3d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export function seedChargeback(n: number, overrides: Record<string, unknown> = {}) {
  return {
    id: chargebackUuid(n),
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    chargeback_id: `CB-${100 + n}`,
    po_number: `PO-${1000 + n}`,
    amount: 100 + n + 0.25,
    amount_won_back: 0,
    retailer_chargeback_code: `RC${n}`,
    category: 'Late shipment',
    description: `Chargeback ${n}`,
    chargeback_date: '2026-03-01',
    uploaded_at: `2026-03-02T0${n % 10}:00:00.000Z`,
    dispute_deadline: '2026-03-31',
    dispute_status: 'Pending Review',
    ...overrides,
  };
}

/**
 * Chargebacks 1-5 of brand 1, 6-7 of brand 2; newest first (date, then upload time) they are
 * 5, 6, 1, 3, 2, 7, 4.
 */
export function claimChargebacks() {
  return [
    seedChargeback(1, { dispute_deadline: '2026-03-20' }),
    // Deadline yesterday: expired and closed although its status is open.
    seedChargeback(2, {
      chargeback_id: 'CB-SHARED',
      po_number: 'PO-1002',
      chargeback_date: '2026-02-15',
      uploaded_at: '2026-02-16T08:00:00.000Z',
      dispute_deadline: '2026-03-14',
      dispute_status: 'Ready to Dispute',
    }),
    // Same number as 2; PO of order 1 but another retailer (3): no match. Deadline today: open.
    seedChargeback(3, {
      chargeback_id: 'CB-SHARED',
      retailer_id: id('r', 3),
      po_number: 'PO-1001',
      chargeback_date: '2026-02-15',
      uploaded_at: '2026-02-16T09:00:00.000Z',
      dispute_deadline: TODAY,
      dispute_status: 'Submission Failed',
    }),
    // PO of order 3 (brand 1, retailer 3, Charlie DC). Won long after its deadline: not expired.
    seedChargeback(4, {
      retailer_id: id('r', 3),
      po_number: 'PO-1003',
      chargeback_date: '2026-01-31',
      dispute_deadline: '2026-02-28',
      dispute_status: 'Won',
      amount: 80,
      amount_won_back: 80,
    }),
    seedChargeback(5, {
      po_number: '',
      chargeback_date: TODAY,
      dispute_deadline: null,
      dispute_status: 'Not Disputed',
    }),
    // Brand 2: PO of order 2 (brand 2, retailer 2, Alpha DC).
    seedChargeback(6, {
      brand_id: id('b', 2),
      retailer_id: id('r', 2),
      po_number: 'PO-1002',
      chargeback_date: '2026-03-10',
      dispute_status: 'Lost',
    }),
    seedChargeback(7, {
      brand_id: id('b', 2),
      retailer_id: id('r', 2),
      po_number: 'PO-9999',
      chargeback_date: '2026-02-01',
      dispute_deadline: '2026-02-20',
      dispute_status: 'Expired',
    }),
  ];
}

export function seedPos(n: number, overrides: Record<string, unknown> = {}) {
  return {
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    sku: 'SKU-A',
    location: 'Store 1',
    start_date: '2026-02-01',
    end_date: '2026-02-07',
    units_sold: 10 * n,
    revenue: 25 * n,
    cogs: 10 * n,
    returns: n,
    inventory_units: 100,
    inventory_cost: 400,
    ...overrides,
  };
}

/** Weekly rows of brand 1 at retailer 1 (four weeks of February), one at retailer 3, one of brand 2. */
export function claimPosRows() {
  return [
    seedPos(1, { id: posUuid(1) }),
    seedPos(2, { start_date: '2026-02-08', end_date: '2026-02-14' }),
    seedPos(3, { start_date: '2026-02-15', end_date: '2026-02-21' }),
    seedPos(4, { start_date: '2026-02-22', end_date: '2026-02-28' }),
    seedPos(5, {
      retailer_id: id('r', 3),
      sku: 'SKU-B',
      location: 'Store 9',
      start_date: '2026-02-15',
      end_date: '2026-02-21',
    }),
    seedPos(6, {
      brand_id: id('b', 2),
      retailer_id: id('r', 2),
      sku: 'SKU-Z',
      start_date: '2026-02-08',
      end_date: '2026-02-14',
    }),
  ];
}

/**
 * The orders read bundle (orders 1-4: PO-1001 b1/r1 Alpha, PO-1002 b2/r2 Alpha, PO-1003 b1/r3
 * Charlie, PO-1004 b2/r2 Charlie) plus charlie1@b.test: brand 1 like brand1@a.test, but only
 * Charlie DC (another organisation), and the chargebacks and POS rows above.
 */
export function claimsBundle() {
  const bundle = ordersBundle();
  return {
    ...bundle,
    users: [
      ...bundle.users,
      {
        email: 'charlie1@b.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 3)],
        admin: [{ brand_id: id('b', 1), facility_id: id('f', 3) }],
      },
    ],
    chargebacks: claimChargebacks(),
    pos_reports: claimPosRows(),
  };
}

/** How many chargebacks or POS rows the service holds, of every brand. */
export const claimRowCount = async (svc: TestService, table: 'chargebacks' | 'pos_rows') =>
  Number(
    (
      await svc.ctx.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

export const CLAIM_USERS = [
  'admin@a.test',
  'brand1@a.test',
  'brand2@b.test',
  'viewer@a.test',
  'bravo@a.test',
  'charlie1@b.test',
] as const;
export type ClaimUser = (typeof CLAIM_USERS)[number];

export interface ClaimsService {
  svc: TestService;
  tokens: Record<ClaimUser, string>;
  /** Moves the service's clock (and so "today"). */
  advance(ms: number): void;
}

export async function startClaimsService(
  options: { seed?: unknown; dataDir?: string; engine?: Engine } = {},
): Promise<ClaimsService> {
  const clock = claimsClock();
  const svc = await createTestService({
    engine: options.engine,
    seed: options.seed ?? claimsBundle(),
    clock: clock.clock,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  });
  const tokens = {} as Record<ClaimUser, string>;
  for (const email of CLAIM_USERS) tokens[email] = await svc.login(email);
  return { svc, tokens, advance: clock.advance };
}
