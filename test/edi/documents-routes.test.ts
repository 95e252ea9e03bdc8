/**
 * The outbound documents screens' routes (issue 16, item 9): every visible document by status
 * (overdue by the connection's ack_hours), the header's summary, one document read and
 * downloaded, and an order's timeline from the 850 that made it to the 997 that answered its 855.
 * Visibility is the order's: a same-brand user at another facility and another tenant see none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { manualClock } from '../helpers/clock';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import { goldenFor, inboundBundle, interchangeOf, postInterchange } from './inbound-support';
import { loadParcelOrder, ORDERS, until } from './support';
import type {
  EdiDocumentPage,
  EdiDocumentSummary,
  OrderDocumentDetail,
  OrderTimeline,
} from '../../src/shared/edi-documents';

const HOUR = 3_600_000;

/**
 * Connection 1 takes inbound POs into facility 1 and sends 855s and 856s; charlie@a.test is a user
 * of brand 1 at facility 3, in the other organisation.
 */
function bundle(url: string) {
  const base = inboundBundle(url, { send: ['855', '856'], facility_id: id('f', 1) });
  return {
    ...base,
    users: [
      ...base.users,
      {
        email: 'charlie@a.test',
        password: TEST_PASSWORD,
        brand_id: id('b', 1),
        facility_ids: [id('f', 3)],
        admin: [],
      },
    ],
  };
}

