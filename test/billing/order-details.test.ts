import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { baseBundle, id } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';
import { brandOnePrices, order, orderId, reportOrders } from './report-fixtures';

const USERS = ['admin@a.test', 'brand1@a.test', 'brand2@b.test'] as const;
type User = (typeof USERS)[number];

/** Brand 1's Open order at Alpha, newest of all, never packed nor shipped. */
const unworked = order(9, {
  status: 'Open',
  picksheet_code: 'PS-OPEN',
  created_at: '2026-03-09T00:00:00.000Z',
});

/** The report orders plus 120 open brand-2 orders at Alpha (older), for the page limits. */
function detailsBundle() {
  const extra = Array.from({ length: 120 }, (_, i) => ({
    id: orderId(100 + i),
    status: 'Packed',
    po_number: `PO-Y${i}`,
    picksheet_code: `PS-Y${String(i).padStart(3, '0')}`,
    brand_id: id('b', 2),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    items: [{ sku: 'SKU-Z', quantity: 1 }],
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    packed_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  }));
  // Order 6 packed, so brand 2 has billed work; an Open order with no work is not billed.
  const orders = reportOrders().map((o) =>
    o.id === orderId(6) ? { ...o, status: 'Packed', packed_at: '2026-03-07T10:00:00.000Z' } : o,
  );
  return { ...baseBundle(), orders: [...orders, ...extra, unworked], billing: [brandOnePrices()] };
}

const api = signedInService(USERS, () => ({ seed: detailsBundle() }));

interface Item {
  order_id: string;
  picksheet_code: string;
  brand: string;
  retailer: string;
  core: Record<string, number>;
  carton_actions: Record<string, number>;
  pallet_actions: Record<string, number>;
  vas_actions: Record<string, number>;
}
interface Page {
  items: Item[];
  total_count: number;
  page: number;
  page_size: number;
}

const details = (user: User | null, query = '') =>
  api.get(user, `/api/v1/fintech/invoice-order-details${query}`);
const pageOf = async (user: User, query = '') => {
  const response = await details(user, query);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { message: string; data: Page };
  expect(body.message).toBe('Invoice order details retrieved successfully');
  return body.data;
};

