/**
 * Who sees an order's documents: the same users who see the order's details. A user of the same
 * brand at another facility, another tenant, and an unknown order all answer 404, alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { asnBundle, FAST_POLICY, loadParcelOrder, ORDERS } from './support';

describe('order documents: visibility', () => {
  let partner: Receiver;
  let svc: TestService;
  const tokens: Record<string, string> = {};
  let documentId: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'perm-partner');
    svc = await createTestService({ seed: asnBundle(partner.url), deliveryPolicy: FAST_POLICY });
    for (const user of ['packer@a.test', 'bravo@a.test', 'brand2@b.test', 'brand1@a.test']) {
      tokens[user] = await svc.login(user);
    }
    const api = await loadParcelOrder(svc, tokens['packer@a.test']!);
    await api.step(ORDERS.parcel, 'ship');
    const row = await svc.ctx.db
      .selectFrom('order_documents')
      .select('id')
      .where('order_id', '=', ORDERS.parcel)
      .executeTakeFirstOrThrow();
    documentId = row.id;
  });
  afterAll(async () => {
    await svc?.close();
    await partner?.close();
  });

  const list = (user: string, orderId = ORDERS.parcel) =>
    svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${orderId}/documents`,
      headers: { authorization: tokens[user]! },
    });

  it('users who see the order list its documents', async () => {
    for (const user of ['packer@a.test', 'brand1@a.test']) {
      const response = await list(user);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data.map((d: { id: string }) => d.id)).toEqual([documentId]);
    }
  });

  it('a grant at another facility of the same brand does not reach them', async () => {
    expectError(await list('bravo@a.test'), 404, 'NOT_FOUND', 'Order not found');
    const retry = await svc.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${ORDERS.parcel}/documents/${documentId}/retry`,
      headers: { authorization: tokens['bravo@a.test']! },
    });
    expectError(retry, 404, 'NOT_FOUND', 'Order not found');
    for (const action of ['acknowledge', 'invoice']) {
      const reply = await svc.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${ORDERS.parcel}/${action}`,
        headers: { authorization: tokens['bravo@a.test']! },
        payload: {},
      });
      expectError(reply, 404, 'NOT_FOUND', 'Order not found');
    }
  });

  it('another tenant and an unknown order answer alike', async () => {
    expectError(await list('brand2@b.test'), 404, 'NOT_FOUND', 'Order not found');
    expectError(
      await list('packer@a.test', '0a000000-0000-4000-8000-000000000999'),
      404,
      'NOT_FOUND',
      'Order not found',
    );
  });

  it('without a token: 401; a malformed id: 400', async () => {
    const anonymous = await svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${ORDERS.parcel}/documents`,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await list('packer@a.test', 'not-a-uuid')).statusCode).toBe(400);
  });
});
