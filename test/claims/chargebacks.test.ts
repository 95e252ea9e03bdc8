import { describe, expect, it } from 'vitest';
import { chargebackPageSchema, type ChargebackPage } from '../../src/shared/claims';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { orderId } from '../orders/read-fixtures';
import {
  chargebackUuid,
  claimsBundle,
  seedChargeback,
  startClaimsService,
  type ClaimUser,
} from './fixtures';
import { claimsServiceForFile, getWithoutTable, listGetter } from './list-support';

const claims = claimsServiceForFile();
const get = listGetter(claims, '/api/v1/chargebacks');

async function page(user: ClaimUser, query = ''): Promise<ChargebackPage> {
  const response = await get(user, query);
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  expect(Object.keys(body).sort()).toEqual(['data', 'message']);
  expect(body.message).toBe('Chargebacks retrieved successfully');
  expect(Object.keys(body.data).sort()).toEqual(['items', 'page', 'page_size', 'total_count']);
  return chargebackPageSchema.parse(body.data);
}
/** Chargeback numbers (1-7) of a page, in order. */
const numbers = (p: ChargebackPage) => p.items.map((item) => Number(item.id.slice(-2)));
const listed = async (user: ClaimUser, query = '') => numbers(await page(user, query));

describe('GET /api/v1/chargebacks: order, fields, defaults', () => {
  it('lists newest first by chargeback date, then upload time, with the defaults page 1 and 50', async () => {
    const all = await page('admin@a.test');
    expect(numbers(all)).toEqual([5, 6, 1, 3, 2, 7, 4]);
    expect(all).toMatchObject({ page: 1, page_size: 50, total_count: 7 });
  });

  it('answers every field of the interface, money in dollars', async () => {
    const all = await page('admin@a.test');
    const first = all.items.find((item) => item.id === chargebackUuid(1))!;
    expect(first).toEqual({
      id: chargebackUuid(1),
      brand_id: id('b', 1),
      chargeback_id: 'CB-101',
      po_number: 'PO-1001',
      matched_orders: [{ order_id: orderId(1), picksheet_code: 'PS-1001' }],
      retailer_id: id('r', 1),
      retailer: 'Retailer One',
      amount: 101.25,
      amount_won_back: 0,
      retailer_chargeback_code: 'RC1',
      category: 'Late shipment',
      description: 'Chargeback 1',
      chargeback_date: '2026-03-01',
      uploaded_at: '2026-03-02T01:00:00.000Z',
      dispute_deadline: '2026-03-20',
      dispute_status: 'Pending Review',
      is_expired: false,
      closed: false,
    });
    expect(all.items.find((item) => item.id === chargebackUuid(4))).toMatchObject({
      amount: 80,
      amount_won_back: 80,
    });
  });

  it('pages: page_size 2 cuts pages in the same order; a page past the end is empty with the total', async () => {
    expect(await listed('admin@a.test', 'page_size=2')).toEqual([5, 6]);
    expect(await listed('admin@a.test', 'page_size=2&page=2')).toEqual([1, 3]);
    expect(await listed('admin@a.test', 'page_size=2&page=4')).toEqual([4]);
    const past = await page('admin@a.test', 'page_size=2&page=5');
    expect(past).toMatchObject({ items: [], total_count: 7, page: 5, page_size: 2 });
    expect(await listed('admin@a.test', 'page_size=1')).toEqual([5]);
    expect((await page('admin@a.test', 'page_size=100')).page_size).toBe(100);
    // Blank values are the defaults (an empty form field).
    expect(await page('admin@a.test', 'page=&page_size=')).toMatchObject({
      page: 1,
      page_size: 50,
    });
  });
});