describeEngines('outbound documents: list, summary, one document, timeline', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  const time = manualClock('2030-07-01T09:00:00Z');
  const tokens: Record<string, string> = {};
  let poOrder: string;
  let ackId: string;
  let asnId: string;

  const get = (user: string, url: string) =>
    svc.app.inject({ method: 'GET', url, headers: { authorization: tokens[user]! } });
  const summary = async (user: string) => {
    const response = await get(user, '/api/v1/edi/documents/summary');
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<EdiDocumentSummary>(response);
  };
  const list = async (user: string, query = '') => {
    const response = await get(user, `/api/v1/edi/documents${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return dataOf<EdiDocumentPage>(response);
  };

  beforeAll(async () => {
    partner = await startReceiver(ok, 'documents-partner');
    svc = await createTestService({
      engine,
      seed: bundle(partner.url),
      clock: time.clock,
    });
    for (const user of [
      'admin@a.test',
      'packer@a.test',
      'bravo@a.test',
      'charlie@a.test',
      'brand2@b.test',
    ]) {
      tokens[user] = await svc.login(user);
    }
    // An 850 makes two orders at facility 1.
    const posted = await postInterchange(
      svc,
      tokens['admin@a.test']!,
      goldenFor('850-two-orders.edi', 417),
    );
    expect(posted.statusCode, posted.body).toBe(200);
    const order = await svc.ctx.db
      .selectFrom('orders')
      .select(['id', 'facility_id'])
      .where('po_number', '=', '4500012345')
      .executeTakeFirstOrThrow();
    expect(order.facility_id).toBe(id('f', 1));
    poOrder = order.id;
  });
  afterAll(async () => {
    if (svc) await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the sends');
    await svc?.close();
    await partner?.close();
  });

  it('the timeline of an order from an 850 offers the Acknowledge panel with the PO lines', async () => {
    const response = await get('packer@a.test', `/api/v1/orders/${poOrder}/document-timeline`);
    expect(response.statusCode, response.body).toBe(200);
    const timeline = dataOf<OrderTimeline>(response);
    expect(timeline.entries).toEqual([
      expect.objectContaining({
        direction: 'in',
        type: '850',
        status: 'accepted',
        control_number: '000000417',
        document_id: null,
        answers: [],
      }),
    ]);
    expect(timeline.acknowledgment).toMatchObject({ available: true, reason: null });
    expect(timeline.acknowledgment.lines.map((line) => line.line_id)).toEqual(['1', '2', '3']);
  });

  it('an 855 with a rejected line, then the retailer’s 997: the timeline shows both, in order', async () => {
    time.advance();
    const acked = await svc.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${poOrder}/acknowledge`,
      headers: { authorization: tokens['packer@a.test']! },
      payload: { lines: [{ line_id: '2', status: 'rejected' }] },
    });
    expect(acked.statusCode, acked.body).toBe(200);
    ackId = acked.json().data.documents[0].id;
    const ack = await svc.ctx.db
      .selectFrom('order_documents')
      .selectAll()
      .where('id', '=', ackId)
      .executeTakeFirstOrThrow();
    expect(ack.status).toBe('sent');

    time.advance();
    const answer = await postInterchange(
      svc,
      tokens['admin@a.test']!,
      interchangeOf('FA', 951, 951, [
        [
          ['997'],
          ['AK1', 'PR', String(ack.group_control_number)],
          ['AK2', '855', ack.transaction_control_number!],
          ['AK5', 'A'],
          ['AK9', 'A', '1', '1', '1'],
        ],
      ]),
    );
    expect(answer.statusCode, answer.body).toBe(200);

    const timeline = dataOf<OrderTimeline>(
      await get('packer@a.test', `/api/v1/orders/${poOrder}/document-timeline`),
    );
    expect(timeline.entries.map((e) => [e.direction, e.type, e.status])).toEqual([
      ['in', '850', 'accepted'],
      ['out', '855', 'accepted'],
    ]);
    expect(timeline.entries[1]).toMatchObject({
      document_id: ackId,
      answers: [
        {
          outcome: 'accepted',
          interchange_control_number: '000000951',
          received_at: time.iso(),
        },
      ],
    });
  });

  it('one document reads one segment per line and downloads as sent', async () => {
    const response = await get('packer@a.test', `/api/v1/orders/${poOrder}/documents/${ackId}`);
    expect(response.statusCode, response.body).toBe(200);
    const detail = dataOf<OrderDocumentDetail>(response);
    expect(detail).toMatchObject({ id: ackId, type: '855', status: 'accepted' });
    const lines = detail.readable!.split('\n');
    expect(lines[0]).toMatch(/^ISA\*.*~$/);
    expect(lines[1]).toMatch(/^GS\*PR\*/);
    expect(lines).toContain('ACK*IR*12*EA~');
    expect(lines.at(-1)).toMatch(/^IEA\*1\*/);

    const download = await get(
      'packer@a.test',
      `/api/v1/orders/${poOrder}/documents/${ackId}/content`,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toMatch(/^application\/edi-x12/);
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+"/);
    const stored = await svc.ctx.db
      .selectFrom('order_documents')
      .select('document')
      .where('id', '=', ackId)
      .executeTakeFirstOrThrow();
    expect(download.body).toBe(stored.document);
  });

  it('lists every visible outbound document newest first; overdue after ack_hours; failed counts', async () => {
    const api = await loadParcelOrder(svc, tokens['packer@a.test']!);
    time.advance();
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode, shipped.body).toBe(200);
    asnId = (
      await svc.ctx.db
        .selectFrom('order_documents')
        .select('id')
        .where('order_id', '=', ORDERS.parcel)
        .where('type', '=', '856')
        .executeTakeFirstOrThrow()
    ).id;

    let page = await list('packer@a.test');
    expect(page.documents.map((d) => [d.type, d.status, d.order.id])).toEqual([
      ['856', 'sent', ORDERS.parcel],
      ['855', 'accepted', poOrder],
    ]);
    expect(page.documents[1]!.order.po_number).toBe('4500012345');
    expect(page.total_count).toBe(2);

    // 24 hours (the default ack_hours) without a 997: the ASN is overdue, the answered 855 not.
    time.advance(24 * HOUR + 1);
    // Tokens age with the clock: sign in again.
    for (const user of Object.keys(tokens)) tokens[user] = await svc.login(user);
    page = await list('packer@a.test', '?status=overdue');
    expect(page.documents.map((d) => d.id)).toEqual([asnId]);
    expect((await list('packer@a.test', '?status=sent')).total_count).toBe(0);
    expect((await list('packer@a.test', '?type=855')).documents.map((d) => d.id)).toEqual([ackId]);

    await svc.ctx.db
      .updateTable('order_documents')
      .set({ status: 'failed', error: 'The partner answered 503' })
      .where('id', '=', ackId)
      .execute();
    expect(await summary('packer@a.test')).toEqual({
      counts: {
        queued: 0,
        sent: 0,
        failed: 1,
        accepted: 0,
        accepted_with_errors: 0,
        rejected: 0,
        overdue: 1,
      },
      needs_attention: 2,
    });
    // Retry is offered for a failed document with content, not for one that could not be built.
    const ackEntry = async () =>
      dataOf<OrderTimeline>(
        await get('packer@a.test', `/api/v1/orders/${poOrder}/document-timeline`),
      ).entries.find((entry) => entry.document_id === ackId);
    expect(await ackEntry()).toMatchObject({ status: 'failed', retryable: true });
    const built = await svc.ctx.db
      .selectFrom('order_documents')
      .select(['document', 'content_type'])
      .where('id', '=', ackId)
      .executeTakeFirstOrThrow();
    const setContent = (content: typeof built) =>
      svc.ctx.db.updateTable('order_documents').set(content).where('id', '=', ackId).execute();
    await setContent({ document: null, content_type: null });
    expect(await ackEntry()).toMatchObject({ status: 'failed', retryable: false });
    await setContent(built);
    page = await list('packer@a.test', '?page_size=1&page=2');
    expect(page).toMatchObject({ page: 2, page_size: 1, total_count: 2 });
    expect(page.documents.map((d) => d.id)).toEqual([ackId]);
    // The order page's own list agrees with the rule.
    const ofOrder = await get('packer@a.test', `/api/v1/orders/${ORDERS.parcel}/documents`);
    expect(ofOrder.json().data[0]).toMatchObject({ id: asnId, status: 'overdue' });
  });

  it('same-brand users at another facility or organisation and another tenant see none of it (404 alike)', async () => {
    for (const user of ['bravo@a.test', 'charlie@a.test', 'brand2@b.test']) {
      expect(await list(user)).toMatchObject({ total_count: 0, documents: [] });
      expect((await summary(user)).needs_attention).toBe(0);
      for (const url of [
        `/api/v1/orders/${poOrder}/document-timeline`,
        `/api/v1/orders/${poOrder}/documents/${ackId}`,
        `/api/v1/orders/${poOrder}/documents/${ackId}/content`,
      ]) {
        expectError(await get(user, url), 404, 'NOT_FOUND', 'Order not found');
      }
    }
    // A document asked for under another (visible) order is not found either.
    for (const suffix of ['', '/content']) {
      expectError(
        await get('packer@a.test', `/api/v1/orders/${ORDERS.parcel}/documents/${ackId}${suffix}`),
        404,
        'NOT_FOUND',
        'Document not found',
      );
    }
  });

  it('bad input answers 400 in the envelope', async () => {
    for (const query of [
      '?status=lost',
      '?type=999',
      '?page=0',
      '?page_size=101',
      '?retailer_id=x',
    ]) {
      expectError(
        await get('packer@a.test', `/api/v1/edi/documents${query}`),
        400,
        'INVALID_REQUEST',
        'Invalid query parameters',
      );
    }
    expectError(
      await get('packer@a.test', `/api/v1/orders/${poOrder}/documents/not-a-uuid`),
      400,
      'INVALID_REQUEST',
      'Invalid ID format',
    );
  });

  it('50 parallel summaries agree', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => get('packer@a.test', '/api/v1/edi/documents/summary')),
    );
    for (const response of answers) {
      expect(response.statusCode).toBe(200);
      expect(dataOf<EdiDocumentSummary>(response).needs_attention).toBe(2);
    }
  });
});
