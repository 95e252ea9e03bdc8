import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Engine } from '../../src/server/db/engine';
import type { PushedMutation, RowChange } from '../../src/server/sync/protocol';
import { describeEngines } from '../helpers/engines';
import { api, COLUMBUS, DEVICES, RENO, seedInto, signIn } from './helpers/cluster';
import { startPushCentral, type PushCentral } from './helpers/push-central';
import { logRowInsert } from './helpers/raw-push';

/**
 * The central's push on both engines (issue 17, item 2): mutations apply in seq order with their
 * last_seq advance, refusals of the central's constraints are recorded and their rows re-stamped,
 * a retried batch applies once however many copies run at the same time, and two devices push
 * side by side. On PostgreSQL a transaction holds 50 mutations at most.
 */
const RENO_OPEN = '0d000000-0000-4000-8000-000000000001'; // Summit, Big Box, Open
const RENO_PICKING = '0d000000-0000-4000-8000-000000000004'; // Summit, Picking
const BRAND_SUMMIT = '0b000000-0000-4000-8000-000000000001';

let seqs = new Map<string, number>();
/** Mutations of `device` with the next seqs, one change list each. */
function mutations(deviceId: string, changes: RowChange[][]): PushedMutation[] {
  let seq = seqs.get(deviceId) ?? 0;
  const out = changes.map((c) => ({
    seq: ++seq,
    name: 'TEST',
    args: { changes: c },
    at: new Date().toISOString(),
  }));
  seqs.set(deviceId, seq);
  return out;
}