describe('filters', () => {
  it('retailer_id alone', async () => {
    expect(await listed('admin@a.test', `retailer_id=${id('r', 3)}`)).toEqual([3, 4]);
    expect(await listed('admin@a.test', `retailer_id=${id('r', 2)}`)).toEqual([6, 7]);
    // Ids are compared in lower case.
    expect(await listed('admin@a.test', `retailer_id=${id('r', 3).toUpperCase()}`)).toEqual([3, 4]);
  });

  it('po_number alone: exact match', async () => {
    expect(await listed('admin@a.test', 'po_number=PO-1001')).toEqual([1, 3]);
    expect(await listed('admin@a.test', 'po_number=PO-1002')).toEqual([6, 2]);
    expect(await listed('admin@a.test', 'po_number=PO-100')).toEqual([]);
    expect(await listed('admin@a.test', 'po_number=po-1001')).toEqual([]);
  });

  it('chargeback_id alone: several chargebacks may share a number', async () => {
    expect(await listed('admin@a.test', 'chargeback_id=CB-SHARED')).toEqual([3, 2]);
    expect(await listed('admin@a.test', 'chargeback_id=CB-101')).toEqual([1]);
  });

  it('dispute_status alone: one or more, comma-separated, any letter case', async () => {
    expect(await listed('admin@a.test', 'dispute_status=Won')).toEqual([4]);
    expect(await listed('admin@a.test', 'dispute_status=won,LOST')).toEqual([6, 4]);
    expect(
      await listed(
        'admin@a.test',
        `dispute_status=${encodeURIComponent('Pending Review, Expired')}`,
      ),
    ).toEqual([1, 7]);
  });

  it('settled alone: true for closed chargebacks, false for open ones', async () => {
    expect(await listed('admin@a.test', 'settled=true')).toEqual([6, 2, 7, 4]);
    // Not Disputed (5) is the first state of a new deduction: open, it needs action.
    expect(await listed('admin@a.test', 'settled=false')).toEqual([5, 1, 3]);
    expect(await listed('admin@a.test', 'settled=TRUE')).toEqual([6, 2, 7, 4]);
  });

  it('start_date: issued on or after (inclusive)', async () => {
    expect(await listed('admin@a.test', 'start_date=2026-03-01')).toEqual([5, 6, 1]);
    expect(await listed('admin@a.test', 'start_date=2026-03-02')).toEqual([5, 6]);
    expect(await listed('admin@a.test', 'start_date=2026-03-15')).toEqual([5]);
    expect(await listed('admin@a.test', 'start_date=2026-03-16')).toEqual([]);
  });

  it('end_date: issued on or before (inclusive)', async () => {
    expect(await listed('admin@a.test', 'end_date=2026-02-15')).toEqual([3, 2, 7, 4]);
    expect(await listed('admin@a.test', 'end_date=2026-02-14')).toEqual([7, 4]);
    expect(await listed('admin@a.test', 'end_date=2026-01-31')).toEqual([4]);
    expect(await listed('admin@a.test', 'end_date=2026-01-30')).toEqual([]);
  });

  it('both date bounds: one day, and an empty range when start is after end', async () => {
    expect(await listed('admin@a.test', 'start_date=2026-02-15&end_date=2026-02-15')).toEqual([
      3, 2,
    ]);
    expect(await listed('admin@a.test', 'start_date=2026-02-16&end_date=2026-02-15')).toEqual([]);
  });

  it('combined filters narrow together, and the total counts the filtered rows', async () => {
    const combined = await page(
      'admin@a.test',
      `retailer_id=${id('r', 1)}&settled=false&start_date=2026-02-01`,
    );
    expect(numbers(combined)).toEqual([5, 1]);
    expect(combined.total_count).toBe(2);
    expect(await listed('admin@a.test', 'chargeback_id=CB-SHARED&po_number=PO-1002')).toEqual([2]);
    expect(
      await listed(
        'admin@a.test',
        'dispute_status=Won,Lost,Expired&end_date=2026-02-28&settled=true',
      ),
    ).toEqual([7, 4]);
    expect(
      (await page('admin@a.test', `retailer_id=${id('r', 2)}&settled=true&page_size=1&page=2`))
        .items.length,
    ).toBe(1);
  });
});

