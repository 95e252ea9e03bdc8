/**
 * Sends committed outbound order documents through their connection's transport and records
 * each outcome durably: status, attempts, the next try, the order's `*_sent_at` (only once the
 * transport took the document) and a transaction-log row. No database transaction is open while
 * a transport waits on the network; a document being sent by this process is claimed (in
 * `ctx.deliveriesInFlight`), so a drain pass or a retry never sends it a second time meanwhile.
 */
import type { ServiceContext } from '../core/context';
import type { RedeliveryPolicy } from '../core/policies';
import {
  deliver,
  leaseDelivery,
  worthTryingAgain,
  releaseDeliveryLease,
  transportOf,
  type DeliveryOutcome,
} from '../inventory';
import { insertTransactionRow } from '../orders';
import { ownSenderIds, UNENVELOPED_X12_CONTENT_TYPE } from '../sync/role';
import { envelopeQueuedSets } from './envelope';
import { findDocumentToSend, listDueDocuments, type DocumentToSend } from './queries';
import type { OrderDocumentStatus, OrderDocumentType } from './tables';

/** 30 s, 1, 2, 4 … 32 min, then hourly, like advice re-deliveries; then a clerk retries. */
const DEFAULT_POLICY: RedeliveryPolicy = {
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
  maxAutoRetries: 24,
};

/** The log's action code and the order column a successful send sets, per document type. */
const SEND_ACTIONS: Record<
  OrderDocumentType,
  {
    code: string;
    label: string;
    sentColumn: 'asn_sent_at' | 'po_acknowledgment_sent_at' | 'invoice_sent_at' | null;
  }
> = {
  '856': { code: 'SEND_ASN', label: 'Send ASN', sentColumn: 'asn_sent_at' },
  SHIPMENT_CONFIRMATION: {
    code: 'SEND_SHIPMENT_CONFIRMATION',
    label: 'Send shipment confirmation',
    sentColumn: 'asn_sent_at',
  },
  '855': {
    code: 'SEND_PO_ACK',
    label: 'Send PO acknowledgment',
    sentColumn: 'po_acknowledgment_sent_at',
  },
  '810': { code: 'SEND_INVOICE', label: 'Send invoice', sentColumn: 'invoice_sent_at' },
  '997': { code: 'SEND_FUNCTIONAL_ACK', label: 'Send functional acknowledgment', sentColumn: null },
  TRACKING: { code: 'SEND_TRACKING', label: 'Send tracking', sentColumn: null },
};

export interface SendResult {
  status: OrderDocumentStatus;
  error: string | null;
  /** A failed send the drainer tries again by itself. */
  willRetry: boolean;
}

/** Claims a document for this process; false when it is being sent already. */
export function claimDocument(ctx: ServiceContext, id: string): boolean {
  if (ctx.deliveriesInFlight.has(id)) return false;
  ctx.deliveriesInFlight.add(id);
  return true;
}

export function releaseDocument(ctx: ServiceContext, id: string): void {
  ctx.deliveriesInFlight.delete(id);
}

/**
 * Sends documents the caller has claimed (claimDocument) and releases each once its outcome is
 * durable. Never throws for a send that fails; a database error while recording is rethrown
 * after every claim is released.
 */
export async function sendClaimedDocuments(
  ctx: ServiceContext,
  ids: string[],
  options: { automatic: boolean },
): Promise<Map<string, SendResult>> {
  const results = await Promise.allSettled(
    ids.map(async (id) => {
      try {
        return [id, await sendOne(ctx, id, options.automatic)] as const;
      } finally {
        releaseDocument(ctx, id);
      }
    }),
  );
  const outcomes = new Map<string, SendResult>();
  for (const result of results) {
    if (result.status === 'rejected') throw result.reason;
    if (result.value[1]) outcomes.set(result.value[0], result.value[1]);
  }
  return outcomes;
}

/**
 * On PostgreSQL, first the lease that keeps other central processes off the document until its
 * outcome is committed (inventory's delivery-lease); null when another one is sending it or has.
 */
async function sendOne(
  ctx: ServiceContext,
  id: string,
  automatic: boolean,
): Promise<SendResult | null> {
  if (!(await leaseDelivery(ctx, 'order_documents', id))) return null;
  try {
    return await sendLeased(ctx, id, automatic);
  } finally {
    await releaseDeliveryLease(ctx, id);
  }
}

async function sendLeased(
  ctx: ServiceContext,
  id: string,
  automatic: boolean,
): Promise<SendResult | null> {
  // Read after the claim: another pass may have sent it since it was listed.
  const row = await findDocumentToSend(ctx.db, id);
  if (!row || (row.status !== 'queued' && row.status !== 'failed')) return null;
  if (!ownSenderIds(ctx.sync).includes(row.sender_id)) return null;
  if (row.content_type === UNENVELOPED_X12_CONTENT_TYPE) {
    // Queued by a workstation for this replica to send: the envelope and its control numbers
    // are this replica's, taken now (envelope.ts).
    const failure = await envelopeQueuedSets(ctx, row.id);
    if (failure) return record(ctx, row, nothingToSend(failure), automatic);
    const enveloped = await findDocumentToSend(ctx.db, id);
    if (!enveloped || enveloped.content_type === UNENVELOPED_X12_CONTENT_TYPE) return null;
    return sendRow(ctx, enveloped, automatic);
  }
  return sendRow(ctx, row, automatic);
}

