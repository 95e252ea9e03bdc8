/**
 * Scope of the reports (billing invoices and invoice order details, analytics v1 and v2) on both
 * engines, over the report orders (test/billing/report-fixtures.ts: brand 1's orders 1, 2 and 5
 * at Alpha and 4 at Charlie; brand 2's order 3 at Alpha and 6 at Charlie). Each user holds an
 * admin grant and still counts and sees only the orders of its own facilities and brand:
 * - delta1@a.test: brand 1 at Delta (organisation 1, where brand 1 works), no orders there;
 * - charlie1@b.test: brand 1 at Charlie (organisation 2): order 4 only;
 * - alpha2@a.test: brand 2 at Alpha, beside brand 1's orders: order 3 only.
 */
import { expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { brandOnePrices, orderId, reportOrders } from '../billing/report-fixtures';
import { id, ordersBundle } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { signedInService } from '../helpers/signed-in';
import { withOutsiders } from './support';

const USERS = ['delta1@a.test', 'charlie1@b.test', 'alpha2@a.test'] as const;
type User = (typeof USERS)[number];

function bundle() {
  return {
    ...withOutsiders(ordersBundle()),
    orders: reportOrders(),
    billing: [brandOnePrices()],
  };
}

/** What each user may see: its orders, its facility and one it may not see. */
const EXPECTED: Record<User, { orders: number[]; own: string; notSeen: string; brands: string[] }> =
  {
    'delta1@a.test': { orders: [], own: id('f', 4), notSeen: id('f', 1), brands: [id('b', 1)] },
    'charlie1@b.test': { orders: [4], own: id('f', 3), notSeen: id('f', 1), brands: [id('b', 1)] },
    'alpha2@a.test': { orders: [3], own: id('f', 1), notSeen: id('f', 3), brands: [id('b', 2)] },
  };

interface Invoice {
  brands: { brand_id: string; line_items: { metric: string; count: number }[] }[];
}

describeEngines('scope: billing and analytics', (engine) => {
  const api = signedInService(USERS, () => ({ seed: bundle(), engine }));
  const dataOf = async <T>(user: User, url: string) => {
    const response = await api.get(user, url);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: T }).data;
  };
  const ordersCounted = (invoice: Invoice) =>
    invoice.brands.reduce(
      (sum, brand) => sum + (brand.line_items.find((l) => l.metric === 'Orders')?.count ?? 0),
      0,
    );

  it.each(USERS)(
    '%s: invoices count only its own orders, whatever the filter names',
    async (user) => {
      const expected = EXPECTED[user];
      const invoice = await dataOf<Invoice>(user, '/api/v1/fintech/invoices');
      expect(invoice.brands.map((b) => b.brand_id)).toEqual(expected.brands);
      // Brand 2 has no prices: its orders are not counted in line items.
      expect(ordersCounted(invoice)).toBe(user === 'charlie1@b.test' ? 1 : 0);
      for (const query of [
        `?brand_id=${id('b', user === 'alpha2@a.test' ? 1 : 2)}`,
        `?retailer_id=${id('r', 1)}&transportation_method=FREIGHT`,
      ]) {
        expect(ordersCounted(await dataOf<Invoice>(user, `/api/v1/fintech/invoices${query}`))).toBe(
          0,
        );
      }
    },
  );

  it.each(USERS)('%s: invoice order details list only its own orders', async (user) => {
    type Page = { items: { order_id: string }[]; total_count: number };
    const url = '/api/v1/fintech/invoice-order-details';
    const page = await dataOf<Page>(user, url);
    expect(page.items.map((i) => i.order_id)).toEqual(EXPECTED[user].orders.map(orderId));
    expect(page.total_count).toBe(EXPECTED[user].orders.length);
    for (const n of [1, 2, 3, 4]) {
      if (EXPECTED[user].orders.includes(n)) continue;
      expect(await dataOf<Page>(user, `${url}?order_id=${orderId(n)}`)).toMatchObject({
        items: [],
        total_count: 0,
      });
      expect(await dataOf<Page>(user, `${url}?picksheet_code=PS-${n}`)).toMatchObject({
        total_count: 0,
      });
    }
  });

  it.each(USERS)(
    '%s: analytics show only its own orders; another facility is 404',
    async (user) => {
      const expected = EXPECTED[user];
      type Row = { order_id: string; order_number: string };
      const v2 = await dataOf<Row[]>(user, `/api/v2/orders/analytics/table/${expected.own}`);
      expect(v2.map((r) => r.order_id)).toEqual(expected.orders.map(orderId));
      for (const n of [1, 3, 4, 6]) {
        if (expected.orders.includes(n)) continue;
        const one = `/api/v2/orders/analytics/table/${expected.own}?order_id=${orderId(n)}`;
        expect(await dataOf<Row[]>(user, one)).toEqual([]);
      }
      expectError(
        await api.get(user, `/api/v2/orders/analytics/table/${expected.notSeen}`),
        404,
        'NOT_FOUND',
        'Facility not found',
      );
      const v1 = await dataOf<Row[]>(user, '/api/v1/orders/analytics/table');
      expect(v1.map((r) => r.order_number)).toEqual(expected.orders.map((n) => `PS-${n}`));
    },
  );
});