describe('is_expired, closed and matched_orders', () => {
  it('is_expired: deadline before today for an open chargeback (Not Disputed included), or Expired; never once Won or Lost', async () => {
    const all = await page('admin@a.test');
    const state = Object.fromEntries(
      all.items.map((item) => [Number(item.id.slice(-2)), [item.is_expired, item.closed]]),
    );
    expect(state).toEqual({
      1: [false, false], // deadline 03-20
      2: [true, true], // Ready to Dispute, deadline 03-14 (yesterday)
      3: [false, false], // deadline today
      4: [false, true], // Won after its deadline
      5: [false, false], // Not Disputed, no deadline: still open
      6: [false, true], // Lost
      7: [true, true], // Expired
    });
  });

  it('expires with the service clock: the day after its deadline', async () => {
    const fresh = await startClaimsService();
    try {
      const stateOf = async (n: number) => {
        const response = await fresh.svc.app.inject({
          method: 'GET',
          url: '/api/v1/chargebacks?chargeback_id=CB-101',
          // Tokens live an hour: sign in again at the new time.
          headers: { authorization: await fresh.svc.login('admin@a.test') },
        });
        const item = response
          .json()
          .data.items.find((i: { id: string }) => i.id === chargebackUuid(n));
        return [item.is_expired, item.closed];
      };
      fresh.advance(5 * 86_400_000); // 03-20: the deadline day is still open
      expect(await stateOf(1)).toEqual([false, false]);
      fresh.advance(86_400_000); // 03-21
      expect(await stateOf(1)).toEqual([true, true]);
    } finally {
      await fresh.svc.close();
    }
  });

  it('matched_orders: visible orders with the same brand, retailer and PO number', async () => {
    const matched = async (user: ClaimUser) =>
      Object.fromEntries(
        (await page(user)).items.map((item) => [
          Number(item.id.slice(-2)),
          item.matched_orders.map((order) => order.picksheet_code),
        ]),
      );
    // Admin sees Alpha and Bravo: order 1 (PO-1001) and order 2 (brand 2, PO-1002).
    expect(await matched('admin@a.test')).toEqual({
      1: ['PS-1001'],
      2: [], // PO-1002 is brand 2's order, not brand 1's
      3: [], // PO-1001 at retailer 3: order 1 is retailer 1's
      4: [], // order 3 is at Charlie DC, which admin does not see
      5: [], // no PO
      6: ['PS-1002'],
      7: [],
    });
    // Brand 1's credentials at all three facilities: orders 1 and 3.
    expect(await matched('brand1@a.test')).toEqual({
      1: ['PS-1001'],
      2: [],
      3: [],
      4: ['PS-1003'],
      5: [],
    });
    // Brand 1 at Charlie DC only: the same chargebacks, only Charlie's order matches.
    expect(await matched('charlie1@b.test')).toEqual({
      1: [],
      2: [],
      3: [],
      4: ['PS-1003'],
      5: [],
    });
  });
});

describe('tenancy', () => {
  it('a user sees the chargebacks of the brands working at its facilities, its own brand only for brand credentials', async () => {
    expect(await listed('brand1@a.test')).toEqual([5, 1, 3, 2, 4]);
    // Another facility (another organisation) of the same brand: the same chargebacks.
    expect(await listed('charlie1@b.test')).toEqual([5, 1, 3, 2, 4]);
    expect(await listed('brand2@b.test')).toEqual([6, 7]);
    expect(await listed('viewer@a.test')).toEqual([5, 6, 1, 3, 2, 7, 4]);
    // Bravo DC has no brand working there: nothing, not an error.
    expect(await page('bravo@a.test')).toMatchObject({ items: [], total_count: 0 });
  });

  it("another brand's chargebacks never appear, whatever the filter names", async () => {
    expect(await listed('brand2@b.test', 'chargeback_id=CB-101')).toEqual([]);
    expect(await listed('brand2@b.test', 'po_number=PO-1001')).toEqual([]);
    expect(await listed('brand1@a.test', 'dispute_status=Lost,Expired')).toEqual([]);
  });
});

