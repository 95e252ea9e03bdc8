import { describe, expect, it } from 'vitest';
import { posPageSchema, type PosPage } from '../../src/shared/claims';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { posUuid, type ClaimUser } from './fixtures';
import { claimsServiceForFile, getWithoutTable, listGetter } from './list-support';

const claims = claimsServiceForFile();
const get = listGetter(claims, '/api/v1/pos-reports');

async function page(user: ClaimUser, query = ''): Promise<PosPage> {
  const response = await get(user, query);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(['data', 'message']);
  expect(body.message).toBe('POS data retrieved successfully');
  return posPageSchema.parse(body.data);
}
/** Fixture rows are told apart by units sold (10 x their number). */
const rows = (p: PosPage) => p.items.map((item) => item.units_sold / 10);
const listed = async (user: ClaimUser, query = '') => rows(await page(user, query));

describe('GET /api/v1/pos-reports', () => {
  it('sorts by date, newest period first (then SKU), with the defaults page 1 and 50', async () => {
    const all = await page('admin@a.test');
    expect(rows(all)).toEqual([4, 3, 5, 2, 6, 1]);
    expect(all).toMatchObject({ page: 1, page_size: 50, total_count: 6 });
  });

  it('answers every field of the interface; absent derived figures are computed', async () => {
    const first = (await page('admin@a.test')).items.find((item) => item.id === posUuid(1));
    expect(first).toEqual({
      id: posUuid(1),
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      sku: 'SKU-A',
      retailer: 'Retailer One',
      location: 'Store 1',
      start_date: '2026-02-01',
      end_date: '2026-02-07',
      units_sold: 10,
      revenue: 25,
      cogs: 10,
      returns: 1,
      net_units: 9,
      gross_margin: 15,
      margin_percent: 60,
      inventory_units: 100,
      inventory_cost: 400,
      damaged_inventory_units: 0,
      damaged_inventory_cost: 0,
      on_order_units: 0,
      on_order_cost: 0,
    });
  });

  it('pages, and caps page_size at 100', async () => {
    expect(await listed('admin@a.test', 'page_size=2&page=2')).toEqual([5, 2]);
    expect(await page('admin@a.test', 'page_size=2&page=4')).toMatchObject({
      items: [],
      total_count: 6,
    });
    expect((await page('admin@a.test', 'page_size=500')).page_size).toBe(100);
    expect((await page('admin@a.test', 'page_size=101')).page_size).toBe(100);
    expect((await page('admin@a.test', 'page_size=100')).page_size).toBe(100);
    expect(await listed('admin@a.test', 'page_size=1')).toEqual([4]);
  });

  it('start_date bounds the rows’ start dates from below (inclusive)', async () => {
    expect(await listed('admin@a.test', 'start_date=2026-02-15')).toEqual([4, 3, 5]);
    expect(await listed('admin@a.test', 'start_date=2026-02-16')).toEqual([4]);
    expect(await listed('admin@a.test', 'start_date=2026-02-22')).toEqual([4]);
    expect(await listed('admin@a.test', 'start_date=2026-02-23')).toEqual([]);
  });

  it('end_date bounds the rows’ end dates from above (inclusive)', async () => {
    expect(await listed('admin@a.test', 'end_date=2026-02-14')).toEqual([2, 6, 1]);
    expect(await listed('admin@a.test', 'end_date=2026-02-13')).toEqual([1]);
    expect(await listed('admin@a.test', 'end_date=2026-02-07')).toEqual([1]);
    expect(await listed('admin@a.test', 'end_date=2026-02-06')).toEqual([]);
  });

  it('both bounds keep the rows lying wholly inside; with the retailer filter too', async () => {
    expect(await listed('admin@a.test', 'start_date=2026-02-08&end_date=2026-02-14')).toEqual([
      2, 6,
    ]);
    // A row straddling a bound is left out.
    expect(await listed('admin@a.test', 'start_date=2026-02-09&end_date=2026-02-21')).toEqual([
      3, 5,
    ]);
    expect(await listed('admin@a.test', `retailer_id=${id('r', 1)}`)).toEqual([4, 3, 2, 1]);
    expect(
      await listed(
        'admin@a.test',
        `retailer_id=${id('r', 1)}&start_date=2026-02-08&end_date=2026-02-21`,
      ),
    ).toEqual([3, 2]);
    expect(await listed('admin@a.test', `retailer_id=${id('r', 3)}`)).toEqual([5]);
  });

  it('tenancy: brands working at the user’s facilities; brand credentials see their brand only', async () => {
    expect(await listed('brand1@a.test')).toEqual([4, 3, 5, 2, 1]);
    expect(await listed('charlie1@b.test')).toEqual([4, 3, 5, 2, 1]);
    expect(await listed('brand2@b.test')).toEqual([6]);
    expect(await listed('viewer@a.test')).toEqual([4, 3, 5, 2, 6, 1]);
    expect(await page('bravo@a.test')).toMatchObject({ items: [], total_count: 0 });
  });

  it('404 Retailer not found for a retailer no visible brand deals with', async () => {
    for (const [user, retailer] of [
      ['brand1@a.test', id('r', 2)],
      ['brand2@b.test', id('r', 1)],
      ['bravo@a.test', id('r', 1)],
      ['admin@a.test', '0e000000-0000-4000-8000-000000000099'],
    ] as const) {
      expectError(
        await get(user, `retailer_id=${retailer}`),
        404,
        'NOT_FOUND',
        'Retailer not found',
      );
    }
  });

  it.each([
    ['start_date=2026-2-1', 'Invalid date format: start_date must be YYYY-MM-DD'],
    ['start_date=2026-02-29', 'Invalid date format: start_date must be YYYY-MM-DD'],
    ['start_date=a&start_date=b', 'Invalid date format: start_date must be YYYY-MM-DD'],
    ['end_date=02/14/2026', 'Invalid date format: end_date must be YYYY-MM-DD'],
    ['page=0', 'Invalid query parameter: page must be an integer >= 1'],
    ['page=x', 'Invalid query parameter: page must be an integer >= 1'],
    ['page_size=0', 'Invalid query parameter: page_size must be an integer >= 1'],
    ['page_size=-5', 'Invalid query parameter: page_size must be an integer >= 1'],
    ['retailer_id=123', 'Invalid query parameter: retailer_id must be a UUID'],
  ])('400 for %s', async (query, message) => {
    expectError(await get('admin@a.test', query), 400, 'INVALID_REQUEST', message);
  });

  it('401 with the endpoint’s message', async () => {
    expectError(
      await get(null),
      401,
      'UNAUTHORIZED',
      'User is not authorized to access this resource',
    );
  });

  it('500 Error fetching POS data when the store fails', async () => {
    const response = await getWithoutTable('pos_rows', '/api/v1/pos-reports');
    expectError(response, 500, 'INTERNAL_SERVER_ERROR', 'Error fetching POS data');
  });

  it('60 parallel requests, some over the cap, each get their own page', async () => {
    const order = [4, 3, 5, 2, 6, 1];
    const cases = Array.from({ length: 60 }, (_, i) => ({
      size: i % 2 === 0 ? (i % 5) + 1 : 150 + i,
      pageNo: (i % 3) + 1,
    }));
    const answers = await Promise.all(
      cases.map((c) => page('admin@a.test', `page_size=${c.size}&page=${c.pageNo}`)),
    );
    answers.forEach((answer, i) => {
      const size = Math.min(cases[i]!.size, 100);
      expect(answer.page_size).toBe(size);
      expect(rows(answer)).toEqual(
        order.slice((cases[i]!.pageNo - 1) * size, cases[i]!.pageNo * size),
      );
    });
  });
});
