/**
 * SEND_TRACKING (issue 16 item 8): a direct-API retailer hears of a shipped order's changed BOL
 * number, PRO, carrier or SCAC as JSON, through the order-document outbox, with an
 * Idempotency-Key, one document per actual change, sent after the commit.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { makePdf } from '../orders/bol-support';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import {
  asnBundle,
  documentRows,
  FAST_POLICY,
  loadFreightOrder,
  logRows,
  ORDERS,
  until,
} from './support';

const PACKER = 'packer@a.test';
const ORDER = ORDERS.freight;

describeEngines('tracking updates after ship', (engine) => {
  const tempDir = tempDirsPerTest('edi-tracking');
  let partner: Receiver;
  let svc: TestService;
  let token: string;
  let pdf: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    pdf = (await makePdf('tracking BOL')).toString('base64');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'sends to settle');
    await svc?.close();
  });

  async function fresh(kind: 'EDI_846' | 'DIRECT_API' = 'DIRECT_API') {
    partner.clear();
    partner.handle(ok);
    svc = await createTestService({
      engine,
      seed: asnBundle(partner.url, { kind }),
      dataDir: tempDir(),
      deliveryPolicy: FAST_POLICY,
    });
    token = await svc.login(PACKER);
  }

  const upload = (facts: Record<string, string> = {}) =>
    svc.app.inject({
      method: 'POST',
      url: `/api/documents/bol/${ORDER}`,
      headers: { authorization: token },
      payload: { file_content: pdf, file_name: 'bol.pdf', ...facts },
    });

  const trackingRows = async () =>
    (await documentRows(svc, ORDER)).filter((row) => row.type === 'TRACKING');

  async function shipFreight() {
    const api = await loadFreightOrder(svc, token);
    const shipped = await api.step(ORDER, 'ship');
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(partner.received).toHaveLength(1); // the shipment confirmation
  }

  it('a changed PRO after ship: one JSON update with an Idempotency-Key, the changes and the values before; a repeat sends nothing', async () => {
    await fresh();
    // Before ship there is nothing to update: the shipment confirmation will carry it.
    expect((await upload({ pro_number: 'PRO-0' })).statusCode).toBe(200);
    await shipFreight();
    expect(await trackingRows()).toEqual([]);

    const answer = await upload({ pro_number: 'PRO-1', carrier: 'Old Dominion' });
    expect(answer.statusCode, answer.body).toBe(200);
    const [row] = await trackingRows();
    expect(row).toMatchObject({ status: 'sent', content_type: 'application/json' });
    expect(partner.received).toHaveLength(2);
    const request = partner.received[1]!;
    expect(request.headers['idempotency-key']).toBe(row!.id);
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(request.body)).toMatchObject({
      type: 'tracking_update',
      idempotency_key: row!.id,
      order_id: ORDER,
      po_number: expect.any(String),
      changed: ['pro_number'], // the carrier was already Old Dominion
      previous: { pro_number: 'PRO-0' },
      pro_number: 'PRO-1',
      bill_of_lading_number: 'BOL-77',
      carrier: 'Old Dominion',
      carrier_alpha_code: 'ODFL',
    });
    expect(await logRows(svc, ORDER, 'SEND_TRACKING')).toEqual([
      expect.objectContaining({ execution_status: 'SUCCESS', correlation_id: row!.id }),
    ]);

    // The same facts again, or a file with no facts: no change, nothing queued or sent.
    expect((await upload({ pro_number: 'PRO-1' })).statusCode).toBe(200);
    expect((await upload()).statusCode).toBe(200);
    expect(await trackingRows()).toHaveLength(1);
    expect(partner.received).toHaveLength(2);
  });

  it('50 parallel uploads of the same new BOL number make one update', async () => {
    await fresh();
    await shipFreight();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => upload({ bill_of_lading_number: 'BOL-78' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(50).fill(200));
    const rows = await trackingRows();
    expect(rows).toHaveLength(1);
    await until(() => partner.received.length === 2, 'the update');
    expect(JSON.parse(partner.received[1]!.body)).toMatchObject({
      changed: ['bill_of_lading_number'],
      previous: { bill_of_lading_number: 'BOL-77' },
      bill_of_lading_number: 'BOL-78',
    });
  });

  it('a partner that refuses: the upload still succeeds, the update is failed with the reason and retried', async () => {
    await fresh();
    await shipFreight();
    partner.handle(respond(503, 'busy'));
    expect((await upload({ carrier_alpha_code: 'SAIA' })).statusCode).toBe(200);
    const [row] = await trackingRows();
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.error).toMatch(/503/);
    expect(row!.next_attempt_at).not.toBeNull(); // the drainer tries again
    expect(await logRows(svc, ORDER, 'SEND_TRACKING')).toEqual([
      expect.objectContaining({ execution_status: 'FAILURE', correlation_id: row!.id }),
    ]);
  });

  it('an EDI connection gets no JSON tracking update', async () => {
    await fresh('EDI_846');
    await shipFreight();
    expect((await upload({ pro_number: 'PRO-9' })).statusCode).toBe(200);
    expect(await trackingRows()).toEqual([]);
    expect(partner.received).toHaveLength(1);
  });
});
