/**
 * The advice outbox meets the same faults as the order documents' (decision 0234): a target
 * folder in trouble is planned again by itself rather than left for a clerk's Retry, and a
 * partner's 429 with Retry-After is not tried again sooner than it asked.
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DRAIN_BATCH_SIZE, redeliverDue } from '../../src/server/inventory/redeliver';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { baseBundle, id } from '../helpers/fixtures';
import { startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { facilityUrl, FAST_POLICY, http, post, setTransport } from '../inventory/support';

const ADMIN = 'admin@a.test';

describeEngines('an advice delivery whose target is in trouble', (engine) => {
  const tempDir = tempDirsPerTest('faults-advice-target');
  let svc: TestService | undefined;
  let partner: Receiver | undefined;
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
    await partner?.close();
    partner = undefined;
  });

  async function start(transport: Parameters<typeof setTransport>[2], dataDir?: string) {
    const time = manualClock('2030-07-01T09:00:00Z');
    const bundle = baseBundle();
    setTransport(bundle, id('c', 1), transport);
    svc = await createTestService({
      engine,
      ...(dataDir ? { dataDir } : {}),
      seed: bundle,
      clock: time.clock,
      deliveryPolicy: FAST_POLICY,
    });
    const bearer = await svc.login(ADMIN);
    const response = await post(svc, bearer, facilityUrl(id('b', 1), id('f', 1)), {
      items: [{ sku: 'TARGET-1', available_quantity: 5 }],
    });
    const delivery = await svc.ctx.db
      .selectFrom('advice_deliveries')
      .select('id')
      .where('connection_id', '=', id('c', 1))
      .executeTakeFirstOrThrow();
    return { time, deliveryId: delivery.id, status: response.statusCode };
  }

  const row = (deliveryId: string) =>
    svc!.ctx.db
      .selectFrom('advice_deliveries')
      .select(['status', 'error', 'next_attempt_at', 'auto_retries'])
      .where('id', '=', deliveryId)
      .executeTakeFirstOrThrow();

  it('a folder that cannot be made is tried again by itself and written once when fixed', async () => {
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'outbox'), 'not a folder');
    const { time, deliveryId, status } = await start(
      { type: 'file', directory: 'outbox/r1' },
      dataDir,
    );
    expect(status).toBe(502);
    const failed = await row(deliveryId);
    expect(failed.status).toBe('FAILURE');
    expect(failed.error).toMatch(/^(ENOTDIR|EEXIST): /);
    expect(failed.next_attempt_at).toBe(time.iso(30_000));

    rmSync(join(dataDir, 'outbox'));
    time.advance(30_000);
    expect(await redeliverDue(svc!.ctx, DRAIN_BATCH_SIZE)).toBe(1);
    expect(await row(deliveryId)).toMatchObject({ status: 'SUCCESS', next_attempt_at: null });
    const folder = join(dataDir, 'outbox', 'r1');
    expect(existsSync(folder) && readdirSync(folder)).toHaveLength(1);
    time.advance(24 * 3_600_000);
    expect(await redeliverDue(svc!.ctx, DRAIN_BATCH_SIZE)).toBe(0);
    expect(readdirSync(folder)).toHaveLength(1);
  });

  it('a 429 asking for two minutes is not tried again after 30 s', async () => {
    partner = await startReceiver((res) => {
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'text/plain' });
      res.end('slow down');
    }, 'partner');
    const { time, deliveryId } = await start(http(partner.url));
    const failed = await row(deliveryId);
    expect(failed.status).toBe('FAILURE');
    // The send's own quick retries wait as asked only within its 30 s budget; the outbox plans
    // the next background try no sooner than the partner's two minutes.
    expect(failed.next_attempt_at).toBe(time.iso(120_000));
  });
});
