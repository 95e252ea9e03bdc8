import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  advicePreviewSchema,
  adviceResponseDataSchema,
  retryResultSchema,
  snapshotDetailSchema,
  snapshotPageSchema,
} from '../../src/shared/inventory';
import { baseBundle, id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { expect400, facilityUrl, FAST_POLICY, get, post, tmpDir } from './support';
import { describeEngines } from '../helpers/engines';

describeEngines('inventory contract', (engine) => {
  /**
   * The UI parses these answers with the shared schemas (src/shared/inventory.ts), and the OpenAPI
   * document describes them with the same: a field the service renames or drops breaks here.
   */
  describe('inventory answers match the shared schemas', () => {
    const data = tmpDir('contract');
    let svc: TestService;
    let bearer: string;

    beforeAll(async () => {
      const bundle = baseBundle();
      // A disabled-only brand: its send stores a delivery with no connection and no document.
      bundle.connections[1]!.enabled = false;
      bundle.users[0]!.admin.push({ brand_id: id('b', 2), facility_id: id('f', 1) });
      svc = await createTestService({
        engine,
        seed: bundle,
        dataDir: data.path,
        deliveryPolicy: FAST_POLICY,
      });
      bearer = await svc.login('admin@a.test');
    });
    afterAll(async () => {
      await svc?.close();
      data.remove();
    });

    it('send, preview, history, detail and retry', async () => {
      const items = [
        { sku: 'K-1', available_quantity: 4 },
        { sku: 'K-2', available_quantity: 0 },
      ];
      const preview = await post(svc, bearer, `${facilityUrl(id('b', 1), id('f', 1))}/preview`, {
        items,
      });
      expect(preview.statusCode, preview.body).toBe(200);
      advicePreviewSchema.parse(preview.json().data);

      const sent = await post(svc, bearer, facilityUrl(id('b', 1), id('f', 1)), { items });
      expect(sent.statusCode, sent.body).toBe(200);
      adviceResponseDataSchema.parse(sent.json().data);

      const none = await post(svc, bearer, facilityUrl(id('b', 2), id('f', 1)), {
        items: [{ sku: 'K-3', available_quantity: 0, status: 'DISCONTINUED' }],
      });
      expect(none.statusCode, none.body).toBe(502);
      const orphan = adviceResponseDataSchema.parse(none.json().data).results[0]!;

      const page = await get(svc, bearer, '/api/v1/inventory/snapshots');
      expect(page.statusCode, page.body).toBe(200);
      const history = snapshotPageSchema.parse(page.json().data);
      // Defaults: page 1 of 20.
      expect(history).toMatchObject({ page: 1, page_size: 20, total_count: 2 });
      const orphanRow = history.items[0]!.deliveries[0]!;
      expect(orphanRow).toMatchObject({
        delivery_id: orphan.delivery_id,
        connection_id: null,
        kind: null,
        status: 'FAILURE',
        file_name: null,
      });

      const detail = await get(
        svc,
        bearer,
        `/api/v1/inventory/snapshots/${sent.json().data.snapshot_id}`,
      );
      expect(detail.statusCode, detail.body).toBe(200);
      expect(snapshotDetailSchema.parse(detail.json().data).items).toHaveLength(2);

      // A delivery that never had a document can be neither fetched nor resent.
      const noDocument = await get(
        svc,
        bearer,
        `/api/v1/inventory/deliveries/${orphan.delivery_id}/document`,
      );
      expect(noDocument.statusCode).toBe(404);
      expect(noDocument.json()).toEqual({
        message: 'No document was built for this delivery',
        error: { code: 'NOT_FOUND' },
      });
      const noResend = await post(
        svc,
        bearer,
        `/api/v1/inventory/deliveries/${orphan.delivery_id}/retry`,
        {},
      );
      expect(noResend.statusCode).toBe(400);
      expect(noResend.json()).toEqual({
        message: 'This delivery has no document to send',
        error: { code: 'INVALID_REQUEST' },
      });
    });

    it('a retry answer parses too', async () => {
      // A file where the file transport wants its directory makes the delivery fail...
      const outbox = join(data.path, 'outbox', 'r1');
      rmSync(outbox, { recursive: true, force: true });
      writeFileSync(outbox, 'in the way');
      const failed = await post(svc, bearer, facilityUrl(id('b', 1), id('f', 1)), {
        items: [{ sku: 'K-4', available_quantity: 1 }],
      });
      expect(failed.statusCode, failed.body).toBe(502);
      const deliveryId = failed.json().data.results[0].delivery_id as string;
      // ...and once it is out of the way, the resend goes through.
      rmSync(outbox);
      const retried = await post(
        svc,
        bearer,
        `/api/v1/inventory/deliveries/${deliveryId}/retry`,
        {},
      );
      expect(retried.statusCode, retried.body).toBe(200);
      expect(retryResultSchema.parse(retried.json().data)).toEqual({
        delivery_id: deliveryId,
        success: true,
        error: null,
      });
    });

    it('malformed ids and paging answer 400 with their messages', async () => {
      const cases: [string, string][] = [
        ['/api/v1/inventory/snapshots/not-a-uuid', 'Invalid snapshot ID format'],
        ['/api/v1/inventory/deliveries/not-a-uuid/document', 'Invalid delivery ID format'],
        ['/api/v1/inventory/snapshots?page_size=0', 'Invalid query parameters'],
        ['/api/v1/inventory/snapshots?facility_id=nope', 'Invalid query parameters'],
      ];
      for (const [url, message] of cases) {
        const body = expect400(await get(svc, bearer, url), message, 'details');
        expect(typeof body.error.details, url).toBe('string');
      }
      expect400(
        await post(svc, bearer, '/api/v1/inventory/deliveries/not-a-uuid/retry', {}),
        'Invalid delivery ID format',
        'details',
      );
    });
  });
});