describe('Retailer not found', () => {
  it('404 for a retailer no visible brand is or was associated with, and for unknown ids', async () => {
    for (const [user, retailer] of [
      ['brand1@a.test', id('r', 2)], // brand 2's retailer only
      ['brand2@b.test', id('r', 1)],
      ['brand2@b.test', id('r', 3)],
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
    // A retailer of a visible brand with nothing matching is an empty page, not a 404.
    expect(await listed('admin@a.test', `retailer_id=${id('r', 2)}&settled=false`)).toEqual([]);
  });

  it('a retailer the brand was associated with (a chargeback, no connection) is accepted', async () => {
    const bundle = claimsBundle();
    const retailer4 = '0e000000-0000-4000-8000-000000000004';
    const fresh = await startClaimsService({
      seed: {
        ...bundle,
        retailers: [...bundle.retailers, { retailer_id: retailer4, name: 'Retailer Four' }],
        chargebacks: [
          ...bundle.chargebacks,
          seedChargeback(8, { retailer_id: retailer4, chargeback_id: 'OLD-1' }),
        ],
      },
    });
    try {
      const response = await fresh.svc.app.inject({
        method: 'GET',
        url: `/api/v1/chargebacks?retailer_id=${retailer4}`,
        headers: { authorization: fresh.tokens['brand1@a.test'] },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(
        response.json().data.items.map((i: { chargeback_id: string }) => i.chargeback_id),
      ).toEqual(['OLD-1']);
      const other = await fresh.svc.app.inject({
        method: 'GET',
        url: `/api/v1/chargebacks?retailer_id=${retailer4}`,
        headers: { authorization: fresh.tokens['brand2@b.test'] },
      });
      expectError(other, 404, 'NOT_FOUND', 'Retailer not found');
    } finally {
      await fresh.svc.close();
    }
  });
});

describe('errors', () => {
  it.each([
    ['start_date=2026-3-1', 'Invalid date for start_date. Expected YYYY-MM-DD'],
    ['start_date=2026-02-30', 'Invalid date for start_date. Expected YYYY-MM-DD'],
    ['start_date=yesterday', 'Invalid date for start_date. Expected YYYY-MM-DD'],
    ['start_date=2026-03-01T00:00:00Z', 'Invalid date for start_date. Expected YYYY-MM-DD'],
    [
      'start_date=2026-03-01&start_date=2026-03-02',
      'Invalid date for start_date. Expected YYYY-MM-DD',
    ],
    ['end_date=20260301', 'Invalid date for end_date. Expected YYYY-MM-DD'],
    ['end_date=2026-13-01', 'Invalid date for end_date. Expected YYYY-MM-DD'],
    ['page=0', 'Invalid page. Expected an integer >= 1'],
    ['page=-1', 'Invalid page. Expected an integer >= 1'],
    ['page=1.5', 'Invalid page. Expected an integer >= 1'],
    ['page=two', 'Invalid page. Expected an integer >= 1'],
    ['page_size=0', 'Invalid page_size. Expected an integer from 1 to 100'],
    ['page_size=101', 'Invalid page_size. Expected an integer from 1 to 100'],
    ['page_size=ten', 'Invalid page_size. Expected an integer from 1 to 100'],
    ['retailer_id=nope', 'Invalid retailer_id. Expected a UUID'],
    ['settled=yes', 'Invalid settled. Expected true or false'],
    ['po_number=' + 'P'.repeat(201), 'Invalid po_number. Expected at most 200 characters'],
    [
      'dispute_status=Won,Bogus',
      "Invalid dispute_status: 'Bogus'. Allowed values: Won, Lost, Pending Review, Not Disputed, Ready to Dispute, Generating Proposal, Submitting, Submission Failed, Expired",
    ],
  ])('400 for %s', async (query, message) => {
    expectError(await get('admin@a.test', query), 400, 'INVALID_REQUEST', message);
  });

  it('401 Unauthorized without a token or with a bad one', async () => {
    expectError(await get(null), 401, 'UNAUTHORIZED', 'Unauthorized');
    const bad = await claims.svc.app.inject({
      method: 'GET',
      url: '/api/v1/chargebacks',
      headers: { authorization: 'Bearer not.a.token' },
    });
    expectError(bad, 401, 'UNAUTHORIZED', 'Unauthorized');
  });

  it('500 Error fetching chargebacks when the store fails', async () => {
    const response = await getWithoutTable('chargebacks', '/api/v1/chargebacks');
    expectError(response, 500, 'INTERNAL_SERVER_ERROR', 'Error fetching chargebacks');
  });
});

describe('under load', () => {
  it('60 parallel requests with different pages and filters each get their own exact answer', async () => {
    const cases = Array.from({ length: 60 }, (_, i) => {
      const size = (i % 7) + 1;
      const pageNo = (i % 3) + 1;
      const expected = [5, 6, 1, 3, 2, 7, 4].slice((pageNo - 1) * size, pageNo * size);
      return { query: `page_size=${size}&page=${pageNo}`, expected };
    });
    const answers = await Promise.all(cases.map((c) => page('admin@a.test', c.query)));
    answers.forEach((answer, i) => {
      expect(numbers(answer)).toEqual(cases[i]!.expected);
      expect(answer.total_count).toBe(7);
    });
  });
});

describe('OpenAPI', () => {
  it('publishes the query parameter names of DESIGN.md for both endpoints, and the claim routes', async () => {
    const doc = (await claims.svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const names = (path: string) =>
      (doc.paths[path].get.parameters as { name: string; in: string; required: boolean }[])
        .filter((p) => p.in === 'query')
        .map((p) => (p.required ? `${p.name}!` : p.name));
    expect(names('/api/v1/chargebacks')).toEqual([
      'retailer_id',
      'po_number',
      'chargeback_id',
      'dispute_status',
      'settled',
      'start_date',
      'end_date',
      'page',
      'page_size',
    ]);
    expect(names('/api/v1/pos-reports')).toEqual([
      'retailer_id',
      'start_date',
      'end_date',
      'page',
      'page_size',
    ]);
    expect(doc.paths['/api/v1/chargebacks/import'].post).toBeDefined();
    expect(doc.paths['/api/v1/pos-reports/import'].post).toBeDefined();
    expect(doc.paths['/api/v1/chargebacks/{id}/dispute-packet'].get).toBeDefined();
  });
});
