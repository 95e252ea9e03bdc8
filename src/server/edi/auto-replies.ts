/**
 * The replies a connection's settings send by themselves (`order_documents.auto_acknowledge`,
 * `auto_invoice`), queued in the transaction of the step that calls for them (the 850's ingest,
 * the ship) and sent after its commit by that step, like the clerk's POST …/acknowledge and
 * …/invoice (./order-replies.ts).
 */
import type { ServiceContext } from '../core/context';
import type { Db } from '../db/db';
import type { OrderRow } from '../orders';
import { ackBuilder, invoiceBuilder, orderPoLines } from './order-replies';
import { connectionsForOrder, type OrderConnection } from './queries';
import { queueDocument, type QueuedDocument } from './queue';
import { orderDocumentSettingsOf } from './settings';

/**
 * `order_documents.auto_acknowledge`: the 855 (every line accepted) for an order an 850 just
 * made, queued in the ingest's transaction for the connection that sent the PO when its `send`
 * names 855. Null when that connection does not acknowledge by itself.
 */
export async function queueAutoAcknowledgment(
  ctx: ServiceContext,
  trx: Db,
  orderId: string,
  connectionId: string,
  at: string,
): Promise<QueuedDocument | null> {
  const order = await trx
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!order?.po_number) return null;
  const connection = (await connectionsForOrder(trx, order)).find((c) => c.id === connectionId);
  const settings = orderDocumentSettingsOf(connection?.order_documents_json ?? null);
  if (!connection || connection.kind === 'DIRECT_API') return null;
  if (!settings?.auto_acknowledge || !settings.send.includes('855')) return null;
  const build = ackBuilder(order, await orderPoLines(trx, order.id), new Map());
  return queueDocument(
    ctx,
    trx,
    order,
    connection,
    at,
    '855',
    () => ({ kind: 'x12', type: '855', body: build(at) }),
    'acknowledgment',
  );
}

/**
 * `order_documents.auto_invoice`: in the ship step's transaction, the 810 for each EDI connection
 * whose settings invoice by itself and whose `send` names 810. A line without a price does not
 * fail the ship: the 810 is stored as failed with the reason naming the lines.
 */
export async function queueAutoInvoices(
  ctx: ServiceContext,
  trx: Db,
  order: OrderRow,
  connections: OrderConnection[],
  at: string,
): Promise<QueuedDocument[]> {
  const invoicing = connections.filter((c) => {
    const settings = orderDocumentSettingsOf(c.order_documents_json);
    return c.kind !== 'DIRECT_API' && settings?.auto_invoice && settings.send.includes('810');
  });
  if (invoicing.length === 0) return [];
  const invoice = order.po_number ? await invoiceBuilder(trx, order) : 'the order has no PO number';
  const queued: QueuedDocument[] = [];
  for (const connection of invoicing) {
    queued.push(
      await queueDocument(
        ctx,
        trx,
        order,
        connection,
        at,
        '810',
        () => {
          if (typeof invoice === 'string') throw new Error(invoice);
          return { kind: 'x12', type: '810', body: invoice(at) };
        },
        'invoice',
      ),
    );
  }
  return queued;
}
