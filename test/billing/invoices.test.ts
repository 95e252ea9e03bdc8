import { describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';
import { order, reportsBundle } from './report-fixtures';

const USERS = ['admin@a.test', 'brand1@a.test', 'brand2@b.test', 'viewer@a.test'] as const;
type User = (typeof USERS)[number];

/** The report orders plus two brand-1 orders at Alpha with no work done: one Open, one Picking. */
function invoicesBundle() {
  const bundle = reportsBundle();
  const unworked = [
    order(7, { status: 'Open', created_at: '2026-03-02T00:00:00.000Z' }),
    order(8, { status: 'Picking', created_at: '2026-03-03T00:00:00.000Z' }),
  ];
  return { ...bundle, orders: [...bundle.orders, ...unworked] };
}

const api = signedInService(USERS, () => ({ seed: invoicesBundle() }));

interface Line {
  metric: string;
  count: number;
  price_dollars: number;
  unit_price_dollars: number;
}
interface BrandInvoice {
  brand_id: string;
  brand_name: string;
  line_items: Line[];
  action_items: (Line & { type: string })[];
  total_price_dollars: number;
}
interface InvoiceData {
  brands: BrandInvoice[];
  total_price_dollars: number;
}

const invoices = (user: User | null, query = '') =>
  api.get(user, `/api/v1/fintech/invoices${query}`);
const dataOf = async (user: User, query = '') => {
  const response = await invoices(user, query);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json() as { message: string; data: InvoiceData };
  expect(body.message).toBe('Invoices retrieved successfully');
  return body.data;
};
/** The Orders count of brand 1 (every brand-1 order the filters keep, priced at 0.10). */
const brandOneOrders = (data: InvoiceData) =>
  data.brands.find((b) => b.brand_id === id('b', 1))?.line_items.find((l) => l.metric === 'Orders')
    ?.count;

describe('invoices', () => {
  it('bills every priced metric and action, summed exactly in cents', async () => {
    const data = await dataOf('admin@a.test');
    // admin@a.test sees Alpha and Bravo: brand 1 orders 1 and 2 (5 is cancelled), brand 2 order 3.
    expect(data.brands.map((b) => b.brand_name)).toEqual(['Brand One', 'Brand Two']);
    const [one, two] = data.brands;
    expect(one!.line_items).toEqual([
      { metric: 'Orders', count: 2, price_dollars: 0.2, unit_price_dollars: 0.1 },
      { metric: 'Cartons', count: 3, price_dollars: 0.6, unit_price_dollars: 0.2 },
      { metric: 'Labels Generated', count: 5, price_dollars: 0.35, unit_price_dollars: 0.07 },
      {
        metric: 'Carton Label Printed - GS1 Label',
        count: 3,
        price_dollars: 0.03,
        unit_price_dollars: 0.01,
      },
    ]);
    expect(one!.action_items).toEqual([
      {
        type: 'Carton Workflow',
        metric: 'Pack',
        count: 3,
        price_dollars: 0.3,
        unit_price_dollars: 0.1,
      },
      {
        type: 'Pallet Workflow',
        metric: 'Stretch Wrap',
        count: 1,
        price_dollars: 0.3,
        unit_price_dollars: 0.3,
      },
      { type: 'VAS', metric: 'Ticketing', count: 3, price_dollars: 0.6, unit_price_dollars: 0.2 },
    ]);
    // 0.2 + 0.6 + 0.35 + 0.03 + 0.3 + 0.3 + 0.6 in floating point is 2.3800000000000003.
    expect(one!.total_price_dollars).toBe(2.38);
    expect(two).toEqual({
      brand_id: id('b', 2),
      brand_name: 'Brand Two',
      line_items: [],
      action_items: [],
      total_price_dollars: 0,
    });
    expect(data.total_price_dollars).toBe(2.38);
  });

  it('bills fulfilled work only: with no dates, Open and Picking orders with no work carry no fee', async () => {
    // Orders 7 (Open) and 8 (Picking) are brand 1's at Alpha too, never packed nor shipped.
    expect(brandOneOrders(await dataOf('admin@a.test'))).toBe(2);
    expect(brandOneOrders(await dataOf('admin@a.test', `?retailer_id=${id('r', 1)}`))).toBe(1);
    expect(brandOneOrders(await dataOf('admin@a.test', '?asn_sent_to=2026-12-31'))).toBe(1);
  });

  it('filters by brand, retailer and transportation method, each alone and combined', async () => {
    const brand2 = await dataOf('admin@a.test', `?brand_id=${id('b', 2)}`);
    expect(brand2.brands.map((b) => b.brand_id)).toEqual([id('b', 2)]);
    expect(brandOneOrders(await dataOf('admin@a.test', `?retailer_id=${id('r', 2)}`))).toBe(1);
    expect(brandOneOrders(await dataOf('admin@a.test', `?retailer_id=${id('r', 1)}`))).toBe(1);
    expect(brandOneOrders(await dataOf('admin@a.test', '?transportation_method=PARCEL'))).toBe(1);
    expect(brandOneOrders(await dataOf('admin@a.test', '?transportation_method=freight'))).toBe(1);
    const combined = await dataOf(
      'admin@a.test',
      `?brand_id=${id('b', 1)}&retailer_id=${id('r', 2)}&transportation_method=FREIGHT`,
    );
    expect(combined.brands).toHaveLength(1);
    expect(brandOneOrders(combined)).toBe(0);
    expect(combined.total_price_dollars).toBe(0);
  });

  it('takes date bounds as inclusive whole UTC days, each bound alone', async () => {
    const orders = async (query: string) => brandOneOrders(await dataOf('admin@a.test', query));
    // Order 1: ASN 2026-03-02T23:59:59.999Z, packed 2026-03-01T00:00Z; order 2: packed 03-05, no ASN.
    expect(await orders('?asn_sent_to=2026-03-02')).toBe(1);
    expect(await orders('?asn_sent_to=2026-03-01')).toBe(0);
    expect(await orders('?asn_sent_from=2026-03-02')).toBe(1);
    expect(await orders('?asn_sent_from=2026-03-03')).toBe(0);
    expect(await orders('?packed_from=2026-03-01')).toBe(2);
    expect(await orders('?packed_from=2026-03-02')).toBe(1);
    expect(await orders('?packed_to=2026-03-01')).toBe(1);
    expect(await orders('?packed_to=2026-02-28')).toBe(0);
    expect(await orders('?packed_from=2026-03-05&packed_to=2026-03-05')).toBe(1);
    expect(await orders('?packed_from=2026-03-01&asn_sent_to=2026-03-02')).toBe(1);
    expect(await orders('?packed_from=2026-03-02&asn_sent_to=2026-03-02')).toBe(0);
  });

  it('answers bad filters with the interface messages', async () => {
    expectError(
      await invoices('admin@a.test', '?transportation_method=TRUCK'),
      400,
      'INVALID_REQUEST',
      "Invalid transportation_method: 'TRUCK'. Allowed values: FREIGHT, PARCEL",
    );
    for (const name of ['asn_sent_from', 'asn_sent_to', 'packed_from', 'packed_to']) {
      expectError(
        await invoices('admin@a.test', `?${name}=2026-02-30`),
        400,
        'INVALID_REQUEST',
        `Invalid date format: ${name} must be a date YYYY-MM-DD, got '2026-02-30'`,
      );
    }
    expectError(
      await invoices('admin@a.test', '?packed_to=03/01/2026'),
      400,
      'INVALID_REQUEST',
      /^Invalid date format: /,
    );
    expectError(
      await invoices('admin@a.test', '?brand_id=nope'),
      400,
      'INVALID_REQUEST',
      'Invalid query parameter: brand_id must be a UUID',
    );
    expectError(
      await invoices('admin@a.test', '?retailer_id=nope'),
      400,
      'INVALID_REQUEST',
      'Invalid query parameter: retailer_id must be a UUID',
    );
    expectError(await invoices(null), 401, 'UNAUTHORIZED', 'Unauthorized');
  });

  it("counts only what the user sees: a grant elsewhere or another brand's credentials add nothing", async () => {
    // brand1@a.test sees Alpha, Bravo and Charlie for brand 1: orders 1, 2 and 4.
    const brand1 = await dataOf('brand1@a.test');
    expect(brand1.brands.map((b) => b.brand_id)).toEqual([id('b', 1)]);
    expect(brandOneOrders(brand1)).toBe(3);
    // Another brand named in the filter is not there.
    expect((await dataOf('brand1@a.test', `?brand_id=${id('b', 2)}`)).brands).toEqual([]);
    // brand2@b.test sees brand 2 at Charlie only; brand 1's prices never show.
    const brand2 = await dataOf('brand2@b.test');
    expect(brand2.brands.map((b) => b.brand_id)).toEqual([id('b', 2)]);
    expect(brand2.total_price_dollars).toBe(0);
    // admin@a.test has a grant for brand 1 only at Alpha: Charlie's order 4 is not billed to it.
    expect(brandOneOrders(await dataOf('admin@a.test'))).toBe(2);
  });

  it('answers the same under 50 parallel requests', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => invoices('admin@a.test')));
    for (const response of responses) {
      expect((response.json() as { data: InvoiceData }).data.total_price_dollars).toBe(2.38);
    }
  });
});
