import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { orderId } from '../orders/read-fixtures';
import { transactionsBundle, txId } from './fixtures';

// Pages are served from a cache while nothing changed; every write that can change a page must
// show on the very next request.
let svc: TestService;
let admin: string;

beforeAll(async () => {
  svc = await createTestService({ seed: transactionsBundle([]) });
  admin = await svc.login('admin@a.test');
});
afterAll(async () => {
  await svc?.close();
});

const ids = async (query = '', token = admin) => {
  const response = await svc.app.inject({
    method: 'GET',
    url: `/api/transactions${query ? `?${query}` : ''}`,
    headers: { authorization: token },
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  const body = response.json() as {
    data: { total_count: number; transactions: { transaction_id: string }[] };
  };
  return { total: body.data.total_count, ids: body.data.transactions.map((t) => t.transaction_id) };
};

const newRow = (n: number) => ({
  transaction_id: `7c000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  action_type: 'SEND_ASN',
  action_type_label: 'Send ASN',
  facility_id: id('f', 1),
  brand_id: id('b', 1),
  retailer_id: id('r', 1),
  order_id: orderId(1),
  duration_ms: 1,
  execution_status: 'SUCCESS' as const,
  request_method: 'POST',
  request_url: '/x',
  created_at: '2030-01-01T00:00:00.000Z',
  updated_at: '2030-01-01T00:00:00.000Z',
});

describe('GET /api/transactions: the page cache', () => {
  it('shows a row written after the page was served, on the next request', async () => {
    const before = await ids();
    expect(await ids()).toEqual(before);
    await svc.ctx.db.insertInto('transactions').values(newRow(1)).execute();
    const after = await ids();
    expect(after.total).toBe(before.total + 1);
    expect(after.ids[0]).toBe(newRow(1).transaction_id);
  });

  it('shows an updated and a deleted row at once', async () => {
    await ids('execution_status=FAILURE');
    await svc.ctx.db
      .updateTable('transactions')
      .set({ execution_status: 'FAILURE', error_message: 'late failure' })
      .where('transaction_id', '=', newRow(1).transaction_id)
      .execute();
    expect((await ids('execution_status=FAILURE')).ids).toContain(newRow(1).transaction_id);
    await svc.ctx.db
      .deleteFrom('transactions')
      .where('transaction_id', '=', newRow(1).transaction_id)
      .execute();
    expect((await ids('execution_status=FAILURE')).ids).not.toContain(newRow(1).transaction_id);
  });

  it('follows a changed PO number through the po_number filter', async () => {
    const po = 'PO-CACHE-CHECK';
    expect((await ids(`po_number=${po}`)).total).toBe(0);
    await svc.ctx.db
      .updateTable('orders')
      .set({ po_number: po })
      .where('id', '=', orderId(1))
      .execute();
    expect((await ids(`po_number=${po}`)).total).toBeGreaterThan(0);
  });

  it('follows a changed picksheet code through the search, on the next request', async () => {
    const code = 'PS-RENAMED-77';
    expect((await ids(`search=${code}`)).total).toBe(0);
    await svc.ctx.db
      .updateTable('orders')
      .set({ picksheet_code: code })
      .where('id', '=', orderId(2))
      .execute();
    expect((await ids(`search=${code.toLowerCase()}`)).total).toBeGreaterThan(0);
  });

  it('drops the rows of a facility whose grant was removed, on the next request', async () => {
    const user = await svc.login('ops@a.test');
    const withGrant = await ids(`transaction_id=${txId(1)}`, user);
    expect(withGrant.ids).toEqual([txId(1)]);
    const opsUser = await svc.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'ops@a.test')
      .executeTakeFirstOrThrow();
    await svc.ctx.db
      .deleteFrom('user_facilities')
      .where('user_id', '=', opsUser.id)
      .where('facility_id', '=', id('f', 1))
      .execute();
    expect((await ids(`transaction_id=${txId(1)}`, user)).ids).toEqual([]);
  });

  it("narrows a user's rows on the next request once its credentials act for a brand", async () => {
    const user = await svc.login('ops@a.test');
    // Row 6 is brand 2's, at Charlie.
    expect((await ids(`transaction_id=${txId(6)}`, user)).ids).toEqual([txId(6)]);
    const setBrand = (brandId: string | null) =>
      svc.ctx.db
        .updateTable('users')
        .set({ brand_id: brandId })
        .where('email', '=', 'ops@a.test')
        .execute();
    await setBrand(id('b', 1));
    expect((await ids(`transaction_id=${txId(6)}`, user)).ids).toEqual([]);
    await setBrand(null);
    expect((await ids(`transaction_id=${txId(6)}`, user)).ids).toEqual([txId(6)]);
  });

  it('keys pages by query string: a bad query is refused every time, two spellings agree', async () => {
    const bad = () =>
      svc.app.inject({
        method: 'GET',
        url: '/api/transactions?transaction_id=nope',
        headers: { authorization: admin },
      });
    for (let i = 0; i < 2; i += 1) {
      const response = await bad();
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        message: 'Invalid query parameter: transaction_id must be a UUID',
        error: { code: 'INVALID_REQUEST' },
      });
    }
    const one = await ids('page_size=2&order_direction=asc');
    expect(await ids('order_direction=asc&page_size=2')).toEqual(one);
    expect(await ids('page_size=2&order_direction=asc')).toEqual(one);
    expect(one.ids).toHaveLength(2);
  });

  it('gives 60 parallel readers of two users each their own rows', async () => {
    const other = await svc.login('brand2@b.test');
    const [mine, theirs] = [await ids(), await ids('', other)];
    expect(mine.ids).not.toEqual(theirs.ids);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? ids('', other) : ids())),
    );
    answers.forEach((answer, i) => expect(answer).toEqual(i % 2 ? theirs : mine));
  });
});
