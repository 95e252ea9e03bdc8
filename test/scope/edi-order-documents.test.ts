/**
 * Scope of the order-document routes (acknowledge, invoice, an order's documents and their retry,
 * read and download, its timeline, and the documents list and summary): a user whose grant is
 * for the order's brand at another facility of the same organisation, for the same brand in
 * another organisation (an admin there), or for another brand at the order's own facility (an
 * admin of that brand there) sees nothing and changes nothing: 404 `Order not found`, as for an
 * unknown order, and no document, log row or order column is written.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { dataOf } from '../fulfilment/support';
import { id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { asnBundle, FAST_POLICY, ORDERS, until } from '../edi/support';
import { callWithTokens, ORDER_OUTSIDERS, withOutsiders } from './support';

const PACKER = 'packer@a.test';
/** Brand 1 at facility 2 only (organisation 1; brand 1 does not work there). */
const SAME_BRAND_BRAVO = 'bravo@a.test';
const OUTSIDERS = [SAME_BRAND_BRAVO, ...ORDER_OUTSIDERS] as const;

/** Connection 1 (brand 1, retailer 1, organisation 1) takes 855s and 810s over http. */
const bundle = (url: string) => withOutsiders(asnBundle(url, { send: ['855', '810'] }));

describeEngines('scope: order documents', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  const tokens: Record<string, string> = {};
  let failedId: string;

  const call = callWithTokens(() => svc, tokens);

  /** What any of these routes could write. */
  const written = async () => {
    const [documents, logs, orders] = await Promise.all([
      svc.ctx.db
        .selectFrom('order_documents')
        .select(['id', 'status', 'attempts', 'sent_at'])
        .orderBy('id')
        .execute(),
      svc.ctx.db.selectFrom('transactions').select('transaction_id').execute(),
      svc.ctx.db
        .selectFrom('orders')
        .select(['id', 'po_acknowledgment_sent_at', 'invoice_sent_at', 'updated_at'])
        .orderBy('id')
        .execute(),
    ]);
    return { documents, logs: logs.length, orders, received: partner.received.length };
  };

  beforeAll(async () => {
    // The 855 made below fails (the retailer refuses it), so a retry would send it.
    partner = await startReceiver(respond(400, 'no'), 'scope-documents');
    svc = await createTestService({
      engine,
      seed: bundle(partner.url),
      deliveryPolicy: FAST_POLICY,
    });
    for (const user of [PACKER, ...OUTSIDERS]) tokens[user] = await svc.login(user);
    const ack = await call(PACKER, 'POST', `/api/v1/orders/${ORDERS.freight}/acknowledge`, {});
    expect(ack.statusCode, ack.body).toBe(200);
    const [document] = dataOf<{ documents: { id: string; status: string }[] }>(ack).documents;
    expect(document).toMatchObject({ status: 'failed' });
    failedId = document!.id;
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 855 send');
    partner.handle(ok);
  });
  afterAll(async () => {
    await svc?.close();
    await partner?.close();
  });

  it('the order’s own users see the document (the fixture is real)', async () => {
    const list = await call(PACKER, 'GET', `/api/v1/orders/${ORDERS.freight}/documents`);
    expect(list.statusCode, list.body).toBe(200);
    expect(dataOf<{ id: string }[]>(list).map((d) => d.id)).toEqual([failedId]);
    const all = await call(PACKER, 'GET', '/api/v1/edi/documents');
    expect(dataOf<{ total_count: number }>(all).total_count).toBe(1);
  });

  it.each(OUTSIDERS)(
    '%s: every order-document route answers 404, nothing written',
    async (user) => {
      const before = await written();
      const order = `/api/v1/orders/${ORDERS.freight}`;
      const refused: [method: 'GET' | 'POST', url: string, payload?: object][] = [
        ['GET', `${order}/documents`],
        ['GET', `${order}/document-timeline`],
        ['GET', `${order}/documents/${failedId}`],
        ['GET', `${order}/documents/${failedId}/content`],
        ['POST', `${order}/documents/${failedId}/retry`],
        ['POST', `${order}/acknowledge`, {}],
        ['POST', `${order}/acknowledge`, { lines: [{ line_id: '1', status: 'rejected' }] }],
        // Shipped, brand 1 at facility 1: the invoice would be made for its own users.
        ['POST', `/api/v1/orders/${ORDERS.shipped}/invoice`],
      ];
      for (const [method, url, payload] of refused) {
        expectError(await call(user, method, url, payload), 404, 'NOT_FOUND', 'Order not found');
      }
      const list = await call(user, 'GET', '/api/v1/edi/documents');
      expect(list.statusCode, list.body).toBe(200);
      expect(dataOf(list)).toMatchObject({ total_count: 0, documents: [] });
      const filtered = await call(
        user,
        'GET',
        `/api/v1/edi/documents?status=failed&retailer_id=${id('r', 1)}`,
      );
      expect(dataOf(filtered)).toMatchObject({ total_count: 0, documents: [] });
      const summary = await call(user, 'GET', '/api/v1/edi/documents/summary');
      expect(
        dataOf<{ counts: { failed: number }; needs_attention: number }>(summary),
      ).toMatchObject({ counts: { failed: 0 }, needs_attention: 0 });
      expect(await written()).toEqual(before);
    },
  );

  it('the order’s own user may retry it (the retry refused above was a real one)', async () => {
    const retry = await call(
      PACKER,
      'POST',
      `/api/v1/orders/${ORDERS.freight}/documents/${failedId}/retry`,
    );
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ message: 'Document sent', data: { status: 'sent' } });
  });
});
