/**
 * Issue 16, the round trip over HTTP: an 850 in makes an order; it is acknowledged (855), packed
 * and shipped (856) and invoiced (810), each delivered to a loopback retailer; the retailer's
 * 997s come in for each. The order's documents list and its transaction log agree, document by
 * document, and every outbound document reads with the independent Perl X12::Parser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InterchangeSummaryView } from '../../src/shared/edi-inbound';
import { readX12 } from '../../src/server/edi/x12/reader';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { client, dataOf } from '../fulfilment/support';
import { inboundBundle, interchangeOf, postInterchange } from './inbound-support';
import { FAST_POLICY, until } from './support';
import { CF_810, CF_855, CF_856, readWithPerl, segmentsOf } from './x12-perl';

const PO = 'RT-4500777';

/** One 850: 2 SKU-RED at 4.25 (PO line 10), into facility 1 (the connection's default). */
const PURCHASE_ORDER = interchangeOf('PO', 801, 801, [
  [
    ['850'],
    ['BEG', '00', 'SA', PO, '', '20300701'],
    ['N1', 'ST', 'RETAILER DC 7', '92', '0007'],
    ['N3', '1 DOCK ROAD'],
    ['N4', 'COLUMBUS', 'OH', '43219', 'US'],
    ['PO1', '10', '2', 'EA', '4.25', 'PE', 'UP', '012345678905', 'VN', 'SKU-RED'],
    ['CTT', '1', '2'],
  ],
]);

const FUNCTIONAL = { '855': 'PR', '856': 'SH', '810': 'IN' } as const;
const CF = { '855': CF_855, '856': CF_856, '810': CF_810 } as const;
const SEND_CODE = { '855': 'SEND_PO_ACK', '856': 'SEND_ASN', '810': 'SEND_INVOICE' } as const;
const CHECK_CODE = {
  '855': 'PO_ACK_STATUS_CHECK',
  '856': 'ASN_STATUS_CHECK',
  '810': 'INVOICE_STATUS_CHECK',
} as const;
type Outbound = keyof typeof FUNCTIONAL;

interface DocumentView {
  id: string;
  type: string;
  direction: string;
  status: string;
  interchange_control_number: number | null;
  group_control_number: number | null;
  transaction_control_number: string | null;
}
interface LogRow {
  action_type: string;
  execution_status: string;
  correlation_id: string | null;
  request_payload: unknown;
}

