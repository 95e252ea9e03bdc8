/**
 * A polled file deleted between the listing and the read (another reader took it, a partner
 * pulled it back), in a folder or on an SFTP server: it is passed over, not a fault of the source; the files after it are taken
 * in the same pass and the poll status stays quiet.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { ok, startReceiver, type Receiver } from '../helpers/receivers';
import { createTestService, type TestService } from '../helpers/service';
import { startSftpServer, type RunningSftpServer } from '../helpers/sftp-server';
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
  let sftp: RunningSftpServer | undefined;

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
    await sftp?.close();
    sftp = undefined;
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

  it('over SFTP too: passed over, the files after it taken, the poll status quiet', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'), { recursive: true });
    writeFileSync(join(root, 'outbox', 'vanishing-a.edi'), goldenFor('850-two-orders.edi', 661));
    writeFileSync(join(root, 'outbox', 'w-po-662.edi'), goldenFor('850-two-orders.edi', 662));
    sftp = await startSftpServer({
      root,
      username: 'edi-in',
      password: 'sftp-inbound-secret',
      // The poller asks a file's size before it reads it: the file goes just then.
      beforeStat: (path) => {
        if (path === '/outbox/vanishing-a.edi') rmSync(join(root, path), { force: true });
      },
    });
    svc = await createTestService({
      engine,
      dataDir: tempDir(),
      seed: polledInboundBundle(partner.url, {
        type: 'sftp',
        host: '127.0.0.1',
        port: sftp.port,
        username: 'edi-in',
        password: 'sftp-inbound-secret',
        directory: '/outbox',
        host_key_sha256: sftp.hostKeySha256,
      }),
    });

    const results = await pollInboundFolders(svc.ctx, { settleMs: 0 });
    expect(results.map((r) => [r.file, r.moved, r.reason])).toEqual([
      ['vanishing-a.edi', null, 'The file was gone before it was read'],
      ['w-po-662.edi', 'archive', null],
    ]);
    const log = await svc.ctx.db
      .selectFrom('transactions')
      .select('execution_status')
      .where('correlation_id', '=', id('c', 1))
      .execute();
    expect(log).toEqual([]);
  });
});
