/**
 * A full disk on the order-documents paths (issue 16; SQLite, which `PRAGMA max_page_count`
 * fills without a real disk, as in test/api/disk-full.test.ts): taking an inbound interchange in
 * (with its 997), the drainer recording an outcome, and the ship step that queues the 856. A
 * request answers 507 in the envelope and leaves nothing half-written; the drainer's pass fails
 * without the loop dying; once space is freed, the same work goes through without a restart.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pollInboundFolders, startOrderDocumentDrainer } from '../../src/server/edi';
import { manualClock } from '../helpers/clock';
import { createTestService, type TestService } from '../helpers/service';
import { documentRows, FAST_POLICY, loadParcelOrder, ORDERS, orderRow } from '../edi/support';
import {
  goldenFor,
  inboundBundle,
  polledInboundBundle,
  postInterchange,
} from '../edi/inbound-support';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { startFaultyPartner, type FaultyPartner } from './partner';

const DISK_FULL = {
  message:
    'The disk holding the data is full: free space on /tmp/fulfillment-test-data and try again',
  error: { code: 'INSUFFICIENT_STORAGE' },
};

describe('a full disk on the order-documents paths', () => {
  let partner: FaultyPartner;
  let svc: TestService;
  let time: ReturnType<typeof manualClock>;
  const tempDir = tempDirsPerTest('faults-disk-full');

  beforeAll(async () => {
    partner = await startFaultyPartner();
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await svc?.close();
  });

  async function fresh(options: { dataDir?: string; seed?: unknown } = {}) {
    partner.received.length = 0;
    partner.set({ kind: 'ok' });
    time = manualClock('2030-07-01T09:00:00Z');
    svc = await createTestService({
      dataDir: options.dataDir,
      seed: options.seed ?? inboundBundle(partner.url),
      clock: time.clock,
      deliveryPolicy: FAST_POLICY,
    });
    await sql`create table disk_filler (b blob)`.execute(svc.ctx.db);
  }

  /** No page left: the file may not grow, and the free pages are taken by filler rows. */
  async function fillDisk() {
    const sqlite = svc.database.sqlite;
    sqlite.pragma(`max_page_count = ${sqlite.pragma('page_count', { simple: true }) as number}`);
    for (let i = 0; i < 10_000; i++) {
      try {
        sqlite.prepare('insert into disk_filler values (zeroblob(1024))').run();
      } catch {
        return;
      }
    }
    throw new Error('the database never filled up');
  }
  const freeSpace = () => svc.database.sqlite.pragma('max_page_count = 1000000');
  const count = async (table: 'edi_interchanges' | 'order_documents' | 'transactions') =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(svc.ctx.db))
        .rows[0]!.n,
    );
  const health = async () =>
    (await svc.app.inject({ method: 'GET', url: '/api/health' })).json() as { status: string };

  it('an inbound interchange answers 507, keeps nothing of it (no 997), and is taken in once space is back', async () => {
    await fresh();
    const admin = await svc.login('admin@a.test');
    const interchange = (n: number) =>
      goldenFor('850-two-orders.edi', 700 + n, {
        '4500012345': `46${String(n).padStart(8, '0')}`,
        '4500012346': `47${String(n).padStart(8, '0')}`,
      });
    const snapshot = async () => ({
      interchanges: await count('edi_interchanges'),
      documents: await count('order_documents'),
      log: await count('transactions'),
    });
    await fillDisk();
    // Each interchange may still fit in pages with room left: post until one does not.
    let n = 0;
    let before = await snapshot();
    let refused = await postInterchange(svc, admin, interchange(n));
    while (refused.statusCode === 200 && n < 200) {
      n += 1;
      await vi.waitFor(() => expect(svc.ctx.deliveriesInFlight.size).toBe(0));
      before = await snapshot();
      refused = await postInterchange(svc, admin, interchange(n));
    }
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(DISK_FULL);
    expect(await snapshot()).toEqual(before);
    const text = interchange(n);
    partner.received.length = 0;
    expect(partner.received).toEqual([]);
    expect((await health()).status).toBe('disk_full');

    freeSpace();
    const taken = await postInterchange(svc, admin, text);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json().data).toMatchObject({ duplicate: false, outcome: 'accepted' });
    await vi.waitFor(() => expect(partner.received).toHaveLength(1));
    expect(partner.received[0]!.body).toContain('~ST*997*0001~AK1*PO*');
    expect((await health()).status).toBe('ok');
  });

  it('a polled file on a full disk stays where it is, and is taken in once space is back', async () => {
    const dataDir = tempDir();
    await fresh({
      dataDir,
      seed: polledInboundBundle(partner.url, { type: 'file', directory: 'inbound/r1' }),
    });
    const folder = join(dataDir, 'inbound/r1');
    mkdirSync(folder, { recursive: true });
    const before = await count('edi_interchanges');
    await fillDisk();
    // Taken in (while pages with room last) or left: never moved anywhere without being recorded.
    for (let n = 0; n < 50; n++) {
      const name = `po-${710 + n}.edi`;
      writeFileSync(
        join(folder, name),
        goldenFor('850-two-orders.edi', 710 + n, {
          '4500012345': `48${String(n).padStart(8, '0')}`,
          '4500012346': `49${String(n).padStart(8, '0')}`,
        }),
      );
      const [result] = await pollInboundFolders(svc.ctx, { settleMs: 0 });
      if (result!.moved === null) break;
      expect(result!.moved).toBe('archive');
    }
    const left = readdirSync(folder).filter((f) => f.endsWith('.edi'));
    expect(left).toHaveLength(1);
    const archived = readdirSync(join(folder, 'archive'));
    expect(await count('edi_interchanges')).toBe(before + archived.length);
    expect(existsSync(join(folder, 'error'))).toBe(false);

    freeSpace();
    await vi.waitFor(() => expect(svc.ctx.deliveriesInFlight.size).toBe(0));
    expect((await pollInboundFolders(svc.ctx, { settleMs: 0 })).map((r) => r.moved)).toEqual([
      'archive',
    ]);
    expect(await count('edi_interchanges')).toBe(before + archived.length + 1);
    await vi.waitFor(() => expect(svc.ctx.deliveriesInFlight.size).toBe(0));
  });

  it('the drainer recording an outcome on a full disk: the pass fails, the loop lives, the next pass records it', async () => {
    await fresh();
    const token = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, token);
    partner.set({ kind: 'status', status: 503, body: 'down' });
    expect((await api.step(ORDERS.parcel, 'ship')).statusCode).toBe(200);
    const [failed] = await documentRows(svc, ORDERS.parcel);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });

    partner.set({ kind: 'ok' });
    partner.received.length = 0;
    time.advance(30_000);
    await fillDisk();
    const errors: unknown[] = [];
    const drainer = startOrderDocumentDrainer(svc.ctx, {
      firstPassMs: 60_000,
      onError: (error) => errors.push(error),
    });
    try {
      await drainer.drainNow();
      expect(errors).toHaveLength(1);
      expect((errors[0] as { code?: string }).code).toBe('SQLITE_FULL');
      // The partner took it, but nothing was recorded: the row is as it was.
      expect(partner.received.map((r) => r.key)).toEqual([failed!.id]);
      expect((await documentRows(svc, ORDERS.parcel))[0]).toMatchObject({
        status: 'failed',
        attempts: 1,
        sent_at: null,
      });
      expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBeNull();
      expect(svc.ctx.deliveriesInFlight.size).toBe(0);

      freeSpace();
      await drainer.drainNow();
      expect(errors).toHaveLength(1);
      // Sent again under the same key (the partner keeps one copy), and now recorded.
      expect(partner.received.map((r) => r.key)).toEqual([failed!.id, failed!.id]);
      const [sent] = await documentRows(svc, ORDERS.parcel);
      expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
      expect((await orderRow(svc, ORDERS.parcel)).asn_sent_at).toBe(sent!.sent_at);
      await drainer.drainNow();
      expect(partner.received).toHaveLength(2);
    } finally {
      await drainer.stop();
    }
  });

  it('the ship that queues the 856 answers 507: not shipped, no ASN; after space is freed it ships and sends once', async () => {
    await fresh();
    const token = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, token);
    await fillDisk();

    const refused = await api.step(ORDERS.parcel, 'ship');
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(DISK_FULL);
    expect((await orderRow(svc, ORDERS.parcel)).status).toBe('Loaded');
    expect(await documentRows(svc, ORDERS.parcel)).toEqual([]);
    expect(partner.received).toEqual([]);
    expect(svc.ctx.deliveriesInFlight.size).toBe(0);

    freeSpace();
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().message).toBe('Order shipped; the ASN was sent to Retailer One');
    const [row] = await documentRows(svc, ORDERS.parcel);
    expect(partner.received.map((r) => r.key)).toEqual([row!.id]);
    expect(row!.interchange_control_number).toBe(1); // the refused try took no number
  });
});
