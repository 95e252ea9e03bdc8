/**
 * The demo's order documents, made once when the demo workspace is first imported, through the
 * real paths (decision docs/decisions/0188-demo-order-documents.md): the retailers' 850s are
 * ingested and make the demo's EDI orders (with the demo's fixed ids), one 860 is applied and one
 * refused, the 855s, 856s and 810s are built by the real builders and delivered over the
 * connections' file transports into the data dir, and the retailers' 997s are ingested and mark
 * them. Times are relative to now, so the overdue ASN stays overdue. Nothing reaches a network.
 * The inbox also has a duplicate, a refused file and a polled file refused as too large.
 *
 * Two outcomes cannot happen offline and are recorded as the send path would record them, on
 * documents the real builders made: the invoice whose partner is down (failed, left to a clerk's
 * Retry) and the acknowledgment still waiting in the outbox (queued, planned for later).
 */
import type { AuthUser, ServiceContext, SyncView } from '../core/context';
import {
  acknowledgeOrder,
  announceShipDocuments,
  ingestInterchange,
  invoiceOrder,
  queueShipDocuments,
  recordTooLarge,
} from '../edi';
import { INBOUND_MAX_BYTES } from '../../shared/edi-inbound';
import { findOrderForUser, insertTransactionRow } from '../orders';
import { senderOfNewDelivery } from '../sync/role';
import {
  acknowledgmentBody,
  fromPartner,
  partnerInterchange,
  purchaseOrderBody,
  quantityChangeBody,
  type DemoPo,
  type PartnerEdi,
} from './demo-x12';

const HOUR_MS = 3_600_000;

interface DemoConnection {
  id: string;
  organization_id: string;
  brand_id: string;
  retailer_id: string;
  kind: string;
  edi?: PartnerEdi;
  order_documents?: unknown;
}
interface DemoOrder extends DemoPo {
  id: string;
  status: string;
  brand_id: string;
  retailer_id: string;
  facility_id: string;
}
export interface DemoDocumentsSource {
  facilities: { id: string; organization_id: string; external_facility_code: string }[];
  connections: DemoConnection[];
  orders: DemoOrder[];
}

/** The connection (with order documents) an order belongs to, when it has one. */
export function ediConnectionOf(source: DemoDocumentsSource, order: DemoOrder) {
  const organization = source.facilities.find((f) => f.id === order.facility_id)?.organization_id;
  return source.connections.find(
    (c) =>
      c.kind === 'EDI_846' &&
      c.edi &&
      c.order_documents &&
      c.organization_id === organization &&
      c.brand_id === order.brand_id &&
      c.retailer_id === order.retailer_id,
  );
}

/** The demo orders that belong to an EDI connection taking order documents. */
export function demoEdiOrders(source: DemoDocumentsSource): DemoOrder[] {
  return source.orders.filter((order) => ediConnectionOf(source, order));
}

/** What happens to whom: PO numbers of the demo (resources/demo-workspace.json). */
const PLAN = {
  /** 850 with line 1 at 6 fewer units, then an 860 that sets it to the workspace's quantity. */
  changed: 'BB4500268',
  /** An 860 after picking: refused, shown as an exception. */
  refusedChange: 'NW4500342',
  /** An 850 cancellation (BEG01 01) after the 850. */
  cancelled: 'NW4500638',
  acknowledged: {
    accepted: ['BB4500268', 'BB4500453', 'BB4500527', 'NW4500564', 'HG4500305', 'HG4500490'],
    rejected: ['NW4500231'],
    awaiting: ['NW4500416'],
    queued: ['BB4500157'],
  },
  /** Shipped: 856 (and 810) with their fates. */
  shipped: {
    BB4500527: { asn: 'A', invoice: 'E' },
    NW4500564: { asn: 'overdue', invoice: 'failed' },
  } as Record<string, { asn: 'A' | 'overdue'; invoice: 'E' | 'failed' }>,
} as const;

/** Sequence of the ISA13s the demo's retailers use (any fixed start). */
const FIRST_CONTROL = 7001;

