/**
 * The documents an order's shipping makes, written in the ship step's own transaction (durable
 * before the answer; sent after the commit, see ./send.ts): an 856 for each EDI connection of the
 * order's brand and retailer whose `order_documents.send` names 856, a shipment confirmation
 * (JSON) for each such direct-API connection, and the 810 of each connection that invoices by
 * itself (`auto_invoice`, ./auto-replies.ts).
 */
import type { Db } from '../db/db';
import type { ServiceContext } from '../core/context';
import type { OrderRow } from '../orders';
import { queueAutoInvoices } from './auto-replies';
import { build856, type AsnCarton, type AsnFacts, type AsnParty } from './asn-856';
import { connectionsForOrder, findFacility, loadPackedFacts } from './queries';
import { queueDocument, type DocumentContent, type QueuedDocument } from './queue';
import { orderDocumentSettingsOf } from './settings';
import { buildShipmentConfirmation } from './shipment-confirmation';

export type { QueuedDocument } from './queue';

/**
 * Writes the documents (in the step's transaction) and claims those this replica sends; the
 * caller sends them after the commit (announceShipDocuments) or, if the step rolls back,
 * releases them (releaseShipDocuments).
 */
export async function queueShipDocuments(
  ctx: ServiceContext,
  trx: Db,
  order: OrderRow,
  at: string,
): Promise<QueuedDocument[]> {
  const all = await connectionsForOrder(trx, order);
  const invoices = await queueAutoInvoices(ctx, trx, order, all, at);
  const connections = all.filter((c) =>
    orderDocumentSettingsOf(c.order_documents_json)?.send.includes('856'),
  );
  if (connections.length === 0) return invoices;
  const facts = await asnFacts(trx, order, new Date(at));
  const queued: QueuedDocument[] = [];
  for (const connection of connections) {
    const direct = connection.kind === 'DIRECT_API';
    queued.push(
      await queueDocument(
        ctx,
        trx,
        order,
        connection,
        at,
        direct ? 'SHIPMENT_CONFIRMATION' : '856',
        (): DocumentContent => {
          if (facts instanceof Error) throw facts;
          return direct
            ? {
                kind: 'json',
                type: 'SHIPMENT_CONFIRMATION',
                text: (id) => buildShipmentConfirmation(id, order.id, facts),
              }
            : { kind: 'x12', type: '856', body: build856(facts) };
        },
        direct ? 'shipment confirmation' : 'ASN',
      ),
    );
  }
  return [...queued, ...invoices];
}

/** The order's packed facts for the 856; an Error (not thrown) when the order lacks one. */
async function asnFacts(trx: Db, order: OrderRow, at: Date): Promise<AsnFacts | Error> {
  if (!order.po_number) return new Error('the order has no PO number');
  const [facility, packed] = await Promise.all([
    findFacility(trx, order.facility_id),
    loadPackedFacts(trx, order.id),
  ]);
  const linesByCarton = new Map<string, AsnCarton['lines']>();
  for (const line of packed.lines) {
    const list = linesByCarton.get(line.carton_id) ?? [];
    list.push({ sku: line.sku, upc: line.upc, quantity: line.quantity });
    linesByCarton.set(line.carton_id, list);
  }
  return {
    shipmentId: order.bill_of_lading_number ?? order.picksheet_code,
    createdAt: at,
    shippedAt: at,
    poNumber: order.po_number,
    deptNumber: order.dept_number,
    billOfLadingNumber: order.bill_of_lading_number,
    proNumber: order.pro_number,
    carrier: order.carrier,
    carrierAlphaCode: order.carrier_alpha_code,
    transportationMethod: order.transportation_method,
    shipFrom: { name: facility.name, code: facility.external_facility_code },
    shipTo: shipToOf(order.ship_to_json),
    pallets: packed.pallets,
    cartons: packed.cartons.map((carton) => ({
      ...carton,
      lines: linesByCarton.get(carton.id) ?? [],
    })),
  };
}

function shipToOf(json: string | null): AsnParty {
  const contact = json ? (JSON.parse(json) as Record<string, string | null | undefined>) : {};
  return {
    name: contact['name'] ?? null,
    code: contact['dc_number'] ?? contact['facility_code'] ?? null,
    address1: contact['address_line1'] ?? null,
    address2: contact['address_line2'] ?? null,
    city: contact['city'] ?? null,
    state: contact['province'] ?? null,
    zip: contact['zip'] ?? null,
    country: contact['country'] ?? null,
  };
}
