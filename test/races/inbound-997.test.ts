/**
 * 997s in, matched to our documents by GS06 (AK1) and ST02 (AK2), under 50 parallel posts on
 * both engines: 50 different 997s answering 50 855s each mark their own document once; 50 posts
 * of one 997 are one interchange and 49 duplicates, with one status check logged; 50 posts of one
 * 850 (auto_acknowledge) make its orders and their 855s once and answer each post with a 997, and
 * every interchange the connection sent has its own ISA13.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { id } from '../helpers/fixtures';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import { goldenFor, inboundBundle, interchangeOf, postInterchange } from '../edi/inbound-support';
import { documentRows, ORDERS, until } from '../edi/support';

const N = 50;

describeEngines('997s in under 50 parallel posts', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  let admin: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'races-997');
    svc = await createTestService({
      engine,
      seed: inboundBundle(partner.url, {
        send: ['855', '856'],
        auto_acknowledge: true,
        facility_id: id('f', 1),
      }),
      clock: manualClock('2030-07-01T09:00:00Z').clock,
    });
    admin = await svc.login('admin@a.test');
    const packer = await svc.login('packer@a.test');
    const acks = await Promise.all(
      Array.from({ length: N }, () =>
        svc.app.inject({
          method: 'POST',
          url: `/api/v1/orders/${ORDERS.freight}/acknowledge`,
          headers: { authorization: packer },
        }),
      ),
    );
    for (const ack of acks) expect(ack.statusCode, ack.body).toBe(200);
  });
  afterAll(async () => {
    if (svc) await until(() => svc.ctx.deliveriesInFlight.size === 0, 'sends');
    await svc?.close();
    await partner?.close();
  });

  const acks = async () =>
    (await documentRows(svc, ORDERS.freight)).filter((d) => d.type === '855');
  const checks = () =>
    svc.ctx.db
      .selectFrom('transactions')
      .select(['execution_status'])
      .where('action_type', '=', 'PO_ACK_STATUS_CHECK')
      .execute();
  const answering = (
    doc: { group_control_number: number | null; transaction_control_number: string | null },
    code: string,
    control: number,
  ) =>
    interchangeOf('FA', 5000 + control, control, [
      [
        ['997'],
        ['AK1', 'PR', String(doc.group_control_number)],
        ['AK2', '855', doc.transaction_control_number!],
        ['AK5', code],
        ['AK9', code, '1', '1', code === 'R' ? '0' : '1'],
      ],
    ]);

  it('50 different 997s at once: each marks the 855 it names, accepted or rejected', async () => {
    const docs = await acks();
    expect(docs).toHaveLength(N);
    const answers = await Promise.all(
      docs.map((doc, i) => postInterchange(svc, admin, answering(doc, i % 2 ? 'R' : 'A', 100 + i))),
    );
    for (const answer of answers) {
      expect(answer.statusCode, answer.body).toBe(200);
      expect(dataOf<InterchangeSummaryView>(answer).transaction_sets).toEqual([
        expect.objectContaining({ type: '997', status: 'accepted', order_id: ORDERS.freight }),
      ]);
    }
    const after = new Map((await acks()).map((d) => [d.id, d.status]));
    docs.forEach((doc, i) =>
      expect(after.get(doc.id), doc.id).toBe(i % 2 ? 'rejected' : 'accepted'),
    );
    const logged = await checks();
    expect(logged.filter((c) => c.execution_status === 'SUCCESS')).toHaveLength(N / 2);
    expect(logged.filter((c) => c.execution_status === 'FAILURE')).toHaveLength(N / 2);
  });

  it('one 997 posted 50 times at once: one interchange, 49 duplicates, one status check', async () => {
    const [first] = await acks();
    const before = (await checks()).length;
    const text = answering(first!, 'A', 900);
    const answers = await Promise.all(
      Array.from({ length: N }, () => postInterchange(svc, admin, text)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    const duplicates = answers.filter((a) => dataOf<InterchangeSummaryView>(a).duplicate);
    expect(duplicates).toHaveLength(N - 1);
    expect((await checks()).length).toBe(before + 1);
    const stored = await svc.ctx.db
      .selectFrom('edi_interchanges')
      .select(['outcome'])
      .where('control_number', '=', '000000900')
      .execute();
    expect(stored.map((s) => s.outcome).sort()).toEqual(
      ['accepted', ...Array<string>(N - 1).fill('duplicate')].sort(),
    );
  });

  it('one 850 posted 50 times at once: its orders and their 855s once, a 997 to each post', async () => {
    const from = partner.received.length;
    const text = goldenFor('850-two-orders.edi', 700, {
      '4500012345': '4700012345',
      '4500012346': '4700012346',
    });
    const answers = await Promise.all(
      Array.from({ length: N }, () => postInterchange(svc, admin, text)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(N).fill(200));
    expect(answers.filter((a) => dataOf<InterchangeSummaryView>(a).duplicate)).toHaveLength(N - 1);
    const orders = await svc.ctx.db
      .selectFrom('orders')
      .select('id')
      .where('po_number', 'in', ['4700012345', '4700012346'])
      .execute();
    expect(orders).toHaveLength(2);
    const acks = await svc.ctx.db
      .selectFrom('order_documents')
      .select('order_id')
      .where('type', '=', '855')
      .where(
        'order_id',
        'in',
        orders.map((o) => o.id),
      )
      .execute();
    expect(acks.map((a) => a.order_id).sort()).toEqual(orders.map((o) => o.id).sort());
    // A 997 answers every post, the duplicates too; the two 855s go out once each.
    await partner.waitFor(from + N + 2);
    const out = partner.received.slice(from);
    expect(out.filter((r) => r.body.includes('~GS*FA*'))).toHaveLength(N);
    expect(out.filter((r) => r.body.includes('~GS*PR*'))).toHaveLength(2);
    // Every interchange the connection ever sent has its own ISA13.
    const isa13s = partner.received.map((r) => r.body.split('*')[13]);
    expect(new Set(isa13s).size).toBe(partner.received.length);
  });
});
