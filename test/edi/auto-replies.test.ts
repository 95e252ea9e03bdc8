/**
 * Issue 16, `order_documents.auto_acknowledge` and `auto_invoice`, through the HTTP surface: an
 * 850 ingested for a connection that acknowledges by itself queues an 855 (all lines accepted)
 * beside its 997, both reaching the retailer after the commit; a ship for a connection that
 * invoices by itself queues the 810.
 */
import { describe, expect, it } from 'vitest';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { readX12 } from '../../src/server/edi/x12/reader';
import { id } from '../helpers/fixtures';
import { manualClock } from '../helpers/clock';
import { ok, respond } from '../helpers/receivers';
import { createTestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import { goldenFor, inboundBundle, postInterchange } from './inbound-support';
import { partnerSuite } from './partner-suite';
import {
  asnBundle,
  documentRows,
  FAST_POLICY,
  loadParcelOrder,
  logRows,
  ORDERS,
  until,
} from './support';

/** Connection 1 takes POs into facility 1 and sends what `send` names, by itself when asked. */
const autoBundle = (url: string, settings: Record<string, unknown>) =>
  inboundBundle(url, { facility_id: id('f', 1), ...settings });

const setsOf = (body: string) =>
  readX12(body).interchange!.groups.map((g) => ({
    functionalId: g.functionalId,
    segments: g.sets[0]!.segments.map((s) => s.values.join('*')),
  }));

describe('auto_acknowledge', () => {
  const suite = partnerSuite('retailer-one', 'the sends');

  async function ingest(settings: Record<string, unknown>) {
    suite.partner.clear();
    suite.partner.handle(ok);
    suite.svc = await createTestService({
      seed: autoBundle(suite.partner.url, settings),
      clock: manualClock('2030-07-01T09:00:00Z').clock,
    });
    const admin = await suite.svc.login('admin@a.test');
    const response = await postInterchange(suite.svc, admin, goldenFor('850-two-orders.edi', 501));
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<InterchangeSummaryView>(response);
  }

  it('an 850 for a connection that acknowledges by itself sends the 997 and an 855 per order', async () => {
    const data = await ingest({ send: ['855', '856'], auto_acknowledge: true });
    const orderIds = data.transaction_sets.map((s) => s.order_id!);
    await suite.partner.waitFor(3);
    const received = suite.partner.received.map((r) => setsOf(r.body)[0]!);
    expect(received.map((r) => r.functionalId).sort()).toEqual(['FA', 'PR', 'PR']);
    const acks = received.filter((r) => r.functionalId === 'PR');
    expect(
      acks.map((a) => a.segments.find((s) => s.startsWith('BAK'))!.split('*')[3]).sort(),
    ).toEqual(['4500012345', '4500012346']);
    for (const ack of acks) {
      expect(ack.segments.find((s) => s.startsWith('BAK'))).toMatch(/^BAK\*00\*AD\*/);
      const statuses = ack.segments.filter((s) => s.startsWith('ACK')).map((s) => s.split('*')[1]);
      expect(statuses.length).toBeGreaterThan(0);
      expect(new Set(statuses)).toEqual(new Set(['IA']));
    }
    for (const orderId of orderIds) {
      await until(async () => {
        const docs = await documentRows(suite.svc!, orderId);
        return docs.some((d) => d.type === '855' && d.status === 'sent');
      }, 'the 855 sent');
      const order = await suite
        .svc!.ctx.db.selectFrom('orders')
        .select('po_acknowledgment_sent_at')
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow();
      expect(order.po_acknowledgment_sent_at).not.toBeNull();
    }
  });

  it('without auto_acknowledge, or when send does not name 855, only the 997 goes out', async () => {
    for (const settings of [{ send: ['855', '856'] }, { send: ['856'], auto_acknowledge: true }]) {
      const data = await ingest(settings);
      await suite.partner.waitFor(1);
      await until(() => suite.svc!.ctx.deliveriesInFlight.size === 0, 'the 997 send');
      expect(suite.partner.received.map((r) => setsOf(r.body)[0]!.functionalId)).toEqual(['FA']);
      for (const set of data.transaction_sets) {
        const docs = await documentRows(suite.svc!, set.order_id!);
        expect(docs.filter((d) => d.type === '855')).toEqual([]);
      }
      await suite.svc!.close();
      suite.svc = undefined;
    }
  });
});

describe('auto_invoice', () => {
  const suite = partnerSuite('retailer-invoices', 'the sends');
  let token: string;

  async function loaded(settings: Record<string, unknown>) {
    suite.partner.clear();
    suite.partner.handle(ok);
    const bundle = asnBundle(suite.partner.url);
    suite.svc = await createTestService({
      seed: {
        ...bundle,
        connections: bundle.connections.map((c) =>
          c.id === id('c', 1) ? { ...c, order_documents: settings } : c,
        ),
      },
      deliveryPolicy: FAST_POLICY,
    });
    token = await suite.svc.login('packer@a.test');
    return loadParcelOrder(suite.svc, token);
  }
  const ship = () =>
    suite.svc!.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${ORDERS.parcel}/ship`,
      headers: { authorization: token },
    });

  it('a ship for a connection that invoices by itself sends the 856 and the 810 at the PO prices', async () => {
    await loaded({ send: ['856', '810'], auto_invoice: true });
    await suite
      .svc!.ctx.db.updateTable('order_items')
      .set({ pass_through_json: JSON.stringify({ line_id: '10', unit_price: '4.25' }) })
      .where('order_id', '=', ORDERS.parcel)
      .execute();
    const response = await ship();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(
      'Order shipped; the ASN was sent to Retailer One; the invoice was sent to Retailer One',
    );
    const bodies = suite.partner.received.map((r) => r.body);
    expect(bodies.some((b) => b.includes('~GS*SH*'))).toBe(true);
    const invoice = bodies.find((b) => b.includes('~GS*IN*'));
    expect(invoice).toContain('~IT1*10*2*EA*4.25**UP*012345678905*VN*SKU-RED~TDS*850~CTT*1~');
    const docs = await documentRows(suite.svc!, ORDERS.parcel);
    expect(docs.map((d) => [d.type, d.status]).sort()).toEqual([
      ['810', 'sent'],
      ['856', 'sent'],
    ]);
    const order = await suite
      .svc!.ctx.db.selectFrom('orders')
      .select('invoice_sent_at')
      .where('id', '=', ORDERS.parcel)
      .executeTakeFirstOrThrow();
    expect(order.invoice_sent_at).not.toBeNull();
    expect(
      (await logRows(suite.svc!, ORDERS.parcel, 'SEND_INVOICE')).map((r) => r.execution_status),
    ).toEqual(['SUCCESS']);
  });

  it('a line without a price does not fail the ship: the 810 is stored as failed, naming the line', async () => {
    await loaded({ send: ['810'], auto_invoice: true });
    const response = await ship();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().message).toBe(
      'Order shipped; no ASN is set up for this retailer; the invoice for Retailer One failed: ' +
        'The invoice could not be built: no unit price for line 1 (SKU-RED)',
    );
    const docs = await documentRows(suite.svc!, ORDERS.parcel);
    expect(docs).toHaveLength(1);
    expect(docs[0]).toMatchObject({
      type: '810',
      status: 'failed',
      document: null,
      error: 'The invoice could not be built: no unit price for line 1 (SKU-RED)',
    });
    expect(suite.partner.received).toHaveLength(0);
  });

  /** Gives the parcel order's one line the PO price its 810 needs. */
  const priceTheLine = () =>
    suite
      .svc!.ctx.db.updateTable('order_items')
      .set({ pass_through_json: JSON.stringify({ line_id: '10', unit_price: '4.25' }) })
      .where('order_id', '=', ORDERS.parcel)
      .execute();
  const invoice = () =>
    suite.svc!.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${ORDERS.parcel}/invoice`,
      headers: { authorization: token },
    });

  it('one invoice per order: priced after a failed build it is invoiced by hand, then a second is refused until the retailer rejects the first', async () => {
    await loaded({ send: ['810'], auto_invoice: true });
    expect((await ship()).statusCode).toBe(200);
    await priceTheLine();
    // The 810 that could not be built (no price) does not stand in the way.
    const first = await invoice();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe('The invoice was sent to Retailer One');
    const second = await invoice();
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      message:
        'This order is already invoiced: a new invoice goes out only if the retailer rejects it',
    });
    const sent = (await documentRows(suite.svc!, ORDERS.parcel)).filter((d) => d.status === 'sent');
    expect(sent).toHaveLength(1);
    // A 997 rejected it (as the 997 matching marks it): a corrected invoice may go.
    await suite
      .svc!.ctx.db.updateTable('order_documents')
      .set({ status: 'rejected' })
      .where('id', '=', sent[0]!.id)
      .execute();
    const third = await invoice();
    expect(third.statusCode, third.body).toBe(200);
    expect(
      (await documentRows(suite.svc!, ORDERS.parcel))
        .map((d) => [d.status, d.document === null])
        .sort(),
    ).toEqual([
      ['failed', true],
      ['rejected', false],
      ['sent', false],
    ]);
    expect(suite.partner.received.filter((r) => r.body.includes('~GS*IN*'))).toHaveLength(2);
  });

  it('an invoice that failed to send is sent again with Retry, not invoiced a second time', async () => {
    await loaded({ send: ['810'] });
    expect((await ship()).statusCode).toBe(200);
    await priceTheLine();
    suite.partner.handle(respond(503, 'busy'));
    const failed = await invoice();
    expect(failed.statusCode, failed.body).toBe(200);
    const [document] = await documentRows(suite.svc!, ORDERS.parcel);
    expect(document).toMatchObject({ type: '810', status: 'failed' });
    expect(document!.document).not.toBeNull();
    const again = await invoice();
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message:
        'This order has an invoice that failed to send: send it again with Retry in its documents',
    });
    expect(await documentRows(suite.svc!, ORDERS.parcel)).toHaveLength(1);
  });

  it('without auto_invoice the ship sends no 810', async () => {
    await loaded({ send: ['856', '810'] });
    const response = await ship();
    expect(response.statusCode, response.body).toBe(200);
    expect((await documentRows(suite.svc!, ORDERS.parcel)).map((d) => d.type)).toEqual(['856']);
  });
});
