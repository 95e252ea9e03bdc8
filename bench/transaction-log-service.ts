/** The service as the transaction-log benches query it (bench/transactions.ts, bench/central-search.ts). */
import type { Db } from '../src/server/db/db';
import { buildApp } from '../src/server/http/app';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../src/server/seed/demo';
import { forgetTransactionPages } from '../src/server/transactions/page-cache';
import { F } from './transactions-data';
import { benchContext, injectedAuthorization } from './in-process';

/**
 * The service's app over a generated log (Fastify inject, no network) and `listed(url)`: one GET
 * of the list as the demo user, its total_count. The page cache is cleared before each, since
 * repeats of one query would be served from it: the benches measure the database path.
 */
export async function transactionLogService(db: Db, dataDir: string) {
  const ctx = benchContext(db, dataDir);
  const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
  await app.ready();
  const authorization = await injectedAuthorization(app, DEMO_EMAIL, DEMO_PASSWORD);
  const listed = async (url: string) => {
    forgetTransactionPages(db);
    const response = await app.inject({ method: 'GET', url, headers: { authorization } });
    if (response.statusCode !== 200)
      throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<{ data: { total_count: number } }>().data.total_count;
  };
  return { ctx, listed, close: () => app.close() };
}
export type TransactionLogService = Awaited<ReturnType<typeof transactionLogService>>;

/** A transaction of the first facility well inside the log: the `<tx>` of the benches' cases. */
export async function sampleTransactionId(db: Db): Promise<string> {
  const row = await db
    .selectFrom('transactions')
    .select('transaction_id')
    .where('facility_id', '=', F[0]!)
    .orderBy('created_at')
    .offset(5000)
    .limit(1)
    .executeTakeFirstOrThrow();
  return row.transaction_id;
}

/** The list's URL for a case's query, `<tx>` and `<txpart>` filled from `someTx`. */
export function listUrl(query: string, someTx: string): string {
  const filled = query.replace('<tx>', someTx).replace('<txpart>', someTx.slice(9, 23));
  return `/api/transactions${filled ? `?${filled}` : ''}`;
}
