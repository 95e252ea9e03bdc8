import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { compileTransactionQueries } from '../../src/server/transactions/queries';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';

/*
 * The search on PostgreSQL finds its matches through the pg_trgm GIN indexes
 * (transactions_search_key_trgm, orders_code_search_trgm), not by scanning the log: at a size where
 * a scan costs (10,000 rows, 2,000 orders, vacuumed and analyzed), the planner's own choice for a
 * searched page names both indexes, and scans the log's once for the page and its count.
 * bench/ measures the times.
 */
describe.skipIf(!inject('postgres'))('transaction search plan on PostgreSQL', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await createTestService({ seed: baseBundle(), engine: 'postgres' });
    const [f, b, r] = [id('f', 1), id('b', 1), id('r', 1)];
    const db = svc.ctx.db;
    await sql`INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code,
      po_number, status, created_at, updated_at)
      SELECT 'order-' || n, ${b}, ${r}, ${f}, 'PS-' || n, 'PO-' || n, 'Open',
        '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      FROM generate_series(1, 2000) n`.execute(db);
    await sql`INSERT INTO transactions (transaction_id, action_type, action_type_label, brand_id,
      retailer_id, facility_id, order_id, correlation_id, duration_ms, error_message,
      execution_status, request_method, request_url, created_at, updated_at)
      SELECT md5(n::text), 'SEND_ASN', 'Send ASN', ${b}, ${r}, ${f}, 'order-' || (n % 2000 + 1),
        'corr-' || n, 5, CASE WHEN n % 7 = 0 THEN 'timeout ' || n END, 'SUCCESS', 'POST',
        'https://edi.example/v1/asn/' || n, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'
      FROM generate_series(1, 10000) n`.execute(db);
    // Moves the GIN pending list into the index, as autovacuum does after a load.
    await sql`VACUUM ANALYZE transactions, orders`.execute(db);
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** The plan of a searched first page (a rare term) as the service compiles it. */
  async function searchPlan(): Promise<string> {
    const statements = compileTransactionQueries(
      svc.ctx.db,
      {
        scope: { facilityIds: [id('f', 1)], userBrandId: null, brandIds: [id('b', 1)] },
        search: 'quokka',
      },
      { field: 'created_at', direction: 'desc' },
      { limit: 50, offset: 0 },
    )!;
    const { rows } = await svc.ctx.db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`EXPLAIN ${statements.page.sql}`, [...statements.page.parameters]),
    );
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  }

  it('uses the trigram indexes of the log and of the orders', async () => {
    const plan = await searchPlan();
    expect(plan).toContain('Bitmap Index Scan on transactions_search_key_trgm');
    expect(plan).toContain('Bitmap Index Scan on orders_code_search_trgm');
    expect(plan).not.toContain('Seq Scan on transactions');
    // One pass over the matches: the page and its count come from one scan of the log's index,
    // the count a window below the page's sort (no second scan, no CTE).
    expect(plan.match(/Bitmap Index Scan on transactions_search_key_trgm/g), plan).toHaveLength(1);
    expect(plan).toContain('WindowAgg');
    expect(plan).not.toContain('CTE');
  });

  it('keeps to the orders index while new orders wait for a vacuum', async () => {
    // Orders arrive between vacuums on a live central. With GIN's pending list (fastupdate, the
    // default) every search scans all of it, and the planner, pricing that in, chose a
    // sequential scan of the orders instead (28 ms at 50,000 orders): migration
    // 0018_trgm_orders_fastupdate puts each entry into the index at once.
    const [f, b, r] = [id('f', 1), id('b', 1), id('r', 1)];
    await sql`INSERT INTO orders (id, brand_id, retailer_id, facility_id, picksheet_code,
      po_number, status, created_at, updated_at)
      SELECT 'new-order-' || n, ${b}, ${r}, ${f}, 'PS-NEW-' || n, 'PO-NEW-' || n, 'Open',
        '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z'
      FROM generate_series(1, 2000) n`.execute(svc.ctx.db);
    const plan = await searchPlan();
    expect(plan).toContain('Bitmap Index Scan on orders_code_search_trgm');
    expect(plan).not.toContain('Seq Scan on orders');
  });
});
