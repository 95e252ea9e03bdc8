/**
 * Faults on the way out (issue 16): a partner that is dead, hangs, answers late, answers 500 or
 * 429, or closes in the middle of its answer. The ship answers 200 and says the ASN failed and
 * why; the document is failed with the reason and a next try planned; asn_sent_at stays empty
 * until the partner took it; the drainer's next due pass sends it once, under the same
 * Idempotency-Key, and later passes send nothing.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { sendDueDocuments } from '../../src/server/edi/send';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import {
  asnBundle,
  documentRows,
  FAST_POLICY,
  loadParcelOrder,
  logRows,
  ORDERS,
  orderRow,
} from '../edi/support';
import { goldenFor, inboundBundle, postInterchange } from '../edi/inbound-support';
import { startFaultyPartner, type FaultyPartner, type PartnerFault } from './partner';

/** Each try may take 300 ms; two tries at most per send. */
const POLICY = { ...FAST_POLICY, attemptTimeoutMs: 300, totalBudgetMs: 1_000, maxAttempts: 2 };

const FAULTS: {
  name: string;
  fault: PartnerFault | 'dead';
  error: RegExp;
  /** When the next try is planned: 30 s, or later when the partner asked (Retry-After). */
  nextInMs?: number;
}[] = [
  { name: 'dead (connection refused)', fault: 'dead', error: /^ECONNREFUSED: / },
  { name: 'hanging', fault: { kind: 'hang' }, error: /^ETIMEDOUT: request timed out after/ },
  {
    name: 'answering after the deadline',
    fault: { kind: 'late', ms: 1_500 },
    error: /^ETIMEDOUT: request timed out after/,
  },
  {
    name: 'answering 500',
    fault: { kind: 'status', status: 500, body: 'internal trouble' },
    error: /^500: internal trouble$/,
  },
  {
    name: 'answering 429',
    fault: { kind: 'status', status: 429, body: 'slow down', headers: { 'retry-after': '120' } },
    error: /^429: slow down$/,
    nextInMs: 120_000,
  },
  {
    name: 'closing in the middle of its answer',
    fault: { kind: 'mid-body' },
    error: /^ECONNRESET: /,
  },
];

describeEngines('an outbound document to a partner in trouble', (engine) => {
  let partner: FaultyPartner;
  let svc: TestService | undefined;

  beforeAll(async () => {
    partner = await startFaultyPartner();
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await partner.start().catch(() => {}); // a test that stopped it
    await svc?.close();
    svc = undefined;
  });

  /** A service on the test's clock whose sends follow POLICY. */
  const serviceAt = (time: ReturnType<typeof manualClock>, seed: unknown) =>
    createTestService({ engine, seed, clock: time.clock, deliveryPolicy: POLICY });

  it.each(FAULTS)('$name: failed with the reason, retried later, sent once', async (c) => {
    partner.received.length = 0;
    partner.set({ kind: 'ok' });
    const time = manualClock('2030-07-01T09:00:00Z');
    svc = await serviceAt(time, asnBundle(partner.url));
    const token = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, token);

    if (c.fault === 'dead') await partner.stop();
    else partner.set(c.fault);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().message).toMatch(
      /^Order shipped; the ASN to Retailer One failed: .+; it will be tried again$/,
    );
    let [row] = await documentRows(svc, ORDERS.parcel);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row!.error).toMatch(c.error);
    const nextInMs = c.nextInMs ?? 30_000;
    expect(row!.next_attempt_at).toBe(time.iso(nextInMs));
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBeNull();
    const listed = await svc.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${ORDERS.parcel}/documents`,
      headers: { authorization: token },
    });
    expect(listed.json().data[0]).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(c.error),
      sent_at: null,
    });
    expect(await logRows(svc, ORDERS.parcel, 'SEND_ASN')).toEqual([
      expect.objectContaining({ execution_status: 'FAILURE', correlation_id: row!.id }),
    ]);

    // Not due yet: nothing goes out.
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
    // The partner is back; the next due pass sends it once, under the same key.
    if (c.fault === 'dead') await partner.start();
    partner.set({ kind: 'ok' });
    await new Promise((resolve) => setTimeout(resolve, 50)); // a late answer's timer is gone
    const before = partner.received.length;
    time.advance(nextInMs - 1_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
    time.advance(1_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(1);
    expect(partner.received.slice(before)).toEqual([{ key: row!.id, body: row!.document }]);
    expect(new Set(partner.received.map((r) => r.key))).toEqual(new Set([row!.id]));
    [row] = await documentRows(svc, ORDERS.parcel);
    expect(row).toMatchObject({ status: 'sent', error: null, next_attempt_at: null });
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBe(row!.sent_at);
    time.advance(3_600_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
    expect(partner.received.length).toBe(before + 1);
  });

  it('a 997 to a dead partner: the interchange is taken in, the 997 fails and goes out once later', async () => {
    partner.received.length = 0;
    const time = manualClock('2030-07-01T09:00:00Z');
    svc = await serviceAt(time, inboundBundle(partner.url));
    await partner.stop();
    const admin = await svc.login('admin@a.test');
    const answer = await postInterchange(svc, admin, goldenFor('850-two-orders.edi', 961));
    expect(answer.statusCode, answer.body).toBe(200);
    const ack = () =>
      svc!.ctx.db.selectFrom('order_documents').selectAll().where('type', '=', '997').execute();
    await vi.waitFor(async () => expect((await ack())[0]!.status).toBe('failed'));
    const [failed] = await ack();
    expect(failed).toMatchObject({ attempts: 1, sent_at: null, next_attempt_at: time.iso(30_000) });
    expect(failed!.error).toMatch(/^ECONNREFUSED: /);

    await partner.start();
    time.advance(30_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(1);
    expect(partner.received).toEqual([{ key: failed!.id, body: failed!.document }]);
    expect((await ack())[0]).toMatchObject({ status: 'sent', error: null });
    time.advance(3_600_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(0);
  });

  it('a direct-API shipment confirmation to a partner that answers 500: failed, then sent once', async () => {
    partner.received.length = 0;
    partner.set({ kind: 'status', status: 500, body: 'oops' });
    const time = manualClock('2030-07-01T09:00:00Z');
    svc = await serviceAt(time, asnBundle(partner.url, { kind: 'DIRECT_API' }));
    const token = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.json().message).toBe(
      'Order shipped; the shipment confirmation to Retailer One failed: 500: oops; it will be tried again',
    );
    const [row] = await documentRows(svc, ORDERS.parcel);
    expect(row).toMatchObject({ type: 'SHIPMENT_CONFIRMATION', status: 'failed', sent_at: null });
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBeNull();

    partner.set({ kind: 'ok' });
    const before = partner.received.length;
    time.advance(30_000);
    expect(await sendDueDocuments(svc.ctx, 16)).toBe(1);
    expect(partner.received.slice(before)).toEqual([{ key: row!.id, body: row!.document }]);
    expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).not.toBeNull();
  });
});
