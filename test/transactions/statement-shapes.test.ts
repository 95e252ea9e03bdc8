import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../src/server/db/database';
import {
  compileTransactionQueries,
  listTransactions,
  type TransactionFilter,
} from '../../src/server/transactions/queries';
import { txId } from './fixtures';

/*
 * Statements are compiled once per filter shape and reused with each request's values: two
 * filters of one shape must run the same SQL and still answer each for its own values.
 */

let database: OpenedDatabase;
beforeEach(async () => {
  database = await openDatabase(':memory:');
  database.sqlite.pragma('foreign_keys = OFF');
  const insert = database.sqlite.prepare(`INSERT INTO transactions (transaction_id, action_type,
    action_type_label, brand_id, facility_id, duration_ms, error_message, execution_status,
    request_method, request_url, created_at, updated_at)
    VALUES (?, 'SEND_ASN', 'Send asn', 'b1', ?, 5, ?, 'SUCCESS', 'POST', ?, ?, ?)`);
  for (let n = 1; n <= 6; n++) {
    const at = `2026-01-0${n}T10:00:00.000Z`;
    insert.run(
      txId(n),
      n % 2 ? 'f1' : 'f2',
      n > 4 ? `oops ${n}` : null,
      `https://p${n}.example/`,
      at,
      at,
    );
  }
});
afterEach(async () => {
  await database.close();
});

const scope = { facilityIds: ['f1', 'f2'], userBrandId: null, brandIds: ['b1'] };
const sort = { field: 'created_at', direction: 'desc' } as const;
const ids = async (filter: TransactionFilter, offset = 0) => {
  const page = await listTransactions(database.db, filter, sort, { limit: 2, offset });
  return { ids: page.rows.map((row) => row.transaction_id), total: page.totalCount };
};

it('runs one statement per shape, each request with its own values', async () => {
  const f1 = { scope, facilityIds: ['f1'], createdTo: '2026-01-04' };
  const f2 = { scope, facilityIds: ['f2'], createdTo: '2026-01-02' };
  const page = (filter: TransactionFilter) =>
    compileTransactionQueries(database.db, filter, sort, { limit: 2, offset: 0 })!.page;
  expect(page(f1).sql).toBe(page(f2).sql);
  expect(page(f1).parameters).not.toEqual(page(f2).parameters);
  expect(await ids(f1)).toEqual({ ids: [txId(3), txId(1)], total: 2 });
  expect(await ids(f2)).toEqual({ ids: [txId(2)], total: 1 });
  expect(await ids(f1, 1)).toEqual({ ids: [txId(1)], total: 2 });

  expect(await ids({ scope, search: 'p3.example' })).toEqual({ ids: [txId(3)], total: 1 });
  expect(await ids({ scope, search: 'oops' })).toEqual({ ids: [txId(6), txId(5)], total: 2 });
  // Past the end: the total from the count statement of the same shape.
  expect(await ids({ scope, search: 'oops' }, 4)).toEqual({ ids: [], total: 2 });
  expect(await ids({ scope, search: 'example', hasError: false })).toEqual({
    ids: [txId(4), txId(3)],
    total: 4,
  });
  expect(await ids({ scope, search: 'example', hasError: true })).toEqual({
    ids: [txId(6), txId(5)],
    total: 2,
  });
  // A value that is also a placeholder's text is just a value.
  expect(await ids({ scope, transactionId: '\u00000' })).toEqual({ ids: [], total: 0 });
});