interface Step {
  ctx: ServiceContext;
  /** The moment the demo is made; every document's time is before it. */
  now: number;
  /** The retailers' next ISA13 (and GS06). */
  control: number;
}
/** A step that acts in the app as the demo clerk (acknowledge, ship, invoice). */
interface ClerkStep extends Step {
  user: AuthUser;
}

/**
 * Phase 1, before the orders are imported: the 850s that make the demo's EDI orders, the 860
 * applied while the order is still open, and the cancellation. The seed import that follows
 * brings each order to its workspace state (pallets, status, times).
 */
export async function ingestDemoPurchaseOrders(
  ctx: ServiceContext,
  source: DemoDocumentsSource,
): Promise<{ nextControl: number }> {
  const step: Step = { ctx, now: ctx.clock.now().getTime(), control: FIRST_CONTROL };
  const ids = new Map(source.orders.map((o) => [o.po_number, o.id]));
  for (const [index, order] of demoEdiOrders(source).entries()) {
    const connection = ediConnectionOf(source, order)!;
    const code = source.facilities.find((f) => f.id === order.facility_id)!.external_facility_code;
    const changed = order.po_number === PLAN.changed;
    const body = purchaseOrderBody(order, code, {
      quantities: changed ? { 0: order.items[0]!.quantity - 6 } : {},
    });
    const at = new Date(step.now - (120 - index * 4) * HOUR_MS);
    await ingest(step, connection, 'PO', at, [body], (po) => ids.get(po));
    if (changed) {
      const change = quantityChangeBody(
        order.po_number,
        order.created_at,
        '1',
        order.items[0]!.quantity,
      );
      await ingest(step, connection, 'PC', new Date(at.getTime() + 2 * HOUR_MS), [change]);
    }
    if (order.po_number === PLAN.cancelled) {
      const cancel = purchaseOrderBody(order, code, { cancel: true });
      await ingest(step, connection, 'PO', new Date(at.getTime() + 3 * HOUR_MS), [cancel]);
    }
  }
  await settle(ctx);
  return { nextControl: step.control };
}

/** Phase 2, once the orders are in their workspace state: everything that went out and came back. */
export async function exchangeDemoDocuments(
  ctx: ServiceContext,
  source: DemoDocumentsSource,
  options: { user: AuthUser; nextControl: number },
): Promise<void> {
  const step: ClerkStep = {
    ctx,
    now: ctx.clock.now().getTime(),
    control: options.nextControl,
    user: options.user,
  };
  const byPo = new Map(demoEdiOrders(source).map((o) => [o.po_number, o]));
  const order = (po: string) => byPo.get(po)!;
  const connectionOf = (po: string) => ediConnectionOf(source, order(po))!;

  // The refused change: the order is packed by now.
  const late = order(PLAN.refusedChange);
  await ingest(step, connectionOf(late.po_number), 'PC', ago(step, 20), [
    quantityChangeBody(late.po_number, late.created_at, '1', late.items[0]!.quantity + 12),
  ]);

  // 855s: most answered by the retailer's 997, one still waiting, one queued.
  const acks = PLAN.acknowledged;
  for (const po of [...acks.accepted, ...acks.rejected]) {
    const document = await acknowledge(step, order(po), ago(step, 60));
    await answer(
      step,
      connectionOf(po),
      document,
      (acks.rejected as readonly string[]).includes(po) ? 'R' : 'A',
      ago(step, 58),
    );
  }
  for (const po of acks.awaiting) await acknowledge(step, order(po), ago(step, 3));
  for (const po of acks.queued) await holdQueued(step, order(po), ago(step, 1));

  // Shipped orders: the ASN and the invoice.
  for (const [po, fate] of Object.entries(PLAN.shipped)) {
    const shipped = order(po);
    const asn = await sendAsn(
      step,
      shipped,
      fate.asn === 'overdue' ? ago(step, 30) : ago(step, 40),
    );
    if (fate.asn === 'A') await answer(step, connectionOf(po), asn, 'A', ago(step, 39));
    if (fate.invoice === 'failed') {
      await failInvoice(step, shipped, ago(step, 26));
    } else {
      const sent = await invoice(step, shipped, ago(step, 36));
      await answer(step, connectionOf(po), sent, fate.invoice, ago(step, 35));
    }
  }

  // The inbox: the very first 850 sent again (its ISA13 taken), and a file refused (no group).
  const first = demoEdiOrders(source)[0]!;
  const connection = connectionOf(first.po_number);
  const code = source.facilities.find((f) => f.id === first.facility_id)!.external_facility_code;
  const edi = fromPartner(connection.edi!);
  const again = partnerInterchange(edi, 'PO', FIRST_CONTROL, ago(step, 10), [
    purchaseOrderBody(first, code),
  ]);
  await receive(step, again, ago(step, 10));
  const broken = partnerInterchange(edi, 'PO', step.control++, ago(step, 8), [
    purchaseOrderBody(first, code),
  ]);
  // The envelope alone (ISA is 106 characters with its terminator): no functional group.
  const [separator, terminator] = [broken[3]!, broken[105]!];
  const control = broken.slice(90, 99);
  await receive(
    step,
    `${broken.slice(0, 106)}\nIEA${separator}0${separator}${control}${terminator}\n`,
    ago(step, 8),
    'refused',
  );
  // A polled file too large to read, as the poller records it: refused with its size, no text.
  await recordTooLarge(
    at(step, ago(step, 6)),
    { connectionId: connection.id, source: 'file', fileName: DEMO_TOO_LARGE_FILE },
    { bytes: 43_304_550, max_bytes: INBOUND_MAX_BYTES, unread: true },
  );
  await settle(ctx);
}

