/**
 * The shipment confirmation a direct-API retailer receives at ship: the facts of the 856 as
 * JSON (PO, cartons with SSCCs and SKUs, carrier, BOL, tracking). Pure.
 */
import type { AsnFacts } from './asn-856';

export const JSON_CONTENT_TYPE = 'application/json';

export function buildShipmentConfirmation(
  documentId: string,
  orderId: string,
  facts: AsnFacts,
): string {
  const palletSscc = new Map(facts.pallets.map((p) => [p.id, p.sscc]));
  const tracking = facts.cartons
    .map((c) => c.parcel_tracking_number)
    .filter((n): n is string => n !== null && n !== '');
  return JSON.stringify({
    type: 'shipment_confirmation',
    idempotency_key: documentId,
    order_id: orderId,
    po_number: facts.poNumber,
    shipment_id: facts.shipmentId,
    shipped_at: facts.shippedAt.toISOString(),
    carrier: facts.carrier,
    carrier_alpha_code: facts.carrierAlphaCode,
    transportation_method: facts.transportationMethod,
    bill_of_lading_number: facts.billOfLadingNumber,
    pro_number: facts.proNumber,
    tracking_numbers: tracking,
    ship_from: facts.shipFrom,
    ship_to: facts.shipTo,
    pallets: facts.pallets.map((p) => ({ sscc: p.sscc })),
    cartons: facts.cartons.map((c) => ({
      sscc: c.sscc,
      pallet_sscc: c.pallet_id ? (palletSscc.get(c.pallet_id) ?? null) : null,
      tracking_number: c.parcel_tracking_number,
      items: c.lines.map((l) => ({ sku: l.sku, upc: l.upc, quantity: l.quantity })),
    })),
  });
}
