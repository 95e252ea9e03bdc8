/**
 * BOL uploads under 50 parallel requests on both engines (test/orders/bol-api runs them on
 * SQLite): the versions of one order are numbered 1 to 50 without gaps or repeats, one log row
 * each, and the order keeps the facts of the version numbered last.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { baseBundle, id } from '../helpers/fixtures';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { get, post, tmpDir } from '../inventory/support';
import { insertTestOrder, makePdf } from '../orders/bol-support';

const N = 50;
const ORDER = id('c', 901);

describeEngines('BOL uploads under 50 parallel requests', (engine) => {
  let svc: TestService;
  let dataDir: ReturnType<typeof tmpDir>;
  let clerk: string;

  beforeAll(async () => {
    dataDir = tmpDir('races-bol');
    svc = await createTestService({ engine, seed: baseBundle(), dataDir: dataDir.path });
    await insertTestOrder(svc.ctx.db, {
      id: ORDER,
    });
    clerk = await svc.login('viewer@a.test');
  });
  afterAll(async () => {
    await svc?.close();
    dataDir?.remove();
  });

  it('50 uploads to one order at once: versions 1 to 50, 50 log rows, the last one’s facts', async () => {
    const pdfs = await Promise.all(Array.from({ length: N }, (_, i) => makePdf(`BOL-${i}`)));
    const responses = await Promise.all(
      pdfs.map((pdf, i) =>
        post(svc, clerk, `/api/documents/bol/${ORDER}`, {
          file_content: pdf.toString('base64'),
          file_name: `bol-${i}.pdf`,
          bill_of_lading_number: `BOL-${i}`,
        }),
      ),
    );
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const history = await get(svc, clerk, `/api/v1/orders/${ORDER}/bol`);
    const versions = history.json().data as { version: number; bill_of_lading_number: string }[];
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: N }, (_, i) => N - i));
    expect(new Set(versions.map((v) => v.bill_of_lading_number)).size).toBe(N);
    const logged = await svc.ctx.db
      .selectFrom('transactions')
      .select('execution_status')
      .where('order_id', '=', ORDER)
      .where('action_type', '=', 'UPLOAD_BOL')
      .execute();
    expect(logged).toHaveLength(N);
    const order = await svc.ctx.db
      .selectFrom('orders')
      .select('bill_of_lading_number')
      .where('id', '=', ORDER)
      .executeTakeFirstOrThrow();
    expect(order.bill_of_lading_number).toBe(versions[0]!.bill_of_lading_number);
  });
});
