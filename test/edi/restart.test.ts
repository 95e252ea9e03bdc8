/**
 * A crash between the ship commit and the send (issue 16: "the ASN goes out through the outbox,
 * exactly once, surviving a crash"). The first run commits the shipment and its queued 856 the
 * way the ship step does, then stops before sending, as a killed process would; the next run's
 * drainer sends it, once, and later passes send nothing more.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueShipDocuments } from '../../src/server/edi/ship-documents';
import { startService, type RunningService } from '../../src/server/http/server';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { TEST_PASSWORD, TEST_PASSWORD_COST } from '../helpers/service';
import { asnBundle, FAST_POLICY, ORDERS, until } from './support';

async function call(service: RunningService, token: string | null, path: string, body?: unknown) {
  const response = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: token } : {}),
    },
    body: JSON.stringify(body ?? {}),
  });
  const json = (await response.json()) as { data: Record<string, unknown> };
  if (response.status >= 300)
    throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

describe('an ASN queued when the process died', () => {
  let partner: Receiver;
  let dir: string;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'restart-partner');
    dir = mkdtempSync(join(tmpdir(), 'edi-restart-'));
  });
  afterAll(async () => {
    await partner?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is sent once by the next run', async () => {
    const seedPath = join(dir, 'seed.json');
    writeFileSync(seedPath, JSON.stringify(asnBundle(partner.url)));
    const options = {
      host: '127.0.0.1',
      port: 0,
      dataDir: join(dir, 'data'),
      seed: null,
      uiDir: null,
    };

    // 1. The first run packs and loads the order, then commits the shipment with its queued
    //    ASN (the ship step's own function), and stops before any send.
    const first = await startService(
      { ...options, seed: seedPath, outboxDrain: false },
      { passwordCost: TEST_PASSWORD_COST },
    );
    let documentId: string;
    try {
      const signIn = await call(first, null, '/api/auth/token', {
        email: 'packer@a.test',
        password: TEST_PASSWORD,
      });
      const token = `Bearer ${signIn['access_token'] as string}`;
      const at = (step: string) => `/api/v1/orders/${ORDERS.parcel}/${step}`;
      await call(first, token, at('start-picking'));
      await call(first, token, at('cartons'), { skus: [{ sku: 'SKU-RED', quantity: 2 }] });
      for (const step of ['complete-packing', 'stage', 'load']) await call(first, token, at(step));
      const ctx = first.context;
      const queued = await ctx.db.transaction().execute(async (trx) => {
        const order = await trx
          .selectFrom('orders')
          .selectAll()
          .where('id', '=', ORDERS.parcel)
          .executeTakeFirstOrThrow();
        const now = ctx.clock.now().toISOString();
        await trx
          .updateTable('orders')
          .set({ status: 'Shipped', shipped_at: now, updated_at: now })
          .where('id', '=', order.id)
          .execute();
        return queueShipDocuments(ctx, trx, order, now);
      });
      expect(queued).toHaveLength(1);
      documentId = queued[0]!.id;
    } finally {
      await first.close();
    }
    expect(partner.received).toHaveLength(0);

    // 2. The next run's drainer sends it by itself.
    const second = await startService(
      { ...options, outboxDrain: { firstPassMs: 10, intervalMs: 20 } },
      { deliveryPolicy: FAST_POLICY, passwordCost: TEST_PASSWORD_COST },
    );
    try {
      expect(second.documentDrainer).not.toBeNull();
      await partner.waitFor(1, 10_000);
      const row = () =>
        second.context.db
          .selectFrom('order_documents')
          .select(['status', 'sent_at', 'attempts'])
          .where('id', '=', documentId)
          .executeTakeFirstOrThrow();
      await until(async () => (await row()).status === 'sent', 'the ASN to be recorded as sent');
      // Further passes: nothing more goes out.
      await second.documentDrainer!.drainNow();
      await second.documentDrainer!.drainNow();
      expect(partner.received).toHaveLength(1);
      expect(partner.received[0]!.headers['idempotency-key']).toBe(documentId);
      expect(partner.received[0]!.body).toContain('~ST*856*0001~');
      const order = await second.context.db
        .selectFrom('orders')
        .select('asn_sent_at')
        .where('id', '=', ORDERS.parcel)
        .executeTakeFirstOrThrow();
      expect(order.asn_sent_at).toBe((await row()).sent_at);
      expect((await row()).attempts).toBe(1);
    } finally {
      await second.close();
    }
  });
});