describeEngines('the central applies pushes', (engine: Engine) => {
  let central: PushCentral;
  beforeAll(async () => {
    seqs = new Map();
    central = await startPushCentral(engine);
  });
  afterAll(async () => {
    await central?.close();
  });
  const db = () => central.service.context.db;
  const lastSeq = async (deviceId: string) =>
    Number(
      (
        await db()
          .selectFrom('sync_clients')
          .select('last_seq')
          .where('client_id', '=', deviceId)
          .executeTakeFirst()
      )?.last_seq ?? 0,
    );
  const order = (id: string) =>
    db().selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const poEdits = (from: string | null, count: number, prefix: string): RowChange[][] => {
    let before = from;
    return Array.from({ length: count }, (_, i) => {
      const next = `${prefix}-${i + 1}`;
      const change: RowChange = {
        t: 'orders',
        op: 'U',
        k: [RENO_OPEN],
        old: { po_number: before },
        new: { po_number: next },
      };
      before = next;
      return [change];
    });
  };

  it('applies 120 mutations in one push, each recorded with the last_seq it advances', async () => {
    const start = (await order(RENO_OPEN)).po_number;
    const pushed = mutations(DEVICES.w1.id, poEdits(start, 120, 'PO-BATCH'));
    const answer = await central.push(DEVICES.w1, pushed);
    expect(answer).toMatchObject({ applied: 120, rejected: 0, duplicates: 0, last_seq: 120 });
    expect((await order(RENO_OPEN)).po_number).toBe('PO-BATCH-120');
    expect(await lastSeq(DEVICES.w1.id)).toBe(120);
    const recorded = await db()
      .selectFrom('sync_mutations')
      .select(['seq', 'applied_version'])
      .where('client_id', '=', DEVICES.w1.id)
      .orderBy('seq')
      .execute();
    expect(recorded.map((r) => Number(r.seq))).toEqual(pushed.map((m) => m.seq));
    const versions = new Set(recorded.map((r) => Number(r.applied_version)));
    // SQLite: a version per mutation; PostgreSQL: a version per transaction of at most 50.
    expect(versions.size).toBe(engine === 'postgres' ? 3 : 120);
    const stamped = await db()
      .selectFrom('sync_row_versions')
      .select('version')
      .where('tbl', '=', 'orders')
      .where('row_key', '=', JSON.stringify([RENO_OPEN]))
      .executeTakeFirstOrThrow();
    expect(Number(stamped.version)).toBe(Math.max(...versions));
  });

  it('refuses a taken picksheet code, a missing reference and a missing value, and re-stamps their rows', async () => {
    const stored = await order(RENO_OPEN);
    const copy = (id: string, over: Record<string, unknown>) => ({
      t: 'orders',
      op: 'I' as const,
      k: [id],
      new: { ...stored, id, ...over },
    });
    const taken = '0d000000-0000-4000-8000-0000000000a1';
    const missing = '0d000000-0000-4000-8000-0000000000a2';
    const badType = '0d000000-0000-4000-8000-0000000000a3';
    const before = await lastSeq(DEVICES.w1.id);
    const answer = await central.push(
      DEVICES.w1,
      mutations(DEVICES.w1.id, [
        [copy(taken, {})],
        [copy(missing, { picksheet_code: 'PS-MISSING-1', retailer_id: 'no-such-retailer' })],
        [copy(badType, { picksheet_code: 'PS-NOSTATUS-1', status: null })],
      ]),
    );
    expect(answer).toMatchObject({ applied: 0, rejected: 3, last_seq: before + 3 });
    const reasons = await db()
      .selectFrom('sync_conflicts')
      .select(['seq', 'reason'])
      .where('client_id', '=', DEVICES.w1.id)
      .where('seq', '>', before)
      .orderBy('seq')
      .execute();
    expect(reasons.map((r) => r.reason)).toEqual([
      'The picksheet code is already used at this facility on the central service',
      'It refers to a record the central service does not have',
      expect.stringMatching(/^The central service refused it: /),
    ]);
    for (const id of [taken, missing, badType]) {
      const tombstone = await db()
        .selectFrom('sync_row_versions')
        .select(['deleted', 'version'])
        .where('tbl', '=', 'orders')
        .where('row_key', '=', JSON.stringify([id]))
        .executeTakeFirstOrThrow();
      expect(Number(tombstone.deleted)).toBe(1);
    }
    expect(
      await db()
        .selectFrom('orders')
        .select('id')
        .where('id', 'in', [taken, missing, badType])
        .execute(),
    ).toEqual([]);
  });

  it('a refusal between applied mutations rolls back that mutation only; the others apply once', async () => {
    // On PostgreSQL the batch first runs without savepoints, then again with them once refused.
    const stored = await order(RENO_OPEN);
    const before = await lastSeq(DEVICES.w1.id);
    const [first, second] = poEdits(stored.po_number, 2, 'PO-AROUND');
    const taken: RowChange = {
      t: 'orders',
      op: 'I',
      k: ['0d000000-0000-4000-8000-0000000000b1'],
      new: { ...stored, id: '0d000000-0000-4000-8000-0000000000b1' },
    };
    const answer = await central.push(
      DEVICES.w1,
      mutations(DEVICES.w1.id, [first!, [taken], second!]),
    );
    expect(answer).toMatchObject({ applied: 2, rejected: 1, last_seq: before + 3 });
    expect((await order(RENO_OPEN)).po_number).toBe('PO-AROUND-2');
    const journal = await db()
      .selectFrom('sync_mutations')
      .select(['seq', 'outcome'])
      .where('client_id', '=', DEVICES.w1.id)
      .where('seq', '>', before)
      .orderBy('seq')
      .execute();
    expect(journal.map((r) => [Number(r.seq), r.outcome])).toEqual([
      [before + 1, 'applied'],
      [before + 2, 'rejected'],
      [before + 3, 'applied'],
    ]);
    const conflicts = await db()
      .selectFrom('sync_conflicts')
      .select('seq')
      .where('client_id', '=', DEVICES.w1.id)
      .where('seq', '>', before)
      .execute();
    expect(conflicts.map((c) => Number(c.seq))).toEqual([before + 2]);
  });

  // SQLite stores such a value as it comes (its columns are not typed).
  if (engine === 'postgres') {
    it('refuses a value not of the column type (SQLSTATE class 22) instead of failing the push', async () => {
      const before = await lastSeq(DEVICES.w1.id);
      const item = '0d000000-0000-4000-8000-0000000000b1';
      const answer = await central.push(
        DEVICES.w1,
        mutations(DEVICES.w1.id, [
          [
            {
              t: 'order_items',
              op: 'I',
              k: [item],
              new: { id: item, order_id: RENO_OPEN, line_number: 99, sku: 'X', quantity: 'many' },
            },
          ],
        ]),
      );
      expect(answer).toMatchObject({ applied: 0, rejected: 1, last_seq: before + 1 });
    });
  }

  if (engine === 'postgres') {
    it('an edit pushed while the order ships waits for the ship and is refused (the stored row is locked)', async () => {
      const before = await order(RENO_PICKING);
      let pushed = false;
      await db()
        .connection()
        .execute(async (holder) => {
          await sql`BEGIN`.execute(holder);
          await sql`UPDATE orders SET status = 'Shipped' WHERE id = ${RENO_PICKING}`.execute(
            holder,
          );
          const pushing = central
            .push(
              DEVICES.w1,
              mutations(DEVICES.w1.id, [
                [
                  {
                    t: 'orders',
                    op: 'U',
                    k: [RENO_PICKING],
                    old: { po_number: before.po_number },
                    new: { po_number: 'PO-AFTER-SHIP' },
                  },
                ],
              ]),
            )
            .finally(() => {
              pushed = true;
            });
          await new Promise((resolve) => setTimeout(resolve, 150));
          expect(pushed).toBe(false);
          await sql`COMMIT`.execute(holder);
          expect(await pushing).toMatchObject({ applied: 0, rejected: 1 });
        });
      expect((await order(RENO_PICKING)).po_number).toBe(before.po_number);
      const reason = await db()
        .selectFrom('sync_conflicts')
        .select('reason')
        .where('client_id', '=', DEVICES.w1.id)
        .orderBy('seq', 'desc')
        .executeTakeFirstOrThrow();
      expect(reason.reason).toBe(
        `Order ${before.picksheet_code} was already Shipped on the central service`,
      );
    });
  }

  it('a pushed row naming a column the central computes (PostgreSQL search_key) applies without it', async () => {
    const id = 'a9100000-0000-4000-8000-000000000001';
    const at = new Date().toISOString();
    const pushed = mutations(DEVICES.w1.id, [
      [
        logRowInsert(id, RENO, at, {
          request_url: '/Pushed-Search-Key',
          search_key: 'a value the device made up',
        }),
      ],
    ]);
    expect(await central.push(DEVICES.w1, pushed)).toMatchObject({ applied: 1, rejected: 0 });
    const stored = await db()
      .selectFrom('transactions')
      .select('request_url')
      .where('transaction_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.request_url).toBe('/Pushed-Search-Key');
    if (engine === 'postgres') {
      const { rows } = await sql<{ search_key: string }>`
        SELECT search_key FROM transactions WHERE transaction_id = ${id}`.execute(db());
      expect(rows[0]!.search_key).toContain('/pushed-search-key');
    }
  });

  it('50 parallel copies of one batch of one device apply it once', async () => {
    const start = (await order(RENO_OPEN)).po_number;
    const before = await lastSeq(DEVICES.w2.id);
    const batch = mutations(DEVICES.w2.id, poEdits(start, 60, 'PO-PARALLEL'));
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => central.push(DEVICES.w2, batch)),
    );
    expect(answers.reduce((n, a) => n + a.applied, 0)).toBe(60);
    expect(answers.reduce((n, a) => n + a.duplicates, 0)).toBe(60 * 49);
    expect(answers.every((a) => a.last_seq === before + 60)).toBe(true);
    expect(await lastSeq(DEVICES.w2.id)).toBe(before + 60);
    const recorded = await db()
      .selectFrom('sync_mutations')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('client_id', '=', DEVICES.w2.id)
      .where('seq', '>', before)
      .executeTakeFirstOrThrow();
    expect(Number(recorded.n)).toBe(60);
    expect((await order(RENO_OPEN)).po_number).toBe('PO-PARALLEL-60');
  });

  it('two devices push side by side; only pushes of one device wait for each other', async () => {
    const w1 = mutations(
      DEVICES.w1.id,
      poEdits(null, 1, 'UNUSED').map(() => []),
    );
    const w3 = mutations(DEVICES.w3.id, [[], []]);
    if (engine === 'postgres') {
      // W1's row held by another transaction: W3's push goes through meanwhile, W1's waits.
      await db()
        .connection()
        .execute(async (holder) => {
          await sql`BEGIN`.execute(holder);
          await sql`SELECT 1 FROM sync_clients WHERE client_id = ${DEVICES.w1.id} FOR UPDATE`.execute(
            holder,
          );
          let w1Done = false;
          const waiting = central.push(DEVICES.w1, w1).then((a) => {
            w1Done = true;
            return a;
          });
          expect((await central.push(DEVICES.w3, w3)).applied).toBe(2);
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(w1Done).toBe(false);
          await sql`COMMIT`.execute(holder);
          expect((await waiting).applied).toBe(1);
        });
      return;
    }
    const [a, b] = await Promise.all([central.push(DEVICES.w1, w1), central.push(DEVICES.w3, w3)]);
    expect([a.applied, b.applied]).toEqual([1, 2]);
  });

  it('a field conflict is resolved on the central: apply mine by the brand admin at the facility only', async () => {
    await seedInto(central.service, {
      users: [
        {
          email: 'columbus-admin@example.com',
          password: 'password-columbus',
          facility_ids: [RENO, COLUMBUS],
          admin: [{ brand_id: BRAND_SUMMIT, facility_id: COLUMBUS }],
        },
      ],
    });
    const stored = await order(RENO_OPEN);
    const answer = await central.push(
      DEVICES.w1,
      mutations(DEVICES.w1.id, [
        [
          {
            t: 'orders',
            op: 'U',
            k: [RENO_OPEN],
            old: { po_number: 'READ-BEFORE' },
            new: { po_number: 'PO-MINE' },
          },
        ],
      ]),
    );
    expect(answer).toMatchObject({ applied: 1, conflicts: 1 });
    const conflict = await db()
      .selectFrom('sync_conflicts')
      .select(['id', 'facility_id', 'brand_id', 'status'])
      .where('client_id', '=', DEVICES.w1.id)
      .orderBy('seq', 'desc')
      .executeTakeFirstOrThrow();
    expect(conflict).toMatchObject({ facility_id: RENO, brand_id: BRAND_SUMMIT, status: 'open' });
    expect((await order(RENO_OPEN)).po_number).toBe(stored.po_number);
    const resolve = (auth: string) =>
      api(central.service, auth, 'POST', `/api/sync/v1/conflicts/${conflict.id}/resolve`, {
        action: 'apply_mine',
      });
    const other = await signIn(central.service, 'columbus-admin@example.com', 'password-columbus');
    expect(await resolve(other)).toMatchObject({ status: 403 });
    expect(await resolve(await signIn(central.service))).toMatchObject({ status: 200 });
    expect((await order(RENO_OPEN)).po_number).toBe('PO-MINE');
  });
});
