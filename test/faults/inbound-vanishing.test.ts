/**
 * A polled file deleted between the listing and the read (another reader took it, a partner
 * pulled it back): it is passed over, not a fault of the folder; the files after it are taken
 * in the same pass and the poll status stays quiet.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle } from '../edi/inbound-support';
import { until } from '../edi/support';

/** Opening a file named `vanishing*` deletes it first, as a reader racing the poller would. */
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof real.open = async (path, ...rest) => {
    if (basename(String(path)).startsWith('vanishing')) await real.rm(path, { force: true });
    return real.open(path, ...rest);
  };
  return { ...real, open, default: { ...real, open } };
});

describeEngines('a polled file that vanishes before it is read', (engine) => {
  const tempDir = tempDirsPerTest('faults-vanishing');
  let partner: Receiver;
  let svc: TestService | undefined;

  beforeAll(async () => {
    partner = await startReceiver(ok, 'retailer-one');
  });
  afterAll(async () => {
    await partner?.close();
  });
  afterEach(async () => {
    if (svc) await until(() => svc!.ctx.deliveriesInFlight.size === 0, 'the 997 sends');
    await svc?.close();
    svc = undefined;
  });

  it('is passed over; the files after it are taken in the same pass', async () => {
    const dataDir = tempDir();
    svc = await createTestService({
      engine,
      dataDir,
      seed: polledInboundBundle(partner.url, { type: 'file', directory: 'inbound/r1' }),
    });
    const folder = join(dataDir, 'inbound/r1');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'vanishing-a.edi'), goldenFor('850-two-orders.edi', 651));
    writeFileSync(join(folder, 'w-po-652.edi'), goldenFor('850-two-orders.edi', 652));

    const results = await pollInboundFolders(svc.ctx, { settleMs: 0 });
    expect(results.map((r) => [r.file, r.moved, r.reason])).toEqual([
      ['vanishing-a.edi', null, 'The file was gone before it was read'],
      ['w-po-652.edi', 'archive', null],
    ]);
    const log = await svc.ctx.db
      .selectFrom('transactions')
      .select('execution_status')
      .where('correlation_id', '=', id('c', 1))
      .execute();
    expect(log).toEqual([]);
    const stored = await svc.ctx.db.selectFrom('edi_interchanges').select('file_name').execute();
    expect(stored).toEqual([{ file_name: 'w-po-652.edi' }]);
  });
});
