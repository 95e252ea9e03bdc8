/**
 * Scope of POST /api/v1/edi/inbound and the EDI inbox (list, one, raw, reprocess). The rule: an
 * admin of the connection's brand at a facility of the connection's organisation. Beyond
 * test/edi/inbound-route.test.ts and test/edi/inbox.test.ts, the hard cases here are the other
 * brand at the connection's own facility (an admin of brand 2 at facility 1, with brand 2's
 * credentials or brand-less ones) and a brand-1 user with a plain grant at facility 1 whose admin
 * grant is in the other organisation: each posts nothing (404, no interchange, order, document
 * or log row written) and sees nothing.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { noteSourceFailed } from '../../src/server/edi/inbound-poll-status';
import type { InterchangeDetail, InterchangePage } from '../../src/shared/edi-inbox';
import { expectError } from '../api/envelope';
import { dataOf } from '../fulfilment/support';
import { id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { goldenFor, postInterchange } from '../edi/inbound-support';
import { expectInterchangeHidden, inbox, inboxBundle, interchange } from '../edi/inbox-support';
import { until } from '../edi/support';
import {
  adminAt,
  brandTwoAdminsAtAlpha,
  callWithTokens,
  OTHER_BRAND_ADMIN_BRANDLESS as OTHER_BRAND_ADMIN,
  OTHER_BRAND_SAME_FACILITY as OTHER_BRAND,
  SAME_BRAND_OTHER_FACILITY as DELTA_ADMIN,
  SAME_BRAND_OTHER_ORGANISATION as OTHER_ORGANISATION,
} from './support';

const ADMIN = 'admin@a.test';
/** Brand 1, a plain grant at facility 1 and an admin grant at facility 3 (organisation 2). */
const NEAR = 'near@a.test';
const OUTSIDERS = [OTHER_BRAND, OTHER_BRAND_ADMIN, NEAR, OTHER_ORGANISATION] as const;
/** Brand-less at facility 3 (organisation 2, where brand 1 works too), no admin grant. */
const CHARLIE_OPS = 'charlie-ops@b.test';

/** Connection 1 (brand 1, organisation 1) has no order facility: the second PO names none. */
function bundle(url: string) {
  const base = inboxBundle(url, { send: ['856'] });
  return {
    ...base,
    users: [
      ...base.users,
      ...brandTwoAdminsAtAlpha(),
      adminAt(DELTA_ADMIN, id('f', 4), id('b', 1)),
      {
        email: CHARLIE_OPS,
        password: TEST_PASSWORD,
        brand_id: null,
        facility_ids: [id('f', 3)],
        admin: [],
      },
    ],
  };
}

/** The golden 850 whose first PO names facility 1 (ALP); the second names no warehouse. */
const partialFile = (control: number) =>
  goldenFor('850-two-orders.edi', control).replace('*ZZ*WH-WEST~', '*ZZ*ALP~');

