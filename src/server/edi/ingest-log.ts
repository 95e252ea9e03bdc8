/** The transaction-log rows of the inbound path, one per transaction set taken in or refused. */
import type { Db } from '../db/db';
import { logRowOutcome } from '../orders';
import { inCountLockOrder } from '../transactions';

export const INGEST_ACTIONS = {
  '850': { code: 'INGEST_PURCHASE_ORDER', label: 'Ingest purchase order' },
  '860': { code: 'INGEST_PURCHASE_ORDER_CHANGE', label: 'Ingest purchase order change' },
  '856': { code: 'ASN_STATUS_CHECK', label: 'ASN status check' },
  '855': { code: 'PO_ACK_STATUS_CHECK', label: 'PO acknowledgment status check' },
  '810': { code: 'INVOICE_STATUS_CHECK', label: 'Invoice status check' },
} as const;
export type IngestAction = keyof typeof INGEST_ACTIONS;

export interface IngestLogEntry {
  action: IngestAction;
  status: 'SUCCESS' | 'FAILURE' | 'SKIP';
  /** Why, in clerk words (a refusal, a skip). */
  reason: string | null;
  orderId: string | null;
  brandId: string | null;
  retailerId: string | null;
  facilityId: string | null;
  /** The inbound interchange (edi_interchanges.id): every row of one file shares it. */
  interchangeId: string;
  /** Where it came in: the route, or the polled file. */
  requestUrl: string;
  payload: Record<string, unknown>;
  startedAt: number;
  at: string;
}

/** Rows per INSERT of writeIngestLogs: well under SQLite's bound-parameter limit. */
const ROWS_PER_INSERT = 200;

/**
 * An interchange's rows in a few multi-row INSERTs (its sets', then its 997s'), in the order that
 * locks their count rows alike in every writer (inCountLockOrder).
 */
export async function writeIngestLogs(trx: Db, entries: IngestLogEntry[]): Promise<void> {
  const rows = inCountLockOrder(trx, entries.map(ingestLogRow));
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await trx
      .insertInto('transactions')
      .values(rows.slice(start, start + ROWS_PER_INSERT))
      .execute();
  }
}

function ingestLogRow(entry: IngestLogEntry) {
  const action = INGEST_ACTIONS[entry.action];
  return {
    transaction_id: crypto.randomUUID(),
    action_type: action.code,
    action_type_label: action.label,
    // Never a brand-wide row (one listed in every organisation): without a facility of the
    // connection's organisation (log-facility.ts), the row names no tenant and is listed to nobody.
    brand_id: entry.facilityId === null ? null : entry.brandId,
    retailer_id: entry.retailerId,
    facility_id: entry.facilityId,
    order_id: entry.orderId,
    carton_id: null,
    load_id: null,
    correlation_id: entry.interchangeId,
    request_method: 'POST',
    request_url: entry.requestUrl,
    request_payload: JSON.stringify(entry.payload),
    ...logRowOutcome({
      startedAt: entry.startedAt,
      at: entry.at,
      status: entry.status,
      errorMessage: entry.reason,
      responseStatus: entry.status === 'FAILURE' ? 422 : 200,
      responseBody: { status: entry.status, reason: entry.reason },
    }),
  };
}
