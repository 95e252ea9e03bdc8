/**
 * A polled file deleted between the listing and the read (another reader took it, a partner
 * pulled it back), in a folder or on an SFTP server: it is passed over, not a fault of the source; the files after it are taken
 * in the same pass and the poll status stays quiet.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { startSftpServer } from '../helpers/sftp-server';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle } from '../edi/inbound-support';
import { partnerSuite, polledFolderService, sftpInbound } from '../edi/partner-suite';

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
  const suite = partnerSuite();

  /** One pass: `vanishing-a.edi` is passed over, `taken` archived, and the poll status is quiet. */
  async function expectPassedOver(svc: TestService, taken: string) {
    const results = await pollInboundFolders(svc.ctx, { settleMs: 0 });
    expect(results.map((r) => [r.file, r.moved, r.reason])).toEqual([
      ['vanishing-a.edi', null, 'The file was gone before it was read'],
      [taken, 'archive', null],
    ]);
    const log = await svc.ctx.db
      .selectFrom('transactions')
      .select('execution_status')
      .where('correlation_id', '=', id('c', 1))
      .execute();
    expect(log).toEqual([]);
  }

  it('is passed over; the files after it are taken in the same pass', async () => {
    const { svc, folder } = await polledFolderService({
      engine,
      dataDir: tempDir(),
      partnerUrl: suite.partner.url,
    });
    suite.svc = svc;
    writeFileSync(join(folder, 'vanishing-a.edi'), goldenFor('850-two-orders.edi', 651));
    writeFileSync(join(folder, 'w-po-652.edi'), goldenFor('850-two-orders.edi', 652));

    await expectPassedOver(svc, 'w-po-652.edi');
    const stored = await svc.ctx.db.selectFrom('edi_interchanges').select('file_name').execute();
    expect(stored).toEqual([{ file_name: 'w-po-652.edi' }]);
  });

  it('over SFTP too: passed over, the files after it taken, the poll status quiet', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'), { recursive: true });
    writeFileSync(join(root, 'outbox', 'vanishing-a.edi'), goldenFor('850-two-orders.edi', 661));
    writeFileSync(join(root, 'outbox', 'w-po-662.edi'), goldenFor('850-two-orders.edi', 662));
    const login = { username: 'edi-in', password: 'sftp-inbound-secret' };
    const sftp = (suite.sftp = await startSftpServer({
      root,
      ...login,
      // The poller asks a file's size before it reads it: the file goes just then.
      beforeStat: (path) => {
        if (path === '/outbox/vanishing-a.edi') rmSync(join(root, path), { force: true });
      },
    }));
    const svc = (suite.svc = await createTestService({
      engine,
      dataDir: tempDir(),
      seed: polledInboundBundle(
        suite.partner.url,
        sftpInbound(sftp.port, sftp.hostKeySha256, login),
      ),
    }));

    await expectPassedOver(svc, 'w-po-662.edi');
  });
});
