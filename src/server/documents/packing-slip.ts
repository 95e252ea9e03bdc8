import { documentTime } from './document-time';
import { buildPackingSlipPdf, type PackingSlipData } from './packing-slip-pdf';
import type { AuthUser, ServiceContext } from '../core/context';
import { loadDocumentOrder, shipFromOf, shipToOf, type DocumentOrder } from './load-order';
import { recordPackingSlipPrint } from './print-records';

/** Ordered and packed units per SKU: the order's lines first, then SKUs packed but not ordered. */
function slipLines(order: DocumentOrder): PackingSlipData['lines'] {
  const packed = new Map<string, number>();
  for (const line of order.cartons.flatMap((c) => c.skus)) {
    packed.set(line.sku, (packed.get(line.sku) ?? 0) + line.quantity);
  }
  const lines = new Map<string, PackingSlipData['lines'][number]>();
  for (const item of order.document.items) {
    const line = lines.get(item.sku);
    if (line) line.ordered += item.quantity;
    else {
      lines.set(item.sku, {
        sku: item.sku,
        upc: item.upc,
        description: item.description,
        ordered: item.quantity,
        packed: packed.get(item.sku) ?? 0,
      });
    }
  }
  for (const [sku, quantity] of packed) {
    if (!lines.has(sku)) {
      const upc = order.cartons.flatMap((c) => c.skus).find((s) => s.sku === sku)?.upc ?? null;
      lines.set(sku, { sku, upc, description: null, ordered: 0, packed: quantity });
    }
  }
  return [...lines.values()];
}

export function packingSlipData(order: DocumentOrder): PackingSlipData {
  const { order: row, times } = order.document;
  return {
    orderId: row.id,
    picksheetCode: row.picksheet_code,
    poNumber: row.po_number,
    externalOrderId: row.external_order_id,
    deptNumber: row.dept_number,
    status: row.status,
    brandName: row.brand_name,
    retailerName: row.retailer_name,
    carrier: row.carrier,
    transportationMethod: row.transportation_method,
    packedAt: documentTime(times.packed_at),
    shippedAt: documentTime(times.shipped_at),
    shipFrom: shipFromOf(order.document),
    shipTo: shipToOf(order.document).lines,
    lines: slipLines(order),
    cartons: order.cartons.map((carton, i) => ({
      sequence: i + 1,
      sscc: carton.sscc,
      palletSscc: carton.palletSscc,
      trackingNumber: carton.trackingNumber,
      skus: carton.skus,
    })),
  };
}

/** A visible order's packing slip (PDF); recorded as printed when `record` is set. */
export async function packingSlip(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  record: boolean,
): Promise<{ bytes: Uint8Array; fileName: string }> {
  const order = await loadDocumentOrder(ctx, user, orderId);
  const bytes = await buildPackingSlipPdf(packingSlipData(order), ctx.clock.now());
  if (record) await recordPackingSlipPrint(ctx, user, order.document.order.id);
  const code = order.document.order.picksheet_code.replace(/[^A-Za-z0-9._-]/g, '_');
  return { bytes, fileName: `packing-slip-${code}.pdf` };
}
