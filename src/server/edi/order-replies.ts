/**
 * The 855 (POST …/acknowledge) and the 810 (POST …/invoice): each written in one transaction
 * for every EDI connection of the order's brand and retailer whose `order_documents.send` names
 * it, sent after the commit through the same pipeline as the ASN. Same visibility as the order's
 * details: another tenant's order answers 404.
 */
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, invalidRequest, notFound } from '../core/errors';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import {
  findOrderForUser,
  listOrderItems,
  ORDER_NOT_FOUND,
  postgresLockOrderRow,
  sqliteLockOrderRow,
  type OrderRow,
} from '../orders';
import type {
  AcknowledgeBody,
  AcknowledgeLine,
  OrderDocumentView,
} from '../../shared/order-documents';
import { build855 } from './ack-855';
import { orderDocuments } from './documents';
import { build810, type InvoiceLine } from './invoice-810';
import { poLinesOf, withStoredPoLines, type PoLine } from './order-lines';
import { listPoLines } from './ingest-queries';
import { connectionsForOrder, loadPackedFacts, standingInvoices } from './queries';
import { queueDocument, type QueuedDocument } from './queue';
import { releaseDocument } from './send';
import { orderDocumentSettingsOf } from './settings';
import { documentPhrase, sendAfterCommit } from './ship-answer';

export interface RepliedDocuments {
  message: string;
  data: { order_id: string; documents: OrderDocumentView[] };
}

const NAMES = { '855': 'the acknowledgment', '810': 'the invoice' } as const;

export function acknowledgeOrder(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: AcknowledgeBody,
): Promise<RepliedDocuments> {
  return reply(ctx, user, orderId, '855', async (trx, order) => {
    if (order.status === 'Cancelled') {
      throw conflict('This order is cancelled: it cannot be acknowledged');
    }
    const lines = await orderPoLines(trx, order.id);
    return ackBuilder(order, lines, choicesFor(lines, body.lines));
  });
}

export function ackBuilder(
  order: OrderRow,
  lines: PoLine[],
  choices: Map<string, AcknowledgeLine>,
) {
  const poNumber = order.po_number!;
  return (at: string) =>
    build855({
      poNumber,
      poDate: new Date(order.created_at),
      acknowledgedAt: new Date(at),
      lines,
      choices,
    });
}

