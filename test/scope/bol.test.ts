/**
 * Scope of the bill-of-lading routes (upload, history, download) on both engines, with a real
 * stored version: a user of the order's brand at another facility of the same organisation (an
 * admin there), of the same brand in another organisation (an admin there), or of another brand
 * at the order's own facility (an admin of that brand there) gets 404 `Order not found`, and no
 * version, file, log row, order column or tracking document is written.
 */
import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { documentsDir } from '../../src/server/core/file-store';
import { expectError } from '../api/envelope';
import { fulfilmentBundle, ORDERS } from '../fulfilment/support';
import { describeEngines } from '../helpers/engines';
import { createTestService, type TestService } from '../helpers/service';
import { tmpDir } from '../inventory/support';
import { makePdf } from '../orders/bol-support';
import { callWithTokens, ORDER_OUTSIDERS as OUTSIDERS, withOutsiders } from './support';

const CLERK = 'packer@a.test';
describeEngines('scope: bills of lading', (engine) => {
  const dataDir = tmpDir('scope-bol');
  let svc: TestService;
  const tokens: Record<string, string> = {};
  let pdf: Buffer;
  let versionId: string;

  const call = callWithTokens(() => svc, tokens);
  const upload = (user: string, orderId: string, file: Buffer) =>
    call(user, 'POST', `/api/documents/bol/${orderId}`, {
      file_content: file.toString('base64'),
      file_name: 'BOL-9.pdf',
      bill_of_lading_number: 'BOL-9',
      pro_number: 'PRO-9',
      carrier: 'Old Dominion',
    });

  /** Every row and file an upload writes. */
  const written = async () => {
    const files =
      engine === 'postgres'
        ? Number(
            (await sql<{ n: string }>`SELECT count(*) AS n FROM stored_files`.execute(svc.ctx.db))
              .rows[0]!.n,
          )
        : readdirSync(documentsDir(dataDir.path)).length;
    const [versions, logs, documents, orders] = await Promise.all([
      svc.ctx.db.selectFrom('order_bol_versions').select('id').execute(),
      svc.ctx.db.selectFrom('transactions').select('transaction_id').execute(),
      svc.ctx.db.selectFrom('order_documents').select('id').execute(),
      svc.ctx.db
        .selectFrom('orders')
        .select(['id', 'bill_of_lading_number', 'pro_number', 'carrier', 'updated_at'])
        .orderBy('id')
        .execute(),
    ]);
    return {
      files,
      versions: versions.length,
      logs: logs.length,
      documents: documents.length,
      orders,
    };
  };

  beforeAll(async () => {
    svc = await createTestService({
      engine,
      seed: withOutsiders(fulfilmentBundle()),
      dataDir: dataDir.path,
    });
    for (const user of [CLERK, ...OUTSIDERS]) tokens[user] = await svc.login(user);
    pdf = await makePdf('BOL-9');
    const uploaded = await upload(CLERK, ORDERS.freight, pdf);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const history = await call(CLERK, 'GET', `/api/v1/orders/${ORDERS.freight}/bol`);
    versionId = (history.json() as { data: { version_id: string }[] }).data[0]!.version_id;
    const file = await call(CLERK, 'GET', `/api/v1/orders/${ORDERS.freight}/bol/${versionId}/file`);
    expect(file.statusCode).toBe(200);
  });
  afterAll(async () => {
    await svc?.close();
    dataDir.remove();
  });

  it.each(OUTSIDERS)(
    '%s: upload, history and download answer 404; nothing written',
    async (user) => {
      const before = await written();
      // A new file (it would be stored) on the Open order and on the Shipped one (tracking).
      const other = await makePdf(`BOL of ${user}`);
      for (const orderId of [ORDERS.freight, ORDERS.shipped]) {
        expectError(await upload(user, orderId, other), 404, 'NOT_FOUND', 'Order not found');
      }
      expectError(
        await call(user, 'GET', `/api/v1/orders/${ORDERS.freight}/bol`),
        404,
        'NOT_FOUND',
        'Order not found',
      );
      expectError(
        await call(user, 'GET', `/api/v1/orders/${ORDERS.freight}/bol/${versionId}/file`),
        404,
        'NOT_FOUND',
        'Order not found',
      );
      expect(await written()).toEqual(before);
    },
  );
});
