/**
 * The background loops of the order documents (issue 16): the drainer that sends what is due and
 * the inbound poller. A pass that fails (here: the clock or the database throws, even a bare
 * `null`) is reported, never escapes its timer, and the loop's next pass does the work once the
 * fault is gone; a reporter that throws changes nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { ServiceContext } from '../../src/server/core/context';
import { startInboundPoller, startOrderDocumentDrainer } from '../../src/server/edi';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { ok, respond, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle } from '../edi/inbound-support';
import { polledFolderService } from '../edi/partner-suite';
import { documentRows, FAST_POLICY, loadParcelOrder, ORDERS, until } from '../edi/support';

describeEngines('the order-document loops in trouble', (engine) => {
  const tempDir = tempDirsPerTest('faults-loops');
  let partner: Receiver;
  let svc: TestService | undefined;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    await stop?.();
    stop = undefined;
    if (svc) await until(() => svc!.ctx.deliveriesInFlight.size === 0, 'sends to end');
    await svc?.close();
    svc = undefined;
    vi.restoreAllMocks();
  });

  /** The service's context, whose `pick` part throws (a bare null) while `broken()` says so. */
  function faultyContext<K extends keyof ServiceContext>(
    ctx: ServiceContext,
    pick: K,
    broken: () => boolean,
  ): ServiceContext {
    return new Proxy(ctx, {
      get(target, property, receiver) {
        if (property === pick && broken()) throw null;
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
  }

  it('the drainer: passes that throw are reported, the timer goes on, and the document goes out', async () => {
    partner.handle(respond(503, 'down'));
    const time = manualClock('2030-07-01T09:00:00Z');
    svc = await createTestService({
      engine,
      seed: polledInboundBundle(partner.url, { type: 'file', directory: 'unused' }),
      deliveryPolicy: FAST_POLICY,
      clock: time.clock,
    });
    const token = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, token);
    expect((await api.step(ORDERS.parcel, 'ship')).statusCode).toBe(200);
    expect((await documentRows(svc, ORDERS.parcel))[0]!.status).toBe('failed');
    partner.handle(ok);
    time.advance(30_000); // the next try is due

    let broken = true;
    const reported: unknown[] = [];
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const drainer = startOrderDocumentDrainer(
      faultyContext(svc.ctx, 'clock', () => broken),
      { firstPassMs: 0, intervalMs: 10 },
    );
    stop = () => drainer.stop();
    await until(() => log.mock.calls.length >= 3, 'three failed passes');
    expect(String(log.mock.calls[0]![0])).toBe('order document drain failed: null');
    log.mockImplementation(() => {
      reported.push('said');
      throw new Error('the log is gone');
    });
    await until(() => reported.length >= 2, 'passes whose report throws');
    // Quiet again, so the pool's own reports at teardown have a log to write to.
    log.mockImplementation(() => undefined);
    broken = false;
    await until(
      async () => (await documentRows(svc!, ORDERS.parcel))[0]!.status === 'sent',
      'the ASN to go out',
    );
  });

  it('the inbound poller: passes that throw are reported, the timer goes on, and the file is taken in', async () => {
    const polled = await polledFolderService({
      engine,
      dataDir: tempDir(),
      partnerUrl: partner.url,
    });
    svc = polled.svc;
    writeFileSync(join(polled.folder, 'po-801.edi'), goldenFor('850-two-orders.edi', 801));

    let broken = true;
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const poller = startInboundPoller(
      faultyContext(svc.ctx, 'db', () => broken),
      {
        firstPassMs: 0,
        intervalMs: 10,
        poll: { settleMs: 0 },
      },
    );
    stop = () => poller.stop();
    await until(() => log.mock.calls.length >= 3, 'three failed passes');
    expect(String(log.mock.calls[0]![0])).toBe('inbound folder poll failed: null');
    log.mockImplementation(() => {
      throw new Error('the log is gone');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    broken = false;
    await until(async () => {
      const rows = await svc!.ctx.db.selectFrom('edi_interchanges').select('outcome').execute();
      return rows.length === 1 && rows[0]!.outcome === 'accepted';
    }, 'the file to be taken in');
  });
});
