/**
 * The ASN on ship (issue 16, item 5), through the HTTP surface: the 856 (or a direct-API
 * shipment confirmation) is written in the ship step's transaction, sent after the commit with
 * an Idempotency-Key, and `asn_sent_at` is set only when the transport took it. The answer and
 * the documents list say what really happened: sent, failed (and retried), queued, or none.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { sendDueDocuments } from '../../src/server/edi/send';
import { SHIP_ANSWER_WAIT_MS } from '../../src/server/edi/ship-answer';
import type { OrderDocumentView } from '../../src/shared/order-documents';
import { manualClock } from '../helpers/clock';
import { hang, ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import {
  ASN_CONNECTION,
  asnBundle,
  documentRows,
  FAST_POLICY,
  loadFreightOrder,
  loadParcelOrder,
  logRows,
  ORDERS,
  orderRow,
  until,
} from './support';

const PACKER = 'packer@a.test';

describeEngines('the ASN on ship', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let token: string;
  let time: ReturnType<typeof manualClock>;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await svc?.close();
  });

  async function fresh(options: Parameters<typeof asnBundle>[1] = {}, policy = FAST_POLICY) {
    partner.clear();
    partner.handle(ok);
    time = manualClock('2030-07-01T09:00:00Z');
    svc = await createTestService({
      engine,
      seed: asnBundle(partner.url, options),
      clock: time.clock,
      deliveryPolicy: policy,
    });
    token = await svc.login(PACKER);
  }
  const documents = async (orderId: string, as = token) => {
    const response = await svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${orderId}/documents`,
      headers: { authorization: as },
    });
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<OrderDocumentView[]>(response);
  };

  it('a parcel order: the 856 goes out with its SSCC, the answer says sent, asn_sent_at is the send', async () => {
    await fresh();
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json()).toEqual({
      message: 'Order shipped; the ASN was sent to Retailer One',
      data: { order_id: ORDERS.parcel, status: 'Shipped' },
    });

    expect(partner.received).toHaveLength(1);
    const request = partner.received[0]!;
    const [row] = await documentRows(svc, ORDERS.parcel);
    expect(request.headers['content-type']).toBe('application/edi-x12');
    expect(request.headers['idempotency-key']).toBe(row!.id);
    expect(request.body).toBe(row!.document);
    expect(request.body).toContain('~GS*SH*SENDER1*RECEIVER1*');
    expect(request.body).toContain('~ST*856*0001~');
    expect(request.body).toContain('~PRF*PO-102~');
    const carton = await svc.ctx.db
      .selectFrom('cartons')
      .select('sscc')
      .where('order_id', '=', ORDERS.parcel)
      .executeTakeFirstOrThrow();
    expect(request.body).toContain(`~MAN*GM*00${carton.sscc}~`);
    expect(request.body).toContain('~HL*3*2*P~'); // SOPI: the carton hangs from the order
    expect(request.body).toContain('~SN1**2*EA~');

    const state = await orderRow(svc, ORDERS.parcel);
    expect(state.status).toBe('Shipped');
    expect(state.asn_sent_at).toBe(row!.sent_at);
    const listed = await documents(ORDERS.parcel);
    expect(listed).toEqual([
      expect.objectContaining({
        id: row!.id,
        type: '856',
        direction: 'out',
        status: 'sent',
        retailer_name: 'Retailer One',
        connection_id: ASN_CONNECTION,
        interchange_control_number: 1,
        group_control_number: 1,
        transaction_control_number: '0001',
        attempts: 1,
        error: null,
        file_name: '856_000000001.x12',
      }),
    ]);
    // One SEND_ASN record: the send's, naming the document; the ship step's own row is SHIP_ORDER.
    expect(await logRows(svc, ORDERS.parcel, 'SEND_ASN')).toEqual([
      expect.objectContaining({
        execution_status: 'SUCCESS',
        correlation_id: row!.id,
        request_url: partner.url,
      }),
    ]);
    expect(await logRows(svc, ORDERS.parcel, 'SHIP_ORDER')).toEqual([
      expect.objectContaining({ execution_status: 'SUCCESS', correlation_id: null }),
    ]);
  });

  it('a freight order on pallets gets a SOTPI 856 with the BOL, the carrier and every SSCC', async () => {
    await fresh();
    const api = await loadFreightOrder(svc, token);
    const shipped = await api.step(ORDERS.freight, 'ship');
    expect(shipped.json().message).toBe('Order shipped; the ASN was sent to Retailer One');
    const body = partner.received[0]!.body;
    expect(body).toContain('~REF*BM*BOL-77~');
    expect(body).toContain('~TD5*B*2*ODFL*M*Old Dominion~');
    expect(body).toContain('~TD1*PLT94*2~');
    const units = await Promise.all(
      (['pallets', 'cartons'] as const).map((table) =>
        svc.ctx.db
          .selectFrom(table)
          .select('sscc')
          .where('order_id', '=', ORDERS.freight)
          .execute(),
      ),
    );
    const marks = [...body.matchAll(/~MAN\*GM\*00(\d{18})/g)].map((m) => m[1]);
    expect(marks.sort()).toEqual(
      units
        .flat()
        .map((u) => u.sscc)
        .sort(),
    );
    expect(body.match(/~HL\*\d+\*\d+\*T~/g)).toHaveLength(2);
    expect(body).toMatch(/~CTT\*8~SE\*/); // S, O, 2 T, 2 P, 2 I
  });

  it('a partner that is down: the answer says failed and why, the drainer sends the same bytes later', async () => {
    await fresh();
    partner.handle(respond(503, 'down for maintenance'));
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().message).toMatch(
      /^Order shipped; the ASN to Retailer One failed: 503.*; it will be tried again$/,
    );
    let [row] = await documentRows(svc, ORDERS.parcel);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row!.next_attempt_at).toBe(time.iso(30_000));
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBeNull();
    expect((await documents(ORDERS.parcel))[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^503/),
    });
    expect(await logRows(svc, ORDERS.parcel, 'SEND_ASN')).toContainEqual(
      expect.objectContaining({ execution_status: 'FAILURE', correlation_id: row!.id }),
    );

    // Not due yet: a pass sends nothing.
    const tries = partner.received.length;
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
    partner.handle(ok);
    time.advance(30_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(1);
    expect(partner.received).toHaveLength(tries + 1);
    expect(partner.received.at(-1)!.body).toBe(partner.received[0]!.body);
    expect(partner.received.at(-1)!.headers['idempotency-key']).toBe(row!.id);
    [row] = await documentRows(svc, ORDERS.parcel);
    expect(row).toMatchObject({ status: 'sent', next_attempt_at: null, error: null });
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBe(row!.sent_at);
    // Sent is final: later passes send nothing.
    time.advance(3_600_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
  });

  it('a refusal a retry cannot fix waits for the clerk: Retry sends it', async () => {
    await fresh();
    partner.handle(respond(400, 'bad receiver id'));
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.json().message).toMatch(/failed: 400.*; retry it from the order$/);
    const [row] = await documentRows(svc, ORDERS.parcel);
    expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
    time.advance(86_400_000);
    token = await svc.login(PACKER);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);

    partner.handle(ok);
    const url = `/api/v1/orders/${ORDERS.parcel}/documents/${row!.id}/retry`;
    const retried = await api.call('POST', url);
    // The client's token was made before the clock moved: use the fresh one.
    const response = await svc.app.inject({
      method: 'POST',
      url,
      headers: { authorization: token },
    });
    expect([retried.statusCode, response.statusCode]).toContain(200);
    const answer = (retried.statusCode === 200 ? retried : response).json();
    expect(answer).toMatchObject({
      message: 'Document sent',
      data: { status: 'sent', attempts: 2 },
    });
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).not.toBeNull();
    // A sent document is not sent again.
    const again = await svc.app.inject({ method: 'POST', url, headers: { authorization: token } });
    expect(again.statusCode).toBe(409);
  });

  it('a partner that does not answer in time: the answer says queued, and asn_sent_at stays empty', async () => {
    await fresh({}, { ...FAST_POLICY, attemptTimeoutMs: 10_000, totalBudgetMs: 10_000 });
    partner.handle(hang);
    const api = await loadParcelOrder(svc, token);
    const started = Date.now();
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(Date.now() - started).toBeGreaterThanOrEqual(SHIP_ANSWER_WAIT_MS - 50);
    expect(shipped.json().message).toBe('Order shipped; the ASN is queued for Retailer One');
    expect((await documents(ORDERS.parcel))[0]).toMatchObject({ status: 'queued', sent_at: null });
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBeNull();
    // The send under way is this process's: a drain pass does not send it a second time.
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
    expect(partner.received).toHaveLength(1);
    // Let the hanging try end (the receiver drops it) before the service closes.
    await partner.close();
    partner = await startReceiver(ok, 'retailer-one');
    await until(
      async () => (await documentRows(svc, ORDERS.parcel))[0]!.status === 'failed',
      'the dropped try to be recorded',
    );
  });

  it('a direct-API retailer gets a JSON shipment confirmation with an Idempotency-Key', async () => {
    await fresh({ kind: 'DIRECT_API' });
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.json().message).toBe(
      'Order shipped; the shipment confirmation was sent to Retailer One',
    );
    const [row] = await documentRows(svc, ORDERS.parcel);
    const request = partner.received[0]!;
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(request.headers['idempotency-key']).toBe(row!.id);
    const body = JSON.parse(request.body) as Record<string, unknown>;
    const carton = await svc.ctx.db
      .selectFrom('cartons')
      .select('sscc')
      .where('order_id', '=', ORDERS.parcel)
      .executeTakeFirstOrThrow();
    expect(body).toMatchObject({
      type: 'shipment_confirmation',
      po_number: 'PO-102',
      cartons: [{ sscc: carton.sscc, items: [{ sku: 'SKU-RED', quantity: 2 }] }],
    });
    expect(row).toMatchObject({ type: 'SHIPMENT_CONFIRMATION', status: 'sent' });
    expect(await logRows(svc, ORDERS.parcel, 'SEND_SHIPMENT_CONFIRMATION')).toEqual([
      expect.objectContaining({ execution_status: 'SUCCESS', correlation_id: row!.id }),
    ]);
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBe(row!.sent_at);
  });

  it('a connection that does not send 856s: the answer says no ASN is set up, nothing is stored', async () => {
    await fresh({ send: ['855'] });
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.json().message).toBe('Order shipped; no ASN is set up for this retailer');
    expect(await documentRows(svc, ORDERS.parcel)).toEqual([]);
    expect(partner.received).toHaveLength(0);
    expect(await documents(ORDERS.parcel)).toEqual([]);
  });

  it('a transport setting that cannot be read fails the send with the reason, and no pass throws', async () => {
    await fresh();
    const api = await loadParcelOrder(svc, token);
    await svc.ctx.db
      .updateTable('connections')
      .set({ transport_json: 'not json' })
      .where('id', '=', ASN_CONNECTION)
      .execute();
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode).toBe(200);
    expect(shipped.json().message).toBe(
      'Order shipped; the ASN to Retailer One failed: EINVAL: the connection’s transport settings cannot be read; retry it from the order',
    );
    time.advance(86_400_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
    expect(partner.received).toHaveLength(0);
  });

  it('a sent 856 with no 997 after ack_hours is listed as overdue', async () => {
    await fresh({ ack_hours: 0.5 });
    const api = await loadParcelOrder(svc, token);
    await api.step(ORDERS.parcel, 'ship');
    expect((await documents(ORDERS.parcel))[0]!.status).toBe('sent');
    time.advance(31 * 60_000);
    token = await svc.login(PACKER);
    expect((await documents(ORDERS.parcel))[0]!.status).toBe('overdue');
  });

  it('each ASN takes the connection’s next control numbers', async () => {
    await fresh();
    await (await loadParcelOrder(svc, token)).step(ORDERS.parcel, 'ship');
    await (await loadFreightOrder(svc, token)).step(ORDERS.freight, 'ship');
    const numbers = [
      ...(await documentRows(svc, ORDERS.parcel)),
      ...(await documentRows(svc, ORDERS.freight)),
    ].map((d) => [d.interchange_control_number, d.group_control_number]);
    expect(numbers).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(partner.received[1]!.body).toContain('*000000002*0*T*>~');
  });
});
