import { listLooseCartons } from './queries';
import { findOrderDocument, type OrderDocument } from '../orders';
import type { LabelShipment } from './label-model';
import { addressLines } from './pdf-kit';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { isoUtc, orderVisibleTo } from '../orders';

/** A carton as the documents see it: on a pallet or not. */
export interface DocumentCarton {
  id: string;
  sscc: string | null;
  palletId: string | null;
  palletSscc: string | null;
  createdAt: string;
  trackingNumber: string | null;
  skus: { sku: string; upc: string | null; quantity: number }[];
}

export interface DocumentPallet {
  id: string;
  sscc: string | null;
  status: string;
  createdAt: string;
}

/** An order with every carton (palletised or loose) and pallet, for its documents. */
export interface DocumentOrder {
  document: OrderDocument;
  pallets: DocumentPallet[];
  /** Oldest first (the order they were packed in), which numbers them on labels. */
  cartons: DocumentCarton[];
}

/**
 * The order if the user sees it (the same rule as Order details), else 404 with `notFoundMessage`
 * (also for other tenants' orders).
 */
export async function loadDocumentOrder(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  notFoundMessage = 'Order not found',
): Promise<DocumentOrder> {
  const document = await findOrderDocument(ctx.db, orderId);
  if (!document || !(await orderVisibleTo(ctx, user, document.order))) {
    throw notFound(notFoundMessage);
  }
  const loose = await listLooseCartons(ctx.db, document.order.id);
  const cartons: DocumentCarton[] = [
    ...document.pallets.flatMap((pallet) =>
      pallet.cartons.map((carton) => ({
        id: carton.id,
        sscc: carton.sscc,
        palletId: pallet.id,
        palletSscc: pallet.sscc,
        createdAt: isoUtc(carton.created_at)!,
        trackingNumber: carton.parcel_tracking_number,
        skus: carton.skus.map(({ sku, upc, quantity }) => ({ sku, upc, quantity })),
      })),
    ),
    ...loose.map((carton) => ({
      id: carton.id,
      sscc: carton.sscc,
      palletId: null,
      palletSscc: null,
      createdAt: isoUtc(carton.created_at)!,
      trackingNumber: carton.parcel_tracking_number,
      skus: carton.skus,
    })),
  ].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
  const pallets = document.pallets.map((pallet) => ({
    id: pallet.id,
    sscc: pallet.sscc,
    status: pallet.status,
    createdAt: isoUtc(pallet.created_at)!,
  }));
  return { document, pallets, cartons };
}

/** The SKU lines of some cartons added up by SKU (a pallet's contents), in first-seen order. */
export function skuTotals(cartons: readonly DocumentCarton[]): { sku: string; quantity: number }[] {
  const bySku = new Map<string, number>();
  for (const line of cartons.flatMap((c) => c.skus)) {
    bySku.set(line.sku, (bySku.get(line.sku) ?? 0) + line.quantity);
  }
  return [...bySku].map(([sku, quantity]) => ({ sku, quantity }));
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** The ship-to contact's address lines, its postal code and the retailer's DC number. */
export function shipToOf(document: OrderDocument) {
  const contact = document.address.ship_to_contact ?? {};
  return {
    lines: addressLines({
      name: text(contact.name),
      line1: text(contact.address_line1),
      line2: text(contact.address_line2),
      city: text(contact.city),
      region: text(contact.province),
      zip: text(contact.zip),
      country: text(contact.country),
    }),
    zip: text(contact.zip),
    dcNumber: text(contact.dc_number),
  };
}

/** Ship-from: the brand, shipped by the facility (facilities carry a name and code, no address). */
export const shipFromOf = ({ order }: OrderDocument) => [
  order.brand_name,
  `c/o ${order.facility_name}`,
  `Facility ${order.external_facility_code}`,
];

export function labelShipment(document: OrderDocument): LabelShipment {
  const shipTo = shipToOf(document);
  const { order } = document;
  return {
    shipFrom: shipFromOf(document),
    shipTo: shipTo.lines,
    shipToZip: shipTo.zip,
    dcNumber: shipTo.dcNumber,
    poNumber: order.po_number,
    picksheetCode: order.picksheet_code,
    deptNumber: order.dept_number,
    carrier: order.carrier,
    proNumber: order.pro_number,
    bolNumber: order.bill_of_lading_number,
    retailerName: order.retailer_name,
  };
}
