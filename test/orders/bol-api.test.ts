/**
 * Endpoint 7 (attach a bill of lading) and its history and download routes, through the API:
 * validation, size limits, file names, tenancy, history, crash safety and parallel uploads.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOL_MAX_FILE_BYTES } from '../../src/shared/orders';
import { documentsDir, sha256Of } from '../../src/server/core/file-store';
import { expectError } from '../api/envelope';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, TEST_PASSWORD, type TestService } from '../helpers/service';
import { get, post, tmpDir } from '../inventory/support';
import { insertTestOrder, makeLargePdf, makePdf, truncated } from './bol-support';

const INVALID = 'Invalid Request - Missing required fields';
const ORDER = id('c', 901); // brand 1 at facility 1 (organisation 1)
const CANCELLED = id('c', 902);
const OTHER_TENANT = id('c', 903); // brand 2 at facility 3 (organisation 2)
const UNKNOWN = id('c', 999);

const bolUrl = (orderId: string) => `/api/documents/bol/${orderId}`;
const historyUrl = (orderId: string) => `/api/v1/orders/${orderId}/bol`;

/** The base bundle plus users whose grants are near the order but do not reach it. */
function bundle() {
  const base = baseBundle();
  base.users.push(
    // Same brand, but only at facility 3 (the other organisation).
    {
      email: 'brand1-elsewhere@a.test',
      password: TEST_PASSWORD,
      brand_id: id('b', 1),
      facility_ids: [id('f', 3)],
      admin: [{ brand_id: id('b', 1), facility_id: id('f', 3) }],
    },
    // The order's facility, but acting for another brand.
    {
      email: 'brand2-here@a.test',
      password: TEST_PASSWORD,
      brand_id: id('b', 2),
      facility_ids: [id('f', 1)],
      admin: [],
    },
  );
  return base;
}

let svc: TestService;
let dataDir: ReturnType<typeof tmpDir>;
let clerk: string;
let pdf: Buffer;

const body = (file: Buffer, extra: Record<string, unknown> = {}) => ({
  file_content: file.toString('base64'),
  file_name: 'BOL-4711.pdf',
  bill_of_lading_number: 'BOL-4711',
  pro_number: 'PRO-123',
  carrier: 'Old Dominion',
  carrier_alpha_code: 'ODFL',
  scheduled_delivery_date: '2026-12-01 14:30:00',
  external_load_number: 'LOAD-9',
  ...extra,
});

const orderRow = (orderId: string) =>
  svc.ctx.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