describeEngines('scope: EDI inbound and inbox', (engine) => {
  let partner: Receiver;
  let svc: TestService;
  const tokens: Record<string, string> = {};
  let interchangeId: string;
  const call = callWithTokens(() => svc, tokens);
  const get = (user: string, url: string) => call(user, 'GET', url);

  const written = async () => {
    const count = async (table: 'edi_interchanges' | 'orders' | 'order_documents') =>
      (await svc.ctx.db.selectFrom(table).select('id').execute()).length;
    const logs = await svc.ctx.db.selectFrom('transactions').select('transaction_id').execute();
    const runs = await svc.ctx.db
      .selectFrom('edi_interchanges')
      .select(['id', 'outcome', 'summary_json'])
      .orderBy('id')
      .execute();
    return {
      interchanges: await count('edi_interchanges'),
      orders: await count('orders'),
      documents: await count('order_documents'),
      logs: logs.length,
      runs,
      received: partner.received.length,
    };
  };

  beforeAll(async () => {
    partner = await startReceiver(ok, 'scope-inbound');
    svc = await createTestService({ engine, seed: bundle(partner.url) });
    for (const user of [ADMIN, DELTA_ADMIN, CHARLIE_OPS, ...OUTSIDERS])
      tokens[user] = await svc.login(user);
    const posted = await postInterchange(svc, tokens[ADMIN]!, partialFile(601));
    expect(posted.statusCode, posted.body).toBe(200);
    expect(dataOf(posted)).toMatchObject({ outcome: 'partial' });
    interchangeId = dataOf<{ interchange_id: string }>(posted).interchange_id;
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 send');
  });
  afterAll(async () => {
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
    await partner?.close();
  });

  it('the connection’s admin sees the partly taken-in interchange (the fixture is real)', async () => {
    const list = await inbox(svc, tokens[ADMIN]!);
    expect(dataOf<InterchangePage>(list).interchanges.map((i) => i.id)).toEqual([interchangeId]);
  });

  it('the log rows of a refused PO stay in the connection’s organisation', async () => {
    type Row = { action_type: string; execution_status: string; facility_id: string | null };
    const rows = async (user: string) => {
      const response = await get(user, '/api/transactions?action_type=INGEST_PURCHASE_ORDER');
      expect(response.statusCode, response.body).toBe(200);
      return (response.json() as { data: { transactions: Row[] } }).data.transactions;
    };
    // Organisation 1's users see both sets' rows, the refused one at a facility of it.
    const seen = await rows(ADMIN);
    expect(seen.map((row) => [row.execution_status, row.facility_id]).sort()).toEqual([
      ['FAILURE', id('f', 1)],
      ['SUCCESS', id('f', 1)],
    ]);
    // Brand 1's users in organisation 2 see none of them (the refused one was brand-wide once).
    for (const user of [OTHER_ORGANISATION, CHARLIE_OPS])
      expect(await rows(user), user).toEqual([]);
  });

  it('an admin of the brand at another facility of the organisation sees the file, not the orders at Alpha', async () => {
    const detail = await interchange(svc, tokens[DELTA_ADMIN]!, interchangeId);
    expect(detail.statusCode, detail.body).toBe(200);
    // The order the first PO made is at Alpha, which this user does not see.
    const made = dataOf<InterchangeDetail>(await interchange(svc, tokens[ADMIN]!, interchangeId));
    expect(made.orders).toHaveLength(1);
    expectError(await get(DELTA_ADMIN, `/api/v1/orders/${made.orders[0]!.id}`), 404, 'NOT_FOUND');
    expect(dataOf<InterchangeDetail>(detail).orders).toEqual([]);
  });

  it.each(OUTSIDERS)('%s: posting an interchange answers 404; nothing is written', async (user) => {
    const before = await written();
    // A new interchange, and the stored one again (which the admin's post would mark duplicate).
    for (const text of [partialFile(602), partialFile(601)]) {
      expectError(
        await postInterchange(svc, tokens[user]!, text),
        404,
        'NOT_FOUND',
        'No EDI connection of yours takes interchanges from "RECEIVER1" to "SENDER1"',
      );
    }
    expect(await written()).toEqual(before);
  });

  it.each(OUTSIDERS)('%s: the inbox is empty; one, raw and reprocess answer 404', async (user) => {
    const before = await written();
    for (const query of ['', `?connection_id=${id('c', 1)}`, '?outcome=partial']) {
      const list = await inbox(svc, tokens[user]!, query);
      expect(list.statusCode, list.body).toBe(200);
      expect(dataOf<InterchangePage>(list)).toMatchObject({ total_count: 0, interchanges: [] });
    }
    await expectInterchangeHidden(svc, tokens[user]!, interchangeId);
    expect(await written()).toEqual(before);
  });

  it('a 997 of a file that made no order is logged in the organisation too', async () => {
    // Neither PO names a facility of ours and the connection has no order facility.
    const posted = await postInterchange(svc, tokens[ADMIN]!, goldenFor('850-two-orders.edi', 603));
    expect(dataOf(posted)).toMatchObject({ outcome: 'rejected' });
    await until(() => svc.ctx.deliveriesInFlight.size === 0, 'the 997 send');
    const ack = await svc.ctx.db
      .selectFrom('order_documents')
      .select(['order_id', 'facility_id'])
      .where('type', '=', '997')
      .where('order_id', 'is', null)
      .execute();
    expect(ack).toEqual([{ order_id: null, facility_id: id('f', 1) }]);
    for (const user of [OTHER_ORGANISATION, CHARLIE_OPS]) {
      const response = await get(user, '/api/transactions');
      expect(response.json(), user).toMatchObject({ data: { total_count: 0, transactions: [] } });
    }
  });

  it('a polled source’s trouble is logged in the organisation, not brand-wide', async () => {
    const connection = await svc.ctx.db
      .selectFrom('connections')
      .select(['id', 'organization_id', 'brand_id', 'retailer_id', 'order_documents_json'])
      .where('id', '=', id('c', 1))
      .executeTakeFirstOrThrow();
    const url = 'sftp://partner@sftp.example:22/outbound';
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await noteSourceFailed(svc.ctx, connection, url, 'connection refused');
    } finally {
      logged.mockRestore();
    }
    const row = await svc.ctx.db
      .selectFrom('transactions')
      .select(['facility_id', 'brand_id'])
      .where('request_url', '=', url)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ facility_id: id('f', 1), brand_id: id('b', 1) });
    const search = `/api/transactions?search=${encodeURIComponent('sftp.example')}`;
    const seen = await get(ADMIN, search);
    expect(seen.json()).toMatchObject({ data: { total_count: 1 } });
    for (const user of [OTHER_ORGANISATION, CHARLIE_OPS]) {
      const response = await get(user, search);
      expect(response.json(), user).toMatchObject({ data: { total_count: 0, transactions: [] } });
    }
  });
});