/** The demo's polled file refused as too large (the EDI inbox shows it without text). */
export const DEMO_TOO_LARGE_FILE = 'orders-week-47.x12';

interface SentDocument {
  id: string;
  type: string;
  group: number;
  control: string;
}

const ago = (step: Step, hours: number) => new Date(step.now - hours * HOUR_MS);

/** The context at a moment of the demo's past (its own claims, its own clock). */
function at(step: Step, moment: Date, hold = false): ServiceContext {
  return {
    ...step.ctx,
    clock: { now: () => moment },
    deliveriesInFlight: step.ctx.deliveriesInFlight,
    // A workstation whose central sends: the real path queues the document and does not send it.
    ...(hold
      ? {
          sync: {
            role: 'workstation',
            deviceId: 'demo',
            sqlite: null,
            client: null,
          } as unknown as SyncView,
        }
      : {}),
  };
}

async function ingest(
  step: Step,
  connection: DemoConnection,
  functionalId: 'PO' | 'PC' | 'FA',
  moment: Date,
  sets: ReturnType<typeof purchaseOrderBody>[],
  orderIdFor?: (po: string) => string | undefined,
) {
  const text = partnerInterchange(
    fromPartner(connection.edi!),
    functionalId,
    step.control++,
    moment,
    sets,
  );
  await receive(step, text, moment, undefined, connection.id, orderIdFor);
}

async function receive(
  step: Step,
  text: string,
  moment: Date,
  expect?: 'refused',
  connectionId?: string,
  orderIdFor?: (po: string) => string | undefined,
) {
  try {
    await ingestInterchange(
      at(step, moment),
      {
        text,
        source: 'file',
        fileName: `demo_${step.control}.x12`,
        userId: null,
        requestUrl: 'demo workspace',
        orderIdFor,
      },
      async (c) => connectionId === undefined || c.id === connectionId,
    );
  } catch (error) {
    if (expect !== 'refused' || !(error as Error).message.includes('refused')) throw error;
  }
  await settle(step.ctx);
}

async function acknowledge(step: ClerkStep, order: DemoOrder, moment: Date): Promise<SentDocument> {
  const reply = await acknowledgeOrder(at(step, moment), step.user, order.id, { lines: [] });
  return sentDocument(step, reply.data.documents[0]!.id);
}