async function sendRow(
  ctx: ServiceContext,
  row: DocumentToSend,
  automatic: boolean,
): Promise<SendResult> {
  if (!row.document || !row.content_type || !row.file_name || !row.transport_json) {
    return record(
      ctx,
      row,
      nothingToSend('Nothing to send: the document or its connection is gone'),
      automatic,
    );
  }
  if (!row.connection_enabled) {
    return record(ctx, row, nothingToSend('Not sent: the connection is disabled'), automatic);
  }
  let transport;
  try {
    transport = transportOf({ transport_json: row.transport_json });
  } catch {
    // Sealed with another key, or hand-edited: no later try reads it better.
    const unreadable = 'EINVAL: the connection’s transport settings cannot be read';
    return record(ctx, row, nothingToSend(unreadable), automatic);
  }
  const outcome = await deliver(
    transport,
    {
      body: row.document,
      contentType: row.content_type,
      fileName: row.file_name,
      // The same key on every try: a receiver that saw it already keeps one copy.
      idempotencyKey: row.id,
    },
    { dataDir: ctx.dataDir, policy: ctx.deliveryPolicy },
  );
  return record(ctx, row, outcome, automatic);
}

const nothingToSend = (error: string): DeliveryOutcome => ({
  success: false,
  error,
  retryable: false,
  attempts: [],
});

async function record(
  ctx: ServiceContext,
  row: DocumentToSend,
  outcome: DeliveryOutcome,
  automatic: boolean,
): Promise<SendResult> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const attempts = row.attempts + 1;
  const policy = ctx.redeliveryPolicy ?? DEFAULT_POLICY;
  // A background try that fails counts towards the limit; the first send and a clerk's retry
  // plan the next try from scratch.
  const tries = automatic ? attempts : 1;
  // A missing or unwritable target folder is planned again too: fixing it fixes the document.
  const retryable = worthTryingAgain(outcome);
  // Not before the receiver asked (a 429's Retry-After), yet never later than the longest wait.
  const waitMs = Math.min(
    policy.maxDelayMs,
    Math.max(policy.baseDelayMs * 2 ** (tries - 1), outcome.retryAfterMs ?? 0),
  );
  const nextAttemptAt =
    !outcome.success && retryable && tries <= policy.maxAutoRetries
      ? new Date(now.getTime() + waitMs).toISOString()
      : null;
  const action = SEND_ACTIONS[row.type];
  const last = outcome.attempts.at(-1);
  const status: OrderDocumentStatus = outcome.success ? 'sent' : 'failed';
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('order_documents')
      .set({
        status,
        error: outcome.success ? null : outcome.error,
        attempts,
        next_attempt_at: nextAttemptAt,
        sent_at: outcome.success ? at : row.sent_at,
        updated_at: at,
      })
      .where('id', '=', row.id)
      // A send recorded meanwhile (a late outcome of an earlier try) is never downgraded.
      .where('status', 'in', ['queued', 'failed'])
      .execute();
    if (outcome.success && action.sentColumn) {
      await trx
        .updateTable('orders')
        .set({ [action.sentColumn]: at })
        .where('id', '=', row.order_id)
        .where(action.sentColumn, 'is', null)
        .execute();
    }
    await insertTransactionRow(trx, {
      transaction_id: crypto.randomUUID(),
      action_type: action.code,
      action_type_label: action.label,
      // A 997 of no order is logged at its facility of the connection's organisation; where the
      // brand works at none there, the row names no brand either, never a brand-wide row listed in
      // every organisation (decision 0226, log-facility.ts).
      brand_id: row.order_id === null && row.facility_id === null ? null : row.brand_id,
      retailer_id: row.retailer_id,
      facility_id: row.facility_id,
      order_id: row.order_id,
      carton_id: null,
      load_id: null,
      correlation_id: row.id,
      duration_ms: Math.round(outcome.attempts.reduce((sum, a) => sum + a.durationMs, 0)),
      error_message: outcome.success ? null : outcome.error,
      execution_status: outcome.success ? 'SUCCESS' : 'FAILURE',
      request_method: last?.requestUrl.startsWith('http') === false ? 'PUT' : 'POST',
      request_url: last?.requestUrl ?? '',
      request_payload: JSON.stringify({
        document_id: row.id,
        type: row.type,
        file_name: row.file_name,
        interchange_control_number: row.interchange_control_number,
        attempts: outcome.attempts.length,
      }),
      response_body:
        last?.responseBody === null || last?.responseBody === undefined
          ? null
          : JSON.stringify({ text: last.responseBody }),
      response_status: last?.responseStatus ?? null,
      created_at: at,
      updated_at: at,
    });
  });
  return {
    status,
    error: outcome.success ? null : outcome.error,
    willRetry: nextAttemptAt !== null,
  };
}

/**
 * One drain pass: sends what is due (queued rows a crash left, failures planned again), at most
 * `limit`, skipping what this process is sending already. Resolves with how many it sent.
 */
export async function sendDueDocuments(ctx: ServiceContext, limit: number): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const due = await listDueDocuments(ctx.db, now, limit, ownSenderIds(ctx.sync));
  const claimed = due.map((d) => d.id).filter((id) => claimDocument(ctx, id));
  if (claimed.length === 0) return 0;
  await sendClaimedDocuments(ctx, claimed, { automatic: true });
  return claimed.length;
}
