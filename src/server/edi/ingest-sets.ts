/**
 * What one planned transaction set does to the stored records, inside the interchange's
 * transaction: an 850 makes (or cancels) an order, an 860 changes one, a 997 marks our outbound
 * documents. Each writes its log row; a refusal is told in the set's errors, in clerk words.
 */
import type { CreateOrderBody } from '../../shared/orders';
import { ITEM_EDITABLE_STATUSES } from '../../shared/orders';
import type { Db } from '../db/db';
import {
  createItemRows,
  insertNewOrder,
  listOrderItems,
  picksheetTaken,
  replaceOrderItems,
  updateOrderColumns,
  type OrderRow,
} from '../orders';
import type { PlannedContent, PlannedSet } from './inbound/ingest-plan';
import type { PoLine } from './inbound/map-850';
import type { Mapped860 } from './inbound/map-860';
import type { Mapped997 } from './inbound/map-997';
import { applyPoChange, type ChangeableLine } from './inbound/po-change';
import { writeIngestLogs, type IngestLogEntry } from './ingest-log';
import {
  type GroupDocument,
  findOrderOfPo,
  listPoLines,
  replacePoLines,
  type InboundConnectionRow,
} from './ingest-queries';
import type { OrderDocumentStatus } from './tables';

export interface SetContext {
  trx: Db;
  connection: InboundConnectionRow;
  interchangeId: string;
  requestUrl: string;
  startedAt: number;
  at: string;
  /** Filled with the ids of the orders the 850s made (for auto_acknowledge). */
  createdOrders: string[];
  /** Where a set's row without an order is logged: a facility of the connection's organisation (log-facility.ts). */
  logFacility: string | null;
  /**
   * The log rows of the 850s and 860s, in set order, written with the 997s' at the
   * interchange's end (flushLogs), not as each set is applied: each row locks its facility's
   * count rows until the commit on PostgreSQL, and two interchanges whose sets reach the same
   * facilities in opposite orders would each hold one and wait for the other's (a deadlock).
   */
  logs: IngestLogEntry[];
  /**
   * What the 997s of the interchange do, written together at its end (flushAcknowledgments,
   * flushLogs): each document's outcome (the last 997 naming it wins) and the log rows, in order.
   */
  acknowledged: { outcomes: Map<string, OrderDocumentStatus>; logs: IngestLogEntry[] };
  /** Our outbound documents by GS06, read once for every 997 of the interchange. */
  groupDocuments: Map<number, GroupDocument[]>;
  /** The id the order a PO makes gets (InboundFile.orderIdFor); random when none. */
  orderIdFor?: (poNumber: string) => string | undefined;
}

/** A set as the answer (and the interchange's stored summary) tells it. */
export interface SetSummary {
  type: string;
  control_number: string;
  status: PlannedSet['status'];
  po_number: string | null;
  order_id: string | null;
  errors: string[];
}

/** Longest picksheet suffix tried before the PO is refused (`4500012345-2` … `-99`). */
const MAX_PICKSHEET_SUFFIX = 99;

export async function applySet(set: PlannedSet, context: SetContext): Promise<SetSummary> {
  const summary: SetSummary = {
    type: set.type,
    control_number: set.control_number,
    status: set.status,
    po_number: set.po_number,
    order_id: null,
    errors: [...set.errors],
  };
  const content = set.content;
  if (set.type === '997') {
    if (set.status === 'accepted' && content?.kind === 'acknowledgment') {
      await applyAcknowledgment(content.acknowledgment, summary, context);
    }
    return summary;
  }
  const action = set.type === '860' ? '860' : '850';
  if (set.status === 'accepted' && content?.kind === 'order') {
    await applyOrder(content, summary, context);
  } else if (set.status === 'accepted' && content?.kind === 'change') {
    await applyChange(content.change, summary, context);
  }
  if (summary.status !== 'accepted' || summary.order_id === null) {
    // Refused, repeated or (for a set no mapping could read) nothing to do: said once in the log.
    if (summary.status === 'accepted') summary.status = 'rejected';
    log(context, summary, {
      action,
      status: summary.status === 'duplicate' ? 'SKIP' : 'FAILURE',
      reason: summary.errors.join('; ') || 'The set could not be read',
    });
  }
  return summary;
}

/** The set's log row, kept for flushLogs (SetContext.logs). */
function log(
  context: SetContext,
  summary: SetSummary,
  entry: Pick<IngestLogEntry, 'action' | 'status' | 'reason'> & { order?: OrderRow | null },
): void {
  const { order: given, ...outcome } = entry;
  const order = given ?? null;
  context.logs.push({
    ...outcome,
    orderId: order?.id ?? summary.order_id,
    brandId: context.connection.brand_id,
    retailerId: context.connection.retailer_id,
    facilityId: order?.facility_id ?? context.logFacility,
    interchangeId: context.interchangeId,
    requestUrl: context.requestUrl,
    payload: {
      interchange_id: context.interchangeId,
      set: summary.type,
      control_number: summary.control_number,
      po_number: summary.po_number,
    },
    startedAt: context.startedAt,
    at: context.at,
  });
}

