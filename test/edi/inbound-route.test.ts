/**
 * POST /api/v1/edi/inbound (issue 16, items 1, 2, 3, 7) through the HTTP surface: an 850 makes
 * orders with the PO's prices and log rows, and its 997 reaches the retailer through the
 * connection's transport; a repeated interchange creates nothing; only an admin of the addressed
 * connection's brand in its organisation ingests; a 997 in marks our 856.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { readX12 } from '../../src/server/edi/x12/reader';
import { manualClock } from '../helpers/clock';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import { CF_997, readWithPerl, segmentsOf } from './x12-perl';
import { goldenFor, inboundBundle, interchangeOf, postInterchange } from './inbound-support';
import { documentRows, loadParcelOrder, ORDERS, until } from './support';

describeEngines('POST /api/v1/edi/inbound', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let admin: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    // The 997s go out after the answer: let them land before the database closes.
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
  });

  async function fresh() {
    partner.clear();
    partner.handle(ok);
    svc = await createTestService({
      engine,
      seed: inboundBundle(partner.url),
      clock: manualClock('2030-07-01T09:00:00Z').clock,
    });
    admin = await svc.login('admin@a.test');
  }
  const ordersOfPo = (po: string) =>
    svc.ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('po_number', '=', po)
      .orderBy('created_at')
      .execute();
  const ingestLog = (action: string) =>
    svc.ctx.db
      .selectFrom('transactions')
      .select(['order_id', 'execution_status', 'error_message', 'correlation_id'])
      .where('action_type', '=', action)
      .orderBy('created_at')
      .execute();

  it('an 850 makes its orders with the PO prices and log rows; the 997 reaches the retailer', async () => {
    await fresh();
    const response = await postInterchange(svc, admin, goldenFor('850-two-orders.edi', 417));
    expect(response.statusCode, response.body).toBe(200);
    const data = dataOf<InterchangeSummaryView>(response);
    expect(data).toMatchObject({
      interchange_control_number: '000000417',
      duplicate: false,
      outcome: 'accepted',
    });
    expect(data.transaction_sets.map((s) => [s.type, s.status, s.po_number])).toEqual([
      ['850', 'accepted', '4500012345'],
      ['850', 'accepted', '4500012346'],
    ]);
    const [order] = await ordersOfPo('4500012345');
    expect(order).toMatchObject({
      id: data.transaction_sets[0]!.order_id,
      picksheet_code: '4500012345',
      status: 'Open',
      facility_id: '0f000000-0000-4000-8000-000000000001',
    });
    const lines = await svc.ctx.db
      .selectFrom('order_po_lines')
      .select(['line_id', 'quantity', 'unit_price', 'unit'])
      .where('order_id', '=', order!.id)
      .orderBy('line_id')
      .execute();
    expect(lines).toEqual([
      { line_id: '1', quantity: 24, unit_price: 12.5, unit: 'EA' },
      { line_id: '2', quantity: 12, unit_price: 8.75, unit: 'EA' },
      { line_id: '3', quantity: 6, unit_price: 45, unit: 'EA' },
    ]);
    const log = await ingestLog('INGEST_PURCHASE_ORDER');
    // One clock instant: the rows are compared as a set.
    expect(log.map((row) => `${row.order_id} ${row.execution_status}`).sort()).toEqual(
      data.transaction_sets.map((s) => `${s.order_id} SUCCESS`).sort(),
    );
    expect(new Set(log.map((row) => row.correlation_id))).toEqual(new Set([data.interchange_id]));

    // The 997 goes out through connection 1's transport, after the commit.
    await partner.waitFor(1);
    const ack = partner.received[0]!;
    expect(ack.headers['content-type']).toBe('application/edi-x12');
    const read = readX12(ack.body);
    expect(read.faults).toEqual([]);
    expect(read.interchange).toMatchObject({ senderId: 'SENDER1', receiverId: 'RECEIVER1' });
    const values = read.interchange!.groups[0]!.sets[0]!.segments.map((s) => s.values.join('*'));
    expect(values).toContain('AK1*PO*417');
    expect(values).toContain('AK9*A*2*2*2');
    // An independent reader agrees.
    const perl = segmentsOf(readWithPerl(ack.body, CF_997));
    expect(perl).toContainEqual(['AK1', 'PO', '417']);
    expect(perl).toContainEqual(['AK9', 'A', '2', '2', '2']);
    const [sent] = await svc.ctx.db
      .selectFrom('order_documents')
      .selectAll()
      .where('type', '=', '997')
      .execute();
    expect(sent).toMatchObject({ direction: 'out', interchange_id: data.interchange_id });
    await expect
      .poll(
        async () =>
          (
            await svc.ctx.db
              .selectFrom('order_documents')
              .select('status')
              .where('id', '=', sent!.id)
              .executeTakeFirstOrThrow()
          ).status,
      )
      .toBe('sent');
  });

  it('a bad set is rejected (AK5 R, AK9 P) while its neighbour makes its order', async () => {
    await fresh();
    const text = goldenFor('850-two-orders.edi', 421).replace(
      'PO1*10*2*EA*19.99',
      'PO1*10*XX*EA*19.99',
    );
    const response = await postInterchange(svc, admin, text);
    expect(response.statusCode, response.body).toBe(200);
    const data = dataOf<InterchangeSummaryView>(response);
    expect(data.outcome).toBe('partial');
    expect(data.transaction_sets.map((s) => s.status)).toEqual(['accepted', 'rejected']);
    expect(data.transaction_sets[1]!.errors.length).toBeGreaterThan(0);
    expect(await ordersOfPo('4500012346')).toHaveLength(0);
    expect(await ordersOfPo('4500012345')).toHaveLength(1);
    expect(
      (await ingestLog('INGEST_PURCHASE_ORDER')).map((row) => row.execution_status).sort(),
    ).toEqual(['FAILURE', 'SUCCESS']);
    await partner.waitFor(1);
    const perl = segmentsOf(readWithPerl(partner.received[0]!.body, CF_997));
    expect(perl).toContainEqual(['AK5', 'R', '5']);
    expect(perl.find((segment) => segment[0] === 'AK9')?.slice(0, 5)).toEqual([
      'AK9',
      'P',
      '2',
      '2',
      '1',
    ]);
  });

  it('the same interchange again is a duplicate: nothing is created, the 997 is sent again', async () => {
    await fresh();
    const text = goldenFor('850-two-orders.edi', 418);
    expect((await postInterchange(svc, admin, text)).statusCode).toBe(200);
    const again = await postInterchange(svc, admin, text);
    expect(again.statusCode, again.body).toBe(200);
    const data = dataOf<InterchangeSummaryView>(again);
    expect(data.duplicate).toBe(true);
    expect(data.outcome).toBe('duplicate');
    expect(data.transaction_sets.map((s) => s.status)).toEqual(['duplicate', 'duplicate']);
    expect(await ordersOfPo('4500012345')).toHaveLength(1);
    const skips = (await ingestLog('INGEST_PURCHASE_ORDER')).filter(
      (row) => row.execution_status === 'SKIP',
    );
    expect(skips).toHaveLength(2);
    await partner.waitFor(2);
  });

  it('50 parallel posts of one interchange create its orders once', async () => {
    await fresh();
    const text = goldenFor('850-two-orders.edi', 500, {
      '4500012345': '4600012345',
      '4500012346': '4600012346',
    });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => postInterchange(svc, admin, text)),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    const firsts = answers.filter((r) => !dataOf<InterchangeSummaryView>(r).duplicate);
    expect(firsts).toHaveLength(1);
    expect(await ordersOfPo('4600012345')).toHaveLength(1);
    expect(await ordersOfPo('4600012346')).toHaveLength(1);
    const stored = await svc.ctx.db.selectFrom('edi_interchanges').select(['outcome']).execute();
    expect(stored.filter((row) => row.outcome === 'accepted')).toHaveLength(1);
    expect(stored.filter((row) => row.outcome === 'duplicate')).toHaveLength(49);
  });

  it('only an admin of the connection’s brand in its organisation ingests', async () => {
    await fresh();
    const text = goldenFor('850-two-orders.edi', 419);
    const notFound = {
      message: 'No EDI connection of yours takes interchanges from "RECEIVER1" to "SENDER1"',
      error: { code: 'NOT_FOUND' },
    };
    // A user of facility 1 with no admin grant.
    const viewer = await postInterchange(svc, await svc.login('viewer@a.test'), text);
    expect(viewer.statusCode).toBe(404);
    expect(viewer.json()).toMatchObject(notFound);
    // Brand 1's admin, but in organisation 2 only: connection 1 is organisation 1's.
    const charlie = await postInterchange(svc, await svc.login('charlie1@b.test'), text);
    expect(charlie.statusCode).toBe(404);
    expect(charlie.json()).toMatchObject(notFound);
    // Addressed to nobody: the same answer.
    const nobody = await postInterchange(svc, admin, text.replaceAll('RECEIVER1', 'STRANGER1'));
    expect(nobody.statusCode).toBe(404);
    expect(await ordersOfPo('4500012345')).toHaveLength(0);
    // Brand 1's admin in both organisations may.
    const brandAdmin = await postInterchange(svc, await svc.login('brand1@a.test'), text);
    expect(brandAdmin.statusCode, brandAdmin.body).toBe(200);
    expect(await ordersOfPo('4500012345')).toHaveLength(1);
  });

  it('bad input answers 4xx in the envelope, never 500', async () => {
    await fresh();
    const text = goldenFor('850-two-orders.edi', 420);
    const cases = [
      [await postInterchange(svc, admin, text, 'application/json'), 400],
      [await postInterchange(svc, admin, text, 'text/plain'), 415],
      [await postInterchange(svc, admin, ''), 400],
      [await postInterchange(svc, admin, 'hello, this is not X12'), 400],
      [await postInterchange(svc, admin, 'ISA*00*'), 400],
      [await postInterchange(svc, admin, 'x'.repeat(17 * 1024 * 1024)), 413],
    ] as const;
    for (const [response, status] of cases) {
      expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
      expect(response.json()).toMatchObject({
        message: expect.any(String),
        error: { code: expect.any(String) },
      });
    }
    // A 415 names the media type this route takes, also for a JSON body that parses.
    expect(cases[1][0].json().message).toBe('Unsupported Content-Type; send application/edi-x12');
    const json = await postInterchange(svc, admin, '{"interchange":"850"}', 'application/json');
    expect(json.statusCode, json.body).toBe(415);
    expect(json.json().message).toBe('Unsupported Content-Type; send application/edi-x12');
    // An envelope with no group is refused: stored as refused, no 997, nothing created.
    const isa = text.split('\n')[0]!.replace('000000420', '000000421');
    const empty = await postInterchange(svc, admin, `${isa}\nIEA*0*000000421~\n`);
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json().message).toContain('The interchange holds no functional group');
    expect(
      await svc.ctx.db
        .selectFrom('edi_interchanges')
        .select(['outcome', 'control_number'])
        .execute(),
    ).toEqual([{ outcome: 'refused', control_number: '000000421' }]);
    const noAuth = await svc.app.inject({
      method: 'POST',
      url: '/api/v1/edi/inbound',
      headers: { 'content-type': 'application/edi-x12' },
      payload: text,
    });
    expect(noAuth.statusCode).toBe(401);
    expect(await ordersOfPo('4500012345')).toHaveLength(0);
  });

  it('a 997 in marks our 856 accepted or rejected, with ASN_STATUS_CHECK rows; it gets no 997', async () => {
    await fresh();
    const packer = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, packer);
    expect((await api.step(ORDERS.parcel, 'ship')).statusCode).toBe(200);
    await partner.waitFor(1);
    const [asn] = await documentRows(svc, ORDERS.parcel);
    expect(asn).toMatchObject({ type: '856', status: 'sent' });
    const ack = (code: string, control: number) =>
      interchangeOf('FA', 900 + control, control, [
        [
          ['997'],
          ['AK1', 'SH', String(asn!.group_control_number)],
          ['AK2', '856', asn!.transaction_control_number!],
          ['AK5', code],
          ['AK9', code, '1', '1', code === 'R' ? '0' : '1'],
        ],
      ]);
    const rejected = await postInterchange(svc, admin, ack('R', 801));
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(dataOf<InterchangeSummaryView>(rejected).transaction_sets).toEqual([
      expect.objectContaining({ type: '997', status: 'accepted', order_id: ORDERS.parcel }),
    ]);
    expect((await documentRows(svc, ORDERS.parcel))[0]).toMatchObject({
      status: 'rejected',
      acknowledged_at: '2030-07-01T09:00:00.000Z',
    });
    expect(await ingestLog('ASN_STATUS_CHECK')).toEqual([
      expect.objectContaining({ order_id: ORDERS.parcel, execution_status: 'FAILURE' }),
    ]);
    const accepted = await postInterchange(svc, admin, ack('A', 802));
    expect(accepted.statusCode).toBe(200);
    expect((await documentRows(svc, ORDERS.parcel))[0]).toMatchObject({ status: 'accepted' });
    // A 997 for a group we never sent is noted, not matched.
    const stray = await postInterchange(
      svc,
      admin,
      interchangeOf('FA', 999, 803, [
        [
          ['997'],
          ['AK1', 'SH', '77777'],
          ['AK2', '856', '0001'],
          ['AK5', 'A'],
          ['AK9', 'A', '1', '1', '1'],
        ],
      ]),
    );
    expect(dataOf<InterchangeSummaryView>(stray).transaction_sets[0]).toMatchObject({
      status: 'rejected',
      errors: [expect.stringContaining('group 77777')],
    });
    // No 997 answers a group of 997s: the partner got the 856 only.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(partner.received).toHaveLength(1);
  });
});
