import { authDataVersion } from '../db/auth-version';
import { transactionsVersion } from '../db/transactions-version';
import type { TransactionListQuery } from '../../shared/transactions';
import type { AuthUser, ServiceContext } from '../core/context';
import { transactionList } from './list';

/**
 * Serialized pages of the transaction log, kept until the log (or an order's PO number) changes.
 * Integrations poll the same page in a loop; while nothing was written, the answer is the same
 * bytes. Entries are per user and query string, and also dropped when users or grants change.
 */
const MAX_ENTRIES = 500;
const MAX_CHARS = 16 * 1024 * 1024;

interface PageCache {
  version: string;
  chars: number;
  pages: Map<string, string>;
}
const caches = new WeakMap<ServiceContext['db'], PageCache>();

/** Moves with every write to the log, to orders' PO numbers, to users and to grants. */
async function cacheVersion(ctx: ServiceContext): Promise<string | undefined> {
  const [log, auth] = await Promise.all([transactionsVersion(ctx.db), authDataVersion(ctx.db)]);
  return log === undefined || auth === undefined ? undefined : `${log}:${auth}`;
}

/**
 * Endpoint 11's whole answer body (`{"data":…}`), serialized: from the cache while nothing
 * changed, else from the database. Entries are keyed by the raw query string, so a repeat skips
 * parsing it too; a query that does not parse throws before anything is kept.
 */
export async function transactionPageBody(
  ctx: ServiceContext,
  user: AuthUser,
  rawQuery: string,
  parseQuery: () => TransactionListQuery,
): Promise<string> {
  const version = await cacheVersion(ctx);
  const key = `${user.id}|${rawQuery}`;
  const cache = caches.get(ctx.db);
  const hit = version !== undefined && cache?.version === version && cache.pages.get(key);
  if (hit) return hit;
  const page = await transactionList(ctx, user, parseQuery());
  const json = `{"data":${JSON.stringify(page)}}`;
  // A page whose load overlapped a write is answered once and not kept.
  if (version === undefined || (await cacheVersion(ctx)) !== version) return json;
  let current = caches.get(ctx.db);
  if (
    !current ||
    current.version !== version ||
    current.pages.size >= MAX_ENTRIES ||
    current.chars + json.length > MAX_CHARS
  ) {
    current = { version, chars: 0, pages: new Map() };
    caches.set(ctx.db, current);
  }
  current.pages.set(key, json);
  current.chars += json.length;
  return json;
}

/** Forgets every kept page (the bench measures the uncached path with it). */
export function forgetTransactionPages(db: ServiceContext['db']): void {
  caches.delete(db);
}