async function invoice(step: ClerkStep, order: DemoOrder, moment: Date): Promise<SentDocument> {
  const reply = await invoiceOrder(at(step, moment), step.user, order.id);
  return sentDocument(step, reply.data.documents[0]!.id);
}

async function sendAsn(step: ClerkStep, order: DemoOrder, moment: Date): Promise<SentDocument> {
  const ctx = at(step, moment);
  const row = (await findOrderForUser(ctx.db, step.user, order.id))!;
  const queued = await ctx.db
    .transaction()
    .execute((trx) => queueShipDocuments(ctx, trx, row, moment.toISOString()));
  await announceShipDocuments(ctx, queued);
  return sentDocument(step, queued[0]!.id);
}

/** The 855 still in the outbox: built and queued by the real path, its send planned for later. */
async function holdQueued(step: ClerkStep, order: DemoOrder, moment: Date) {
  const reply = await acknowledgeOrder(at(step, moment, true), step.user, order.id, { lines: [] });
  const { senderId } = senderOfNewDelivery(step.ctx.sync, {});
  await step.ctx.db
    .updateTable('order_documents')
    .set({ sender_id: senderId, next_attempt_at: new Date(step.now + 12 * HOUR_MS).toISOString() })
    .where('id', '=', reply.data.documents[0]!.id)
    .execute();
}

/** The invoice whose partner is down: built and queued by the real path, its failure recorded. */
async function failInvoice(step: ClerkStep, order: DemoOrder, moment: Date) {
  const reply = await invoiceOrder(at(step, moment, true), step.user, order.id);
  const document = reply.data.documents[0]!;
  const when = moment.toISOString();
  const error = 'ECONNREFUSED: the retailer’s EDI endpoint did not answer (3 tries)';
  const { senderId } = senderOfNewDelivery(step.ctx.sync, {});
  await step.ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('order_documents')
      .set({
        status: 'failed',
        error,
        attempts: 3,
        next_attempt_at: null,
        sender_id: senderId,
        updated_at: when,
      })
      .where('id', '=', document.id)
      .execute();
    await insertTransactionRow(trx, {
      transaction_id: crypto.randomUUID(),
      action_type: 'SEND_INVOICE',
      action_type_label: 'Send invoice',
      brand_id: order.brand_id,
      retailer_id: order.retailer_id,
      facility_id: order.facility_id,
      order_id: order.id,
      carton_id: null,
      load_id: null,
      correlation_id: document.id,
      duration_ms: 0,
      error_message: error,
      execution_status: 'FAILURE',
      // As the send path records a failure that left no attempt details.
      request_method: 'POST',
      request_url: '',
      request_payload: JSON.stringify({ document_id: document.id, type: '810', attempts: 3 }),
      response_body: null,
      response_status: null,
      created_at: when,
      updated_at: when,
    });
  });
}

async function sentDocument(step: Step, id: string): Promise<SentDocument> {
  await settle(step.ctx);
  const row = await step.ctx.db
    .selectFrom('order_documents')
    .select(['type', 'group_control_number', 'transaction_control_number'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    id,
    type: row.type,
    group: row.group_control_number!,
    control: row.transaction_control_number!,
  };
}

const FUNCTIONAL: Record<string, string> = { '855': 'PR', '856': 'SH', '810': 'IN' };

/** The retailer's 997 for one of our documents. */
async function answer(
  step: Step,
  connection: DemoConnection,
  document: SentDocument,
  code: 'A' | 'E' | 'R',
  moment: Date,
) {
  const body = acknowledgmentBody(
    FUNCTIONAL[document.type]!,
    document.group,
    { type: document.type, control: document.control },
    code,
  );
  await ingest(step, connection, 'FA', moment, [body]);
}

/** Waits for the sends the real path started after its commits (file writes: milliseconds). */
async function settle(ctx: ServiceContext) {
  for (let i = 0; i < 500 && ctx.deliveriesInFlight.size > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
