/**
 * The send row of a 997 of no order whose connection's brand works at no facility of the
 * connection's organisation (its document has no facility, decision 0226): it names no brand
 * either, so the log lists it to nobody instead of to the brand's users in every organisation.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendClaimedDocuments } from '../../src/server/edi/send';
import { describeEngines } from '../helpers/engines';
import { id, ordersBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';

const AT = '2026-11-20T08:00:00.000Z';

describeEngines('the send row of a 997 of no order at no facility', (engine) => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await createTestService({ seed: ordersBundle(), engine });
    const db = svc.ctx.db;
    await db.insertInto('organizations').values({ id: 'empty-org', name: 'No facility' }).execute();
    await db
      .insertInto('connections')
      .values({
        id: 'empty-connection',
        organization_id: 'empty-org',
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        kind: 'EDI_846',
        // Disabled: the send is refused without a transport, and logged all the same.
        enabled: 0,
        transport_json: '{"type":"file","directory":"outbox/empty"}',
      })
      .execute();
    for (const [documentId, orderId, facilityId] of [
      ['ack-nowhere', null, null],
      ['ack-at-alpha', null, id('f', 1)],
    ] as const) {
      await db
        .insertInto('order_documents')
        .values({
          id: documentId,
          order_id: orderId,
          brand_id: id('b', 1),
          facility_id: facilityId,
          connection_id: 'empty-connection',
          organization_id: 'empty-org',
          retailer_id: id('r', 1),
          type: '997',
          direction: 'out',
          status: 'queued',
          interchange_control_number: 7,
          group_control_number: 7,
          transaction_control_number: '0001',
          document: 'ISA*997~',
          content_type: 'application/edi-x12',
          file_name: `${documentId}.edi`,
          error: null,
          next_attempt_at: AT,
          sender_id: null,
          sent_at: null,
          acknowledged_at: null,
          created_at: AT,
          updated_at: AT,
          interchange_id: null,
        })
        .execute();
    }
  });

  afterAll(async () => {
    await svc?.close();
  });

  it('names neither facility nor brand; one at a facility keeps its brand', async () => {
    await sendClaimedDocuments(svc.ctx, ['ack-nowhere', 'ack-at-alpha'], { automatic: false });
    const rows = await svc.ctx.db
      .selectFrom('transactions')
      .select(['correlation_id', 'facility_id', 'brand_id', 'execution_status'])
      .where('correlation_id', 'in', ['ack-nowhere', 'ack-at-alpha'])
      .orderBy('correlation_id')
      .execute();
    expect(rows).toEqual([
      {
        correlation_id: 'ack-at-alpha',
        facility_id: id('f', 1),
        brand_id: id('b', 1),
        execution_status: 'FAILURE',
      },
      {
        correlation_id: 'ack-nowhere',
        facility_id: null,
        brand_id: null,
        execution_status: 'FAILURE',
      },
    ]);
  });
});
