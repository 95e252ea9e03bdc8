/**
 * The header's count stays cheap: GET /api/v1/edi/documents/summary (and the overdue list) on a
 * database with 10,000 outbound documents. The figures are printed for the report; the
 * bound is loose so a busy machine does not fail it, yet a full-table JSON scan per row would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import type { EdiDocumentPage, EdiDocumentSummary } from '../../src/shared/edi-documents';
import { asnBundle, ORDERS } from './support';

const DOCUMENTS = 10_000;
const STATUSES = ['queued', 'sent', 'failed', 'accepted', 'rejected'] as const;

describe('document summary at 10,000 documents', () => {
  let partner: Receiver;
  let svc: TestService;
  let token: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'scale-partner');
    svc = await createTestService({ seed: asnBundle(partner.url, { send: ['855', '856'] }) });
    token = await svc.login('packer@a.test');
    const orders = [ORDERS.freight, ORDERS.parcel, ORDERS.noPrefix, ORDERS.shipped];
    const now = Date.now();
    const rows = Array.from({ length: DOCUMENTS }, (_, n) => {
      const at = new Date(now - n * 60_000).toISOString();
      const status = STATUSES[n % STATUSES.length]!;
      return {
        id: crypto.randomUUID(),
        order_id: orders[n % orders.length]!,
        brand_id: id('b', 1),
        facility_id: id('f', 1),
        connection_id: id('c', 1),
        organization_id: id('o', 1),
        retailer_id: id('r', 1),
        type: n % 2 === 0 ? ('856' as const) : ('855' as const),
        direction: 'out' as const,
        status,
        interchange_control_number: n + 1,
        group_control_number: n + 1,
        transaction_control_number: '0001',
        // About an 856 of 40 cartons: the content sits between the columns the count reads.
        document: `ISA*${'SN1*'.repeat(1000)}~`,
        content_type: 'application/edi-x12',
        file_name: `856_${n}.edi`,
        error: status === 'failed' ? 'The partner answered 503' : null,
        next_attempt_at: null,
        sender_id: null,
        sent_at: status === 'queued' || status === 'failed' ? null : at,
        acknowledged_at: null,
        created_at: at,
        updated_at: at,
      };
    });
    await svc.ctx.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += 500) {
        await trx
          .insertInto('order_documents')
          .values(rows.slice(start, start + 500))
          .execute();
      }
    });
  });
  afterAll(async () => {
    await svc?.close();
    await partner?.close();
  });

  async function median(url: string, runs = 15) {
    const times: number[] = [];
    let body: unknown;
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const response = await svc.app.inject({
        method: 'GET',
        url,
        headers: { authorization: token },
      });
      times.push(performance.now() - started);
      expect(response.statusCode, response.body).toBe(200);
      body = response;
    }
    times.sort((a, b) => a - b);
    return { ms: times[Math.floor(runs / 2)]!, response: body as { json(): unknown } };
  }

  it('counts per status in a few milliseconds', async () => {
    const { ms, response } = await median('/api/v1/edi/documents/summary');
    const summary = dataOf<EdiDocumentSummary>(response);
    // Orders noPrefix (brand 2) is at facility 1 too: packer is brand-less, so it sees all four.
    const total = Object.values(summary.counts).reduce((a, b) => a + b, 0);
    expect(total).toBe(DOCUMENTS);
    expect(summary.counts.failed).toBe(DOCUMENTS / STATUSES.length);
    // Sent more than 24 hours ago (the default ack_hours) and not answered: overdue.
    expect(summary.counts.overdue + summary.counts.sent).toBe(DOCUMENTS / STATUSES.length);
    expect(summary.counts.overdue).toBeGreaterThan(0);
    console.log(`summary over ${DOCUMENTS} documents: median ${ms.toFixed(1)} ms`);
    expect(ms).toBeLessThan(250);

    const overdue = await median('/api/v1/edi/documents?status=overdue');
    expect(dataOf<EdiDocumentPage>(overdue.response).total_count).toBe(summary.counts.overdue);
    console.log(
      `overdue list page over ${DOCUMENTS} documents: median ${overdue.ms.toFixed(1)} ms`,
    );
    expect(overdue.ms).toBeLessThan(250);
  });
});
