/**
 * Several central processes on one PostgreSQL database (issue 17, item 3): two test services
 * open the same database, each with its own pool and its own in-memory caches, as two
 * processes behind a load balancer do. What one writes, the other answers from at once; an
 * outbox that both drain sends every document exactly once.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { authDataVersion } from '../../src/server/db/auth-version';
import { transactionsVersion } from '../../src/server/db/transactions-version';
import { sendDueDocuments } from '../../src/server/edi/send';
import { orderDataVersion } from '../../src/server/orders/read-queries';
import { id } from '../helpers/fixtures';
import { startReceiver, ok, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { ASN_CONNECTION, asnBundle, FAST_POLICY, ORDERS } from '../edi/support';

const postgres = inject('postgres');
const PACKER = 'packer@a.test';
/** One try per send, with time to spare: a repeat at the partner can only come from a second send. */
const ONE_TRY = { ...FAST_POLICY, attemptTimeoutMs: 10_000, totalBudgetMs: 10_000, maxAttempts: 1 };

describe.skipIf(!postgres)('two central processes on one PostgreSQL database', () => {
  let partner: Receiver;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    a = await createTestService({
      engine: 'postgres',
      seed: asnBundle(partner.url, { kind: 'DIRECT_API' }),
      deliveryPolicy: ONE_TRY,
    });
    b = await createTestService({ postgresUrl: a.postgresUrl, deliveryPolicy: ONE_TRY });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await partner?.close();
  });

  const get = (svc: TestService, authorization: string, url: string) =>
    svc.app.inject({ method: 'GET', url, headers: { authorization } });

  const facilityIds = async (svc: TestService, token: string) => {
    const response = await get(svc, token, '/api/user-facilities/v1/facilities');
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().data as { id: string }[]).map((f) => f.id);
  };

  it('the caches are on: each version is read from the database and moves with the other process’s writes', async () => {
    const versions = async () => [
      await authDataVersion(b.ctx.db),
      await transactionsVersion(b.ctx.db),
      await orderDataVersion(b.ctx.db),
    ];
    const before = await versions();
    for (const version of before) expect(typeof version).toBe('number');
    await a.ctx.db
      .updateTable('orders')
      .set({ po_number: 'PO-VERSION' })
      .where('id', '=', ORDERS.parcel)
      .execute();
    const afterOrder = await versions();
    expect(afterOrder[0]).toBe(before[0]); // auth data untouched
    expect(afterOrder[1]).toBeGreaterThan(before[1]!); // the log shows PO numbers
    expect(afterOrder[2]).toBeGreaterThan(before[2]!);
    await a.ctx.db
      .updateTable('users')
      .set({ email: 'packer@a.test' })
      .where('email', '=', PACKER)
      .execute();
    expect((await versions())[0]).toBeGreaterThan(before[0]!);
    // A transaction's writes count once, at its commit; a rolled-back one not at all.
    const committed = await versions();
    await a.ctx.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 3; i++)
        await trx
          .updateTable('orders')
          .set({ po_number: `PO-${i}` })
          .where('id', '=', ORDERS.parcel)
          .execute();
    });
    expect((await versions())[2]).toBe(committed[2]! + 1);
    await expect(
      a.ctx.db.transaction().execute(async (trx) => {
        await trx
          .updateTable('orders')
          .set({ po_number: 'PO-LOST' })
          .where('id', '=', ORDERS.parcel)
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await versions())[2]).toBe(committed[2]! + 1);
  });

  it('a grant revoked through A is refused through B at once', async () => {
    const token = await a.login(PACKER);
    // Warm B's caches (the signed-in user, the facility list) twice.
    expect(await facilityIds(b, token)).toEqual([id('f', 1)]);
    expect(await facilityIds(b, token)).toEqual([id('f', 1)]);
    const order = await get(b, token, `/api/v1/orders/${ORDERS.parcel}`);
    expect(order.statusCode, order.body).toBe(200);

    const user = await a.ctx.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', PACKER)
      .executeTakeFirstOrThrow();
    await a.ctx.db.deleteFrom('user_facilities').where('user_id', '=', user.id).execute();

    expect(await facilityIds(b, token)).toEqual([]);
    expect((await get(b, token, `/api/v1/orders/${ORDERS.parcel}`)).statusCode).toBe(404);
    // And back: the grant given again through A is seen through B at once too.
    await a.ctx.db
      .insertInto('user_facilities')
      .values({ user_id: user.id, facility_id: id('f', 1) })
      .execute();
    expect(await facilityIds(b, token)).toEqual([id('f', 1)]);
  });

  it('a log row written through A shows in a list through B at once', async () => {
    const token = await a.login(PACKER);
    const list = async () => {
      const response = await get(b, token, '/api/transactions');
      expect(response.statusCode, response.body).toBe(200);
      return (response.json().data.transactions as { transaction_id: string }[]).map(
        (t) => t.transaction_id,
      );
    };
    const before = await list();
    expect(await list()).toEqual(before); // now cached in B
    const transactionId = randomUUID();
    await a.ctx.db
      .insertInto('transactions')
      .values({
        transaction_id: transactionId,
        action_type: 'SEND_ASN',
        action_type_label: 'Send ASN',
        facility_id: id('f', 1),
        brand_id: id('b', 1),
        retailer_id: id('r', 1),
        order_id: ORDERS.parcel,
        duration_ms: 1,
        execution_status: 'SUCCESS',
        request_method: 'POST',
        request_url: '/x',
        created_at: '2099-01-01T00:00:00.000Z',
        updated_at: '2099-01-01T00:00:00.000Z',
      })
      .execute();
    expect((await list())[0]).toBe(transactionId);
  });

  it("an order's details changed through A are answered changed through B at once", async () => {
    const token = await a.login(PACKER);
    const po = async () => {
      const response = await get(b, token, `/api/v1/orders/${ORDERS.parcel}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.identifiers.po_number as string | null;
    };
    const before = await po();
    expect(await po()).toBe(before); // now cached in B
    await a.ctx.db
      .updateTable('orders')
      .set({ po_number: 'PO-SEEN-BY-B' })
      .where('id', '=', ORDERS.parcel)
      .execute();
    expect(await po()).toBe('PO-SEEN-BY-B');
  });

  it('queued documents drained by both processes at once reach the partner exactly once each', async () => {
    partner.clear();
    const order = await a.ctx.db
      .selectFrom('orders')
      .select(['id', 'brand_id', 'facility_id', 'retailer_id'])
      .where('id', '=', ORDERS.parcel)
      .executeTakeFirstOrThrow();
    const connection = await a.ctx.db
      .selectFrom('connections')
      .select(['organization_id'])
      .where('id', '=', ASN_CONNECTION)
      .executeTakeFirstOrThrow();
    const at = new Date(Date.now() - 60_000).toISOString();
    const ids = Array.from({ length: 40 }, () => randomUUID());
    await a.ctx.db
      .insertInto('order_documents')
      .values(
        ids.map((documentId) => ({
          id: documentId,
          order_id: order.id,
          brand_id: order.brand_id,
          facility_id: order.facility_id,
          connection_id: ASN_CONNECTION,
          organization_id: connection.organization_id,
          retailer_id: order.retailer_id,
          type: 'TRACKING' as const,
          direction: 'out' as const,
          status: 'queued' as const,
          interchange_control_number: null,
          group_control_number: null,
          transaction_control_number: null,
          document: JSON.stringify({ document: documentId }),
          content_type: 'application/json',
          file_name: `${documentId}.json`,
          error: null,
          next_attempt_at: null,
          sender_id: null,
          sent_at: null,
          acknowledged_at: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();

    // Both processes' drainers run passes side by side, each taking every due document.
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        sendDueDocuments(a.ctx, 64),
        sendDueDocuments(b.ctx, 64),
        sendDueDocuments(a.ctx, 64),
        sendDueDocuments(b.ctx, 64),
      ]);
    }

    const keys = partner.received.map((r) => r.headers['idempotency-key']);
    expect(keys.length).toBe(ids.length);
    expect(new Set(keys)).toEqual(new Set(ids));
    const rows = await b.ctx.db
      .selectFrom('order_documents')
      .select(['status', 'attempts'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
    // Every lease was given back once its outcome was committed.
    const claims = await sql<{ n: number }>`SELECT count(*) AS n FROM delivery_claims`.execute(
      a.ctx.db,
    );
    expect(claims.rows[0]!.n).toBe(0);
  });
});