describe('invoice order details', () => {
  it('gives the counts of an order and its priced actions only', async () => {
    const data = await pageOf('admin@a.test', `?order_id=${orderId(1)}`);
    expect(data).toMatchObject({ total_count: 1, page: 1, page_size: 50 });
    expect(data.items).toEqual([
      {
        order_id: orderId(1),
        picksheet_code: 'PS-1',
        retailer: 'Retailer One',
        brand: 'Brand One',
        core: {
          pallets: 1,
          cartons: 2,
          units: 10,
          skus: 2,
          labels_generated: 4,
          pallet_label_qr_printed: 0,
          pallet_label_gs1_printed: 1,
          pallet_label_placard_printed: 0,
          carton_label_gs1_printed: 3,
          carton_label_qr_printed: 0,
          carton_label_parcel_printed: 0,
          vas_actions: 3,
          packing_slips: 1,
        },
        carton_actions: { Pack: 2 },
        pallet_actions: { 'Stretch Wrap': 1 },
        vas_actions: { Ticketing: 3 },
      },
    ]);
  });

  it('includes orders of brands without prices, with empty action maps', async () => {
    const data = await pageOf('admin@a.test', '?picksheet_code=PS-3');
    expect(data.items).toHaveLength(1);
    expect(data.items[0]).toMatchObject({
      order_id: orderId(3),
      brand: 'Brand Two',
      carton_actions: {},
      pallet_actions: {},
      vas_actions: {},
    });
    expect(data.items[0]!.core).toMatchObject({ cartons: 1, units: 5, vas_actions: 2 });
    // A priced action not done on the order counts 0.
    const two = await pageOf('admin@a.test', `?order_id=${orderId(2)}`);
    expect(two.items[0]).toMatchObject({
      carton_actions: { Pack: 1 },
      pallet_actions: { 'Stretch Wrap': 0 },
      vas_actions: { Ticketing: 0 },
    });
  });

  it('lists fulfilled work only: an Open order with no work is not there', async () => {
    expect((await pageOf('admin@a.test', '?picksheet_code=PS-OPEN')).items).toEqual([]);
    expect((await pageOf('admin@a.test', `?order_id=${orderId(9)}`)).total_count).toBe(0);
  });

  it('pages newest first: 50 by default, capped at 100', async () => {
    // admin@a.test: orders 1, 2, 3 and the 120 packed ones (5 is cancelled, 9 never worked): 123.
    const first = await pageOf('admin@a.test');
    expect(first.total_count).toBe(123);
    expect(first.items).toHaveLength(50);
    expect(first.items.slice(0, 4).map((i) => i.picksheet_code)).toEqual([
      'PS-2',
      'PS-3',
      'PS-1',
      'PS-Y119',
    ]);
    const capped = await pageOf('admin@a.test', '?page_size=500');
    expect(capped.page_size).toBe(100);
    expect(capped.items).toHaveLength(100);
    const last = await pageOf('admin@a.test', '?page=2&page_size=100');
    expect(last.items).toHaveLength(23);
    expect(last.items.at(-1)!.picksheet_code).toBe('PS-Y000');
    expect((await pageOf('admin@a.test', '?page=9')).items).toEqual([]);
  });

  it('keeps the cap under 50 parallel requests', async () => {
    const capped = await pageOf('admin@a.test', '?page_size=100');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        details('admin@a.test', `?page_size=${[101, 1000, 100][i % 3]}`),
      ),
    );
    for (const response of responses) {
      const { data } = response.json() as { data: Page };
      expect(data.items).toHaveLength(100);
      expect(data.page_size).toBe(100);
      expect(data).toEqual(capped);
    }
  });

  it('applies the invoice filters, alone and combined', async () => {
    const ids = async (query: string) =>
      (await pageOf('brand1@a.test', query)).items.map((i) => i.order_id);
    expect(await ids('')).toEqual([orderId(2), orderId(4), orderId(1)]);
    expect(await ids(`?retailer_id=${id('r', 3)}`)).toEqual([orderId(4)]);
    expect(await ids('?transportation_method=PARCEL')).toEqual([orderId(2)]);
    expect(await ids('?asn_sent_from=2026-03-03')).toEqual([orderId(4)]);
    expect(await ids('?asn_sent_to=2026-03-02')).toEqual([orderId(1)]);
    expect(await ids('?packed_from=2026-03-02&packed_to=2026-03-05')).toEqual([
      orderId(2),
      orderId(4),
    ]);
    expect(await ids('?picksheet_code=PS-4&transportation_method=FREIGHT')).toEqual([orderId(4)]);
    expect(await ids(`?order_id=${orderId(4)}&retailer_id=${id('r', 1)}`)).toEqual([]);
  });

  it("never shows another tenant's orders", async () => {
    expect((await pageOf('brand2@b.test')).items.map((i) => i.order_id)).toEqual([orderId(6)]);
    expect((await pageOf('brand2@b.test', `?order_id=${orderId(1)}`)).items).toEqual([]);
    // admin@a.test's grant for brand 1 at Alpha does not reach Charlie's order 4.
    expect((await pageOf('admin@a.test', `?order_id=${orderId(4)}`)).total_count).toBe(0);
  });

  it('answers bad input with the interface messages', async () => {
    expectError(
      await details('admin@a.test', '?asn_sent_from=yesterday'),
      400,
      'INVALID_REQUEST',
      "Invalid date format: asn_sent_from must be a date YYYY-MM-DD, got 'yesterday'",
    );
    expectError(
      await details('admin@a.test', '?transportation_method=ship'),
      400,
      'INVALID_REQUEST',
      "Invalid transportation_method: 'ship'. Allowed values: FREIGHT, PARCEL",
    );
    expectError(
      await details('admin@a.test', '?order_id=12'),
      400,
      'INVALID_REQUEST',
      'Invalid query parameter: order_id must be a UUID',
    );
    for (const [name, value] of [
      ['page', '0'],
      ['page_size', '0'],
      ['page_size', '2.5'],
    ]) {
      expectError(
        await details('admin@a.test', `?${name}=${value}`),
        400,
        'INVALID_REQUEST',
        `Invalid query parameter: ${name} must be a whole number from 1`,
      );
    }
    expectError(await details(null), 401, 'UNAUTHORIZED', 'Unauthorized');
  });
});
