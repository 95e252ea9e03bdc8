/**
 * Faults of the polled inbound directories (issue 16): a folder that goes away, an archive/ or
 * error/ that cannot be written, a huge file, an SFTP server that drops the connection while
 * listing or reading. The poller keeps going (its next pass works), says the trouble in the
 * poll status (a FAILURE row of the connection, then SUCCESS when it answers again), never takes
 * a file in twice and never loses one.
 */
import { mkdirSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { pollInboundFolders } from '../../src/server/edi';
import { INBOUND_MAX_BYTES } from '../../src/shared/edi-inbound';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { createTestService } from '../helpers/service';
import { startSftpServer } from '../helpers/sftp-server';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle } from '../edi/inbound-support';
import { partnerSuite, polledFolderService, sftpInbound } from '../edi/partner-suite';

const USER = 'edi-in';
const PASSWORD = 'sftp-inbound-secret';

describeEngines('a polled inbound directory in trouble', (engine) => {
  const tempDir = tempDirsPerTest('faults-inbound');
  const suite = partnerSuite();

  async function folderService() {
    const made = await polledFolderService({
      engine,
      dataDir: tempDir(),
      partnerUrl: suite.partner.url,
    });
    suite.svc = made.svc;
    return made;
  }
  /** Something that is not a folder where archive/ or error/ should be (root writes anywhere). */
  const blockFolder = (folder: string, sub: string) => {
    const file = join(tempDir(), 'not-a-folder');
    writeFileSync(file, '');
    symlinkSync(file, join(folder, sub));
  };
  const poll = () => pollInboundFolders(suite.svc!.ctx, { settleMs: 0, sftpTimeoutMs: 2_000 });
  /** The poll status rows of connection 1: FAILURE when trouble starts, SUCCESS when it ends. */
  const pollStatus = async () =>
    (
      await suite
        .svc!.ctx.db.selectFrom('transactions')
        .select(['execution_status', 'error_message'])
        .where('correlation_id', '=', id('c', 1))
        .orderBy('created_at')
        .orderBy('transaction_id')
        .execute()
    ).map((r) => [r.execution_status, r.error_message]);
  const interchanges = () =>
    suite
      .svc!.ctx.db.selectFrom('edi_interchanges')
      .select(['file_name', 'outcome'])
      .orderBy('received_at')
      .orderBy('file_name')
      .execute();
  const acks = async () =>
    (
      await suite
        .svc!.ctx.db.selectFrom('order_documents')
        .select('id')
        .where('type', '=', '997')
        .execute()
    ).length;

  it('a folder that goes away is said once; files are taken again when it is back', async () => {
    const { folder } = await folderService();
    writeFileSync(join(folder, 'po-601.edi'), goldenFor('850-two-orders.edi', 601));
    expect((await poll()).map((r) => r.moved)).toEqual(['archive']);

    rmSync(folder, { recursive: true });
    expect(await poll()).toEqual([]);
    expect(await poll()).toEqual([]);
    expect(await pollStatus()).toEqual([
      ['FAILURE', `Inbound directory not polled: The folder ${folder} does not exist`],
    ]);

    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'po-602.edi'),
      goldenFor('850-two-orders.edi', 602, {
        '4500012345': '4500099345',
        '4500012346': '4500099346',
      }),
    );
    expect((await poll()).map((r) => [r.file, r.moved])).toEqual([['po-602.edi', 'archive']]);
    expect((await pollStatus()).map((r) => r[0])).toEqual(['FAILURE', 'SUCCESS']);
    expect(await interchanges()).toEqual([
      { file_name: 'po-601.edi', outcome: 'accepted' },
      { file_name: 'po-602.edi', outcome: 'accepted' },
    ]);
  });

  it('an archive/ that cannot be made: the file is taken in once, and moved once it can be', async () => {
    const { folder } = await folderService();
    writeFileSync(join(folder, 'po-611.edi'), goldenFor('850-two-orders.edi', 611));
    blockFolder(folder, 'archive');

    for (let pass = 0; pass < 3; pass++) expect(await poll()).toEqual([]);
    expect(await interchanges()).toEqual([{ file_name: 'po-611.edi', outcome: 'accepted' }]);
    expect(await acks()).toBe(1); // one 997, not one per pass
    const status = await pollStatus();
    expect(status).toHaveLength(1);
    expect(status[0]![1]).toMatch(
      /^Inbound directory not polled: The file po-611\.edi was taken in but could not be moved to archive\/: EEXIST/,
    );
    expect(readdirSync(folder).sort()).toEqual(['archive', 'po-611.edi']);

    rmSync(join(folder, 'archive'));
    expect((await poll()).map((r) => [r.file, r.moved])).toEqual([['po-611.edi', 'archive']]);
    expect(readdirSync(join(folder, 'archive'))).toEqual(['po-611.edi']);
    expect(await interchanges()).toHaveLength(1);
    expect(await acks()).toBe(1);
    expect((await pollStatus()).map((r) => r[0])).toEqual(['FAILURE', 'SUCCESS']);
  });

  it('an error/ that cannot be made: a refused file is recorded once; the files after it wait, none is lost', async () => {
    const { folder } = await folderService();
    writeFileSync(join(folder, 'a-notes.txt'), 'not an interchange');
    writeFileSync(join(folder, 'b-po-621.edi'), goldenFor('850-two-orders.edi', 621));
    blockFolder(folder, 'error');

    for (let pass = 0; pass < 3; pass++) expect(await poll()).toEqual([]);
    expect(await interchanges()).toEqual([{ file_name: 'a-notes.txt', outcome: 'refused' }]);
    expect((await pollStatus())[0]![1]).toMatch(
      /The file a-notes\.txt was refused but could not be moved to error\/: EEXIST/,
    );

    rmSync(join(folder, 'error'));
    expect((await poll()).map((r) => [r.file, r.moved])).toEqual([
      ['a-notes.txt', 'error'],
      ['b-po-621.edi', 'archive'],
    ]);
    expect(readdirSync(join(folder, 'error')).sort()).toEqual([
      'a-notes.txt',
      'a-notes.txt.reason.txt',
    ]);
    expect(await interchanges()).toEqual([
      { file_name: 'a-notes.txt', outcome: 'refused' },
      { file_name: 'b-po-621.edi', outcome: 'accepted' },
    ]);
  });

  it('a huge file goes to error/ unread (the reason says its size); the files after it are taken', async () => {
    const { folder } = await folderService();
    // Sparse: 3 GiB on paper, nothing on disk; reading it whole would fail (or fill the memory).
    writeFileSync(join(folder, 'a-huge.edi'), '');
    truncateSync(join(folder, 'a-huge.edi'), 3 * 1024 ** 3);
    writeFileSync(join(folder, 'b-po-631.edi'), goldenFor('850-two-orders.edi', 631));

    const results = await poll();
    expect(results.map((r) => [r.file, r.moved, r.reason])).toEqual([
      [
        'a-huge.edi',
        'error',
        'The file is 3 GB, larger than the 16 MB a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.',
      ],
      ['b-po-631.edi', 'archive', null],
    ]);
    expect(readdirSync(join(folder, 'error')).sort()).toEqual([
      'a-huge.edi',
      'a-huge.edi.reason.txt',
    ]);
    expect(await pollStatus()).toEqual([]);
    // Listed in the EDI inbox as refused, nothing of it kept (test/edi/inbox-too-large.test.ts).
    expect(await interchanges()).toEqual([
      { file_name: 'a-huge.edi', outcome: 'refused' },
      { file_name: 'b-po-631.edi', outcome: 'accepted' },
    ]);
  });

  it('an SFTP server that drops the connection mid-list, then mid-read: said, and the next pass takes the file once', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'), { recursive: true });
    writeFileSync(join(root, 'outbox', 'po-641.edi'), goldenFor('850-two-orders.edi', 641));
    let dropAt: 'READDIR' | 'READ' | null = 'READDIR';
    let reads = 0;
    const sftp = (suite.sftp = await startSftpServer({
      root,
      username: USER,
      password: PASSWORD,
      dropAt: (request) => {
        if (request === 'READ') reads += 1;
        return request === dropAt;
      },
    }));
    suite.svc = await createTestService({
      engine,
      dataDir: tempDir(),
      seed: polledInboundBundle(
        suite.partner.url,
        sftpInbound(sftp.port, sftp.hostKeySha256, { username: USER, password: PASSWORD }),
      ),
    });

    const started = Date.now();
    expect(await poll()).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_500); // the step's deadline is 2 s
    dropAt = 'READ';
    expect(await poll()).toEqual([]);
    const status = await pollStatus();
    expect(status.map((r) => r[0])).toEqual(['FAILURE', 'FAILURE']);
    // Said at once, not at the step's deadline.
    expect(status[0]![1]).toBe(
      `Inbound directory not polled: SFTP 127.0.0.1:${sftp.port} (listing the directory): the server closed the connection`,
    );
    expect(status[1]![1]).toMatch(
      /^Inbound directory not polled: SFTP 127\.0\.0\.1:\d+ \(reading po-641\.edi\): /,
    );
    expect(await interchanges()).toEqual([]);
    expect(readdirSync(join(root, 'outbox'))).toEqual(['po-641.edi']);

    // A huge file on the server is not downloaded: only its size is asked.
    writeFileSync(join(root, 'outbox', 'a-huge.edi'), '');
    truncateSync(join(root, 'outbox', 'a-huge.edi'), INBOUND_MAX_BYTES + 1);
    dropAt = null;
    reads = 0;
    expect((await poll()).map((r) => [r.file, r.moved])).toEqual([
      ['a-huge.edi', 'error'],
      ['po-641.edi', 'archive'],
    ]);
    expect(reads).toBeLessThan(20);
    expect(await interchanges()).toEqual([
      { file_name: 'a-huge.edi', outcome: 'refused' },
      { file_name: 'po-641.edi', outcome: 'accepted' },
    ]);
    expect((await pollStatus()).map((r) => r[0])).toEqual(['FAILURE', 'FAILURE', 'SUCCESS']);
    expect(await poll()).toEqual([]);
    expect(await interchanges()).toHaveLength(2);
  });
});
