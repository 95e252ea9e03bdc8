import { describe, expect, it } from 'vitest';
import { orderListPageSchema } from '../../src/shared/orders';
import { shipByDate, shipByStatus } from '../../src/shared/ship-by';
import { expectError } from '../api/envelope';
import { loadPdf } from '../documents/fixtures';
import { signedInService } from '../helpers/signed-in';
import { orderId, ordersBundle, seedOrder } from './read-fixtures';

const USERS = ['admin@a.test', 'viewer@a.test', 'bravo@a.test'] as const;
type User = (typeof USERS)[number];

/** The service's "today" (its local calendar day; tests run in UTC). */
const NOW = new Date('2026-03-10T12:00:00.000Z');

/**
 * At Alpha (brand 1): 11 late by its latest ship date; 12 late by its requested ship date alone;
 * 13 due today (latest ship date today, requested earlier: the latest one counts); 14 due later;
 * 15 Shipped, its day passed (never late); 16 no dates; 17 at Bravo DC, late.
 */
function bundle() {
  const base = ordersBundle();
  const orders = [
    seedOrder(11, { dates: { latest_ship_date: '2026-03-01', requested_ship_date: '2026-03-20' } }),
    seedOrder(12, { dates: { requested_ship_date: '2026-03-09' } }),
    seedOrder(13, { dates: { latest_ship_date: '2026-03-10', requested_ship_date: '2026-03-02' } }),
    seedOrder(14, { status: 'Picking', dates: { latest_ship_date: '2026-03-11' } }),
    seedOrder(15, { status: 'Shipped', dates: { latest_ship_date: '2026-03-01' } }),
    seedOrder(16, {}),
    seedOrder(17, {
      facility_id: base.facilities[1]!.id,
      dates: { latest_ship_date: '2026-03-02' },
    }),
  ];
  // Brand 1 works at Bravo DC too, so Bravo's user has a late order of the same brand.
  const brandFacilities = [
    ...base.brand_facilities,
    { brand_id: base.brands[0]!.brand_id, facility_id: base.facilities[1]!.id },
  ];
  return { ...base, brand_facilities: brandFacilities, orders };
}

const api = signedInService(USERS, () => ({ seed: bundle(), clock: { now: () => NOW } }));

async function listed(user: User, query: string) {
  const response = await api.get(user, `/api/v1/orders?page_size=100&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return orderListPageSchema.parse(response.json().data).orders;
}
const numbersOf = (orders: { id: string }[]) =>
  orders.map((o) => Number(o.id.slice(-12))).sort((a, b) => a - b);

describe('ship-by: latest ship date, else requested ship date', () => {
  it('shipByDate and shipByStatus', () => {
    expect(shipByDate({ latest_ship_date: '2026-03-01', requested_ship_date: '2026-03-20' })).toBe(
      '2026-03-01',
    );
    expect(shipByDate({ latest_ship_date: null, requested_ship_date: '2026-03-20' })).toBe(
      '2026-03-20',
    );
    expect(shipByDate({ latest_ship_date: '2026-03-01T00:00:00.000Z' })).toBe('2026-03-01');
    expect(shipByDate({})).toBeNull();
    expect(shipByStatus('2026-03-09', 'Open', '2026-03-10')).toBe('late');
    expect(shipByStatus('2026-03-10', 'Loaded', '2026-03-10')).toBe('due_today');
    expect(shipByStatus('2026-03-11', 'Open', '2026-03-10')).toBeNull();
    expect(shipByStatus('2026-03-01', 'Shipped', '2026-03-10')).toBeNull();
    expect(shipByStatus('2026-03-01', 'Cancelled', '2026-03-10')).toBeNull();
    expect(shipByStatus(null, 'Open', '2026-03-10')).toBeNull();
  });

  it('each listed order carries its ship-by day and whether it is late or due today', async () => {
    const orders = await listed('admin@a.test', 'order_by=ship_by&order_direction=asc');
    const byNumber = new Map(orders.map((o) => [Number(o.id.slice(-12)), o]));
    expect(byNumber.get(11)).toMatchObject({ ship_by: '2026-03-01', ship_by_status: 'late' });
    expect(byNumber.get(12)).toMatchObject({ ship_by: '2026-03-09', ship_by_status: 'late' });
    expect(byNumber.get(13)).toMatchObject({ ship_by: '2026-03-10', ship_by_status: 'due_today' });
    expect(byNumber.get(14)).toMatchObject({ ship_by: '2026-03-11', ship_by_status: null });
    expect(byNumber.get(15)).toMatchObject({ ship_by: '2026-03-01', ship_by_status: null });
    expect(byNumber.get(16)).toMatchObject({ ship_by: null, ship_by_status: null });
    // Sorted by the ship-by day (orders without one aside).
    const days = orders.map((o) => o.ship_by).filter((day) => day !== null);
    expect(days).toEqual([...days].sort());
  });

  it('due=late, due=today, due=today_or_late: open orders only, in the caller’s facilities', async () => {
    expect(numbersOf(await listed('admin@a.test', 'due=late'))).toEqual([11, 12, 17]);
    expect(numbersOf(await listed('admin@a.test', 'due=today'))).toEqual([13]);
    expect(numbersOf(await listed('admin@a.test', 'due=today_or_late'))).toEqual([11, 12, 13, 17]);
    // Bravo DC's user (same organisation) sees only Bravo's late order.
    expect(numbersOf(await listed('bravo@a.test', 'due=late'))).toEqual([17]);
    // Alpha's viewer does not see Bravo's.
    expect(numbersOf(await listed('viewer@a.test', 'due=late'))).toEqual([11, 12]);
  });

  it('ship_by_from / ship_by_to: inclusive bounds on the ship-by day', async () => {
    const q = 'ship_by_from=2026-03-09&ship_by_to=2026-03-10';
    expect(numbersOf(await listed('admin@a.test', q))).toEqual([12, 13]);
    expect(numbersOf(await listed('admin@a.test', 'ship_by_to=2026-03-01'))).toEqual([11, 15]);
    expect(numbersOf(await listed('admin@a.test', 'ship_by_from=2026-03-11'))).toEqual([14]);
  });

  it('bad bounds answer 400 in the envelope: not a date, from after to, unknown due', async () => {
    for (const query of [
      'ship_by_from=2026-02-30',
      'ship_by_to=tomorrow',
      'ship_by_from=2026-03-11&ship_by_to=2026-03-10',
      'due=soon',
    ]) {
      const response = await api.get('admin@a.test', `/api/v1/orders?${query}`);
      expectError(response, 400, 'INVALID_REQUEST', 'Invalid query parameters');
    }
    const response = await api.get(
      'admin@a.test',
      '/api/v1/orders?ship_by_from=2026-03-11&ship_by_to=2026-03-10',
    );
    expect(response.json().error.details).toContain('ship_by_from: is after ship_by_to');
  });

  it('compliance judges the ship window by the same day: the requested ship date when no window is given', async () => {
    // Order 12 (requested ship date 2026-03-09, not shipped): the day has passed, so the ship
    // window fails; before this change the rule saw no window at all.
    await api.svc.ctx.db
      .updateTable('orders')
      .set({ status: 'Packed', packed_at: '2026-03-05T10:00:00.000Z' })
      .where('id', '=', orderId(12))
      .execute();
    const response = await api.get(
      'admin@a.test',
      `/api/orders/compliance_report/binary/${orderId(12)}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const doc = await loadPdf(Buffer.from(response.json().pdf_content, 'base64'));
    expect(doc.getSubject()).toContain('Shipped within the ship window FAIL');
  });
});
