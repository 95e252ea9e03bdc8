/**
 * Migration 0020_edi_log_rows_facility on both engines: the inbound path's log rows written before
 * decision 0226 without a facility (a refused PO set, a polled source's trouble, the send row of a
 * 997 of no order) take a facility of their connection's organisation, as log-facility.ts picks
 * it (the order facility when the brand works there, else the brand's first one there, else no
 * brand); brand-wide advice rows and rows tied to no connection stay as they were. The counts
 * follow, and a brand-1 user in the other organisation no longer sees the rows in the log.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { up as postgresUp } from '../../src/server/db/postgres/migrations/0020_edi_log_rows_facility';
import { up as sqliteUp } from '../../src/server/edi/migrations/0020_edi_log_rows_facility';
import { describeEngines } from '../helpers/engines';
import { id, ordersBundle } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';

const AT = '2026-11-20T08:00:00.000Z';
/** Brand 1, facility 3 only: organisation 2. */
const CHARLIE = 'charlie1@b.test';
/** Brand 2, facility 3 only: organisation 2. */
const BRAND_2_CHARLIE = 'brand2@b.test';
/** Brand-less, facilities 1 to 4. */
const OPS = 'ops@a.test';
/** An organisation where no facility is: brand 1's connection there logs at none. */
const EMPTY_ORG = 'empty-org';
const EMPTY_CONNECTION = 'empty-connection';

type Version = { version: number; facility_id: string | null };
type Row = { transaction_id: string; facility_id: string | null; brand_id: string | null };

/** A log row as the inbound path wrote it before decision 0226: brand-wide. */
function legacyRow(
  transactionId: string,
  row: {
    action: [code: string, label: string];
    method: 'GET' | 'POST';
    correlation: string | null;
    brand: string | null;
    retailer: string;
  },
) {
  return {
    transaction_id: transactionId,
    action_type: row.action[0],
    action_type_label: row.action[1],
    brand_id: row.brand,
    retailer_id: row.retailer,
    facility_id: null,
    order_id: null,
    carton_id: null,
    load_id: null,
    correlation_id: row.correlation,
    duration_ms: 3,
    error_message: 'legacy',
    execution_status: 'FAILURE' as const,
    request_method: row.method,
    request_url: `legacy://${transactionId}`,
    request_payload: null,
    response_body: null,
    response_status: 422,
    created_at: AT,
    updated_at: AT,
  };
}

const REFUSED_PO = ['INGEST_PURCHASE_ORDER', 'Ingest purchase order'] as [string, string];
const REFUSED_CHANGE = ['INGEST_PURCHASE_ORDER_CHANGE', 'Ingest purchase order change'] as [
  string,
  string,
];
const SEND_997 = ['SEND_FUNCTIONAL_ACK', 'Send functional acknowledgment'] as [string, string];
const ADVICE = ['SEND_INVENTORY_ADVICE', 'Send inventory advice'] as [string, string];

