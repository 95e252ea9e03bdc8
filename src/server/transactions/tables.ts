/** Tables of transaction search and counts (./migrations 0008 and 0013_order_code_search). */
import type { TransactionsTable } from '../db/schema';

/** A stable integer per transaction: the FTS5 rowid of its search entry (./search-queries.ts). */
export interface TransactionsSearchIdsTable {
  id: number;
  transaction_id: string;
  /** Copies of the transaction's filter and sort columns, kept by the search triggers. */
  created_at: string;
  updated_at: string;
  facility_id: string | null;
  brand_id: string | null;
  retailer_id: string | null;
  order_id: string | null;
  action_type: string;
  execution_status: TransactionsTable['execution_status'];
  /** 1 when error_message is not null. */
  has_error: number;
}

/** Transactions per group of filtered columns (migration 0008); ids '' stand for null. */
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
