/**
 * A polled inbound folder (order_documents.inbound {type: 'file'}): files go through the same
 * path as the route; taken-in files move to archive/, refused ones to error/ with the reason.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle } from './inbound-support';
import { until } from './support';

describe('a polled inbound folder', () => {
  const tempDir = tempDirsPerTest('edi-inbound');
  let partner: Receiver;
  let svc: TestService;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
  });

  it('takes an 850 in (archive/, orders, 997 sent) and refuses a stranger’s file (error/)', async () => {
    const dataDir = tempDir();
    svc = await createTestService({
      dataDir,
      seed: polledInboundBundle(partner.url, { type: 'file', directory: 'inbound/r1' }),
    });
    const folder = join(dataDir, 'inbound/r1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'po-417.edi'), goldenFor('850-two-orders.edi', 417));
    writeFileSync(join(folder, 'notes.txt'), 'not an interchange');
    writeFileSync(
      join(folder, 'other.edi'),
      goldenFor('850-two-orders.edi', 418).replaceAll('RECEIVER1', 'STRANGER1'),
    );

    const results = await pollInboundFolders(svc.ctx, { settleMs: 0 });
    expect(results.map((r) => [r.file, r.moved])).toEqual([
      ['notes.txt', 'error'],
      ['other.edi', 'error'],
      ['po-417.edi', 'archive'],
    ]);
    expect(readdirSync(folder).sort()).toEqual(['archive', 'error']);
    expect(readdirSync(join(folder, 'archive'))).toEqual(['po-417.edi']);
    expect(readFileSync(join(folder, 'error', 'other.edi.reason.txt'), 'utf8')).toContain(
      'No EDI connection of yours takes interchanges from "STRANGER1"',
    );
    const orders = await svc.ctx.db
      .selectFrom('orders')
      .select('po_number')
      .where('po_number', 'in', ['4500012345', '4500012346'])
      .execute();
    expect(orders).toHaveLength(2);
    const stored = await svc.ctx.db
      .selectFrom('edi_interchanges')
      .select(['source', 'file_name', 'outcome', 'user_id', 'connection_id'])
      .orderBy('file_name')
      .execute();
    // The refused files are recorded for the folder's connection too (the EDI inbox lists them).
    expect(stored).toEqual(
      [
        ['notes.txt', 'refused'],
        ['other.edi', 'refused'],
        ['po-417.edi', 'accepted'],
      ].map(([file_name, outcome]) => ({
        source: 'file',
        file_name,
        outcome,
        user_id: null,
        connection_id: id('c', 1),
      })),
    );
    await partner.waitFor(1);
    expect(partner.received[0]!.body).toContain('AK1*PO*417');

    // The same file dropped again is a duplicate: archived under another name, nothing created.
    writeFileSync(join(folder, 'po-417.edi'), goldenFor('850-two-orders.edi', 417));
    await pollInboundFolders(svc.ctx, { settleMs: 0 });
    expect(readdirSync(join(folder, 'archive')).sort()).toEqual(['1_po-417.edi', 'po-417.edi']);
    expect(existsSync(join(folder, 'po-417.edi'))).toBe(false);
    expect(
      await svc.ctx.db
        .selectFrom('orders')
        .select('id')
        .where('po_number', '=', '4500012345')
        .execute(),
    ).toHaveLength(1);
  });
});
