/**
 * The demo workspace's order documents (src/server/seed/demo-documents.ts): every demo order of
 * an EDI connection has its 850 and documents in every state, the inbox has a duplicate, a
 * refused file and one too large to read, and a second start changes none of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startService, type RunningService } from '../../src/server/http/server';
import { TEST_PASSWORD_COST } from '../helpers/service';

const order = (n: number) => `0d000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
const EDI_ORDERS = [1, 3, 4, 5, 6, 8, 9, 10, 11, 12, 14].map(order);

let dir: string;
let service: RunningService;
let headers: Record<string, string>;

async function start() {
  const started = performance.now();
  service = await startService(
    { host: '127.0.0.1', port: 0, dataDir: dir, seed: 'demo', uiDir: null, outboxDrain: false },
    { passwordCost: TEST_PASSWORD_COST },
  );
  return performance.now() - started;
}

async function documentsOf(id: string) {
  const response = await fetch(`${service.url}/api/v1/orders/${id}/documents`, { headers });
  expect(response.status).toBe(200);
  return (
    (await response.json()) as { data: { type: string; direction: string; status: string }[] }
  ).data;
}

const brief = (docs: { type: string; direction: string; status: string }[]) =>
  docs.map((d) => `${d.direction} ${d.type} ${d.status}`).sort();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'demo-documents-'));
  // Making the documents never stops the start, so a failure would only be logged.
  const errors = vi.spyOn(console, 'error');
  console.log(`demo start with documents: ${Math.round(await start())} ms`);
  expect(errors.mock.calls.flat().join('\n')).not.toContain('order documents could not be made');
  errors.mockRestore();
  const token = await fetch(`${service.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
  }).then((r) => r.json() as Promise<{ data: { access_token: string } }>);
  headers = { authorization: `Bearer ${token.data.access_token}` };
}, 60_000);

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo workspace’s order documents', () => {
  it('made every EDI order from an 850, with its PO lines and prices', async () => {
    const db = service.context.db;
    for (const id of EDI_ORDERS) {
      const lines = await db
        .selectFrom('order_po_lines')
        .selectAll()
        .where('order_id', '=', id)
        .execute();
      expect(lines.length, id).toBeGreaterThan(0);
      expect(lines.every((l) => l.unit_price !== null && l.line_id !== '')).toBe(true);
    }
    const peak = await db
      .selectFrom('order_po_lines')
      .select('order_id')
      .where('order_id', '=', order(2))
      .execute();
    expect(peak).toEqual([]);
    const outcomes = await db
      .selectFrom('edi_interchanges')
      .select(['outcome', 'file_name', 'raw', 'summary_json'])
      .execute();
    const count = (o: string) => outcomes.filter((row) => row.outcome === o).length;
    // A file with no group, and a polled file too large to read (no text kept, its size).
    expect(count('refused')).toBe(2);
    const tooLarge = outcomes.find((row) => row.file_name === 'orders-week-47.x12')!;
    expect(tooLarge).toMatchObject({ outcome: 'refused', raw: '' });
    expect(JSON.parse(tooLarge.summary_json)).toMatchObject({
      refusal: 'too_large',
      bytes: 43_304_550,
    });
    expect(count('duplicate')).toBe(1);
    expect(count('partial') + count('rejected')).toBeGreaterThanOrEqual(1); // the refused 860
  });

  it('shows every state of a document', async () => {
    expect(brief(await documentsOf(order(11)))).toEqual(
      expect.arrayContaining([
        'out 855 accepted',
        'out 856 accepted',
        'out 810 accepted_with_errors',
      ]),
    );
    expect(brief(await documentsOf(order(12)))).toEqual(
      expect.arrayContaining(['out 855 accepted', 'out 856 overdue', 'out 810 failed']),
    );
    expect(brief(await documentsOf(order(3)))).toEqual(
      expect.arrayContaining(['out 855 rejected']),
    );
    expect(brief(await documentsOf(order(8)))).toEqual(expect.arrayContaining(['out 855 sent']));
    expect(brief(await documentsOf(order(1)))).toEqual(expect.arrayContaining(['out 855 queued']));
    for (const id of EDI_ORDERS) {
      expect((await documentsOf(id)).length, id).toBeGreaterThan(0);
    }
  });

  it('records the refused change as an exception and the applied one', async () => {
    const rows = await service.context.db
      .selectFrom('transactions')
      .select(['order_id', 'execution_status'])
      .where('action_type', '=', 'INGEST_PURCHASE_ORDER_CHANGE')
      .execute();
    expect(rows).toEqual(
      expect.arrayContaining([
        { order_id: order(4), execution_status: 'SUCCESS' },
        { order_id: order(6), execution_status: 'FAILURE' },
      ]),
    );
  });

  it('never reaches a network, and plans no automatic retry', async () => {
    const db = service.context.db;
    // The rows the documents wrote: sends name their document, ingests and 997s the interchange.
    const urls = await db
      .selectFrom('transactions')
      .select('request_url')
      .where((eb) =>
        eb.or([
          eb('correlation_id', 'in', eb.selectFrom('order_documents').select('id')),
          eb('correlation_id', 'in', eb.selectFrom('edi_interchanges').select('id')),
        ]),
      )
      .execute();
    expect(urls.length).toBeGreaterThan(20);
    expect(urls.filter((row) => /^(https?|sftp):/i.test(row.request_url ?? ''))).toEqual([]);
    const failed = await db
      .selectFrom('order_documents')
      .select(['next_attempt_at', 'error'])
      .where('status', '=', 'failed')
      .execute();
    expect(failed).toEqual([
      { next_attempt_at: null, error: expect.stringContaining('ECONNREFUSED') },
    ]);
  });

  it('is the same in another fresh data dir, apart from ids and times', async () => {
    const facts = async (db: typeof service.context.db) => ({
      documents: (
        await db
          .selectFrom('order_documents')
          .select([
            'order_id',
            'type',
            'direction',
            'status',
            'interchange_control_number',
            'group_control_number',
            'transaction_control_number',
          ])
          .execute()
      )
        .map((row) => JSON.stringify(row))
        .sort(),
      interchanges: (
        await db
          .selectFrom('edi_interchanges')
          .select(['connection_id', 'control_number', 'outcome'])
          .execute()
      )
        .map((row) => JSON.stringify(row))
        .sort(),
      poLines: (await db.selectFrom('order_po_lines').selectAll().execute())
        .map((row) => JSON.stringify(row))
        .sort(),
    });
    const first = await facts(service.context.db);
    const otherDir = mkdtempSync(join(tmpdir(), 'demo-documents-'));
    const other = await startService(
      {
        host: '127.0.0.1',
        port: 0,
        dataDir: otherDir,
        seed: 'demo',
        uiDir: null,
        outboxDrain: false,
      },
      { passwordCost: TEST_PASSWORD_COST },
    );
    try {
      expect(await facts(other.context.db)).toEqual(first);
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  }, 60_000);

  it('a second start changes nothing', async () => {
    const db = service.context.db;
    const before = await db
      .selectFrom('order_documents')
      .select(['id', 'status'])
      .orderBy('id')
      .execute();
    const sent = await db
      .selectFrom('orders')
      .select(['id', 'po_acknowledgment_sent_at', 'asn_sent_at', 'invoice_sent_at'])
      .orderBy('id')
      .execute();
    await service.close();
    console.log(`demo restart: ${Math.round(await start())} ms`);
    const again = service.context.db;
    expect(
      await again.selectFrom('order_documents').select(['id', 'status']).orderBy('id').execute(),
    ).toEqual(before);
    expect(
      await again
        .selectFrom('orders')
        .select(['id', 'po_acknowledgment_sent_at', 'asn_sent_at', 'invoice_sent_at'])
        .orderBy('id')
        .execute(),
    ).toEqual(sent);
  }, 60_000);
});
