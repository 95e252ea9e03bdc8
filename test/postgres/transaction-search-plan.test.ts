import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { compileTransactionQueries } from '../../src/server/transactions/queries';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';

/*
 * The search on PostgreSQL must be able to reach its matches through the pg_trgm GIN indexes
 * (transactions_search_trgm, orders_code_search_trgm), never only by scanning the log: with
 * sequential and plain index scans priced out, the plan of a searched page names both indexes. (A test database
 * is too small for the planner to prefer them on its own; bench/ measures the real thing.)
 */
describe.skipIf(!inject('postgres'))('transaction search plan on PostgreSQL', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), engine: 'postgres' });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it('uses the trigram indexes of the log and of the orders', async () => {
    const statements = compileTransactionQueries(
      svc.ctx.db,
      {
        scope: { facilityIds: [id('f', 1)], userBrandId: null, brandIds: [id('b', 1)] },
        search: 'gateway',
      },
      { field: 'created_at', direction: 'desc' },
      { limit: 50, offset: 0 },
    )!;
    const plan = await svc.ctx.db.transaction().execute(async (trx) => {
      // Only bitmap scans, which a whole-index walk (of orders_pkey, say) cannot win.
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`EXPLAIN ${statements.page.sql}`, [...statements.page.parameters]),
      );
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('transactions_search_trgm');
    expect(plan).toContain('orders_code_search_trgm');
  });
});
