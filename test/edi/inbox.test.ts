/**
 * The EDI inbox (issue 16, item 9): GET /api/v1/edi/interchanges (+ /{id}, /{id}/raw) and
 * POST /{id}/reprocess. Refused folder files are listed with the reason in clerk words; a
 * reprocess takes in what was refused before and never a set twice; users of the same brand
 * without an admin grant in the connection's organisation see nothing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { InterchangeDetail, InterchangePage } from '../../src/shared/edi-inbox';
import { pollInboundFolders } from '../../src/server/edi';
import { expectError } from '../api/envelope';
import { dataOf } from '../fulfilment/support';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, interchangeOf, postInterchange } from './inbound-support';
import {
  expectInterchangeHidden,
  inbox,
  inboxBundle,
  interchange,
  reprocess,
  setOrderDocuments,
} from './inbox-support';
import { until } from './support';

/** The golden 850 whose first PO names facility 1 (ALP); the second names no warehouse. */
const partialFile = (control: number) =>
  goldenFor('850-two-orders.edi', control).replace('*ZZ*WH-WEST~', '*ZZ*ALP~');

describeEngines('the EDI inbox', (engine) => {
  const tempDir = tempDirsPerTest('edi-inbox');
  let partner: Receiver;
  let svc: TestService;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    partner = await startReceiver(ok, 'inbox-retailer');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
  });

  /** Connection 1 without an order facility: a PO must name its warehouse. */
  async function fresh(orderDocuments: Record<string, unknown> = { send: ['856'] }) {
    partner.clear();
    partner.handle(ok);
    const dataDir = tempDir();
    svc = await createTestService({
      engine,
      dataDir,
      seed: inboxBundle(partner.url, orderDocuments),
    });
    for (const user of [
      'admin@a.test',
      'brand1@a.test',
      'org2@b.test',
      'near@a.test',
      'viewer@a.test',
      'brand2@b.test',
    ]) {
      tokens[user] = await svc.login(user);
    }
    return dataDir;
  }
  const ordersOfPo = (po: string) =>
    svc.ctx.db.selectFrom('orders').select('id').where('po_number', '=', po).execute();
  const count997 = async () =>
    (
      await svc.ctx.db
        .selectFrom('order_documents')
        .select('id')
        .where('type', '=', '997')
        .execute()
    ).length;

  it('lists interchanges newest first with sets, outcome and clerk reasons; filters and pages', async () => {
    await fresh();
    const admin = tokens['admin@a.test']!;
    expect((await postInterchange(svc, admin, partialFile(501))).statusCode).toBe(200);
    // No functional group: refused, but kept (the connection is known from the ISA).
    const noGroup = interchangeOf('PO', 9, 502, []).replace(/GS\*[^~]*~\n|GE\*[^~]*~\n/g, '');
    expect((await postInterchange(svc, admin, noGroup)).statusCode).toBe(400);

    const response = await inbox(svc, admin);
    expect(response.statusCode, response.body).toBe(200);
    const page = dataOf<InterchangePage>(response);
    expect(page).toMatchObject({ page: 1, page_size: 50, total_count: 2 });
    const [refused, partial] = page.interchanges;
    expect(refused).toMatchObject({
      control_number: '000000502',
      outcome: 'refused',
      source: 'http',
      retailer_name: 'Retailer One',
      brand_name: 'Brand One',
      sender: 'RECEIVER1',
      connection_id: id('c', 1),
      reason: 'The file holds no documents: there is no functional group (GS) in it',
    });
    expect(partial).toMatchObject({ control_number: '000000501', outcome: 'partial' });
    expect(partial!.sets.map((s) => [s.type, s.status, s.po_number])).toEqual([
      ['850', 'accepted', '4500012345'],
      ['850', 'rejected', '4500012346'],
    ]);
    expect(partial!.reason).toBe(
      'The purchase order 4500012346: the PO names no warehouse (N1*SF or N1*WH) and the connection has no order facility',
    );

    const filtered = dataOf<InterchangePage>(await inbox(svc, admin, '?outcome=partial'));
    expect(filtered.interchanges.map((i) => i.control_number)).toEqual(['000000501']);
    const second = dataOf<InterchangePage>(await inbox(svc, admin, '?page=2&page_size=1'));
    expect(second).toMatchObject({ page: 2, page_size: 1, total_count: 2 });
    expect(second.interchanges.map((i) => i.control_number)).toEqual(['000000501']);
    const otherConnection = dataOf<InterchangePage>(
      await inbox(svc, admin, `?connection_id=${id('c', 2)}`),
    );
    expect(otherConnection.total_count).toBe(0);
    expectError(await inbox(svc, admin, '?outcome=lost'), 400, 'INVALID_REQUEST');
    expectError(await inbox(svc, admin, '?page=0'), 400, 'INVALID_REQUEST');
  });

  it('names the faulty segment of a rejected PO in clerk words', async () => {
    await fresh({ send: ['856'], facility_id: id('f', 1) });
    const admin = tokens['admin@a.test']!;
    const broken = goldenFor('850-two-orders.edi', 503).replace(
      'PO1*10*2*EA*19.99**UP*012345678936~',
      'PO1*10**EA*19.99**UP*012345678936~',
    );
    expect((await postInterchange(svc, admin, broken)).statusCode).toBe(200);
    const [item] = dataOf<InterchangePage>(await inbox(svc, admin)).interchanges;
    expect(item!.outcome).toBe('partial');
    expect(item!.reason).toBe(
      'Segment 8 (PO1) of the purchase order 4500012346: line 10: the quantity "" is not a whole number above 0\n' +
        'Segment 11 (CTT) of the purchase order 4500012346: CTT02 says the quantities add up to 3; the lines add up to 1',
    );
    expect(item!.reason).not.toMatch(/AK[345]/);
  });

  it('shows one readable with its orders, and downloads the text as received', async () => {
    await fresh();
    const admin = tokens['admin@a.test']!;
    const text = partialFile(504);
    const posted = await postInterchange(svc, admin, text);
    const interchangeId = dataOf<{ interchange_id: string }>(posted).interchange_id;

    const detail = dataOf<InterchangeDetail>(await interchange(svc, admin, interchangeId));
    expect(detail.segments[0]).toMatch(/^ISA\*00\*/);
    expect(detail.segments).toContain('BEG*00*SA*4500012345**20260115~');
    expect(detail.segments.at(-1)).toBe('IEA*1*000000504~');
    const [order] = await ordersOfPo('4500012345');
    expect(detail.orders).toEqual([{ id: order!.id, po_number: '4500012345', status: 'Open' }]);

    const raw = await interchange(svc, admin, interchangeId, '/raw');
    expect(raw.statusCode).toBe(200);
    expect(raw.headers['content-type']).toMatch(/^application\/edi-x12/);
    expect(raw.headers['content-disposition']).toMatch(
      /^attachment; filename="interchange-000000504\.edi"/,
    );
    expect(raw.body).toBe(text);

    expectError(await interchange(svc, admin, 'not-a-uuid'), 400, 'INVALID_REQUEST');
    expectError(
      await interchange(svc, admin, '0a000000-0000-4000-8000-000000000999'),
      404,
      'NOT_FOUND',
      'Interchange not found',
    );
  });

  it('same-brand users without an admin grant in the organisation see none of it', async () => {
    await fresh();
    const admin = tokens['admin@a.test']!;
    const posted = await postInterchange(svc, admin, partialFile(505));
    const interchangeId = dataOf<{ interchange_id: string }>(posted).interchange_id;
    expect(dataOf<InterchangePage>(await inbox(svc, tokens['brand1@a.test']!)).total_count).toBe(1);
    for (const user of ['org2@b.test', 'near@a.test', 'viewer@a.test', 'brand2@b.test']) {
      const list = await inbox(svc, tokens[user]!);
      expect(list.statusCode, user).toBe(200);
      expect(dataOf<InterchangePage>(list), user).toMatchObject({
        total_count: 0,
        interchanges: [],
      });
      await expectInterchangeHidden(svc, tokens[user]!, interchangeId);
    }
    expect(await ordersOfPo('4500012346')).toHaveLength(0);
    const unauthenticated = await svc.app.inject({
      method: 'GET',
      url: '/api/v1/edi/interchanges',
    });
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('lists refused folder files for the folder’s connection, with the reason in clerk words', async () => {
    const dataDir = await fresh({
      send: ['856'],
      facility_id: id('f', 1),
      inbound: { type: 'file', directory: 'inbound/r1' },
    });
    const folder = join(dataDir, 'inbound/r1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'a-notes.txt'), 'not an interchange');
    writeFileSync(
      join(folder, 'b-other.edi'),
      goldenFor('850-two-orders.edi', 506).replaceAll('SENDER1', 'OTHERCO'),
    );
    writeFileSync(
      join(folder, 'c-stranger.edi'),
      goldenFor('850-two-orders.edi', 507).replaceAll('RECEIVER1', 'STRANGER1'),
    );
    writeFileSync(join(folder, 'd-empty.edi'), '');
    const polled = await pollInboundFolders(svc.ctx, { settleMs: 0 });
    expect(polled.map((p) => p.moved)).toEqual(['error', 'error', 'error', 'error']);

    const page = dataOf<InterchangePage>(await inbox(svc, tokens['admin@a.test']!));
    const byFile = Object.fromEntries(page.interchanges.map((i) => [i.file_name, i]));
    expect(Object.keys(byFile).sort()).toEqual([
      'a-notes.txt',
      'b-other.edi',
      'c-stranger.edi',
      'd-empty.edi',
    ]);
    for (const item of page.interchanges) {
      expect(item).toMatchObject({ outcome: 'refused', source: 'file', connection_id: id('c', 1) });
    }
    expect(byFile['a-notes.txt']!.reason).toBe(
      'This file is not an X12 interchange (it must begin with an ISA segment)',
    );
    expect(byFile['b-other.edi']!.reason).toBe(
      'It is addressed to another company (receiver ID OTHERCO); this connection takes files addressed to SENDER1',
    );
    expect(byFile['c-stranger.edi']!.reason).toBe(
      'It comes from a sender this connection does not know (sender ID STRANGER1); this connection takes files from RECEIVER1',
    );
    expect(byFile['d-empty.edi']!.reason).toBe('The file is empty');
    // Nobody outside the brand's organisation sees them.
    expect(dataOf<InterchangePage>(await inbox(svc, tokens['org2@b.test']!)).total_count).toBe(0);

    // The clerk fixes the connection's ID; the refused file is taken in on reprocess, with its 997.
    const fixed = await svc.ctx.db
      .selectFrom('connections')
      .select('edi_json')
      .where('id', '=', id('c', 1))
      .executeTakeFirstOrThrow();
    await svc.ctx.db
      .updateTable('connections')
      .set({
        edi_json: JSON.stringify({ ...JSON.parse(fixed.edi_json!), sender_id: 'OTHERCO' }),
      })
      .where('id', '=', id('c', 1))
      .execute();
    const answer = await reprocess(svc, tokens['admin@a.test']!, byFile['b-other.edi']!.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().message).toBe('Reprocessed: every set is taken in now (2 newly)');
    expect(dataOf<InterchangeDetail>(answer)).toMatchObject({
      outcome: 'accepted',
      reason: null,
      file_name: 'b-other.edi',
    });
    expect(await ordersOfPo('4500012345')).toHaveLength(1);
    expect(await count997()).toBe(1);

    // Still refused: 200 with the reason; the row stays one row.
    const notes = await reprocess(svc, tokens['admin@a.test']!, byFile['a-notes.txt']!.id);
    expect(notes.statusCode, notes.body).toBe(200);
    expect(notes.json().message).toBe(
      'Reprocessed: still refused. This file is not an X12 interchange (it must begin with an ISA segment)',
    );
    expect(dataOf<InterchangeDetail>(notes).reprocessed_at).not.toBeNull();
    expect(dataOf<InterchangePage>(await inbox(svc, tokens['admin@a.test']!)).total_count).toBe(4);
  });

  it('a reprocess after a fix takes in the rest once; sets taken in before are kept, no second 997', async () => {
    await fresh();
    const admin = tokens['admin@a.test']!;
    const posted = await postInterchange(svc, admin, partialFile(508));
    const interchangeId = dataOf<{ interchange_id: string }>(posted).interchange_id;
    const [first] = await ordersOfPo('4500012345');
    await until(async () => (await count997()) === 1, 'the 997');

    // Nothing fixed yet: still partial, nothing doubled.
    const again = await reprocess(svc, admin, interchangeId);
    expect(again.statusCode, again.body).toBe(200);
    expect(dataOf<InterchangeDetail>(again).outcome).toBe('partial');
    expect(await ordersOfPo('4500012345')).toEqual([first]);

    // Its connection disabled meanwhile: refused now, and the stored run stays as it was.
    const enabled = (value: number) =>
      svc.ctx.db
        .updateTable('connections')
        .set({ enabled: value })
        .where('id', '=', id('c', 1))
        .execute();
    await enabled(0);
    const off = await reprocess(svc, admin, interchangeId);
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toMatch(/^Not reprocessed: No EDI connection of yours takes/);
    expect(dataOf<InterchangeDetail>(off).outcome).toBe('partial');
    await enabled(1);

    await setOrderDocuments(svc, { send: ['856'], facility_id: id('f', 1) });
    const fixed = await reprocess(svc, admin, interchangeId);
    expect(fixed.statusCode, fixed.body).toBe(200);
    const detail = dataOf<InterchangeDetail>(fixed);
    expect(detail.outcome).toBe('accepted');
    expect(detail.sets.map((s) => s.status)).toEqual(['accepted', 'accepted']);
    expect(detail.sets[0]!.order_id).toBe(first!.id);
    expect(await ordersOfPo('4500012345')).toEqual([first]);
    expect(await ordersOfPo('4500012346')).toHaveLength(1);
    expect(await count997()).toBe(1);

    expectError(
      await reprocess(svc, admin, interchangeId),
      409,
      'INVALID_REQUEST',
      'This interchange was taken in whole already: there is nothing to reprocess',
    );
  });

  it('a duplicate is not reprocessed: its original is', async () => {
    await fresh();
    const admin = tokens['admin@a.test']!;
    await postInterchange(svc, admin, partialFile(510));
    const repeat = await postInterchange(svc, admin, partialFile(510));
    const repeatId = dataOf<{ interchange_id: string }>(repeat).interchange_id;
    expectError(
      await reprocess(svc, admin, repeatId),
      409,
      'INVALID_REQUEST',
      'This interchange is a repeat of an earlier one: reprocess that one instead',
    );
    expect(await ordersOfPo('4500012345')).toHaveLength(1);
  });

  it('50 parallel reprocess calls create each order at most once', async () => {
    await fresh();
    const admin = tokens['admin@a.test']!;
    const posted = await postInterchange(svc, admin, partialFile(509));
    const interchangeId = dataOf<{ interchange_id: string }>(posted).interchange_id;
    await setOrderDocuments(svc, { send: ['856'], facility_id: id('f', 1) });

    const answers = await Promise.all(
      Array.from({ length: 50 }, () => reprocess(svc, admin, interchangeId)),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(','),
    ).toBe(true);
    expect(await ordersOfPo('4500012345')).toHaveLength(1);
    expect(await ordersOfPo('4500012346')).toHaveLength(1);
    const log = await svc.ctx.db
      .selectFrom('transactions')
      .select('order_id')
      .where('action_type', '=', 'INGEST_PURCHASE_ORDER')
      .where('execution_status', '=', 'SUCCESS')
      .execute();
    expect(log).toHaveLength(2);
    const detail = dataOf<InterchangeDetail>(await interchange(svc, admin, interchangeId));
    expect(detail.outcome).toBe('accepted');
  });
});
