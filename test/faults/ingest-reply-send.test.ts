/**
 * The 997 (and auto 855) an ingest queues is sent after the commit by a promise nobody awaits.
 * When that send fails in a way no document records (here it rejects with a bare null, and the
 * service log itself throws), nothing escapes as an unhandled rejection: the interchange is
 * taken in, the answer is 200, and the 997 waits queued for the drainer.
 */
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { describeEngines } from '../helpers/engines';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { goldenFor, inboundBundle, postInterchange } from '../edi/inbound-support';

vi.mock('../../src/server/edi/send', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/server/edi/send')>();
  return {
    ...real,
    sendClaimedDocuments: async (...args: Parameters<typeof real.sendClaimedDocuments>) => {
      for (const id of args[1]) real.releaseDocument(args[0], id);
      throw null;
    },
  };
});

describeEngines('an ingest whose after-commit send rejects', (engine) => {
  let partner: Receiver;
  let svc: TestService | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
    process.on('unhandledRejection', onUnhandled);
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await partner?.close();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await svc?.close();
    svc = undefined;
  });

  it('lets nothing escape; the 997 waits queued', async () => {
    svc = await createTestService({ engine, seed: inboundBundle(partner.url) });
    const admin = await svc.login('admin@a.test');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {
      throw new Error('the log is gone');
    });
    const answer = await postInterchange(svc, admin, goldenFor('850-two-orders.edi', 901));
    expect(answer.statusCode, answer.body).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(log).toHaveBeenCalledWith('sending a 997 or 855 failed: null');
    expect(unhandled).toEqual([]);
    const acks = await svc.ctx.db
      .selectFrom('order_documents')
      .select(['status', 'next_attempt_at'])
      .where('type', '=', '997')
      .execute();
    expect(acks).toEqual([{ status: 'queued', next_attempt_at: expect.any(String) }]);
  });
});
