/** Tables of transaction search and counts (migration-sets/transactions-search.ts). */

/** A stable integer per transaction: the FTS5 rowid of its search entry (db/transactions-search.ts). */
export interface TransactionsSearchIdsTable {
  id: number;
  transaction_id: string;
}

/** Transactions per group of filtered columns (db/transaction-counts.ts); ids '' stand for null. */
export interface TransactionCountsTable {
  /** '' for all time, else the UTC calendar day YYYY-MM-DD. */
  day: string;
  facility_key: string;
  brand_key: string;
  retailer_key: string;
  action_type: string;
  execution_status: string;
  has_error: number;
  n: number;
}

export interface TransactionsSearchTables {
  transactions_search_ids: TransactionsSearchIdsTable;
  transaction_counts: TransactionCountsTable;
}