const findPoOrder = (context: SetContext, poNumber: string) =>
  findOrderOfPo(context.trx, {
    organizationId: context.connection.organization_id,
    brandId: context.connection.brand_id,
    retailerId: context.connection.retailer_id,
    poNumber,
  });

async function applyOrder(
  content: Extract<PlannedContent, { kind: 'order' }>,
  summary: SetSummary,
  context: SetContext,
) {
  const poNumber = summary.po_number;
  if (content.purpose === 'cancellation') {
    const order = poNumber ? await findPoOrder(context, poNumber) : undefined;
    if (!order || order.status === 'Cancelled') {
      summary.status = 'rejected';
      summary.errors.push(
        order
          ? `PO ${poNumber} is cancelled already`
          : `The retailer cancels PO ${poNumber ?? '(none)'}, which is no order here`,
      );
      return;
    }
    if (!ITEM_EDITABLE_STATUSES.includes(order.status)) {
      summary.status = 'rejected';
      summary.errors.push(
        `The retailer cancels PO ${poNumber}, but its order is ${order.status.toLowerCase()}; ` +
          'it was not cancelled. Check it with the retailer.',
      );
      return;
    }
    await cancel(context, order);
    summary.order_id = order.id;
    log(context, summary, {
      action: '850',
      status: 'SUCCESS',
      reason: 'Cancelled by the retailer (BEG01 01)',
      order,
    });
    return;
  }
  if (!content.body) return;
  if (poNumber) {
    const existing = await findPoOrder(context, poNumber);
    if (existing && existing.status !== 'Cancelled') {
      summary.status = 'duplicate';
      summary.order_id = existing.id;
      summary.errors.push(`PO ${poNumber} is an order already: nothing was created again`);
      return;
    }
  }
  const picksheet = await freePicksheetCode(context.trx, content.body);
  if (!picksheet) {
    summary.status = 'rejected';
    summary.errors.push(
      `picksheet code ${content.body.picksheet_code} and its suffixes are taken at this facility`,
    );
    return;
  }
  const body = { ...content.body, picksheet_code: picksheet };
  const orderId = await insertNewOrder(
    context.trx,
    body,
    context.at,
    (poNumber && context.orderIdFor?.(poNumber)) || undefined,
  );
  await replacePoLines(context.trx, orderId, poLinesOf(orderId, body, content.lines));
  summary.order_id = orderId;
  context.createdOrders.push(orderId);
  log(context, summary, {
    action: '850',
    status: 'SUCCESS',
    reason: picksheet === content.body.picksheet_code ? null : `Picksheet code ${picksheet}`,
    order: { id: orderId, facility_id: body.facility_id } as OrderRow,
  });
}

/** The PO number, or the first of `<PO>-2`, `<PO>-3`, … free at the facility. */
async function freePicksheetCode(trx: Db, body: CreateOrderBody): Promise<string | null> {
  for (let n = 1; n <= MAX_PICKSHEET_SUFFIX; n++) {
    const code = n === 1 ? body.picksheet_code : `${body.picksheet_code}-${n}`;
    if (!(await picksheetTaken(trx, body.facility_id, code))) return code;
  }
  return null;
}

function poLinesOf(orderId: string, body: CreateOrderBody, lines: PoLine[]) {
  return lines.flatMap((line) => {
    const item = body.items[line.item_index];
    if (!item) return [];
    return [
      {
        order_id: orderId,
        line_id: line.line_id,
        sku: item.sku,
        upc: item.upc ?? null,
        quantity: item.quantity,
        unit_price: line.unit_price,
        unit: line.unit_of_measure || null,
      },
    ];
  });
}

async function cancel(context: SetContext, order: OrderRow) {
  await updateOrderColumns(context.trx, order.id, {
    status: 'Cancelled',
    cancelled_at: context.at,
    updated_at: context.at,
  });
}

