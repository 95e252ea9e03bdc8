import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../api/envelope';
import { id } from '../helpers/fixtures';
import { makePdf } from '../orders/bol-support';
import { orderId } from '../orders/read-fixtures';
import { chargebackUuid, startClaimsService, type ClaimsService, type ClaimUser } from './fixtures';

let claims: ClaimsService;
let dataDir: string;
const bols: Buffer[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'claims-packet-'));
  claims = await startClaimsService({ dataDir });
  // Two versions of order 1's bill of lading.
  for (const label of ['BOL first', 'BOL second']) {
    const pdf = await makePdf(label);
    bols.push(pdf);
    const response = await claims.svc.app.inject({
      method: 'POST',
      url: `/api/documents/bol/${orderId(1)}`,
      headers: { authorization: claims.tokens['admin@a.test'] },
      payload: {
        file_content: pdf.toString('base64'),
        file_name: `${label}.pdf`,
        bill_of_lading_number: 'BOL-1',
        pro_number: 'PRO-1',
        carrier: 'XPO Logistics',
        carrier_alpha_code: 'XPOL',
        scheduled_delivery_date: '2026-03-20 10:00:00',
        external_load_number: 'LD-1',
      },
    });
    expect(response.statusCode, response.body).toBe(200);
  }
});
afterAll(async () => {
  await claims?.svc.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const packet = (user: ClaimUser, chargeback: string) =>
  claims.svc.app.inject({
    method: 'GET',
    url: `/api/v1/chargebacks/${chargeback}/dispute-packet`,
    headers: { authorization: claims.tokens[user] },
  });

async function unzipped(user: ClaimUser, chargeback: string) {
  const response = await packet(user, chargeback);
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  expect(response.headers['content-type']).toBe('application/zip');
  return { response, files: unzipSync(new Uint8Array(response.rawPayload)) };
}

describe('GET /api/v1/chargebacks/{id}/dispute-packet', () => {
  it('zips a cover, every BOL version byte for byte, the compliance report and the cartons and pallets', async () => {
    const { response, files } = await unzipped('brand1@a.test', chargebackUuid(1));
    expect(response.headers['content-disposition']).toContain('dispute-packet-CB-101.zip');
    const names = Object.keys(files);
    expect(names[0]).toBe('cover.pdf');
    expect(names.slice(1).sort()).toEqual(
      [
        'orders/PS-1001/bol-v1-BOL_first.pdf',
        'orders/PS-1001/bol-v2-BOL_second.pdf',
        'orders/PS-1001/compliance_report_PS-1001.pdf',
        'orders/PS-1001/cartons-and-pallets.pdf',
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
    expect(Buffer.from(files['orders/PS-1001/bol-v1-BOL_first.pdf']!).equals(bols[0]!)).toBe(true);
    expect(Buffer.from(files['orders/PS-1001/bol-v2-BOL_second.pdf']!).equals(bols[1]!)).toBe(true);
    for (const [name, bytes] of Object.entries(files)) {
      const doc = await PDFDocument.load(bytes);
      expect(doc.getPageCount(), name).toBeGreaterThan(0);
    }
    const cover = await PDFDocument.load(files['cover.pdf']!);
    expect(cover.getTitle()).toBe('Dispute packet: chargeback CB-101');
  });

  it('an order never packed has no compliance report; its other evidence is still there', async () => {
    const { files } = await unzipped('brand1@a.test', chargebackUuid(4));
    expect(Object.keys(files)).toEqual(['cover.pdf', 'orders/PS-1003/cartons-and-pallets.pdf']);
  });

  it('a chargeback without matched orders gets the cover alone, whatever script its text is in', async () => {
    await claims.svc.ctx.db
      .updateTable('chargebacks')
      .set({ description: '出荷遅延 🚚 Café, Łódź' })
      .where('id', '=', chargebackUuid(5))
      .execute();
    const { files } = await unzipped('brand1@a.test', chargebackUuid(5));
    expect(Object.keys(files)).toEqual(['cover.pdf']);
    expect((await PDFDocument.load(files['cover.pdf']!)).getPageCount()).toBe(1);
  });

  it('only the orders the user sees go in', async () => {
    // Brand 1 at Charlie DC only: order 1 (Alpha DC) is not visible.
    const { files } = await unzipped('charlie1@b.test', chargebackUuid(1));
    expect(Object.keys(files)).toEqual(['cover.pdf']);
  });

  it("another brand's order with the same retailer and PO stays out, though the user sees it", async () => {
    // Chargeback 2 (brand 1, PO-1002) moved to retailer 2: order 2 is brand 2's PO-1002 there,
    // at Alpha DC, which admin@a.test sees.
    await claims.svc.ctx.db
      .updateTable('chargebacks')
      .set({ retailer_id: id('r', 2) })
      .where('id', '=', chargebackUuid(2))
      .execute();
    expect(Object.keys((await unzipped('admin@a.test', chargebackUuid(2))).files)).toEqual([
      'cover.pdf',
    ]);
    // Brand 2's own chargeback 6 does match it, for admin (Alpha DC) but not for brand 2's
    // credentials at Charlie DC only (another organisation of the same brand).
    const admin = Object.keys((await unzipped('admin@a.test', chargebackUuid(6))).files);
    expect(admin.some((name) => name.startsWith('orders/PS-1002/'))).toBe(true);
    expect(Object.keys((await unzipped('brand2@b.test', chargebackUuid(6))).files)).toEqual([
      'cover.pdf',
    ]);
  });

  it("404 Chargeback not found for another brand's chargeback and unknown ids; 400 for a malformed id", async () => {
    expectError(
      await packet('brand2@b.test', chargebackUuid(1)),
      404,
      'NOT_FOUND',
      'Chargeback not found',
    );
    expectError(
      await packet('bravo@a.test', chargebackUuid(1)),
      404,
      'NOT_FOUND',
      'Chargeback not found',
    );
    expectError(
      await packet('admin@a.test', '3c000000-0000-4000-8000-000000000099'),
      404,
      'NOT_FOUND',
      'Chargeback not found',
    );
    expectError(
      await packet('admin@a.test', 'nope'),
      400,
      'INVALID_REQUEST',
      'Invalid chargeback ID format',
    );
  });
});
