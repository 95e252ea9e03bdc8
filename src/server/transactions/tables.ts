/** Tables of the transaction log, its search and its counts (./migrations 0008 and 0013_order_code_search). */

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

export interface TransactionsTable {
  transaction_id: string;
  action_type: string;
  action_type_label: string;
  brand_id: string | null;
  retailer_id: string | null;
  facility_id: string | null;
  order_id: string | null;
  carton_id: string | null;
  load_id: string | null;
  correlation_id: string | null;
  duration_ms: number;
  error_message: string | null;
  execution_status: 'SUCCESS' | 'FAILURE' | 'RETRY' | 'PENDING' | 'SKIP';
  request_method: string;
  request_url: string;
  request_payload: string | null;
  response_body: string | null;
  response_status: number | null;
  created_at: string;
  updated_at: string;
}

export interface TransactionsTables {
  transactions: TransactionsTable;
  transactions_search_ids: TransactionsSearchIdsTable;
  transaction_counts: TransactionCountsTable;
}