const versionCount = async (orderId: string) =>
  Number(
    (
      await svc.ctx.db
        .selectFrom('order_bol_versions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('order_id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const uploadLogRows = (orderId: string) =>
  svc.ctx.db
    .selectFrom('transactions')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('action_type', '=', 'UPLOAD_BOL')
    .execute();

/** A fresh order per test that writes, so tests do not see each other's versions. */
let orderCounter = 0;
async function freshOrder() {
  orderCounter += 1;
  const orderId = id('c', 100 + orderCounter);
  await insertTestOrder(svc.ctx.db, {
    id: orderId,
    carrier: 'Carrier From Create',
  });
  return orderId;
}

beforeAll(async () => {
  dataDir = tmpDir('bol-api');
  svc = await createTestService({ seed: bundle(), dataDir: dataDir.path });
  await insertTestOrder(svc.ctx.db, {
    id: ORDER,
  });
  await insertTestOrder(svc.ctx.db, {
    id: CANCELLED,
    status: 'Cancelled',
  });
  await insertTestOrder(svc.ctx.db, {
    id: OTHER_TENANT,
    brandId: id('b', 2),
    retailerId: id('r', 2),
    facilityId: id('f', 3),
  });
  clerk = await svc.login('viewer@a.test');
  pdf = await makePdf('BOL-4711', 2);
});
afterAll(async () => {
  await svc.close();
  dataDir.remove();
});

describe('upload', () => {
  it('stores the PDF under its hash, sets the order facts, logs the upload and lists it', async () => {
    const orderId = await freshOrder();
    const response = await post(svc, clerk, bolUrl(orderId), body(pdf));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'BOL uploaded successfully' });

    const stored = join(documentsDir(dataDir.path), `${sha256Of(pdf)}.pdf`);
    expect(statSync(stored).mode & 0o777).toBe(0o600);
    expect(readdirSync(documentsDir(dataDir.path)).filter((f) => f.startsWith('.tmp'))).toEqual([]);

    expect(await orderRow(orderId)).toMatchObject({
      bill_of_lading_number: 'BOL-4711',
      pro_number: 'PRO-123',
      carrier: 'Old Dominion',
      carrier_alpha_code: 'ODFL',
      external_load_number: 'LOAD-9',
      scheduled_delivery_date: '2026-12-01T14:30:00.000Z',
    });

    const log = await uploadLogRows(orderId);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      action_type_label: 'Upload bill of lading',
      execution_status: 'SUCCESS',
      brand_id: id('b', 1),
      retailer_id: id('r', 1),
      facility_id: id('f', 1),
      request_method: 'POST',
      request_url: bolUrl(orderId),
      response_status: 200,
    });
    // The log names the file by digest; it never holds the PDF.
    expect(JSON.parse(log[0]!.request_payload!)).toMatchObject({
      sha256: sha256Of(pdf),
      size: pdf.length,
      file_name: 'BOL-4711.pdf',
    });
    expect(log[0]!.request_payload).not.toContain('file_content');

    const history = await get(svc, clerk, historyUrl(orderId));
    expect(history.statusCode).toBe(200);
    const [version] = history.json().data;
    expect(version).toMatchObject({
      version: 1,
      file_name: 'BOL-4711.pdf',
      size_bytes: pdf.length,
      page_count: 2,
      sha256: sha256Of(pdf),
      uploaded_by_email: 'viewer@a.test',
      bill_of_lading_number: 'BOL-4711',
      scheduled_delivery_date: '2026-12-01 14:30:00',
    });

    const file = await get(svc, clerk, version.file_url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="BOL-4711.pdf"; filename*=UTF-8''BOL-4711.pdf`,
    );
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('needs only file_content and file_name; omitted facts keep the order values', async () => {
    const orderId = await freshOrder();
    const response = await post(svc, clerk, bolUrl(orderId), {
      file_content: pdf.toString('base64'),
      file_name: 'scan.pdf',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({
      carrier: 'Carrier From Create',
      bill_of_lading_number: null,
    });
  });

  it('accepts a 9.5 MB PDF: the route has its own body limit, above the global 1 MB', async () => {
    const large = await makeLargePdf(9_500_000);
    const response = await post(svc, clerk, bolUrl(await freshOrder()), body(large));
    expect(response.statusCode, response.body).toBe(200);
    // Other routes keep the global limit.
    const inventory = await post(svc, clerk, '/api/v1/inventory/brand', {
      items: [{ sku: 'x'.repeat(2_000_000), available_quantity: 1 }],
    });
    expectError(inventory, 413, 'INVALID_REQUEST', /too large/);
  });
});

describe('refused uploads change nothing', () => {
  const refused = async (payload: unknown, status = 400) => {
    const orderId = await freshOrder();
    const before = await orderRow(orderId);
    const response = await post(svc, clerk, bolUrl(orderId), payload);
    const error = expectError(response, status, 'INVALID_REQUEST');
    expect(await orderRow(orderId)).toEqual(before);
    expect(await versionCount(orderId)).toBe(0);
    expect(await uploadLogRows(orderId)).toEqual([]);
    return error as { message: string; error: { details?: string } };
  };

  it.each([
    ['file_content', { file_content: undefined }],
    ['file_name', { file_name: undefined }],
    ['file_name', { file_name: '   ' }],
    ['file_content', { file_content: '' }],
    ['bill_of_lading_number', { bill_of_lading_number: 42 }],
  ])('a missing or mistyped field names it (%s)', async (field, change) => {
    const error = await refused(body(pdf, change));
    expect(error.message).toBe(INVALID);
    expect(error.error.details).toContain(field);
  });

  it('an empty body', async () => {
    const response = await svc.app.inject({
      method: 'POST',
      url: bolUrl(ORDER),
      headers: { authorization: clerk, 'content-type': 'application/json' },
    });
    expectError(response, 400, 'INVALID_REQUEST', INVALID);
  });

  const base64 = (file: Buffer) => file.toString('base64');
  it.each([
    ['characters outside base64', () => '%%%not-base64%%%'],
    ['base64url characters', (file: Buffer) => file.toString('base64url')],
    ['line breaks (MIME style)', (file: Buffer) => base64(file).replace(/(.{76})/g, '$1\n')],
    ['missing padding', (file: Buffer) => `${base64(file).replace(/=+$/, '')}A`],
    ['a data URL', (file: Buffer) => `data:application/pdf;base64,${base64(file)}`],
  ])('bad base64: %s', async (_label, encode) => {
    const error = await refused(body(pdf, { file_content: encode(pdf) }));
    expect(error.message).toBe(INVALID);
    expect(error.error.details).toMatch(/base64/);
  });

  it('a file that is not a PDF', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const error = await refused(body(png));
    expect(error.error.details).toMatch(/not a PDF/);
  });

  it('a truncated PDF', async () => {
    const error = await refused(body(truncated(pdf)));
    expect(error.error.details).toMatch(/truncated/);
  });

  it('a PDF header with garbage after it', async () => {
    const error = await refused(body(Buffer.from('%PDF-1.7\nnot really a pdf\n%%EOF\n')));
    expect(error.error.details).toBe(
      'file_content is not a readable PDF (its structure is damaged)',
    );
  });

  it('a file over 10 MB once decoded: 413, though the body fits the route limit', async () => {
    const oversized = Buffer.alloc(BOL_MAX_FILE_BYTES + 1, 0x20);
    oversized.write('%PDF-1.7\n');
    const error = await refused(body(oversized), 413);
    expect(error.message).toBe(INVALID);
    expect(error.error.details).toMatch(/larger than 10485760 bytes/);
  });

  it('a body over the route limit: 413 before it is read', async () => {
    const response = await post(
      svc,
      clerk,
      bolUrl(ORDER),
      body(Buffer.alloc(11 * 1024 * 1024, 0x20)),
    );
    expectError(response, 413, 'INVALID_REQUEST', /too large/);
  });

  it.each([
    '2026-02-30 10:00:00',
    '2026-12-01T14:30:00',
    '2026-12-01 24:00:00',
    '2026-12-01 14:30',
    '2026-12-01 14:30:00Z',
    '01/12/2026 14:30:00',
  ])('scheduled_delivery_date %j', async (value) => {
    const error = await refused(body(pdf, { scheduled_delivery_date: value }));
    expect(error.message).toBe(INVALID);
    expect(error.error.details).toContain('scheduled_delivery_date');
  });

  it('a Cancelled order: 409', async () => {
    const response = await post(svc, clerk, bolUrl(CANCELLED), body(pdf));
    const error = expectError(
      response,
      409,
      'INVALID_REQUEST',
      'A bill of lading cannot be attached to a Cancelled order',
    ).error as { details?: unknown };
    expect(error.details).toBe('The order is Cancelled');
    expect(await versionCount(CANCELLED)).toBe(0);
  });

  it('a malformed order id', async () => {
    expectError(await post(svc, clerk, bolUrl('not-a-uuid'), body(pdf)), 400, 'INVALID_REQUEST');
    expectError(await get(svc, clerk, historyUrl('not-a-uuid')), 400, 'INVALID_REQUEST');
  });
});

describe('file names', () => {
  it('keeps only the last part of a path-like name and writes nothing outside the store', async () => {
    const orderId = await freshOrder();
    const response = await post(
      svc,
      clerk,
      bolUrl(orderId),
      body(pdf, { file_name: '../../../etc/cron.d/evil\u0000.sh' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const [version] = (await get(svc, clerk, historyUrl(orderId))).json().data;
    expect(version.file_name).toBe('evil.sh.pdf');
    const file = await get(svc, clerk, version.file_url);
    expect(file.headers['content-disposition']).toContain('filename="evil.sh.pdf"');
    // Only the database, its companions and the store are in the data dir.
    expect(readdirSync(dataDir.path).filter((name) => !name.startsWith('app.sqlite'))).toEqual([
      'documents',
    ]);
    expect(existsSync(join(dataDir.path, '..', 'etc'))).toBe(false);
  });
});

describe('tenancy: another tenant’s order answers like an unknown one', () => {
  it.each([
    ['brand1-elsewhere@a.test', ORDER, 'same brand, facility in another organisation'],
    ['brand2-here@a.test', ORDER, 'same facility, another brand'],
    ['admin@a.test', OTHER_TENANT, 'another organisation'],
    ['viewer@a.test', UNKNOWN, 'unknown id'],
  ])('%s on %s (%s)', async (email, orderId) => {
    const bearer = await svc.login(email);
    const before = await orderRow(ORDER);
    expectError(
      await post(svc, bearer, bolUrl(orderId), body(pdf)),
      404,
      'NOT_FOUND',
      'Order not found',
    );
    expectError(await get(svc, bearer, historyUrl(orderId)), 404, 'NOT_FOUND', 'Order not found');
    expectError(
      await get(svc, bearer, `${historyUrl(orderId)}/${id('c', 1)}/file`),
      404,
      'NOT_FOUND',
      'Order not found',
    );
    expect(await orderRow(ORDER)).toEqual(before);
  });

  it('a version id of another order is not found on this one', async () => {
    const first = await freshOrder();
    const second = await freshOrder();
    await post(svc, clerk, bolUrl(first), body(pdf));
    const [version] = (await get(svc, clerk, historyUrl(first))).json().data;
    expectError(
      await get(svc, clerk, `${historyUrl(second)}/${version.version_id}/file`),
      404,
      'NOT_FOUND',
      'BOL version not found',
    );
  });

  it('needs a token', async () => {
    const response = await svc.app.inject({
      method: 'POST',
      url: bolUrl(ORDER),
      payload: body(pdf),
    });
    expectError(response, 401, 'UNAUTHORIZED');
  });
});

describe('history', () => {
  it('a re-upload adds a version; every version downloads its own PDF, newest first', async () => {
    const orderId = await freshOrder();
    const second = await makePdf('corrected BOL', 1);
    expect((await post(svc, clerk, bolUrl(orderId), body(pdf))).statusCode).toBe(200);
    const again = await post(
      svc,
      clerk,
      bolUrl(orderId),
      body(second, {
        file_name: 'BOL-4711-corrected.pdf',
        pro_number: 'PRO-456',
        carrier: undefined,
      }),
    );
    expect(again.statusCode, again.body).toBe(200);

    const versions = (await get(svc, clerk, historyUrl(orderId))).json().data;
    expect(versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(versions.map((v: { file_name: string }) => v.file_name)).toEqual([
      'BOL-4711-corrected.pdf',
      'BOL-4711.pdf',
    ]);
    const files = await Promise.all(
      versions.map((v: { file_url: string }) => get(svc, clerk, v.file_url)),
    );
    expect(files[0]!.rawPayload.equals(second)).toBe(true);
    expect(files[1]!.rawPayload.equals(pdf)).toBe(true);
    // The order carries the newest facts; a fact the re-upload left out keeps its value.
    expect(await orderRow(orderId)).toMatchObject({
      pro_number: 'PRO-456',
      carrier: 'Old Dominion',
    });
    expect(await uploadLogRows(orderId)).toHaveLength(2);
  });

  it('50 parallel uploads to one order are all recorded, numbered 1 to 50', async () => {
    const orderId = await freshOrder();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post(
          svc,
          clerk,
          bolUrl(orderId),
          body(pdf, { bill_of_lading_number: `BOL-${i}`, file_name: `bol-${i}.pdf` }),
        ),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const versions = (await get(svc, clerk, historyUrl(orderId))).json().data as {
      version: number;
      bill_of_lading_number: string;
    }[];
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => 50 - i));
    expect(new Set(versions.map((v) => v.bill_of_lading_number)).size).toBe(50);
    expect(await uploadLogRows(orderId)).toHaveLength(50);
    // The order shows the facts of the upload that committed last.
    expect((await orderRow(orderId)).bill_of_lading_number).toBe(
      versions[0]!.bill_of_lading_number,
    );
  });
});

describe('crash safety', () => {
  it('a failure after the file is written and before the commit leaves no half state', async () => {
    const orderId = await freshOrder();
    const before = await orderRow(orderId);
    const unique = await makePdf('crash test');
    const file = join(documentsDir(dataDir.path), `${sha256Of(unique)}.pdf`);
    // The last statement of the upload's transaction fails, as a crash before COMMIT would.
    await sql`CREATE TEMP TRIGGER bol_crash BEFORE INSERT ON transactions
      WHEN NEW.action_type = 'UPLOAD_BOL'
      BEGIN SELECT RAISE(ABORT, 'simulated crash'); END`.execute(svc.ctx.db);
    try {
      const response = await post(svc, clerk, bolUrl(orderId), body(unique));
      expectError(response, 500, 'INTERNAL_SERVER_ERROR', 'Failed to upload BOL');
    } finally {
      await sql`DROP TRIGGER bol_crash`.execute(svc.ctx.db);
    }
    // The file is there (content-addressed, referenced by nothing); the order is untouched.
    expect(existsSync(file)).toBe(true);
    expect(await orderRow(orderId)).toEqual(before);
    expect(await versionCount(orderId)).toBe(0);
    expect(await uploadLogRows(orderId)).toEqual([]);
    expect((await get(svc, clerk, historyUrl(orderId))).json().data).toEqual([]);

    // The retry succeeds and uses the same file.
    const retry = await post(svc, clerk, bolUrl(orderId), body(unique));
    expect(retry.statusCode, retry.body).toBe(200);
    const [version] = (await get(svc, clerk, historyUrl(orderId))).json().data;
    expect(version).toMatchObject({ version: 1, sha256: sha256Of(unique) });
  });
});

describe('OpenAPI', () => {
  it('describes the upload, the history and the download', async () => {
    const doc = (await svc.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const upload = doc.paths['/api/documents/bol/{order_id}'].post;
    expect(upload.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['file_content', 'file_name']),
    );
    expect(Object.keys(upload.responses)).toEqual(
      expect.arrayContaining(['200', '400', '404', '413', '500']),
    );
    expect(doc.paths['/api/v1/orders/{order_id}/bol'].get).toBeDefined();
    expect(doc.paths['/api/v1/orders/{order_id}/bol/{version_id}/file'].get).toBeDefined();
  });
});
