import {
  listTransactions,
  orderCodesOf,
  type TransactionFilter,
  type TransactionRow,
} from './queries';
import type { Transaction, TransactionListQuery, TransactionPage } from '../../shared/transactions';
import type { TransactionScope } from './queries';
import type { AuthUser, ServiceContext } from '../core/context';
import { transactionScope } from './scope';
import { isoTimeOf } from '../core/time-text';

/** Stored JSON text, parsed; text that is not JSON (older rows) comes back as it is. */
function parsedJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type OrderCodes = { picksheet_code: string; po_number: string | null };

export function transactionView(row: TransactionRow, order?: OrderCodes): Transaction {
  return {
    transaction_id: row.transaction_id,
    // The interface shows a phrase in `action_type`; the code the filter takes is the label.
    action_type: row.action_type_label,
    action_type_label: row.action_type,
    brand_id: row.brand_id,
    retailer_id: row.retailer_id,
    facility_id: row.facility_id,
    order_id: row.order_id,
    picksheet_code: order?.picksheet_code ?? null,
    po_number: order?.po_number ?? null,
    carton_id: row.carton_id,
    load_id: row.load_id,
    correlation_id: row.correlation_id,
    duration_ms: row.duration_ms,
    error_message: row.error_message,
    execution_status: row.execution_status,
    request_method: row.request_method,
    request_url: row.request_url,
    request_payload: parsedJson(row.request_payload),
    response_body: parsedJson(row.response_body) ?? {},
    response_status: row.response_status,
    // Stored as ISO 8601 UTC; rewritten so they always carry milliseconds and `Z`.
    created_at: isoTimeOf(row.created_at),
    updated_at: isoTimeOf(row.updated_at),
  };
}

/** The db filter of a list query within the user's scope. */
export function transactionFilter(
  scope: TransactionScope,
  query: TransactionListQuery,
): TransactionFilter {
  return {
    scope,
    transactionId: query.transaction_id,
    orderId: query.order_id,
    poNumber: query.po_number || undefined,
    executionStatus: query.execution_status,
    actionType: query.action_type,
    retailerIds: query.retailer_ids?.length ? query.retailer_ids : undefined,
    brandIds: query.brand_ids?.length ? query.brand_ids : undefined,
    facilityIds: query.facility_ids?.length ? query.facility_ids : undefined,
    hasError: query.has_error,
    createdFrom: query.created_from,
    createdTo: query.created_to,
    search: query.search || undefined,
  };
}

/**
 * One page of the transaction log rows the user sees. Filters naming ids outside its scope
 * (another tenant's transaction, order, brand, facility, retailer) match nothing: the page is
 * empty, as for ids that do not exist.
 */
export async function transactionList(
  ctx: ServiceContext,
  user: AuthUser,
  query: TransactionListQuery,
): Promise<TransactionPage> {
  const filter = transactionFilter(await transactionScope(ctx, user), query);
  const { rows, totalCount } = await listTransactions(
    ctx.db,
    filter,
    { field: query.order_by, direction: query.order_direction },
    { limit: query.page_size, offset: (query.page - 1) * query.page_size },
  );
  const orders = await orderCodesOf(
    ctx.db,
    rows.flatMap((row) => (row.order_id ? [row.order_id] : [])),
  );
  return {
    page: query.page,
    page_size: query.page_size,
    total_count: totalCount,
    transactions: rows.map((row) => transactionView(row, orders.get(row.order_id ?? ''))),
  };
}
