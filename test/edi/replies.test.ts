/**
 * POST …/acknowledge (855) and POST …/invoice (810) through the HTTP surface: made for the
 * connections that take them, sent after the commit, `po_acknowledgment_sent_at` and
 * `invoice_sent_at` set once the transport took them; refusals say why (an invoice names the
 * lines without a price). The order's timeline offers Invoice by the same rules.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { asnBundle, FAST_POLICY, loadParcelOrder, logRows, ORDERS } from './support';

const PACKER = 'packer@a.test';

describeEngines('acknowledge and invoice', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let token: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'replies');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await svc?.close();
  });

  async function fresh(send: string[]) {
    partner.clear();
    svc = await createTestService({
      engine,
      seed: asnBundle(partner.url, { send }),
      deliveryPolicy: FAST_POLICY,
    });
    token = await svc.login(PACKER);
  }
  const post = (path: string, payload?: unknown) =>
    svc.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${ORDERS.freight}/${path}`,
      headers: { authorization: token },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  const sentAt = (column: 'po_acknowledgment_sent_at' | 'invoice_sent_at', orderId: string) =>
    svc.ctx.db
      .selectFrom('orders')
      .select(column)
      .where('id', '=', orderId)
      .executeTakeFirstOrThrow()
      .then((row) => row[column]);
  /** What the order page's timeline says of Invoice for `orderId`. */
  const invoiceOption = async (orderId: string) => {
    const response = await svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${orderId}/document-timeline`,
      headers: { authorization: token },
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { data: { invoice: unknown } }).data.invoice;
  };

  it('acknowledges with per-line choices: an 855 goes out, po_acknowledgment_sent_at is its send', async () => {
    await fresh(['855']);
    const response = await post('acknowledge', {
      lines: [{ line_id: '2', status: 'rejected' }],
    });
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer.message).toBe('The acknowledgment was sent to Retailer One');
    expect(answer.data.documents).toEqual([
      expect.objectContaining({ type: '855', status: 'sent', interchange_control_number: 1 }),
    ]);
    const body = partner.received[0]!.body;
    expect(body).toContain('~GS*PR*');
    expect(body).toContain('~BAK*00*AC*PO-101*20261101');
    expect(body).toContain('~PO1*1*12*EA***UP*012345678905*VN*SKU-RED~ACK*IA*12*EA~');
    expect(body).toContain('~ACK*IR*3*EA~');
    expect(partner.received[0]!.headers['idempotency-key']).toBe(answer.data.documents[0].id);
    expect(await sentAt('po_acknowledgment_sent_at', ORDERS.freight)).toBe(
      answer.data.documents[0].sent_at,
    );
    expect(await logRows(svc, ORDERS.freight, 'SEND_PO_ACK')).toEqual([
      expect.objectContaining({ execution_status: 'SUCCESS' }),
    ]);
  });

  it('refuses an unknown line, a retailer without 855s, and a cancelled order', async () => {
    await fresh(['855']);
    expectError(
      await post('acknowledge', { lines: [{ line_id: '9', status: 'accepted' }] }),
      400,
      'INVALID_REQUEST',
      'No line 9 on this order',
    );
    expect(
      (await post('acknowledge', { lines: [{ line_id: '1', status: 'nope' }] })).statusCode,
    ).toBe(400);
    expect(
      (await post('acknowledge', { lines: [{ line_id: '1', status: 'quantity_changed' }] }))
        .statusCode,
    ).toBe(400);
    await svc.close();
    await fresh(['856']);
    expectError(
      await post('acknowledge'),
      409,
      'INVALID_REQUEST',
      'No connection of this retailer takes purchase order acknowledgments (855)',
    );
    expect(partner.received).toHaveLength(0);
    expect(await invoiceOption(ORDERS.freight)).toEqual({
      available: false,
      reason: 'No connection of this retailer takes invoices (810)',
    });
  });

  it('invoices a shipped order at the PO prices; refuses one whose lines lack prices, naming them', async () => {
    await fresh(['856', '810']);
    const api = await loadParcelOrder(svc, token);
    const invoice = () =>
      svc.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${ORDERS.parcel}/invoice`,
        headers: { authorization: token },
      });
    expectError(
      await invoice(),
      409,
      'INVALID_REQUEST',
      'Only a shipped order is invoiced: ship it first',
    );
    expect(await invoiceOption(ORDERS.parcel)).toEqual({
      available: false,
      reason: 'Only a shipped order is invoiced: ship it first',
    });
    await api.step(ORDERS.parcel, 'ship');
    // Offered once shipped; the prices are checked when it is pressed.
    expect(await invoiceOption(ORDERS.parcel)).toEqual({ available: true, reason: null });
    expectError(
      await invoice(),
      409,
      'INVALID_REQUEST',
      'Cannot invoice: no unit price for line 1 (SKU-RED)',
    );
    await svc.ctx.db
      .updateTable('order_items')
      .set({ pass_through_json: JSON.stringify({ line_id: '10', unit_price: '4.25' }) })
      .where('order_id', '=', ORDERS.parcel)
      .execute();
    partner.clear();
    const response = await invoice();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe('The invoice was sent to Retailer One');
    const body = partner.received[0]!.body;
    expect(body).toContain('~GS*IN*');
    expect(body).toContain('~IT1*10*2*EA*4.25**UP*012345678905*VN*SKU-RED~TDS*850~CTT*1~');
    expect(await sentAt('invoice_sent_at', ORDERS.parcel)).not.toBeNull();
    expect(await invoiceOption(ORDERS.parcel)).toEqual({
      available: false,
      reason: 'This order is already invoiced',
    });
    // The order's documents: its ASN, then its invoice, with their own control numbers.
    const list = await svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${ORDERS.parcel}/documents`,
      headers: { authorization: token },
    });
    expect(
      list
        .json()
        .data.map((d: { type: string; interchange_control_number: number }) => [
          d.type,
          d.interchange_control_number,
        ]),
    ).toEqual([
      ['856', 1],
      ['810', 2],
    ]);
  });
});
