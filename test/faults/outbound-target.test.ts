/**
 * Faults of the place a document is written to (issue 16): a folder (file transport) that cannot
 * be made, or an SFTP directory that is missing. The document is failed with the reason, the
 * drainer plans it again (an administrator who fixes the folder needs no clerk to press Retry),
 * asn_sent_at stays empty, and the first pass after the fix writes it once.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { sendDueDocuments } from '../../src/server/edi/send';
import { manualClock } from '../helpers/clock';
import { describeEngines } from '../helpers/engines';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { startSftpServer, type RunningSftpServer } from '../helpers/sftp-server';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import {
  asnBundle,
  documentRows,
  FAST_POLICY,
  loadParcelOrder,
  ORDERS,
  orderRow,
} from '../edi/support';

const USER = 'edi-out';
const PASSWORD = 'sftp-outbound-secret';

function bundleWith(transport: unknown) {
  const bundle = asnBundle('http://127.0.0.1:9/unused');
  return {
    ...bundle,
    connections: bundle.connections.map((c) => (c.id === id('c', 1) ? { ...c, transport } : c)),
  };
}

describeEngines('an outbound document whose target folder is in trouble', (engine) => {
  const tempDir = tempDirsPerTest('faults-target');
  let svc: TestService | undefined;
  let sftp: RunningSftpServer | undefined;

  afterEach(async () => {
    await svc?.close();
    svc = undefined;
    await sftp?.close();
    sftp = undefined;
  });

  async function shipWith(transport: unknown, dataDir: string) {
    const time = manualClock('2030-07-01T09:00:00Z');
    svc = await createTestService({
      engine,
      dataDir,
      seed: bundleWith(transport),
      clock: time.clock,
      deliveryPolicy: FAST_POLICY,
    });
    const token = await svc.login('packer@a.test');
    const api = await loadParcelOrder(svc, token);
    const shipped = await api.step(ORDERS.parcel, 'ship');
    expect(shipped.statusCode, shipped.body).toBe(200);
    return { time, message: shipped.json().message as string };
  }

  async function expectPlannedAgain(time: ReturnType<typeof manualClock>, error: RegExp) {
    const [row] = await documentRows(svc!, ORDERS.parcel);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row!.error).toMatch(error);
    expect(row!.next_attempt_at).toBe(time.iso(30_000));
    expect((await orderRow(svc!, ORDERS.parcel)).asn_sent_at).toBeNull();
    return row!;
  }

  it('a folder that cannot be made (a file stands in its way): retried, written once when fixed', async () => {
    const dataDir = tempDir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'outbox'), 'not a folder');
    const { time, message } = await shipWith({ type: 'file', directory: 'outbox/r1' }, dataDir);
    expect(message).toMatch(
      /the ASN to Retailer One failed: (ENOTDIR|EEXIST): .*it will be tried again$/,
    );
    const row = await expectPlannedAgain(time, /^(ENOTDIR|EEXIST): /);

    // Still blocked at the next try: planned again, later.
    time.advance(30_000);
    expect(await sendDueDocuments(svc!.ctx, 16)).toBe(1);
    expect((await documentRows(svc!, ORDERS.parcel))[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      next_attempt_at: time.iso(60_000),
    });

    rmSync(join(dataDir, 'outbox'));
    time.advance(60_000);
    expect(await sendDueDocuments(svc!.ctx, 16)).toBe(1);
    const folder = join(dataDir, 'outbox/r1');
    expect(readdirSync(folder)).toEqual([row.file_name]);
    expect(readFileSync(join(folder, row.file_name!), 'utf8')).toBe(row.document);
    const [sent] = await documentRows(svc!, ORDERS.parcel);
    expect(sent).toMatchObject({ status: 'sent', error: null, next_attempt_at: null });
    expect((await orderRow(svc!, ORDERS.parcel)).asn_sent_at).toBe(sent!.sent_at);
    time.advance(3_600_000);
    expect(await sendDueDocuments(svc!.ctx, 16)).toBe(0);
  });

  it('an SFTP directory that is missing: retried, uploaded once when it is there', async () => {
    const root = tempDir();
    mkdirSync(root, { recursive: true });
    sftp = await startSftpServer({ root, username: USER, password: PASSWORD });
    const transport = {
      type: 'sftp',
      host: '127.0.0.1',
      port: sftp.port,
      username: USER,
      password: PASSWORD,
      directory: '/outbound',
      host_key_sha256: sftp.hostKeySha256,
    };
    const { time, message } = await shipWith(transport, tempDir());
    expect(message).toMatch(
      /failed: ENOENT: remote directory \/outbound does not exist; it will be tried again$/,
    );
    const row = await expectPlannedAgain(time, /^ENOENT: remote directory \/outbound/);

    mkdirSync(join(root, 'outbound'));
    time.advance(30_000);
    expect(await sendDueDocuments(svc!.ctx, 16)).toBe(1);
    expect(readdirSync(join(root, 'outbound'))).toEqual([row.file_name]);
    expect((await documentRows(svc!, ORDERS.parcel))[0]).toMatchObject({ status: 'sent' });
    expect(existsSync(join(root, 'outbound', `${row.file_name}.part`))).toBe(false);
  });
});