/** An 860: all its changes or none, while the order is Open or Picking (po-change.ts). */
async function applyChange(change: Mapped860, summary: SetSummary, context: SetContext) {
  const poNumber = change.po_number;
  const order = poNumber ? await findPoOrder(context, poNumber) : undefined;
  if (!order) {
    summary.status = 'rejected';
    summary.errors.push(`The retailer changes PO ${poNumber ?? '(none)'}, which is no order here`);
    return;
  }
  summary.order_id = order.id;
  const [items, poLines] = await Promise.all([
    listOrderItems(context.trx, order.id),
    listPoLines(context.trx, order.id),
  ]);
  if (poLines.length === 0 && change.purpose !== 'cancellation') {
    // Its lines never came from an 850 here, so POC line ids name nothing: replacing the items
    // with the 860's lines alone would lose the order's own.
    summary.status = 'rejected';
    summary.errors.push(
      `PO ${poNumber}'s order was not made from an 850 here, so its lines cannot be matched to ` +
        'the change; the change was not applied. Change the order by hand.',
    );
    return;
  }
  const itemOf = (sku: string) => items.find((item) => item.sku === sku);
  const lines: ChangeableLine[] = poLines.map((line) => ({
    line_id: line.line_id,
    sku: line.sku,
    upc: line.upc,
    vendor_pn: itemOf(line.sku)?.vendor_pn ?? null,
    quantity: line.quantity,
    unit_price: line.unit_price,
    description: itemOf(line.sku)?.description ?? null,
  }));
  const changes =
    change.purpose === 'cancellation' ? [{ kind: 'cancel' as const }] : change.changes;
  const outcome = applyPoChange({ status: order.status, po_number: poNumber, lines }, changes);
  if (!outcome.applied) {
    // An exception for the clerk: the set stays in our records as rejected with the reason.
    summary.status = 'rejected';
    summary.errors.push(outcome.reason);
    return;
  }
  if (outcome.cancel) {
    await cancel(context, order);
  } else {
    const rows = createItemRows(
      outcome.lines.map((line) => {
        const before = itemOf(line.sku);
        return {
          sku: line.sku,
          upc: line.upc,
          quantity: line.quantity,
          case_pack_quantity: before?.case_pack_quantity ?? null,
          case_barcode: before?.case_barcode ?? null,
          vendor_pn: line.vendor_pn,
          description: line.description,
        };
      }),
    );
    await replaceOrderItems(context.trx, order.id, rows);
    await replacePoLines(
      context.trx,
      order.id,
      outcome.lines.map((line) => ({
        order_id: order.id,
        line_id: line.line_id,
        sku: line.sku,
        upc: line.upc,
        quantity: line.quantity,
        unit_price: line.unit_price,
        unit: poLines.find((p) => p.line_id === line.line_id)?.unit ?? 'EA',
      })),
    );
    await updateOrderColumns(context.trx, order.id, { updated_at: context.at });
  }
  log(context, summary, {
    action: '860',
    status: 'SUCCESS',
    reason: outcome.cancel ? 'Cancelled by the retailer (860)' : null,
    order,
  });
}

/** A 997: each AK1 group names one of our outbound groups by GS06; each AK2 one of its sets. */
async function applyAcknowledgment(ack: Mapped997, summary: SetSummary, context: SetContext) {
  const groupControl = Number(ack.group_control);
  const documents = Number.isSafeInteger(groupControl)
    ? (context.groupDocuments.get(groupControl) ?? [])
    : [];
  if (documents.length === 0) {
    summary.status = 'rejected';
    summary.errors.push(
      `The 997 answers group ${ack.group_control || '(none)'}, which we never sent on this connection`,
    );
    return;
  }
  for (const document of documents) {
    const set = ack.sets.find((s) => s.control === document.transaction_control_number);
    const outcome: OrderDocumentStatus | null =
      set?.outcome ??
      (ack.group_outcome === 'partially_accepted' ? 'accepted_with_errors' : ack.group_outcome);
    if (outcome === null) continue;
    context.acknowledged.outcomes.set(document.id, outcome);
    const type = document.type as '856' | '855' | '810';
    context.acknowledged.logs.push({
      action: type,
      status: outcome === 'rejected' ? 'FAILURE' : 'SUCCESS',
      reason: outcome === 'rejected' ? `The retailer's 997 rejects this ${type}` : null,
      orderId: document.order_id,
      brandId: document.brand_id,
      retailerId: document.retailer_id,
      facilityId: document.facility_id,
      interchangeId: context.interchangeId,
      requestUrl: context.requestUrl,
      payload: {
        interchange_id: context.interchangeId,
        document_id: document.id,
        group_control_number: groupControl,
        transaction_control_number: document.transaction_control_number,
        outcome,
      },
      startedAt: context.startedAt,
      at: context.at,
    });
    summary.order_id ??= document.order_id;
  }
}

/** Documents per UPDATE of flushAcknowledgments. */
const IDS_PER_UPDATE = 500;

/** Writes what the interchange's 997s did (SetContext.acknowledged): one UPDATE per outcome. */
export async function flushAcknowledgments(context: SetContext): Promise<void> {
  const byOutcome = new Map<OrderDocumentStatus, string[]>();
  for (const [id, outcome] of context.acknowledged.outcomes) {
    const ids = byOutcome.get(outcome) ?? [];
    ids.push(id);
    byOutcome.set(outcome, ids);
  }
  for (const [outcome, ids] of byOutcome) {
    for (let start = 0; start < ids.length; start += IDS_PER_UPDATE) {
      await context.trx
        .updateTable('order_documents')
        .set({ status: outcome, acknowledged_at: context.at, updated_at: context.at })
        .where('id', 'in', ids.slice(start, start + IDS_PER_UPDATE))
        .execute();
    }
  }
}

/**
 * Writes the interchange's log rows, the sets' then the 997s' (SetContext.logs), at its end in
 * one call: writeIngestLogs inserts them in count-lock order on PostgreSQL.
 */
export async function flushLogs(context: SetContext): Promise<void> {
  await writeIngestLogs(context.trx, [...context.logs, ...context.acknowledged.logs]);
}
