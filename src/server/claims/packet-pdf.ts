import { PDFDocument } from 'pdf-lib';
import type { OrderDocument } from '../orders';
import { PdfFlow } from '../documents';
import { setDocumentInfo, standardFonts } from '../documents';
import type { Chargeback } from '../../shared/claims';

const money = (dollars: number) => `$${dollars.toFixed(2)}`;
const orDash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : String(value);

/** The first page of a dispute packet: the chargeback, and what the packet holds. */
export async function buildCoverPdf(
  chargeback: Chargeback,
  brandName: string,
  contents: readonly string[],
  at: Date,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  setDocumentInfo(doc, {
    title: `Dispute packet: chargeback ${chargeback.chargeback_id}`,
    subject: 'Chargeback dispute packet',
    keywords: ['chargeback', 'dispute', chargeback.chargeback_id, chargeback.po_number],
    at,
  });
  const flow = new PdfFlow(doc, await standardFonts(doc), `Chargeback ${chargeback.chargeback_id}`);
  flow.text('Chargeback dispute packet', { size: 18, bold: true });
  flow.gap(8);
  const facts: [string, string][] = [
    ['Brand', brandName],
    ['Retailer', chargeback.retailer],
    ['Chargeback number', chargeback.chargeback_id],
    ['PO number', orDash(chargeback.po_number)],
    ['Amount', money(chargeback.amount)],
    ['Amount won back', money(chargeback.amount_won_back)],
    ['Retailer chargeback code', orDash(chargeback.retailer_chargeback_code)],
    ['Category', orDash(chargeback.category)],
    ['Chargeback date', chargeback.chargeback_date],
    ['Dispute deadline', orDash(chargeback.dispute_deadline)],
    ['Dispute status', chargeback.dispute_status],
    ['Uploaded at', chargeback.uploaded_at],
  ];
  flow.table(
    [
      { title: 'Field', width: 170 },
      { title: 'Value', width: 346 },
    ],
    facts,
  );
  if (chargeback.description) {
    flow.gap(10);
    flow.text('Description', { bold: true });
    flow.paragraph(chargeback.description);
  }
  flow.gap(10);
  flow.text('Matched orders', { bold: true });
  if (chargeback.matched_orders.length === 0) {
    flow.text('No order with this PO number was found for this brand and retailer.');
  } else {
    flow.table(
      [
        { title: 'Picksheet code', width: 200 },
        { title: 'Order id', width: 316 },
      ],
      chargeback.matched_orders.map((order) => [order.picksheet_code, order.order_id]),
    );
  }
  flow.gap(10);
  flow.text('Contents of this packet', { bold: true });
  for (const line of contents) flow.paragraph(line, { x: 10 });
  return doc.save();
}

/** Every pallet and carton of an order with their SSCCs, measures and SKU lines. */
export async function buildCartonPalletPdf(order: OrderDocument, at: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const { order: row } = order;
  setDocumentInfo(doc, {
    title: `Cartons and pallets: ${row.picksheet_code}`,
    subject: 'Carton and pallet details',
    keywords: ['cartons', 'pallets', row.picksheet_code, row.po_number ?? ''],
    at,
  });
  const flow = new PdfFlow(doc, await standardFonts(doc), `Order ${row.picksheet_code}`);
  flow.text(`Cartons and pallets of order ${row.picksheet_code}`, { size: 16, bold: true });
  flow.text(
    `PO ${orDash(row.po_number)} | ${row.brand_name} | ${row.retailer_name} | ${row.facility_name} (${row.external_facility_code}) | ${row.status}`,
    { size: 9 },
  );
  flow.gap(6);
  const measure = (m: {
    length: number | null;
    width: number | null;
    height: number | null;
    dim_unit: string | null;
    weight: number | null;
    weight_unit: string | null;
  }) => {
    const dims =
      m.length !== null && m.width !== null && m.height !== null
        ? `${m.length} x ${m.width} x ${m.height} ${m.dim_unit ?? ''}`.trim()
        : '-';
    const weight = m.weight !== null ? `${m.weight} ${m.weight_unit ?? ''}`.trim() : '-';
    return [dims, weight];
  };
  if (order.pallets.length === 0) flow.text('No pallets have been built for this order.');
  for (const [index, pallet] of order.pallets.entries()) {
    flow.gap(6);
    flow.text(`Pallet ${index + 1}: SSCC ${orDash(pallet.sscc)}`, { bold: true });
    const [dims, weight] = measure(pallet);
    flow.text(
      `Status ${pallet.status} | ${pallet.cartons.length} cartons | ${dims} | ${weight} | staged ${orDash(pallet.staged_at)}`,
      { size: 9 },
    );
    const rows: string[][] = [];
    for (const carton of pallet.cartons) {
      const [cartonDims, cartonWeight] = measure(carton);
      const skus = carton.skus.length === 0 ? [null] : carton.skus;
      for (const [line, sku] of skus.entries()) {
        rows.push([
          line === 0 ? orDash(carton.sscc) : '',
          line === 0 ? `${cartonDims} / ${cartonWeight}` : '',
          sku ? sku.sku : '-',
          sku ? String(sku.quantity) : '',
          sku ? sku.serial_numbers.join(', ') : '',
        ]);
      }
    }
    if (rows.length > 0) {
      flow.table(
        [
          { title: 'Carton SSCC', width: 120 },
          { title: 'Dimensions / weight', width: 130 },
          { title: 'SKU', width: 110 },
          { title: 'Qty', width: 40, align: 'right' },
          { title: 'Serial numbers', width: 116 },
        ],
        rows,
        8,
      );
    }
  }
  return doc.save();
}