describeEngines('migration 0020_edi_log_rows_facility', (engine) => {
  let svc: TestService;
  const tokens: Record<string, string> = {};
  let before: Map<string, Row>;
  let versionsBefore: Map<string, Version>;

  /** The central's version entries of the log rows and the 997, by table and key. */
  const versions = async () =>
    new Map(
      (
        await svc.ctx.db
          .selectFrom('sync_row_versions')
          .select(['tbl', 'row_key', 'version', 'facility_id'])
          .where('tbl', 'in', ['transactions', 'order_documents'])
          .execute()
      ).map((v) => [
        `${v.tbl}:${(JSON.parse(v.row_key) as string[])[0]}`,
        { version: Number(v.version), facility_id: v.facility_id },
      ]),
    );

  const interchange = (interchangeId: string, connectionId: string | null, control: string) => ({
    id: interchangeId,
    connection_id: connectionId,
    organization_id: connectionId ? id('o', 1) : null,
    brand_id: connectionId ? id('b', 1) : null,
    retailer_id: connectionId ? id('r', 1) : null,
    sender_qualifier: 'ZZ',
    sender_id: 'RECEIVER1',
    receiver_id: 'SENDER1',
    control_number: control,
    source: 'http' as const,
    file_name: null,
    user_id: null,
    received_at: AT,
    raw: 'ISA*legacy~',
    outcome: 'rejected' as const,
    duplicate_of: null,
    summary_json: '{}',
  });

  const rows = async () =>
    new Map(
      (
        await svc.ctx.db
          .selectFrom('transactions')
          .select(['transaction_id', 'facility_id', 'brand_id'])
          .execute()
      ).map((row) => [row.transaction_id, row]),
    );

  /** The ids of the legacy rows `email` sees in GET /api/transactions. */
  const seenBy = async (email: string) => {
    const response = await svc.app.inject({
      method: 'GET',
      url: '/api/transactions?search=legacy&page_size=100',
      headers: { authorization: tokens[email]! },
    });
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json() as { data: { transactions: { transaction_id: string }[] } };
    return page.data.transactions.map((row) => row.transaction_id).sort();
  };

  beforeAll(async () => {
    svc = await createTestService({ seed: ordersBundle(), engine });
    for (const email of [CHARLIE, BRAND_2_CHARLIE, OPS]) tokens[email] = await svc.login(email);
    const db = svc.ctx.db;
    // Connection 1 (brand 1, organisation 1) sends its orders to Delta, not its first facility
    // (Alpha); connection 2 (brand 2, organisation 1) names Charlie, of organisation 2, so its
    // rows go to brand 2's first facility in organisation 1 (Alpha).
    await db
      .updateTable('connections')
      .set({ order_documents_json: JSON.stringify({ send: ['856'], facility_id: id('f', 4) }) })
      .where('id', '=', id('c', 1))
      .execute();
    await db
      .updateTable('connections')
      .set({ order_documents_json: JSON.stringify({ send: ['856'], facility_id: id('f', 3) }) })
      .where('id', '=', id('c', 2))
      .execute();
    await db.insertInto('organizations').values({ id: EMPTY_ORG, name: 'No facility' }).execute();
    await db
      .insertInto('connections')
      .values({
        id: EMPTY_CONNECTION,
        organization_id: EMPTY_ORG,
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        kind: 'DIRECT_API',
        enabled: 1,
        transport_json: '{"type":"file","directory":"outbox/empty"}',
      })
      .execute();
    await db
      .insertInto('edi_interchanges')
      .values([
        interchange('interchange-1', id('c', 1), '000000901'),
        // Refused before any connection was found: tied to none.
        interchange('interchange-stranger', null, '000000902'),
      ])
      .execute();
    await db
      .insertInto('order_documents')
      .values({
        id: 'ack-1',
        order_id: null,
        brand_id: id('b', 1),
        facility_id: null,
        connection_id: id('c', 1),
        organization_id: id('o', 1),
        retailer_id: id('r', 1),
        type: '997',
        direction: 'out',
        status: 'sent',
        interchange_control_number: 7,
        group_control_number: 7,
        transaction_control_number: '0001',
        document: 'ISA*997~',
        content_type: 'application/edi-x12',
        file_name: 'ack-1.edi',
        error: null,
        next_attempt_at: null,
        sender_id: 'central',
        sent_at: AT,
        acknowledged_at: null,
        created_at: AT,
        updated_at: AT,
        interchange_id: 'interchange-1',
      })
      .execute();
    // This database serves as a central: PostgreSQL's triggers stamp what is written from now on.
    await db.insertInto('sync_meta').values({ id: 1, epoch: 'test-epoch' }).execute();
    const b1 = id('b', 1);
    const r1 = id('r', 1);
    await db
      .insertInto('transactions')
      .values([
        legacyRow('refused-po', {
          action: REFUSED_PO,
          method: 'POST',
          correlation: 'interchange-1',
          brand: b1,
          retailer: r1,
        }),
        legacyRow('refused-change', {
          action: REFUSED_CHANGE,
          method: 'POST',
          correlation: 'interchange-1',
          brand: b1,
          retailer: r1,
        }),
        legacyRow('poll-trouble', {
          action: REFUSED_PO,
          method: 'GET',
          correlation: id('c', 1),
          brand: b1,
          retailer: r1,
        }),
        legacyRow('ack-send', {
          action: SEND_997,
          method: 'POST',
          correlation: 'ack-1',
          brand: b1,
          retailer: r1,
        }),
        legacyRow('poll-trouble-brand-2', {
          action: REFUSED_PO,
          method: 'GET',
          correlation: id('c', 2),
          brand: id('b', 2),
          retailer: id('r', 2),
        }),
        legacyRow('poll-trouble-nowhere', {
          action: REFUSED_PO,
          method: 'GET',
          correlation: EMPTY_CONNECTION,
          brand: b1,
          retailer: r1,
        }),
        // Stay as they are: brand-wide advice, a file tied to no connection.
        legacyRow('advice', {
          action: ADVICE,
          method: 'POST',
          correlation: 'snapshot-1',
          brand: b1,
          retailer: r1,
        }),
        legacyRow('stranger', {
          action: REFUSED_PO,
          method: 'POST',
          correlation: 'interchange-stranger',
          brand: b1,
          retailer: r1,
        }),
      ])
      .execute();
    before = await rows();
    if (engine === 'sqlite') {
      // SQLite's stamps are TEMP triggers of a running central (sync/stamps.ts), which neither
      // this service nor a migration has: the central's entries, as it stamped the rows.
      await db
        .insertInto('sync_row_versions')
        .values([
          ...[...before.keys()].map((key) => ({
            tbl: 'transactions',
            row_key: JSON.stringify([key]),
            version: 41,
            deleted: 0,
            facility_id: null,
            order_id: null,
            src_rowid: null,
          })),
          {
            tbl: 'order_documents',
            row_key: JSON.stringify(['ack-1']),
            version: 41,
            deleted: 0,
            facility_id: null,
            order_id: null,
            src_rowid: null,
          },
        ])
        .execute();
    }
    // The leak the migration closes: organisation 2's brand users see organisation 1's rows.
    expect(await seenBy(CHARLIE)).toEqual(
      [
        'ack-send',
        'advice',
        'poll-trouble',
        'poll-trouble-nowhere',
        'refused-change',
        'refused-po',
        'stranger',
      ].sort(),
    );
    expect(await seenBy(BRAND_2_CHARLIE)).toEqual(['poll-trouble-brand-2']);

    versionsBefore = await versions();
    // As the migrator runs it: in a transaction on PostgreSQL, statement by statement on SQLite.
    const untyped = (db: unknown) => db as Kysely<unknown>;
    if (engine === 'postgres') {
      await svc.ctx.db.transaction().execute((trx) => postgresUp(untyped(trx)));
    } else {
      await sqliteUp(untyped(svc.ctx.db));
    }
  });

  afterAll(async () => {
    await svc?.close();
  });

  it('gives each tied row its connection’s facility, or neither facility nor brand', async () => {
    const after = await rows();
    const b1 = id('b', 1);
    const delta = id('f', 4);
    const changed: Record<string, [string | null, string | null]> = {
      'refused-po': [delta, b1],
      'refused-change': [delta, b1],
      'poll-trouble': [delta, b1],
      'ack-send': [delta, b1],
      'poll-trouble-brand-2': [id('f', 1), id('b', 2)],
      'poll-trouble-nowhere': [null, null],
    };
    // Every other row (the advice, the stranger's file, the seed's) is as it was.
    for (const [key, row] of before) {
      const now = after.get(key)!;
      expect([now.facility_id, now.brand_id], key).toEqual(
        changed[key] ?? [row.facility_id, row.brand_id],
      );
    }
    expect(before.get('advice')).toMatchObject({ facility_id: null, brand_id: b1 });
    expect(before.get('stranger')).toMatchObject({ facility_id: null, brand_id: b1 });
    // The 997 of no order takes the facility too, so a later send of it logs there.
    const ack = await svc.ctx.db
      .selectFrom('order_documents')
      .select(['facility_id', 'brand_id'])
      .where('id', '=', 'ack-1')
      .executeTakeFirstOrThrow();
    expect(ack).toEqual({ facility_id: delta, brand_id: b1 });
  });

  it('gives the changed rows new versions on a central, so devices pull them', async () => {
    const after = await versions();
    const newest = Math.max(...[...versionsBefore.values()].map((v) => v.version));
    const changed = [
      'refused-po',
      'refused-change',
      'poll-trouble',
      'ack-send',
      'poll-trouble-brand-2',
      'poll-trouble-nowhere',
    ];
    for (const key of [...before.keys()].filter((k) => versionsBefore.has(`transactions:${k}`))) {
      const entry = after.get(`transactions:${key}`)!;
      if (changed.includes(key)) {
        expect(entry.version, key).toBeGreaterThan(newest);
        expect(entry.facility_id, key).toBe((await rows()).get(key)!.facility_id);
      } else {
        expect(entry, key).toEqual(versionsBefore.get(`transactions:${key}`));
      }
    }
    for (const key of changed) expect(versionsBefore.has(`transactions:${key}`), key).toBe(true);
    expect(after.get('order_documents:ack-1')!.version).toBeGreaterThan(newest);
  });

  it('keeps the counts per facility and brand equal to the rows', async () => {
    const counted = await sql<{ facility_key: string; brand_key: string; n: string | number }>`
      SELECT facility_key, brand_key, sum(n) AS n FROM transaction_counts WHERE day = ''
      GROUP BY facility_key, brand_key HAVING sum(n) <> 0`.execute(svc.ctx.db);
    const recounted = await sql<{ facility_key: string; brand_key: string; n: string | number }>`
      SELECT coalesce(facility_id, '') AS facility_key, coalesce(brand_id, '') AS brand_key,
        count(*) AS n FROM transactions GROUP BY 1, 2`.execute(svc.ctx.db);
    const norm = (list: { facility_key: string; brand_key: string; n: string | number }[]) =>
      list.map((r) => `${r.facility_key}|${r.brand_key}|${Number(r.n)}`).sort();
    expect(norm(counted.rows)).toEqual(norm(recounted.rows));
    expect(norm(counted.rows)).toContain(`${id('f', 4)}|${id('b', 1)}|4`);
  });

  // PostgreSQL has no side table: it searches the log's own rows (0018_transactions_search_key).
  if (engine === 'sqlite') {
    it('keeps the search side table’s facility and brand equal to the rows', async () => {
      const mismatched = await sql<{ transaction_id: string }>`
      SELECT t.transaction_id FROM transactions t
      JOIN transactions_search_ids m ON m.transaction_id = t.transaction_id
      WHERE m.facility_id IS NOT t.facility_id OR m.brand_id IS NOT t.brand_id`.execute(svc.ctx.db);
      expect(mismatched.rows).toEqual([]);
      const indexed = await sql<{ n: number }>`SELECT count(*) AS n FROM transactions_search_ids
      WHERE transaction_id IN ('refused-po', 'poll-trouble-nowhere')`.execute(svc.ctx.db);
      expect(indexed.rows).toEqual([{ n: 2 }]);
    });
  }

  it('lists the rows to the connection’s organisation only', async () => {
    expect(await seenBy(CHARLIE)).toEqual(['advice', 'stranger']);
    expect(await seenBy(BRAND_2_CHARLIE)).toEqual([]);
    // Organisation 1's users see them at its facilities (and the brand-wide rows as before).
    expect(await seenBy(OPS)).toEqual(
      [
        'ack-send',
        'advice',
        'poll-trouble',
        'poll-trouble-brand-2',
        'refused-change',
        'refused-po',
        'stranger',
      ].sort(),
    );
  });
});
