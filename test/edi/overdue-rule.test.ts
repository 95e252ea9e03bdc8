/**
 * The one overdue rule (edi/document-status.ts and its PostgreSQL twin) answers alike on both
 * engines, also for settings and send times that were edited by hand: an ack_hours that is no
 * positive number (or settings that are no JSON) counts as the default 24 hours, a huge one never
 * makes a document overdue, and a sent_at that is no time neither; no statement fails.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEngines } from '../helpers/engines';
import { manualClock } from '../helpers/clock';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { dataOf } from '../fulfilment/support';
import { asnBundle, ORDERS } from './support';
import type { EdiDocumentPage } from '../../src/shared/edi-documents';

const HOUR = 3_600_000;

describeEngines('the overdue rule', (engine) => {
  let svc: TestService;
  let token: string;
  const time = manualClock('2030-07-01T09:00:00Z');

  /** Documents sent this long ago (or with this sent_at text), by id. */
  const SENT: Record<string, string> = {
    h1: time.iso(-1 * HOUR),
    h3: time.iso(-3 * HOUR),
    h30: time.iso(-30 * HOUR),
    y2: time.iso(-2 * 365 * 24 * HOUR),
    empty: '',
    words: 'yesterday',
  };

  beforeAll(async () => {
    // No document is sent here: the partner's address is never called.
    svc = await createTestService({
      engine,
      seed: asnBundle('http://127.0.0.1:9/never', { send: ['855', '856'] }),
      clock: time.clock,
    });
    token = await svc.login('packer@a.test');
    await svc.ctx.db
      .insertInto('order_documents')
      .values(
        Object.entries(SENT).map(([name, sentAt], n) => ({
          id: `00000000-0000-4000-8000-${String(n + 1).padStart(12, '0')}`,
          order_id: ORDERS.parcel,
          brand_id: id('b', 1),
          facility_id: id('f', 1),
          connection_id: id('c', 1),
          organization_id: id('o', 1),
          retailer_id: id('r', 1),
          type: '856' as const,
          direction: 'out' as const,
          status: 'sent' as const,
          interchange_control_number: n + 1,
          group_control_number: n + 1,
          transaction_control_number: '0001',
          document: 'ISA~',
          content_type: 'application/edi-x12',
          file_name: `${name}.edi`,
          error: null,
          next_attempt_at: null,
          sender_id: null,
          sent_at: sentAt,
          acknowledged_at: null,
          created_at: time.iso(-n * 1000),
          updated_at: time.iso(-n * 1000),
        })),
      )
      .execute();
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** The documents shown overdue (by file name), read from the list and from its filter. */
  async function overdueWith(settings: string | null): Promise<string[]> {
    await svc.ctx.db
      .updateTable('connections')
      .set({ order_documents_json: settings })
      .where('id', '=', id('c', 1))
      .execute();
    const read = async (query: string) => {
      const response = await svc.app.inject({
        method: 'GET',
        url: `/api/v1/edi/documents${query}`,
        headers: { authorization: token },
      });
      expect(response.statusCode, response.body).toBe(200);
      return dataOf<EdiDocumentPage>(response);
    };
    const all = await read('?page_size=100');
    const shown = all.documents
      .filter((d) => d.status === 'overdue')
      .map((d) => d.file_name!.replace('.edi', ''))
      .sort();
    const filtered = (await read('?status=overdue&page_size=100')).documents
      .map((d) => d.file_name!.replace('.edi', ''))
      .sort();
    expect(filtered).toEqual(shown);
    return shown;
  }

  it('counts ack_hours when it is a positive number', async () => {
    expect(await overdueWith('{"send":["856"],"ack_hours":2}')).toEqual(['h3', 'h30', 'y2']);
    expect(await overdueWith('{"send":["856"],"ack_hours":0.5}')).toEqual([
      'h1',
      'h3',
      'h30',
      'y2',
    ]);
    expect(await overdueWith('{"send":["856"],"ack_hours":48}')).toEqual(['y2']);
  });

  it('takes 24 hours for settings that are missing, no JSON, or no positive number', async () => {
    for (const settings of [
      null,
      '{"send":["856"]}',
      '{"send":["856"',
      'not json',
      '[1,2]',
      '{"ack_hours":"2"}',
      '{"ack_hours":-5}',
      '{"ack_hours":0}',
      '{"ack_hours":true}',
      '{"ack_hours":null}',
    ]) {
      expect(await overdueWith(settings), String(settings)).toEqual(['h30', 'y2']);
    }
  });

  it('never makes a document overdue by a huge ack_hours, nor one whose sent_at is no time', async () => {
    expect(await overdueWith('{"ack_hours":1e308}')).toEqual([]);
    expect(await overdueWith('{"ack_hours":100000}')).toEqual([]);
  });
});
