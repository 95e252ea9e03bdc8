/**
 * The documents an order's shipping makes, written in the ship step's own transaction (durable
 * before the answer; sent after the commit, see ./send.ts): an 856 for each EDI connection of the
 * order's brand and retailer whose `order_documents.send` names 856, a shipment confirmation
 * (JSON) for each such direct-API connection.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db';
import type { ServiceContext } from '../core/context';
import { takeControlNumbers, type EdiSettings } from '../inventory';
import type { OrderRow } from '../orders';
import { senderOfNewDelivery } from '../sync/role';
import { build856, type AsnCarton, type AsnFacts, type AsnParty } from './asn-856';
import {
  connectionsForOrder,
  findFacility,
  insertOrderDocument,
  loadPackedFacts,
  type OrderConnection,
} from './queries';
import { claimDocument } from './send';
import { orderDocumentSettingsOf } from './settings';
import { buildShipmentConfirmation, JSON_CONTENT_TYPE } from './shipment-confirmation';
import { writeInterchange, X12_CONTENT_TYPE } from './x12/writer';

/** A document the step wrote; `sendsHere` when this replica is the one that sends it. */
export interface QueuedDocument {
  id: string;
  type: '856' | 'SHIPMENT_CONFIRMATION';
  retailerName: string;
  sendsHere: boolean;
  /** Set when the document could not be built: it is stored as failed with this reason. */
  error: string | null;
}

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
  const connections = (await connectionsForOrder(trx, order)).filter((c) =>
    orderDocumentSettingsOf(c.order_documents_json)?.send.includes('856'),
  );
  if (connections.length === 0) return [];
  const facts = await asnFacts(trx, order, new Date(at));
  const queued: QueuedDocument[] = [];
  for (const connection of connections) {
    const document = await queueOne(ctx, trx, order, connection, facts, at);
    // Claimed before the commit, so a drain pass cannot send it before the ship answer does.
    if (document.sendsHere && document.error === null) claimDocument(ctx, document.id);
    queued.push(document);
  }
  return queued;
}

async function queueOne(
  ctx: ServiceContext,
  trx: Db,
  order: OrderRow,
  connection: OrderConnection,
  facts: AsnFacts | Error,
  at: string,
): Promise<QueuedDocument> {
  const id = randomUUID();
  const type: QueuedDocument['type'] =
    connection.kind === 'DIRECT_API' ? 'SHIPMENT_CONFIRMATION' : '856';
  const { senderId, sendsHere } = senderOfNewDelivery(ctx.sync, connection);
  const base = {
    id,
    order_id: order.id,
    brand_id: order.brand_id,
    facility_id: order.facility_id,
    connection_id: connection.id,
    organization_id: connection.organization_id,
    retailer_id: connection.retailer_id,
    type,
    direction: 'out' as const,
    sender_id: senderId,
    sent_at: null,
    acknowledged_at: null,
    created_at: at,
    updated_at: at,
  };
  try {
    if (facts instanceof Error) throw facts;
    if (type === 'SHIPMENT_CONFIRMATION') {
      await insertOrderDocument(trx, {
        ...base,
        status: 'queued',
        interchange_control_number: null,
        group_control_number: null,
        transaction_control_number: null,
        document: buildShipmentConfirmation(id, order.id, facts),
        content_type: JSON_CONTENT_TYPE,
        file_name: `shipment_confirmation_${id}.json`,
        error: null,
        next_attempt_at: at,
      });
    } else {
      if (!connection.edi_json) throw new Error('the connection has no EDI settings');
      // Built before the control numbers are taken, so a refused document wastes none.
      const body = build856(facts);
      const numbers = await takeControlNumbers(trx, connection.id);
      const written = writeInterchange({
        edi: JSON.parse(connection.edi_json) as EdiSettings,
        functionalId: 'SH',
        interchangeControlNumber: numbers.interchange,
        groupControlNumber: numbers.group,
        createdAt: facts.createdAt,
        transactionSets: [body],
      });
      await insertOrderDocument(trx, {
        ...base,
        status: 'queued',
        interchange_control_number: numbers.interchange,
        group_control_number: numbers.group,
        transaction_control_number: written.transactionControlNumbers[0]!,
        document: written.text,
        content_type: X12_CONTENT_TYPE,
        file_name: written.fileName,
        error: null,
        next_attempt_at: at,
      });
    }
    return { id, type, retailerName: connection.retailer_name, sendsHere, error: null };
  } catch (error) {
    // The shipment happened: it is not refused for a document that cannot be built. The
    // document is kept as failed with the reason, for the clerk to see and fix.
    const reason = `The ASN could not be built: ${(error as Error).message}`;
    await insertOrderDocument(trx, {
      ...base,
      status: 'failed',
      interchange_control_number: null,
      group_control_number: null,
      transaction_control_number: null,
      document: null,
      content_type: null,
      file_name: null,
      error: reason,
      next_attempt_at: null,
    });
    return { id, type, retailerName: connection.retailer_name, sendsHere, error: reason };
  }
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
