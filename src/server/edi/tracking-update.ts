/**
 * The tracking update a direct-API retailer receives when a shipped order's carrier facts change
 * (DESIGN.md "Order documents", issue 16 item 8): what changed, the values before, and the
 * order's tracking facts now, as JSON. Pure.
 */

/** The order facts a retailer tracks a shipment by, after ship. */
export const TRACKED_FACTS = [
  'bill_of_lading_number',
  'pro_number',
  'carrier',
  'carrier_alpha_code',
] as const;
export type TrackedFact = (typeof TRACKED_FACTS)[number];
export type TrackingFacts = Record<TrackedFact, string | null>;

export interface TrackingUpdateInput {
  orderId: string;
  poNumber: string | null;
  shippedAt: string | null;
  before: TrackingFacts;
  after: TrackingFacts;
  changed: TrackedFact[];
  /** The parcel tracking numbers of the order's cartons. */
  trackingNumbers: string[];
  at: string;
}

export function buildTrackingUpdate(documentId: string, input: TrackingUpdateInput): string {
  return JSON.stringify({
    type: 'tracking_update',
    idempotency_key: documentId,
    order_id: input.orderId,
    po_number: input.poNumber,
    shipped_at: input.shippedAt,
    updated_at: input.at,
    changed: input.changed,
    previous: Object.fromEntries(input.changed.map((fact) => [fact, input.before[fact]])),
    carrier: input.after.carrier,
    carrier_alpha_code: input.after.carrier_alpha_code,
    bill_of_lading_number: input.after.bill_of_lading_number,
    pro_number: input.after.pro_number,
    tracking_numbers: input.trackingNumbers,
  });
}