export function invoiceOrder(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<RepliedDocuments> {
  return reply(ctx, user, orderId, '810', async (trx, order) => {
    if (order.status !== 'Shipped') {
      throw conflict('Only a shipped order is invoiced: ship it first');
    }
    await refuseSecondInvoice(trx, order.id);
    const invoice = await invoiceBuilder(trx, order);
    if (typeof invoice === 'string') throw conflict(`Cannot invoice: ${invoice}`);
    return invoice;
  });
}

/**
 * One invoice per order: a second 810 with the same invoice number (BIG02, the picksheet code) is
 * a duplicate bill that retailers reject or pay twice. The order is locked first (PostgreSQL), so
 * of 50 clerks pressing Invoice at once one invoices and the others are told it is done. Only a
 * rejected invoice is invoiced again; a failed one is sent again with Retry.
 */
async function refuseSecondInvoice(trx: Db, orderId: string): Promise<void> {
  const lockOrderRow = engineOf(trx) === 'postgres' ? postgresLockOrderRow : sqliteLockOrderRow;
  await lockOrderRow(trx, orderId);
  const standing = (await standingInvoices(trx, orderId))[0];
  if (!standing) return;
  throw conflict(
    standing.status === 'failed'
      ? 'This order has an invoice that failed to send: send it again with Retry in its documents'
      : standing.status === 'queued'
        ? 'This order is already invoiced: its invoice waits to be sent'
        : 'This order is already invoiced: a new invoice goes out only if the retailer rejects it',
  );
}

/**
 * The order's 810 builder, priced from the PO and counted from what was packed; a string (the
 * reason, in clerk words) when it cannot be invoiced.
 */
export async function invoiceBuilder(
  trx: Db,
  order: OrderRow,
): Promise<((at: string) => ReturnType<typeof build810>) | string> {
  const lines = await orderPoLines(trx, order.id);
  const packed = await loadPackedFacts(trx, order.id);
  const shipped = shippedPerLine(lines, packed.lines);
  const invoiced = lines.filter((_, index) => shipped[index]! > 0);
  if (invoiced.length === 0) return 'nothing was shipped';
  const unpriced = invoiced.filter((line) => line.unitPrice === null);
  if (unpriced.length > 0) {
    const named = unpriced.map((line) => `line ${line.lineId} (${line.sku})`).join(', ');
    return `no unit price for ${named}`;
  }
  const invoiceLines: InvoiceLine[] = invoiced.map((line) => ({
    ...line,
    unitPrice: line.unitPrice!,
    shipped: shipped[lines.indexOf(line)]!,
  }));
  const shipTo = order.ship_to_json
    ? (JSON.parse(order.ship_to_json) as Record<string, string | null | undefined>)
    : {};
  const poNumber = order.po_number!;
  return (at) =>
    build810({
      invoiceNumber: order.picksheet_code,
      invoicedAt: new Date(at),
      poNumber,
      poDate: new Date(order.created_at),
      billOfLadingNumber: order.bill_of_lading_number,
      shipToName: shipTo['name'] ?? null,
      shipToCode: shipTo['dc_number'] ?? shipTo['facility_code'] ?? null,
      lines: invoiceLines,
    });
}

async function reply(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  type: '855' | '810',
  prepare: (trx: Db, order: OrderRow) => Promise<(at: string) => ReturnType<typeof build855>>,
): Promise<RepliedDocuments> {
  let queued: QueuedDocument[] = [];
  let id = orderId;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const order = await findOrderForUser(trx, user, orderId);
      if (!order) throw notFound(ORDER_NOT_FOUND);
      id = order.id;
      const connections = await connectionsTaking(trx, order, type);
      if (connections.length === 0) {
        throw conflict(
          `No connection of this retailer takes ${type === '855' ? 'purchase order acknowledgments (855)' : 'invoices (810)'}`,
        );
      }
      if (!order.po_number) throw conflict('This order has no PO number');
      const build = await prepare(trx, order);
      const at = ctx.clock.now().toISOString();
      const body = build(at);
      for (const connection of connections) {
        queued.push(
          await queueDocument(
            ctx,
            trx,
            order,
            connection,
            at,
            type,
            () => ({ kind: 'x12', type, body }),
            NAMES[type].replace('the ', ''),
          ),
        );
      }
    });
  } catch (error) {
    for (const document of queued) releaseDocument(ctx, document.id);
    queued = [];
    throw error;
  }
  const results = await sendAfterCommit(ctx, queued);
  const made = new Set(queued.map((d) => d.id));
  const documents = (await orderDocuments(ctx, user, id)).filter((d) => made.has(d.id));
  const what = NAMES[type];
  const message = queued.map((d) => documentPhrase(what, d, results.get(d.id))).join('; ');
  return {
    message: message.charAt(0).toUpperCase() + message.slice(1),
    data: { order_id: id, documents },
  };
}

/** The order's EDI connections whose `order_documents.send` names this document type. */
export async function connectionsTaking(trx: Db, order: OrderRow, type: '855' | '810') {
  return (await connectionsForOrder(trx, order)).filter(
    (c) =>
      c.kind !== 'DIRECT_API' &&
      orderDocumentSettingsOf(c.order_documents_json)?.send.includes(type),
  );
}

/** The clerk's choices by PO line id; an unknown or repeated line id is refused by name. */
function choicesFor(lines: PoLine[], given: AcknowledgeLine[]): Map<string, AcknowledgeLine> {
  const known = new Set(lines.map((line) => line.lineId));
  const choices = new Map<string, AcknowledgeLine>();
  for (const choice of given) {
    if (!known.has(choice.line_id)) {
      throw invalidRequest(`No line ${choice.line_id} on this order`);
    }
    if (choices.has(choice.line_id)) {
      throw invalidRequest(`Line ${choice.line_id} is named twice`);
    }
    choices.set(choice.line_id, choice);
  }
  return choices;
}

/**
 * Units shipped per PO line: the packed units of each SKU, given to its lines in order up to
 * what each ordered; what is left over (an over-ship) goes to the SKU's last line.
 */
function shippedPerLine(lines: PoLine[], packed: { sku: string; quantity: number }[]): number[] {
  const left = new Map<string, number>();
  for (const line of packed) left.set(line.sku, (left.get(line.sku) ?? 0) + line.quantity);
  const shipped = lines.map((line) => {
    const available = left.get(line.sku) ?? 0;
    const taken = Math.min(available, line.quantity);
    left.set(line.sku, available - taken);
    return taken;
  });
  lines.forEach((line, index) => {
    const rest = left.get(line.sku) ?? 0;
    const isLast = lines.findLastIndex((l) => l.sku === line.sku) === index;
    if (isLast && rest > 0) {
      shipped[index]! += rest;
      left.set(line.sku, 0);
    }
  });
  return shipped;
}

/** The order's lines with the ids and prices of the PO it was made from, where it was. */
export async function orderPoLines(trx: Db, orderId: string): Promise<PoLine[]> {
  const lines = poLinesOf(await listOrderItems(trx, orderId));
  return withStoredPoLines(lines, await listPoLines(trx, orderId));
}
