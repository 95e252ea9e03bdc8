/** PDFs for the bill-of-lading tests, made with pdf-lib. */
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import type { Db } from '../../src/server/db/db';
import { id } from '../helpers/fixtures';
import { insertOrder } from '../../src/server/orders/queries';
import type { OrderBolVersionsTable, OrderStatusValue } from '../../src/server/db/schema';

/**
 * A small real PDF with `pages` pages; `label` changes its bytes (and so its digest). With
 * `attachment`, those bytes are embedded as a file: a PDF of about the size a test needs.
 */
export async function makePdf(label = 'BOL 1', pages = 1, attachment?: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++)
    doc.addPage([300, 200]).drawText(`${label} p${i + 1}`, { x: 20, y: 100 });
  if (attachment)
    await doc.attach(attachment, 'scan.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** The first `fraction` of a PDF's bytes: what an interrupted copy leaves. */
export const truncated = (pdf: Buffer, fraction = 0.6) =>
  pdf.subarray(0, Math.floor(pdf.length * fraction));

/** A PDF whose body is cut short but whose tail (xref, trailer, %%EOF) is still there. */
export function hollowed(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const xref = text.lastIndexOf('xref');
  return Buffer.concat([pdf.subarray(0, Math.floor(xref / 2)), pdf.subarray(xref)]);
}

/** A well-formed PDF whose object stream inflates to `inflatedBytes` (a deflate bomb). */
export function deflateBomb(inflatedBytes: number): Buffer {
  const deflated = deflateSync(Buffer.alloc(inflatedBytes, 0x20), { level: 9 });
  const head =
    '%PDF-1.5\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
    '2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
    `3 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${deflated.length} >>\nstream\n`;
  return Buffer.concat([
    Buffer.from(head, 'latin1'),
    deflated,
    Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1'),
  ]);
}

/** An order_bol_versions row for a file stored under `sha256`; the BOL's own fields empty unless given. */
export const bolVersionRow = (
  row: Pick<OrderBolVersionsTable, 'id' | 'order_id' | 'version' | 'sha256' | 'size'> &
    Partial<OrderBolVersionsTable>,
): OrderBolVersionsTable => ({
  file_name: 'bol.pdf',
  page_count: 1,
  uploaded_by: 'u',
  uploaded_at: '2026-11-24T10:00:00.000Z',
  bill_of_lading_number: null,
  pro_number: null,
  carrier: null,
  carrier_alpha_code: null,
  scheduled_delivery_date: null,
  external_load_number: null,
  ...row,
});

/**
 * Inserts an order straight into the database (the create endpoint has its own tests): brand 1's,
 * for retailer 1, at facility 1 (Alpha) unless said.
 */
export async function insertTestOrder(
  db: Db,
  order: {
    id: string;
    brandId?: string;
    retailerId?: string;
    facilityId?: string;
    status?: OrderStatusValue;
    carrier?: string | null;
  },
): Promise<void> {
  const at = new Date().toISOString();
  await insertOrder(
    db,
    {
      id: order.id,
      brand_id: order.brandId ?? id('b', 1),
      retailer_id: order.retailerId ?? id('r', 1),
      facility_id: order.facilityId ?? id('f', 1),
      picksheet_code: `PS-${order.id.slice(-6)}`,
      po_number: `PO-${order.id.slice(-6)}`,
      carrier: order.carrier ?? null,
      status: order.status ?? 'Open',
      created_at: at,
      updated_at: at,
    },
    [{ id: crypto.randomUUID(), line_number: 0, sku: 'SKU-1', quantity: 5 }],
  );
}

/** A real PDF of about `bytes` bytes: one page plus an embedded file of random bytes. */
export async function makeLargePdf(bytes: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([300, 200]).drawText('large BOL', { x: 20, y: 100 });
  await doc.attach(randomBytes(bytes), 'padding.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
