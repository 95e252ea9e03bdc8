/**
 * An order's document timeline (issue 16, item 9): the 850 that made it and the 860s that
 * changed it, then what went out (855, 856, 810 and JSON confirmations), each with the 997s that
 * answered it; and whether the Acknowledge panel can send an 855 now, with the PO's lines.
 */
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { findOrderForUser, ORDER_NOT_FOUND, type OrderRow } from '../orders';
import { inboundSetSchema } from '../../shared/edi-inbound';
import { isRetryable } from '../../shared/order-documents';
import type {
  AcknowledgmentOptions,
  InvoiceOptions,
  OrderTimeline,
  TimelineEntry,
} from '../../shared/edi-documents';
import { connectionsTaking, orderPoLines } from './order-replies';
import { listOrderDocuments, standingInvoices } from './queries';
import { engineOf } from '../db/engine';
import * as sqliteQueries from './timeline-queries';
import { listAnswersOfOrder } from './timeline-queries';
import * as postgresQueries from './timeline-queries.postgres';

const OUTCOMES = new Set(['accepted', 'accepted_with_errors', 'rejected']);

export async function orderTimeline(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<OrderTimeline> {
  const order = await findOrderForUser(ctx.db, user, orderId);
  if (!order) throw notFound(ORDER_NOT_FOUND);
  const { listInboundSetsOfOrder } =
    engineOf(ctx.db) === 'postgres' ? postgresQueries : sqliteQueries;
  const [inbound, documents, answers, acknowledgment, invoice] = await Promise.all([
    listInboundSetsOfOrder(ctx.db, order),
    listOrderDocuments(ctx.db, order.id, ctx.clock.now().toISOString()),
    listAnswersOfOrder(ctx.db, order.id),
    acknowledgmentOptions(ctx, order),
    invoiceOptions(ctx, order),
  ]);
  const entries: TimelineEntry[] = [];
  for (const row of inbound) {
    // summary_json is ours, but a row is read as untrusted: one that does not parse is left out.
    const parsed = inboundSetSchema.safeParse(safeJson(row.set_json));
    if (!parsed.success) continue;
    entries.push({
      direction: 'in',
      type: parsed.data.type,
      status: parsed.data.status,
      at: row.received_at,
      document_id: null,
      interchange_id: row.interchange_id,
      control_number: row.interchange_control_number,
      errors: parsed.data.errors,
      answers: [],
      retryable: false,
    });
  }
  for (const document of documents) {
    entries.push({
      direction: document.direction,
      type: document.type,
      status: document.status,
      at: document.sent_at ?? document.created_at,
      document_id: document.id,
      interchange_id: null,
      control_number:
        document.interchange_control_number === null
          ? null
          : String(document.interchange_control_number),
      errors: document.error ? [document.error] : [],
      retryable: isRetryable(document),
      answers: answers
        .filter((answer) => answer.document_id === document.id)
        .flatMap(({ outcome, interchange_id, interchange_control_number, received_at }) =>
          outcome !== null && OUTCOMES.has(outcome)
            ? [
                {
                  interchange_id,
                  interchange_control_number,
                  received_at,
                  outcome: outcome as 'accepted' | 'accepted_with_errors' | 'rejected',
                },
              ]
            : [],
        ),
    });
  }
  // Stable: same-time entries keep inbound before outbound, documents in creation order.
  entries.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { order_id: order.id, entries, acknowledgment, invoice };
}

/** Whether POST …/acknowledge would send an 855 now, and the PO lines the clerk chooses for. */
async function acknowledgmentOptions(
  ctx: ServiceContext,
  order: OrderRow,
): Promise<AcknowledgmentOptions> {
  const [connections, lines] = await Promise.all([
    connectionsTaking(ctx.db, order, '855'),
    orderPoLines(ctx.db, order.id),
  ]);
  const reason =
    connections.length === 0
      ? 'No connection of this retailer takes purchase order acknowledgments (855)'
      : order.status === 'Cancelled'
        ? 'This order is cancelled'
        : !order.po_number
          ? 'This order has no PO number'
          : null;
  return {
    available: reason === null,
    reason,
    lines: lines.map((line) => ({
      line_id: line.lineId,
      sku: line.sku,
      upc: line.upc,
      quantity: line.quantity,
    })),
  };
}

/**
 * Whether POST …/invoice would send an 810 now, by the same rules it refuses with (./order-replies.ts):
 * a connection takes 810s, the order is shipped and has a PO number, and no invoice stands. The
 * prices are checked when the clerk presses Invoice; the refusal names the lines without one.
 */
async function invoiceOptions(ctx: ServiceContext, order: OrderRow): Promise<InvoiceOptions> {
  const [connections, standing] = await Promise.all([
    connectionsTaking(ctx.db, order, '810'),
    standingInvoices(ctx.db, order.id),
  ]);
  const first = standing[0];
  const reason =
    connections.length === 0
      ? 'No connection of this retailer takes invoices (810)'
      : order.status !== 'Shipped'
        ? 'Only a shipped order is invoiced: ship it first'
        : !order.po_number
          ? 'This order has no PO number'
          : first?.status === 'failed'
            ? 'Its invoice failed to send: send it again with Retry in the documents above'
            : first
              ? 'This order is already invoiced'
              : null;
  return { available: reason === null, reason };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
