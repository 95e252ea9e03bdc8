import { PDFDocument } from 'pdf-lib';
import { MISSING_SHIP_TO } from './label-model';
import { FLOW_WIDTH, PdfFlow, cartonRows } from './pdf-flow';
import { setDocumentInfo, standardFonts } from './pdf-kit';

/** What a packing slip shows (built by the domain from the order; the builder is pure). */
export interface PackingSlipData {
  orderId: string;
  picksheetCode: string;
  poNumber: string | null;
  externalOrderId: string | null;
  deptNumber: string | null;
  status: string;
  brandName: string;
  retailerName: string;
  carrier: string | null;
  transportationMethod: string | null;
  /** As printed: local time with its zone (document-time.ts). */
  packedAt: string | null;
  shippedAt: string | null;
  shipFrom: string[];
  shipTo: string[];
  /** One line per ordered SKU (and one per SKU packed but not ordered, with ordered 0). */
  lines: {
    sku: string;
    upc: string | null;
    description: string | null;
    ordered: number;
    packed: number;
  }[];
  cartons: {
    sequence: number;
    sscc: string | null;
    palletSscc: string | null;
    trackingNumber: string | null;
    skus: { sku: string; quantity: number }[];
  }[];
}

const LINE_COLUMNS = [
  { title: 'SKU', width: 130 },
  { title: 'UPC', width: 100 },
  { title: 'Description', width: 156 },
  { title: 'Ordered', width: 50, align: 'right' as const },
  { title: 'Packed', width: 44, align: 'right' as const },
  { title: 'Short', width: 36, align: 'right' as const },
];
const CARTON_COLUMNS = [
  { title: 'Carton', width: 46 },
  { title: 'SSCC', width: 120 },
  { title: 'Pallet SSCC', width: 120 },
  { title: 'SKU', width: 170 },
  { title: 'Qty', width: 60, align: 'right' as const },
];

/** The packing slip as a Letter PDF; `at` is the document's date. */
export async function buildPackingSlipPdf(data: PackingSlipData, at: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await standardFonts(doc);
  const flow = new PdfFlow(doc, fonts, `Packing slip, PO ${data.poNumber ?? '-'}`);

  flow.text('PACKING SLIP', { size: 18, bold: true });
  flow.gap(4);
  const facts: [string, string | null][] = [
    ['PO number', data.poNumber],
    ['Picksheet', data.picksheetCode],
    ['External order', data.externalOrderId],
    ['Department', data.deptNumber],
    ['Status', data.status],
    ['Brand', data.brandName],
    ['Retailer', data.retailerName],
    ['Carrier', [data.carrier, data.transportationMethod].filter(Boolean).join(', ') || null],
    ['Packed at', data.packedAt],
    ['Shipped at', data.shippedAt],
  ];
  for (const [label, value] of facts) {
    flow.text(`${label}: ${value ?? '-'}`, { size: 9 });
  }
  flow.gap(6);
  // Ship from and ship to side by side.
  const half = FLOW_WIDTH / 2;
  const top = flow.y;
  flow.text('SHIP FROM', { size: 8, bold: true, width: half });
  for (const line of data.shipFrom) flow.text(line, { size: 10, width: half - 10 });
  const leftBottom = flow.y;
  flow.y = top;
  flow.text('SHIP TO', { size: 8, bold: true, x: half });
  for (const line of data.shipTo.length > 0 ? data.shipTo : [MISSING_SHIP_TO]) {
    flow.text(line, { size: 10, x: half });
  }
  flow.y = Math.min(flow.y, leftBottom);
  flow.gap(8);
  flow.rule();

  const totalOrdered = data.lines.reduce((sum, line) => sum + line.ordered, 0);
  const totalPacked = data.lines.reduce((sum, line) => sum + line.packed, 0);
  flow.text(`Lines (${data.lines.length}): ${totalPacked} of ${totalOrdered} units packed`, {
    size: 11,
    bold: true,
  });
  flow.gap(2);
  flow.table(
    LINE_COLUMNS,
    data.lines.map((line) => [
      line.sku,
      line.upc ?? '',
      line.description ?? '',
      String(line.ordered),
      String(line.packed),
      line.packed < line.ordered ? String(line.ordered - line.packed) : '',
    ]),
  );
  flow.gap(10);
  flow.text(`Cartons (${data.cartons.length})`, { size: 11, bold: true });
  flow.gap(2);
  flow.table(
    CARTON_COLUMNS,
    data.cartons.flatMap((carton) =>
      cartonRows(
        [String(carton.sequence), carton.sscc ?? '-', carton.palletSscc ?? '-'],
        carton.skus,
      ),
    ),
  );

  setDocumentInfo(doc, {
    title: `Packing slip, PO ${data.poNumber ?? '-'}`,
    subject: `Order ${data.orderId}, picksheet ${data.picksheetCode}`,
    keywords: [data.orderId, data.picksheetCode, ...(data.poNumber ? [data.poNumber] : [])],
    at,
  });
  return doc.save();
}