describe('round trip: 850 in, 855/856/810 out, 997s in', () => {
  let partner: Receiver;
  let svc: TestService;
  let admin: string;
  let packer: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    svc = await createTestService({
      seed: inboundBundle(partner.url, { facility_id: id('f', 1), send: ['855', '856', '810'] }),
      deliveryPolicy: FAST_POLICY,
    });
    admin = await svc.login('admin@a.test');
    packer = await svc.login('packer@a.test');
  });
  afterAll(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the sends');
    await svc?.close();
    await partner?.close();
  });

  it('the documents list and the log agree, document by document', async () => {
    // 850 in.
    const answer = await postInterchange(svc, admin, PURCHASE_ORDER);
    expect(answer.statusCode, answer.body).toBe(200);
    const [set] = dataOf<InterchangeSummaryView>(answer).transaction_sets;
    expect(set).toMatchObject({ status: 'accepted', po_number: PO });
    const orderId = set!.order_id!;

    // 855, then pack and ship (856), then 810: each reported sent.
    const api = client(svc, packer);
    const asAdmin = client(svc, admin);
    const acknowledged = await asAdmin.step(orderId, 'acknowledge', {});
    expect(acknowledged.statusCode, acknowledged.body).toBe(200);
    expect(acknowledged.json().message).toBe('The acknowledgment was sent to Retailer One');
    for (const step of ['start-picking']) expectOk(await api.step(orderId, step));
    const carton = await api.pack(orderId, { skus: [{ sku: 'SKU-RED', quantity: 2 }] });
    expectOk(carton);
    expectOk(await api.step(orderId, 'complete-packing'));
    const cartonId = dataOf<{ carton: { id: string } }>(carton).carton.id;
    expectOk(await api.pallet(orderId, { carton_ids: [cartonId] }));
    for (const step of ['stage', 'load']) expectOk(await api.step(orderId, step));
    // The BOL comes from an uploaded PDF in the app; its numbers are set directly here, as in
    // the other ASN tests (./support.ts loadFreightOrder).
    await svc.ctx.db
      .updateTable('orders')
      .set({ bill_of_lading_number: 'BOL-88', carrier: 'Old Dominion', carrier_alpha_code: 'ODFL' })
      .where('id', '=', orderId)
      .execute();
    const shipped = await api.step(orderId, 'ship');
    expect(shipped.json().message, shipped.body).toBe(
      'Order shipped; the ASN was sent to Retailer One',
    );
    const invoiced = await asAdmin.step(orderId, 'invoice');
    expect(invoiced.statusCode, invoiced.body).toBe(200);
    expect(invoiced.json().message).toBe('The invoice was sent to Retailer One');
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the sends');

    // What the retailer received: the 997 for the 850, then 855, 856, 810; each outbound
    // document reads with Perl's X12::Parser and names the PO.
    const received = partner.received.map((r) => r.body);
    const byGroup = (functionalId: string) =>
      received.filter(
        (body) => readX12(body).interchange!.groups[0]!.functionalId === functionalId,
      );
    expect(byGroup('FA')).toHaveLength(1);
    for (const type of ['855', '856', '810'] as const) {
      const bodies = byGroup(FUNCTIONAL[type]);
      expect(bodies, type).toHaveLength(1);
      const segments = segmentsOf(readWithPerl(bodies[0]!, CF[type]));
      expect(segments.find((s) => s[0] === 'ST')?.[1], type).toBe(type);
      expect(segments.flat().join('*'), type).toContain(PO);
    }

    // The retailer's 997 for each: accepted.
    const listed = async () => {
      const response = await asAdmin.call('GET', `/api/v1/orders/${orderId}/documents`);
      expect(response.statusCode, response.body).toBe(200);
      return dataOf<DocumentView[]>(response);
    };
    const outbound = (await listed()).filter((d) => d.type in FUNCTIONAL) as (DocumentView & {
      type: Outbound;
    })[];
    expect(outbound.map((d) => [d.type, d.status]).sort()).toEqual([
      ['810', 'sent'],
      ['855', 'sent'],
      ['856', 'sent'],
    ]);
    for (const [index, document] of outbound.entries()) {
      const ack = interchangeOf('FA', 900 + index, 900 + index, [
        [
          ['997'],
          ['AK1', FUNCTIONAL[document.type], String(document.group_control_number)],
          ['AK2', document.type, document.transaction_control_number!],
          ['AK5', 'A'],
          ['AK9', 'A', '1', '1', '1'],
        ],
      ]);
      const response = await postInterchange(svc, admin, ack);
      expect(response.statusCode, response.body).toBe(200);
    }

    // The list and the log, document by document.
    const documents = await listed();
    const log = await logOf(orderId);
    const rows = (code: string) => log.filter((row) => row.action_type === code);
    expect(rows('INGEST_PURCHASE_ORDER').map((r) => r.execution_status)).toEqual(['SUCCESS']);
    for (const type of ['855', '856', '810'] as const) {
      const document = documents.find((d) => d.type === type && d.direction === 'out');
      expect(document?.status, type).toBe('accepted');
      const sends = rows(SEND_CODE[type]);
      expect(
        sends.map((r) => [r.correlation_id, r.execution_status]),
        type,
      ).toEqual([[document!.id, 'SUCCESS']]);
      const checks = rows(CHECK_CODE[type]);
      expect(checks, type).toHaveLength(1);
      expect(checks[0]!.execution_status).toBe('SUCCESS');
      expect(checks[0]!.request_payload).toMatchObject({
        document_id: document!.id,
        group_control_number: document!.group_control_number,
        transaction_control_number: document!.transaction_control_number,
        outcome: 'accepted',
      });
    }
    // Our 997 for the 850 belongs with the order too: listed, sent once, logged once.
    const functionalAck = documents.filter((d) => d.type === '997');
    expect(functionalAck.map((d) => [d.direction, d.status])).toEqual([['out', 'sent']]);
    expect(rows('SEND_FUNCTIONAL_ACK').map((r) => [r.correlation_id, r.execution_status])).toEqual([
      [functionalAck[0]!.id, 'SUCCESS'],
    ]);
    expect(documents).toHaveLength(4);
    // Nothing else was ingested, sent or checked for the order.
    const expected = [
      'INGEST_PURCHASE_ORDER',
      'SEND_FUNCTIONAL_ACK',
      ...Object.values(SEND_CODE),
      ...Object.values(CHECK_CODE),
    ];
    const documentCodes = log
      .map((row) => row.action_type)
      .filter((code) => /^(SEND_|INGEST_)|_STATUS_CHECK$/.test(code));
    expect(documentCodes.sort()).toEqual(expected.sort());
  });

  /** The order's log rows through GET /api/transactions (the interface's route). */
  async function logOf(orderId: string): Promise<LogRow[]> {
    const response = await svc.app.inject({
      method: 'GET',
      url: `/api/transactions?order_id=${orderId}&page_size=100`,
      headers: { authorization: admin },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { transactions } = dataOf<{
      transactions: (Omit<LogRow, 'action_type'> & { action_type_label: string })[];
    }>(response);
    // In the answer `action_type` is the phrase and `action_type_label` the code (decision 0111).
    return transactions.map((row) => ({ ...row, action_type: row.action_type_label }));
  }
});

function expectOk(response: { statusCode: number; body: string }) {
  expect(response.statusCode, response.body).toBeLessThan(300);
}
