/** Seeded orders for the document tests: labels, packing slip, printer, compliance report. */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream, type PDFPage } from 'pdf-lib';
import { gs1CheckDigit } from '../../src/server/documents/sscc-check';
import { id, ordersBundle } from '../helpers/fixtures';

export const orderId = (n: number) => `0d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const palletId = (n: number) => `1d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
export const cartonId = (n: number) => `2d000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A valid SSCC-18 with serial `n` (extension 0, company prefix 0614141). */
export function sscc(n: number, extension = 0): string {
  const body = `${extension}0614141${String(n).padStart(9, '0')}`;
  return `${body}${gs1CheckDigit(body)}`;
}

const carton = (n: number, skus: { sku: string; quantity: number }[]) => ({
  id: cartonId(n),
  sscc: sscc(n),
  created_at: `2026-01-06T10:${String(n).padStart(2, '0')}:00.000Z`,
  skus,
});

/**
 * Order 1: brand 1 at Alpha (facility 1), FREIGHT, Shipped inside its window with the ASN before
 * delivery; pallet 1 holds cartons 1 and 2, pallet 2 carton 3; quantities as ordered.
 */
export function freightOrder(overrides: Record<string, unknown> = {}) {
  return {
    id: orderId(1),
    status: 'Shipped',
    po_number: 'PO-7001',
    picksheet_code: 'PS-7001',
    external_order_id: 'EXT-7001',
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    transportation_method: 'FREIGHT',
    carrier: 'XPO Logistics',
    dept_number: '42',
    bill_of_lading_number: 'BOL-7001',
    pro_number: 'PRO-7001',
    address_data: {
      ship_to_contact: {
        name: 'Retailer DC 7',
        address_line1: '1 Dock Road',
        city: 'Reno',
        province: 'NV',
        zip: '89501',
        country: 'US',
        dc_number: '0007',
      },
    },
    dates: {
      earliest_ship_date: '2026-01-05',
      latest_ship_date: '2026-01-09',
      requested_delivery_date: '2026-01-12',
    },
    items: [
      { sku: 'SKU-A', upc: '000000000011', quantity: 6 },
      { sku: 'SKU-B', quantity: 4 },
    ],
    created_at: '2026-01-05T10:00:00.000Z',
    packed_at: '2026-01-06T12:00:00.000Z',
    shipped_at: '2026-01-07T16:00:00.000Z',
    asn_sent_at: '2026-01-07T16:05:00.000Z',
    pallets: [
      {
        id: palletId(1),
        sscc: sscc(101, 1),
        status: 'Loaded',
        created_at: '2026-01-06T11:00:00.000Z',
        cartons: [
          carton(1, [
            { sku: 'SKU-A', quantity: 4 },
            { sku: 'SKU-B', quantity: 2 },
          ]),
          carton(2, [{ sku: 'SKU-A', quantity: 2 }]),
        ],
      },
      {
        id: palletId(2),
        sscc: sscc(102, 1),
        status: 'Loaded',
        created_at: '2026-01-06T11:30:00.000Z',
        cartons: [carton(3, [{ sku: 'SKU-B', quantity: 2 }])],
      },
    ],
    ...overrides,
  };
}

/**
 * The orders bundle (admin@a.test: facilities 1-2; brand1@a.test; charlie1@b.test: brand 1 at
 * Charlie only; viewer@a.test: no admin grant) plus:
 * 1 the freight order above; 2 an Open order (never packed); 3 Packed with a bad SSCC on
 * carton 21; 4 brand 1 at Charlie (another organisation); 5 PARCEL, Packed, no pallets (its
 * loose cartons are written by the test).
 */
export function documentsBundle() {
  const bundle = ordersBundle();
  const base = (n: number, more: Record<string, unknown>) => ({
    id: orderId(n),
    status: 'Open',
    po_number: `PO-70${String(n).padStart(2, '0')}`,
    picksheet_code: `PS-70${String(n).padStart(2, '0')}`,
    brand_id: id('b', 1),
    retailer_id: id('r', 1),
    facility_id: id('f', 1),
    items: [{ sku: 'SKU-A', quantity: 2 }],
    created_at: '2026-01-05T10:00:00.000Z',
    ...more,
  });
  return {
    ...bundle,
    orders: [
      freightOrder(),
      base(2, {}),
      base(3, {
        status: 'Packed',
        packed_at: '2026-01-06T12:00:00.000Z',
        pallets: [
          {
            id: palletId(21),
            sscc: sscc(121, 1),
            status: 'Open',
            created_at: '2026-01-06T11:00:00.000Z',
            cartons: [
              { ...carton(21, [{ sku: 'SKU-A', quantity: 2 }]), sscc: '006141410000000025' },
            ],
          },
        ],
      }),
      base(4, {
        facility_id: id('f', 3),
        status: 'Packed',
        packed_at: '2026-01-06T12:00:00.000Z',
      }),
      base(5, {
        status: 'Packed',
        transportation_method: 'PARCEL',
        carrier: 'UPS',
        packed_at: '2026-01-06T12:00:00.000Z',
      }),
    ],
  };
}

/** The text drawn on a page: the strings of its text-showing operators, decoded (WinAnsi). */
export function pageText(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams =
    contents instanceof PDFArray
      ? contents.asArray().map((ref) => page.doc.context.lookup(ref))
      : [contents];
  let text = '';
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const source = Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1');
    for (const match of source.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) {
      text += `${Buffer.from(match[1]!, 'hex').toString('latin1')}\n`;
    }
  }
  return text;
}

/** The page's content stream operators, decoded. */
export function pageOperators(page: PDFPage): string {
  const contents = page.node.Contents();
  const streams =
    contents instanceof PDFArray
      ? contents.asArray().map((ref) => page.doc.context.lookup(ref))
      : [contents];
  return streams
    .filter((s): s is PDFRawStream => s instanceof PDFRawStream)
    .map((s) => Buffer.from(decodePDFRawStream(s).decode()).toString('latin1'))
    .join('\n');
}

export const loadPdf = (bytes: Uint8Array | Buffer) =>
  PDFDocument.load(bytes, { updateMetadata: false });
