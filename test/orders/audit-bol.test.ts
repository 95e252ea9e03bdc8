/**
 * Audit of issue 7 against endpoint 7: choices the BOL tests did not pin down yet (which statuses
 * take a bill of lading, how its facts read in Order details, what a refused upload logs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailsSchema } from '../../src/shared/orders';
import { expectError } from '../api/envelope';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { get, post, tmpDir } from '../inventory/support';
import { insertTestOrder, makePdf } from './bol-support';

let svc: TestService;
let dataDir: ReturnType<typeof tmpDir>;
let clerk: string;
let pdf: Buffer;
let counter = 0;

async function orderIn(status: 'Open' | 'Packed' | 'Loaded' | 'Shipped') {
  counter += 1;
  const orderId = id('c', 700 + counter);
  await insertTestOrder(svc.ctx.db, {
    id: orderId,
    status,
  });
  return orderId;
}

const upload = (orderId: string, extra: Record<string, unknown> = {}) =>
  post(svc, clerk, `/api/documents/bol/${orderId}`, {
    file_content: pdf.toString('base64'),
    file_name: 'bol.pdf',
    ...extra,
  });

const logCount = async () =>
  Number(
    (
      await svc.ctx.db
        .selectFrom('transactions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  dataDir = tmpDir('bol-audit');
  svc = await createTestService({ seed: baseBundle(), dataDir: dataDir.path });
  clerk = await svc.login('viewer@a.test');
  pdf = await makePdf('audit BOL');
});
afterAll(async () => {
  await svc.close();
  dataDir.remove();
});

describe('7. which orders take a bill of lading', () => {
  it.each(['Open', 'Packed', 'Loaded', 'Shipped'] as const)(
    'a %s order takes one (only Cancelled is refused)',
    async (status) => {
      const response = await upload(await orderIn(status));
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ message: 'BOL uploaded successfully' });
    },
  );
});

describe('7 and 8. the facts of an upload in Order details', () => {
  it('scheduled delivery reads as ISO 8601 UTC; the numbers and carrier as given', async () => {
    const orderId = await orderIn('Loaded');
    const response = await upload(orderId, {
      bill_of_lading_number: 'BOL-A1',
      pro_number: 'PRO-A1',
      carrier: 'Estes',
      carrier_alpha_code: 'EXLA',
      external_load_number: 'LOAD-A1',
      scheduled_delivery_date: '2026-12-03 07:15:00',
    });
    expect(response.statusCode, response.body).toBe(200);
    const details = await get(svc, clerk, `/api/v1/orders/${orderId}`);
    expect(details.statusCode, details.body).toBe(200);
    const data = orderDetailsSchema.parse(details.json().data);
    expect(data.scheduled_delivery_date).toBe('2026-12-03T07:15:00.000Z');
    expect(data.identifiers).toMatchObject({
      bill_of_lading_number: 'BOL-A1',
      pro_number: 'PRO-A1',
      carrier: 'Estes',
      carrier_alpha_code: 'EXLA',
      external_load_number: 'LOAD-A1',
    });
  });
});

describe('7. a refused upload', () => {
  it('writes no transaction-log row (only stored uploads are logged, as UPLOAD_BOL)', async () => {
    const orderId = await orderIn('Open');
    const before = await logCount();
    expectError(
      await upload(orderId, { file_content: Buffer.from('not a pdf').toString('base64') }),
      400,
      'INVALID_REQUEST',
      'Invalid Request - Missing required fields',
    );
    expectError(await upload(id('c', 999)), 404, 'NOT_FOUND', 'Order not found');
    expect(await logCount()).toBe(before);
    expect((await upload(orderId)).statusCode).toBe(200);
    expect(await logCount()).toBe(before + 1);
  });
});
