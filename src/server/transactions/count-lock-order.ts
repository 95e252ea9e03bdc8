import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import type { TransactionsTable } from '../db/schema';

/** The columns of a log row that name the `transaction_counts` rows its trigger adds to. */
export type CountedRow = Pick<
  TransactionsTable,
  | 'facility_id'
  | 'brand_id'
  | 'retailer_id'
  | 'action_type'
  | 'execution_status'
  | 'error_message'
  | 'created_at'
> & { transaction_id?: string };

/**
 * Log rows in the order a multi-row write must insert them on PostgreSQL. Each row's trigger
 * adds to two `transaction_counts` rows of its key (facility, brand, retailer, action, status,
 * error): all days ('') first, then its day, locking both until the commit. Two transactions that
 * met the same count rows in different orders would each hold one and wait for the other's
 * (SQLSTATE 40P01). Sorted by key, then day, every writer takes count rows in one order: a key's
 * all-days row, then its days ascending, then the next key (sorting by the table's own key, day
 * first, would not do: a second key's all-days row comes after the first key's day). Then by
 * transaction_id, so two upserts of the same rows lock those in one order too (two imports of
 * overlapping but different rows at once could still cross on a log row: seed imports run at
 * a start). On SQLite (one writer) the rows stay as given.
 */
export function inCountLockOrder<T extends CountedRow>(db: Db, rows: readonly T[]): readonly T[] {
  if (engineOf(db) !== 'postgres') return rows;
  return rows
    .map((row) => ({ row, key: countLockKeyOf(row) }))
    .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0))
    .map(({ row }) => row);
}

/** The row's count key, then its day and id, as one text that sorts like the tuple. */
function countLockKeyOf(row: CountedRow): string {
  return [
    row.facility_id ?? '',
    row.brand_id ?? '',
    row.retailer_id ?? '',
    row.action_type,
    row.execution_status,
    row.error_message === null ? '0' : '1',
    row.created_at.slice(0, 10),
    row.transaction_id ?? '',
  ].join('\u0000');
}
