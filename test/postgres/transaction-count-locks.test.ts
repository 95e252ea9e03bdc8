/**
 * Multi-row writes of the transaction log on PostgreSQL: each row's trigger adds to two
 * `transaction_counts` rows (all days, and its day) of its key (facility, brand, retailer,
 * action, status, error), locking them until the commit. Writers whose rows meet the same count
 * rows in opposite orders would each hold one and wait for the other's (SQLSTATE 40P01, a
 * refused write); written in one order (by key, then day), they only wait. 60 writers, half with
 * their rows in each order, through two processes on one database.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { writeIngestLogs, type IngestLogEntry } from '../../src/server/edi/ingest-log';
import type { TransactionsTable } from '../../src/server/db/schema';
import { upsertTransactionRows } from '../../src/server/transactions/queries';
import { createTestService, type TestService } from '../helpers/service';

const WRITERS = 60;
/** Keys each writer's rows touch: facilities × days, every one a count row of its own. */
const FACILITIES = Array.from({ length: 8 }, (_, i) => `f-${i}`);
const DAYS = ['2026-11-24', '2026-11-25'];
const KEYS = FACILITIES.flatMap((facility) => DAYS.map((day) => ({ facility, day })));

/** The keys in writer n's order: ascending for even writers, descending for odd ones. */
const keysOf = (n: number) => (n % 2 ? [...KEYS].reverse() : KEYS);

describe.skipIf(!inject('postgres'))(
  'transaction-log rows written in parallel on PostgreSQL',
  () => {
    let a: TestService;
    let b: TestService;
    beforeAll(async () => {
      a = await createTestService({ engine: 'postgres' });
      b = await createTestService({ postgresUrl: a.postgresUrl });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    /** Runs WRITERS transactions through both processes; each writes its rows, then waits a little. */
    const inParallel = (write: (trx: TestService['ctx']['db'], n: number) => Promise<void>) =>
      Promise.allSettled(
        Array.from({ length: WRITERS }, (_, n) =>
          (n % 2 ? a : b).ctx.db.transaction().execute(async (trx) => {
            await write(trx, n);
            // The caller's transaction goes on (the ingest writes more) while it holds the rows.
            await sql`SELECT pg_sleep(0.01)`.execute(trx);
          }),
        ),
      );

    /** Every writer committed, and each count row of the day holds one per writer and key. */
    async function expectAllCounted(
      results: PromiseSettledResult<void>[],
      actionType: string,
    ): Promise<void> {
      const refused = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
      expect(refused).toEqual([]);
      const counts = await a.ctx.db
        .selectFrom('transaction_counts')
        .select(['day', 'facility_key', 'n'])
        .where('action_type', '=', actionType)
        .execute();
      for (const { facility, day } of KEYS) {
        const perDay = counts.find((c) => c.facility_key === facility && c.day === day);
        expect(Number(perDay?.n), `${facility} ${day}`).toBe(WRITERS);
      }
      for (const facility of FACILITIES) {
        const allDays = counts.find((c) => c.facility_key === facility && c.day === '');
        expect(Number(allDays?.n), facility).toBe(WRITERS * DAYS.length);
      }
    }

    it('inbound logs (writeIngestLogs) in opposite orders: none deadlocks, every row is counted', async () => {
      const entry = (facility: string, day: string): IngestLogEntry => ({
        action: '855',
        status: 'SUCCESS',
        reason: null,
        orderId: null,
        brandId: 'b-1',
        retailerId: 'r-1',
        facilityId: facility,
        interchangeId: 'i-1',
        requestUrl: '/edi/inbound',
        payload: {},
        startedAt: 0,
        at: `${day}T10:00:00.000Z`,
      });
      const results = await inParallel((trx, n) =>
        writeIngestLogs(
          trx,
          keysOf(n).map((k) => entry(k.facility, k.day)),
        ),
      );
      await expectAllCounted(results, 'PO_ACK_STATUS_CHECK');
    }, 120_000);

    it('seeded log rows (upsertTransactionRows) in opposite orders: none deadlocks, every row is counted', async () => {
      const row = (n: number, facility: string, day: string): TransactionsTable => ({
        transaction_id: `seed-${n}-${facility}-${day}`,
        action_type: 'SEEDED',
        action_type_label: 'Seeded',
        brand_id: 'b-1',
        retailer_id: 'r-1',
        facility_id: facility,
        order_id: null,
        carton_id: null,
        load_id: null,
        correlation_id: null,
        duration_ms: 0,
        error_message: null,
        execution_status: 'SUCCESS',
        request_method: 'POST',
        request_url: '/x',
        request_payload: null,
        response_body: null,
        response_status: null,
        created_at: `${day}T10:00:00.000Z`,
        updated_at: `${day}T10:00:00.000Z`,
      });
      const results = await inParallel((trx, n) =>
        upsertTransactionRows(
          trx,
          keysOf(n).map((k) => row(n, k.facility, k.day)),
        ),
      );
      await expectAllCounted(results, 'SEEDED');
    }, 120_000);
  },
);
