import { afterEach, describe, expect, it, vi } from 'vitest';
import { complianceReportPdf } from '../../src/server/documents/compliance';
import { complianceReportSchema } from '../../src/shared/documents';
import { expectError, expectNoLeak } from '../api/envelope';
import { bolVersionRow } from '../orders/bol-support';
import { TEST_PASSWORD } from '../helpers/service';
import { signedInService } from '../helpers/signed-in';
import { documentsBundle, loadPdf, orderId, pageText, sscc } from './fixtures';

/** Lets a test make the PDF builder fail, to see endpoint 16's failure shape. */
const failure = vi.hoisted(() => ({ message: null as string | null }));
vi.mock('../../src/server/documents/compliance-pdf', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/documents/compliance-pdf')>();
  return {
    ...real,
    buildCompliancePdf: (...args: Parameters<typeof real.buildCompliancePdf>) => {
      if (failure.message) throw new Error(failure.message);
      return real.buildCompliancePdf(...args);
    },
  };
});

const USERS = [
  'admin@a.test',
  'brand1@a.test',
  'charlie1@b.test',
  'brand2@b.test',
  'bravo@a.test',
] as const;
type User = (typeof USERS)[number];

const NOW = new Date('2026-01-20T12:00:00.000Z');

const api = signedInService(USERS, () => {
  const bundle = documentsBundle();
  bundle.users.push({
    email: 'bravo@a.test',
    password: TEST_PASSWORD,
    brand_id: null,
    facility_ids: [bundle.facilities[1]!.id],
    admin: [],
  });
  return { seed: bundle, clock: { now: () => NOW } };
});
afterEach(() => {
  failure.message = null;
});

const report = (user: User, id: string) =>
  api.get(user, `/api/orders/compliance_report/binary/${id}`);

const NOT_FOUND = 'Compliance report not found for this order';

describe('16. GET /api/orders/compliance_report/binary/{order_id}', () => {
  it('answers {filename, mime_type, pdf_content} without an envelope; the PDF holds every verdict', async () => {
    const response = await report('admin@a.test', orderId(1));
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['filename', 'mime_type', 'pdf_content']);
    const parsed = complianceReportSchema.parse(body);
    expect(parsed.filename).toBe('compliance_report_PS-7001.pdf');
    expect(parsed.mime_type).toBe('application/pdf');
    const doc = await loadPdf(Buffer.from(parsed.pdf_content, 'base64'));
    // The verdicts, then the evidence (which runs onto a second page).
    expect(doc.getPageCount()).toBe(2);
    const text = doc.getPages().map(pageText).join('\n');
    expect(text).toContain('COMPLIANCE REPORT');
    expect(text).toContain('PO number: PO-7001');
    // Freight with a BOL number but no uploaded BOL document: that rule fails, the others pass.
    expect(text).toContain('Verdict: NOT COMPLIANT (1 of 7 rules failed)');
    expect(text).toContain(
      'Bill of lading number BOL-7001 is recorded but no BOL document was uploaded',
    );
    expect(text).toContain('Shipped 7 Jan 2026, within the ship window 5 Jan 2026 to 9 Jan 2026');
    expect(text).toContain('All 2 SKUs shipped as ordered (10 units)');
    // The evidence a dispute needs: every pallet and carton by SSCC, with counts and SKUs.
    for (const expected of [
      'Picksheet: PS-7001',
      'Packed at: 6 Jan 2026, 12:00 UTC',
      'Pallets (2)',
      'Cartons (3)',
      sscc(101, 1),
      sscc(102, 1),
      sscc(1),
      sscc(2),
      sscc(3),
      'SKU-A × 6, SKU-B × 2',
      'SKU-B × 2',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain(orderId(1));
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(doc.getSubject()).toBe(
      'Not compliant: Ship-to address complete PASS; Shipped within the ship window PASS; ASN sent before delivery PASS; ' +
        'Every carton and pallet has a valid SSCC PASS; Carton counts match the pallets PASS; ' +
        'Bill of lading present FAIL; Quantities shipped match those ordered PASS',
    );
  });

  it('an uploaded BOL makes the freight order compliant', async () => {
    await api.svc.ctx.db
      .insertInto('order_bol_versions')
      .values(
        bolVersionRow({
          id: '5d000000-0000-4000-8000-000000000001',
          order_id: orderId(1),
          version: 1,
          sha256: 'a'.repeat(64),
          size: 10,
          uploaded_by: 'someone',
          uploaded_at: '2026-01-07T15:00:00.000Z',
          bill_of_lading_number: 'BOL-7001',
        }),
      )
      .execute();
    try {
      const { bytes } = await complianceReportPdf(
        api.svc.ctx,
        await userOf('admin@a.test'),
        orderId(1),
      );
      const text = pageText((await loadPdf(bytes)).getPage(0));
      expect(text).toContain('Verdict: COMPLIANT (no rule failed)');
      expect(text).toContain('Bill of lading uploaded (1 version, number BOL-7001)');
    } finally {
      await api.svc.ctx.db.deleteFrom('order_bol_versions').execute();
    }
  });

  it('a packed order with a bad SSCC: its report says which', async () => {
    const response = await report('brand1@a.test', orderId(3));
    expect(response.statusCode).toBe(200);
    const text = pageText(
      (await loadPdf(Buffer.from(response.json().pdf_content, 'base64'))).getPage(0),
    );
    expect(text).toContain('carton 1: SSCC 006141410000000025 has check digit 5, expected 9');
  });

  it('404 in the envelope: never packed, unknown, malformed id, another tenant (also the same brand at another facility)', async () => {
    expectError(await report('admin@a.test', orderId(2)), 404, 'NOT_FOUND', NOT_FOUND);
    expectError(await report('admin@a.test', orderId(99)), 404, 'NOT_FOUND', NOT_FOUND);
    expectError(await report('admin@a.test', 'not-a-uuid'), 404, 'NOT_FOUND', NOT_FOUND);
    for (const user of ['charlie1@b.test', 'brand2@b.test', 'bravo@a.test'] as const) {
      expectError(await report(user, orderId(1)), 404, 'NOT_FOUND', NOT_FOUND);
    }
    // Order 4 is brand 1's at Charlie: brand1@a.test and charlie1@b.test see it, admin@a.test not.
    expect((await report('charlie1@b.test', orderId(4))).statusCode).toBe(200);
    expectError(await report('admin@a.test', orderId(4)), 404, 'NOT_FOUND', NOT_FOUND);
  });

  it('no token: 401 Authentication failed', async () => {
    const response = await api.svc.app.inject({
      method: 'GET',
      url: `/api/orders/compliance_report/binary/${orderId(1)}`,
    });
    expectError(response, 401, 'UNAUTHORIZED', 'Authentication failed');
  });

  it('an unhandled failure answers {error, order_id}', async () => {
    failure.message = 'disk full';
    const response = await report('admin@a.test', orderId(1));
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      error: 'Failed to generate compliance report: disk full',
      order_id: orderId(1),
    });
    expectNoLeak(response.body);
  });

  it('50 parallel reports all answer the same verdicts', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => report('admin@a.test', orderId(1))),
    );
    const contents = new Set(responses.map((r) => r.json().pdf_content as string));
    for (const response of responses) expect(response.statusCode).toBe(200);
    // Same facts, same clock: the same document every time.
    expect(contents.size).toBe(1);
  });
});

async function userOf(email: User) {
  const row = await api.svc.ctx.db
    .selectFrom('users')
    .select(['id', 'email', 'brand_id'])
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return { id: row.id, email: row.email, brandId: row.brand_id };
}
