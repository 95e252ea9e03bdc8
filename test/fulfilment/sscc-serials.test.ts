/**
 * SSCC serials come from a durable per-prefix counter: unique under 50+ parallel packs, across a
 * restart of the service on the same data dir, and past SSCCs that a bundle (the demo) imported.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultDeliveryPolicy } from '../../src/server/inventory/transmission/types';
import { openDatabase } from '../../src/server/db/database';
import type { ServiceContext } from '../../src/server/core/context';
import { importDemoWorkspace } from '../../src/server/seed/demo';
import { isValidSscc } from '../../src/server/fulfilment/sscc';
import { importSeedBundle } from '../../src/server/seed/seed';
import { buildApp } from '../../src/server/http/app';
import type { StepResult } from '../../src/shared/fulfilment';
import { createTestService, TEST_PASSWORD_COST, type TestService } from '../helpers/service';
import { tmpDir } from '../inventory/support';
import { client, dataOf, fulfilmentBundle, ORDERS } from './support';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** The service on a data dir, as a restart would open it. */
async function startOn(dataDir: string, seed?: unknown): Promise<TestService> {
  const database = await openDatabase(dataDir);
  const ctx: ServiceContext = {
    db: database.db,
    secret: new TextEncoder().encode('test-secret-test-secret-test-secret!'),
    clock: { now: () => new Date() },
    dataDir,
    deliveryPolicy: defaultDeliveryPolicy,
    deliveryConcurrency: 8,
    deliveriesInFlight: new Set(),
    passwordCost: TEST_PASSWORD_COST,
  };
  if (seed) await importSeedBundle(ctx.db, seed, { passwordCost: TEST_PASSWORD_COST });
  const app = await buildApp(ctx, { host: '127.0.0.1', uiDir: null });
  await app.ready();
  const svc: TestService = {
    app,
    ctx,
    database,
    async login(email, password = 'correct-horse-battery') {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/token',
        payload: { email, password },
      });
      return `Bearer ${response.json().data.access_token as string}`;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
  return svc;
}

const packOne = async (svc: TestService, token: string, orderId: string) => {
  const response = await client(svc, token).pack(orderId, {
    skus: [{ sku: 'SKU-RED', quantity: 1 }],
    allow_over_ship: true,
  });
  expect(response.statusCode, response.body).toBe(201);
  return dataOf<StepResult>(response).carton!.sscc!;
};

describe('SSCC serials', () => {
  it('60 parallel pack requests get 60 distinct, valid SSCCs', async () => {
    const svc = await createTestService({ seed: fulfilmentBundle() });
    closing.push(() => svc.close());
    const token = await svc.login('packer@a.test');
    const ssccs = await Promise.all(
      Array.from({ length: 60 }, () => packOne(svc, token, ORDERS.freight)),
    );
    expect(new Set(ssccs).size).toBe(60);
    expect(ssccs.every(isValidSscc)).toBe(true);
    const counter = await svc.ctx.db
      .selectFrom('sscc_counters')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(counter).toEqual({ company_prefix: '0614141', last_serial: 60 });
  });

  it('stay unique across a restart on the same data dir', async () => {
    const dir = tmpDir('sscc-restart');
    closing.push(async () => dir.remove());
    const first = await startOn(dir.path, fulfilmentBundle());
    let token = await first.login('packer@a.test');
    const before = [
      await packOne(first, token, ORDERS.freight),
      await packOne(first, token, ORDERS.freight),
    ];
    // A carton unpacked gives its serial back to nobody.
    const carton = await first.ctx.db
      .selectFrom('cartons')
      .select('id')
      .where('sscc', '=', before[1]!)
      .executeTakeFirstOrThrow();
    await client(first, token).unpack(ORDERS.freight, carton.id);
    await first.close();

    const second = await startOn(dir.path);
    closing.push(() => second.close());
    token = await second.login('packer@a.test');
    const after = [
      await packOne(second, token, ORDERS.freight),
      await packOne(second, token, ORDERS.parcel),
    ];
    expect(new Set([...before, ...after]).size).toBe(4);
    expect(after.map((s) => Number(s.slice(8, 17)))).toEqual([3, 4]);
  });

  it('skip the SSCCs the demo workspace imported', async () => {
    const svc = await createTestService();
    closing.push(() => svc.close());
    await importDemoWorkspace(svc.ctx.db, { passwordCost: TEST_PASSWORD_COST });
    const token = await svc.login('demo@example.com', 'demo-password');
    const stored = await svc.ctx.db.selectFrom('cartons').select('sscc').execute();
    // Demo order 4: Summit Outdoor, Picking, at Reno.
    const orderId = '0d000000-0000-4000-8000-000000000004';
    const view = dataOf<{ lines: { sku: string }[] }>(await client(svc, token).view(orderId));
    const response = await client(svc, token).pack(orderId, {
      skus: [{ sku: view.lines[0]!.sku, quantity: 1 }],
    });
    expect(response.statusCode, response.body).toBe(201);
    const sscc = dataOf<StepResult>(response).carton!.sscc!;
    expect(isValidSscc(sscc)).toBe(true);
    expect(stored.map((c) => c.sscc)).not.toContain(sscc);
  });
});
