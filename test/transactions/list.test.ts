import { describe, expect, it } from 'vitest';
import { forgetTransactionPages } from '../../src/server/transactions/page-cache';
import { transactionPageSchema, type TransactionPage } from '../../src/shared/transactions';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';
import { orderId } from '../orders/read-fixtures';
import { bulkAtDelta, transactionsBundle, txId } from './fixtures';
import { describeEngines } from '../helpers/engines';

const USERS = [
  'admin@a.test',
  'brand1@a.test',
  'brand2@b.test',
  'viewer@a.test',
  'ops@a.test',
  'charlie1@b.test',
] as const;
type User = (typeof USERS)[number];

describeEngines('the transaction log', (engine) => {
  const api = signedInService(USERS, () => ({
    seed: transactionsBundle(bulkAtDelta(120)),
    engine,
  }));

  const get = (user: User, query = '') =>
    api.get(user, `/api/transactions${query ? `?${query}` : ''}`);

  async function page(user: User, query = ''): Promise<TransactionPage> {
    const response = await get(user, query);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body)).toEqual(['data']);
    return transactionPageSchema.parse(body.data);
  }
  /** Transaction numbers (txId(n) → n) of a page, in order. */
  const nums = (p: TransactionPage) =>
    p.transactions.map((t) => Number(t.transaction_id.slice(-12)));
  const rows = async (user: User, query = '') => nums(await page(user, query));

  /** What admin@a.test sees (Alpha, Bravo; brand-level rows of brands 1 and 2), newest first. */
  const ADMIN_ALL = [4, 3, 9, 2, 1, 7, 10];

  describe('GET /api/transactions: defaults and shape', () => {
    it('lists the rows the user sees, newest first, page 1 of 50', async () => {
      const p = await page('admin@a.test');
      expect(nums(p)).toEqual(ADMIN_ALL);
      expect(p).toMatchObject({ page: 1, page_size: 50, total_count: ADMIN_ALL.length });
    });

    it('shows the phrase in action_type, the filter code in action_type_label, JSON parsed', async () => {
      const [first] = (await page('admin@a.test', `transaction_id=${txId(1)}`)).transactions;
      expect(first).toEqual({
        transaction_id: txId(1),
        action_type: 'Create order',
        action_type_label: 'CREATE_ORDERS_FROM',
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        facility_id: id('f', 1),
        order_id: orderId(1),
        picksheet_code: 'PS-1001',
        po_number: 'PO-1001',
        carton_id: null,
        load_id: null,
        correlation_id: 'corr-alpha-001',
        duration_ms: 11,
        error_message: null,
        execution_status: 'SUCCESS',
        request_method: 'POST',
        request_url: '/api/v1/orders/create',
        request_payload: { picksheet_code: 'PS-1001', items: [{ sku: 'SKU-A', quantity: 4 }] },
        response_body: { message: 'Order created successfully' },
        response_status: 200,
        created_at: '2026-03-01T00:00:00.000Z',
        updated_at: '2026-03-01T00:00:00.000Z',
      });
    });

    it('answers times with milliseconds, {} for no response body, null for no payload', async () => {
      const [row] = (await page('admin@a.test', `transaction_id=${txId(3)}`)).transactions;
      expect(row!.created_at).toBe('2026-03-02T12:00:00.000Z');
      expect(row!.response_body).toEqual({});
      expect(row!.request_payload).toBeNull();
    });

    it('pages: page_size and page cut the same order; total_count stays', async () => {
      const first = await page('admin@a.test', 'page_size=3');
      const second = await page('admin@a.test', 'page_size=3&page=2');
      const third = await page('admin@a.test', 'page_size=3&page=3');
      const beyond = await page('admin@a.test', 'page_size=3&page=9');
      expect([...nums(first), ...nums(second), ...nums(third)]).toEqual(ADMIN_ALL);
      expect([first, second, third, beyond].map((p) => p.total_count)).toEqual([7, 7, 7, 7]);
      expect(beyond.transactions).toEqual([]);
      expect(beyond.page).toBe(9);
    });

    it('clamps page_size above 100 to 100', async () => {
      const p = await page('ops@a.test', 'page_size=500');
      expect(p.page_size).toBe(100);
      expect(p.transactions).toHaveLength(100);
      expect(p.total_count).toBe(120 + 9);
    });

    it('keeps the cap under 60 parallel requests of mixed page sizes', async () => {
      const capped = await page('ops@a.test', 'page_size=100');
      const sizes = ['101', '500', '1000', '100', '99999'];
      forgetTransactionPages(api.svc.ctx.db);
      const pages = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          page('ops@a.test', `page_size=${sizes[i % sizes.length]}`),
        ),
      );
      for (const p of pages) expect(p).toEqual(capped);
      expect(capped.transactions).toHaveLength(100);
      expect(capped.page_size).toBe(100);
    });

    it.each(['0', '-1', 'abc', '1.5', ''])('refuses page_size=%s and page=%s', async (value) => {
      expectError(
        await get('admin@a.test', `page_size=${value}`),
        400,
        'INVALID_REQUEST',
        'Invalid query parameter: page_size must be a positive integer',
      );
      expectError(
        await get('admin@a.test', `page=${value}`),
        400,
        'INVALID_REQUEST',
        'Invalid query parameter: page must be a positive integer',
      );
    });
  });

  describe('filters', () => {
    it.each([
      [`transaction_id=${txId(2)}`, [2]],
      [`transaction_id=${txId(2).toUpperCase()}`, [2]],
      [`order_id=${orderId(1)}`, [2, 1]],
      ['po_number=PO-1001', [2, 1]],
      ['po_number=PO-1002', [4]],
      ['po_number=NOPE', []],
      ['execution_status=FAILURE', [9, 2]],
      ['execution_status=SKIP', []],
      ['action_type=SEND_ASN', [2, 10]],
      ['action_type=SEND_INVENTORY_ADVICE', [7]],
      [`retailer_ids=${id('r', 2)}`, [3]],
      [`retailer_ids=${id('r', 2)},${id('r', 1)}`, [4, 3, 2, 1, 7, 10]],
      [`brand_ids=${id('b', 1)}`, [4, 2, 1, 7, 10]],
      [`brand_ids=${id('b', 2)}, ${id('b', 1)}`, [4, 3, 2, 1, 7, 10]],
      [`facility_ids=${id('f', 2)}`, [4]],
      [`facility_ids=${id('f', 1)},${id('f', 2)}`, [4, 3, 9, 2, 1, 10]],
      ['has_error=true', [3, 9, 2]],
      ['has_error=TRUE', [3, 9, 2]],
      ['has_error=False', [4, 1, 7, 10]],
      ['created_from=2026-03-02', [4, 3, 9]],
      ['created_to=2026-03-01', [2, 1, 7, 10]],
      ['created_from=2026-03-01&created_to=2026-03-01', [2, 1]],
      // A date-time counts as its UTC calendar day: the whole day is in.
      ['created_from=2026-03-01T23:00:00Z&created_to=2026-03-01T00:30:00Z', [2, 1]],
      // 01:00 at +05:00 is 20:00 UTC the day before.
      ['created_from=2026-03-02T01:00:00%2B05:00', [4, 3, 9, 2, 1]],
      ['created_to=2026-02-28', [7, 10]],
      ['created_from=2026-03-07', []],
    ])('%s', async (query, expected) => {
      const p = await page('admin@a.test', query);
      expect(nums(p)).toEqual(expected);
      expect(p.total_count).toBe(expected.length);
    });

    it('combines filters (all must match)', async () => {
      const check = async (query: string, expected: number[]) => {
        const p = await page('admin@a.test', query);
        expect(nums(p), query).toEqual(expected);
        expect(p.total_count, query).toBe(expected.length);
      };
      await check(`brand_ids=${id('b', 1)}&has_error=false&created_from=2026-03-01`, [4, 1]);
      await check(`facility_ids=${id('f', 1)}&execution_status=FAILURE&action_type=SEND_ASN`, [2]);
      await check(`order_id=${orderId(1)}&has_error=true`, [2]);
      await check(`po_number=PO-1001&action_type=CREATE_ORDERS_FROM`, [1]);
      await check(`retailer_ids=${id('r', 1)}&created_to=2026-02-28&search=asn.bigbox`, [10]);
      await check(`search=bigbox&execution_status=SUCCESS`, [10]);
      await check(`transaction_id=${txId(2)}&execution_status=SUCCESS`, []);
    });

    it('sorts by updated_at, execution_status and action_type, both directions', async () => {
      expect((await rows('admin@a.test', 'order_by=updated_at'))[0]).toBe(10);
      expect(await rows('admin@a.test', 'order_by=created_at&order_direction=asc')).toEqual(
        [...ADMIN_ALL].reverse(),
      );
      // Ties go by created_at, then id, in the same direction.
      expect(await rows('admin@a.test', 'order_by=execution_status&order_direction=asc')).toEqual([
        2, 9, 4, 3, 10, 7, 1,
      ]);
      expect(await rows('admin@a.test', 'order_by=action_type&order_direction=desc')).toEqual([
        3, 7, 2, 10, 4, 9, 1,
      ]);
    });

    it.each([
      'order_by=nonsense',
      'order_by=CREATED_AT&order_direction=sideways',
      'order_direction=DESC',
      'order_by=po_number&order_direction=up',
      'order_by=created_at&order_by=updated_at',
    ])('falls back to created_at desc without error: %s', async (query) => {
      expect(await rows('admin@a.test', query)).toEqual(ADMIN_ALL);
    });
  });

  describe('search', () => {
    it.each([
      ['transaction id part', '0000-4000-8000-000000000003', [3]],
      ['transaction id, upper case', txId(3).slice(-8).toUpperCase(), [3]],
      ['order id part', orderId(1).slice(-14), [2, 1]],
      ['correlation id', 'ALPHA-00', [1]],
      ['correlation id, mixed case', 'mixed-case', [10]],
      ['error message', 'bad gateway', [3]],
      ['error message, upper case', 'RETAILER GATEWAY', [2]],
      ['request url', 'northwind.example/inv', [3]],
      ['request url, shared', 'asn.bigbox', [2, 10]],
      ["order's picksheet code", 'ps-1001', [2, 1]],
      ["order's PO number", 'PO-1001', [2, 1]],
      ["order's PO number, part", 'o-1001', [2, 1]],
      ['three characters', 'xyz', []],
      ['quote and percent', '"a%"', []],
      // Literal on both engines (LIKE wildcards would find "0001" and "000000000010").
      ['underscore, literal', '0_1', []],
      ['percent, literal', '0%10', []],
      // As LIKE's escape character, \- would match corr-alpha-001.
      ['backslash, literal', 'corr\\-alpha', []],
      ['backslash at the end', 'alpha\\', []],
    ])('%s', async (_label, term, expected) => {
      const p = await page('admin@a.test', `search=${encodeURIComponent(term)}`);
      expect(nums(p)).toEqual(expected);
      expect(p.total_count).toBe(expected.length);
    });

    it('pages and sorts searched rows; a page past the end still has the total', async () => {
      const first = await page('admin@a.test', 'search=example&page_size=2');
      expect(nums(first)).toEqual([3, 2]);
      expect(first.total_count).toBe(3);
      const second = await page('admin@a.test', 'search=example&page_size=2&page=2');
      expect(nums(second)).toEqual([10]);
      const past = await page('admin@a.test', 'search=example&page_size=2&page=5');
      expect(past.transactions).toEqual([]);
      expect(past.total_count).toBe(3);
      expect(await rows('admin@a.test', 'search=example&order_by=execution_status')).toEqual([
        10, 3, 2,
      ]);
    });

    it('treats a blank search as none', async () => {
      expect(await rows('admin@a.test', 'search=%20%20')).toEqual(ADMIN_ALL);
    });

    it('refuses terms shorter than 3 characters (the index cannot serve them)', async () => {
      expectError(
        await get('admin@a.test', 'search=ab'),
        400,
        'INVALID_REQUEST',
        'Invalid query parameter: search must be at least 3 characters',
      );
    });
  });

  describe('visibility', () => {
    it.each([
      // Brand 1 only, at Alpha and Charlie; brand-level row 7 of brand 1.
      ['brand1@a.test', [5, 2, 1, 7, 10]],
      ['brand2@b.test', [6]],
      ['viewer@a.test', [3, 9, 2, 1, 7, 10]],
      ['charlie1@b.test', [5, 7]],
    ] as const)('%s sees only its rows', async (user, expected) => {
      const p = await page(user, 'page_size=100');
      expect(nums(p)).toEqual(expected);
      expect(p.total_count).toBe(expected.length);
    });

    it("never shows another tenant's row, by id, order, filter or search", async () => {
      const none = async (user: User, query: string) => {
        const p = await page(user, query);
        expect(p.transactions, `${user} ${query}`).toEqual([]);
        expect(p.total_count, `${user} ${query}`).toBe(0);
      };
      await none('admin@a.test', `transaction_id=${txId(6)}`);
      await none('admin@a.test', `transaction_id=${txId(8)}`);
      await none('brand1@a.test', `transaction_id=${txId(3)}`);
      await none('brand1@a.test', `transaction_id=${txId(9)}`);
      await none('brand2@b.test', `transaction_id=${txId(7)}`);
      await none('admin@a.test', `order_id=${orderId(3)}`);
      await none('admin@a.test', `facility_ids=${id('f', 3)}`);
      await none('brand1@a.test', `brand_ids=${id('b', 2)}`);
      await none('viewer@a.test', `facility_ids=${id('f', 2)}`);
      await none('admin@a.test', 'search=xyzzy');
      await none('admin@a.test', 'search=nobody owns');
      await none('brand1@a.test', 'search=bad gateway');
      await none('brand2@b.test', 'search=brandwide');
      // Order 3's PO and picksheet code reach only the rows of order 3 (Charlie, brand 2).
      await none('brand1@a.test', 'search=PO-1003');
      await none('admin@a.test', 'search=ps-1003');
      await none('brand2@b.test', 'search=PO-1001');
      expect(await rows('brand2@b.test', 'search=PO-1003')).toEqual([6]);
      await none('charlie1@b.test', `search=${txId(6).slice(-10)}`);
    });

    it('shows rows of other facilities of the same brand only to users of those facilities', async () => {
      // brand1@a.test and charlie1@b.test act for brand 1; only brand1 has Alpha.
      expect(await rows('charlie1@b.test', `brand_ids=${id('b', 1)}`)).toEqual([5, 7]);
      expect(await rows('brand1@a.test', `facility_ids=${id('f', 1)}`)).toEqual([2, 1, 10]);
    });
  });

  describe('errors', () => {
    it.each([
      ['transaction_id=nope', 'transaction_id must be a UUID'],
      ['transaction_id=', 'transaction_id must be a UUID'],
      [`transaction_id=${txId(1)}&transaction_id=${txId(2)}`, 'transaction_id must be given once'],
      ['order_id=12', 'order_id must be a UUID'],
      [
        'execution_status=failure',
        'execution_status must be one of SUCCESS, FAILURE, RETRY, PENDING, SKIP',
      ],
      [
        'execution_status=DONE',
        'execution_status must be one of SUCCESS, FAILURE, RETRY, PENDING, SKIP',
      ],
      [
        'action_type=SEND_EMAIL',
        /^Invalid query parameter: action_type must be one of POST_ORDER_TO, CREATE_ORDERS_FROM, .*INGEST_ORDER_PUT/,
      ],
      [`retailer_ids=${id('r', 1)},x`, 'retailer_ids must be comma-separated UUIDs'],
      ['brand_ids=1,2', 'brand_ids must be comma-separated UUIDs'],
      ['facility_ids=abc', 'facility_ids must be comma-separated UUIDs'],
      ['has_error=yes', 'has_error must be true or false'],
      ['has_error=', 'has_error must be true or false'],
      [
        'created_from=2026-02-30',
        'created_from must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
      ],
      [
        'created_from=yesterday',
        'created_from must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
      ],
      [
        'created_to=2026-13-01T00:00:00Z',
        'created_to must be a date (YYYY-MM-DD) or an ISO 8601 date-time',
      ],
      ['search=a', 'search must be at least 3 characters'],
      [`search=${'x'.repeat(201)}`, 'search must be at most 200 characters'],
      [`po_number=${'P'.repeat(101)}`, 'po_number must be at most 100 characters'],
    ])('400 for %s', async (query, message) => {
      expectError(
        await get('admin@a.test', query),
        400,
        'INVALID_REQUEST',
        typeof message === 'string' ? `Invalid query parameter: ${message}` : message,
      );
    });

    it.each([
      ['no token', undefined],
      ['a bad token', 'Bearer not-a-token'],
      ['another scheme', `Basic abc`],
    ])('401 with the interface message for %s', async (_label, authorization) => {
      const response = await api.svc.app.inject({
        method: 'GET',
        url: '/api/transactions',
        headers: authorization ? { authorization } : {},
      });
      expectError(response, 401, 'UNAUTHORIZED', 'User is not authorized to access this resource');
    });

    it('answers 60 parallel requests as it answers them one by one', async () => {
      const request = (i: number) =>
        page(USERS[i % USERS.length]!, i % 2 ? 'has_error=true' : 'search=example');
      const expected: TransactionPage[] = [];
      for (let i = 0; i < USERS.length * 2; i += 1) expected.push(await request(i));
      // The parallel requests load their pages, not the ones just kept.
      forgetTransactionPages(api.svc.ctx.db);
      const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => request(i)));
      for (const [i, p] of responses.entries()) {
        expect(p).toEqual(expected[i % (USERS.length * 2)]);
      }
    });
  });
});
