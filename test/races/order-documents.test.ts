/**
 * Order documents under 50 parallel requests, on both engines: POST …/acknowledge (855) called
 * 50 times at once for one order (each call is one document, with its own control numbers, sent
 * exactly once) and POST …/invoice (810) 50 times at once (one invoice per order: one 810, 49
 * refusals; decision 0228); and a failed document retried by 50 clerks while 50 drainer passes run: sent
 * once; and 50 ship requests at once: one ships, one 856.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendDueDocuments } from '../../src/server/edi';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import {
  asnBundle,
  documentRows,
  FAST_POLICY,
  loadFreightOrder,
  loadParcelOrder,
  logRows,
  ORDERS,
} from '../edi/support';

const PACKER = 'packer@a.test';
const N = 50;

/** ISA13, GS06 and ST02 of an X12 interchange as sent. */
function controlNumbers(body: string) {
  const segments = body.split('~').map((s) => s.trim().split('*'));
  const of = (tag: string, at: number) => segments.find((s) => s[0] === tag)![at]!;
  return { isa: Number(of('ISA', 13)), gs: Number(of('GS', 6)), st: of('ST', 2) };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describeEngines('order documents under 50 parallel requests', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let token: string;
  const time = manualClock('2030-07-01T09:00:00Z');

  beforeAll(async () => {
    partner = await startReceiver(ok, 'races-retailer');
    svc = await createTestService({
      engine,
      seed: asnBundle(partner.url, { send: ['855', '856', '810'] }),
      clock: time.clock,
      deliveryPolicy: FAST_POLICY,
    });
    token = await svc.login(PACKER);
  });
  afterAll(async () => {
    await svc?.close();
    await partner?.close();
  });

  const post = (orderId: string, path: string) =>
    svc.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/${path}`,
      headers: { authorization: token },
    });

  /** The bodies the partner received since `from`, by type (GS01), with their numbers. */
  const receivedSince = (from: number, functionalId: string) =>
    partner.received
      .slice(from)
      .filter((r) => r.body.includes(`~GS*${functionalId}*`))
      .map((r) => ({ ...controlNumbers(r.body), key: r.headers['idempotency-key'] }));

  it('50 acknowledgments at once: 50 855s, interchange numbers 1 to 50, each sent once', async () => {
    const answers = await Promise.all(
      Array.from({ length: N }, () => post(ORDERS.freight, 'acknowledge')),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.json().message).toBe('The acknowledgment was sent to Retailer One');
    }
    const rows = (await documentRows(svc, ORDERS.freight)).filter((d) => d.type === '855');
    expect(rows).toHaveLength(N);
    expect(rows.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
    expect(rows.map((d) => d.interchange_control_number).sort((a, b) => a! - b!)).toEqual(
      range(1, N),
    );
    expect(new Set(rows.map((d) => d.group_control_number)).size).toBe(N);
    const sent = receivedSince(0, 'PR');
    expect(sent.map((s) => s.isa).sort((a, b) => a - b)).toEqual(range(1, N));
    expect(new Set(sent.map((s) => s.gs)).size).toBe(N);
    expect(new Set(sent.map((s) => s.key))).toEqual(new Set(rows.map((d) => d.id)));
    expect(await logRows(svc, ORDERS.freight, 'SEND_PO_ACK')).toHaveLength(N);
  });

  it('50 invoices at once of a shipped order: one 810, sent once; 49 are told it is invoiced', async () => {
    const api = await loadParcelOrder(svc, token);
    expect((await api.step(ORDERS.parcel, 'ship')).statusCode).toBe(200);
    await svc.ctx.db
      .updateTable('order_items')
      .set({ pass_through_json: JSON.stringify({ line_id: '10', unit_price: '4.25' }) })
      .where('order_id', '=', ORDERS.parcel)
      .execute();
    const from = partner.received.length;
    const answers = await Promise.all(
      Array.from({ length: N }, () => post(ORDERS.parcel, 'invoice')),
    );
    const invoiced = answers.filter((a) => a.statusCode === 200);
    expect(invoiced).toHaveLength(1);
    expect(invoiced[0]!.json().message).toBe('The invoice was sent to Retailer One');
    for (const answer of answers.filter((a) => a.statusCode !== 200)) {
      expect(answer.statusCode, answer.body).toBe(409);
      // The winner's invoice is queued until its send after the commit, then sent.
      expect(answer.json().message).toMatch(
        /^This order is already invoiced: (its invoice waits to be sent|a new invoice goes out only if the retailer rejects it)$/,
      );
    }
    const rows = (await documentRows(svc, ORDERS.parcel)).filter((d) => d.type === '810');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 1 });
    // The 855s took 1 to 50 and the ship's 856 took 51 on the same connection.
    const sent = receivedSince(from, 'IN');
    expect(sent.map((s) => s.isa)).toEqual([N + 2]);
    expect(sent.map((s) => s.key)).toEqual([rows[0]!.id]);
    expect(await logRows(svc, ORDERS.parcel, 'SEND_INVOICE')).toHaveLength(1);
  });

  it('a failed document retried by 50 clerks while 50 drainer passes run is sent once', async () => {
    partner.handle(respond(503, 'busy'));
    const failed = await post(ORDERS.freight, 'acknowledge');
    expect(failed.statusCode, failed.body).toBe(200);
    const id: string = failed.json().data.documents[0].id;
    const [row] = (await documentRows(svc, ORDERS.freight)).filter((d) => d.id === id);
    expect(row).toMatchObject({ status: 'failed' });
    expect(row!.next_attempt_at).not.toBeNull();
    partner.handle(ok);
    time.advance(60_000);
    token = await svc.login(PACKER);
    const from = partner.received.length;
    const [answers, passes] = await Promise.all([
      Promise.all(Array.from({ length: N }, () => post(ORDERS.freight, `documents/${id}/retry`))),
      Promise.all(Array.from({ length: N }, () => sendDueDocuments(svc.ctx, 16))),
    ]);
    const delivered = partner.received
      .slice(from)
      .filter((r) => r.headers['idempotency-key'] === id);
    expect(delivered).toHaveLength(1);
    const byRetry = answers.filter(
      (a) => a.statusCode === 200 && a.json().message === 'Document sent',
    );
    // A pass counts what it claimed, which may turn out sent meanwhile: the partner and the
    // row's attempts are the proof; at most one clerk hears it was sent.
    expect(byRetry.length).toBeLessThanOrEqual(1);
    expect(passes.every((n) => n <= 1)).toBe(true);
    // Every other clerk is told why nothing was sent, in the envelope.
    for (const answer of answers.filter((a) => !byRetry.includes(a))) {
      expect([200, 409]).toContain(answer.statusCode);
      expect(answer.json().message).toMatch(
        /^(This document is being sent right now|This document is sent; only a failed document is sent again|Document not sent: it changed meanwhile)$/,
      );
    }
    const [after] = (await documentRows(svc, ORDERS.freight)).filter((d) => d.id === id);
    expect(after).toMatchObject({ status: 'sent', attempts: row!.attempts + 1 });
  });

  it('50 ship requests at once: one ships and sends one 856, 49 are refused with 409', async () => {
    await loadFreightOrder(svc, token);
    const from = partner.received.length;
    const answers = await Promise.all(
      Array.from({ length: N }, () => post(ORDERS.freight, 'ship')),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(N - 1);
    const refusals = new Set(
      answers.filter((a) => a.statusCode === 409).map((a) => a.json().message as string),
    );
    expect([...refusals]).toEqual([
      'This order is shipped. It can be shipped only while it is loaded.',
    ]);
    const asns = (await documentRows(svc, ORDERS.freight)).filter((d) => d.type === '856');
    expect(asns).toHaveLength(1);
    expect(asns[0]).toMatchObject({ status: 'sent', attempts: 1 });
    expect(receivedSince(from, 'SH').map((s) => s.key)).toEqual([asns[0]!.id]);
  });
});
