/**
 * A polled SFTP directory (order_documents.inbound {type: 'sftp'}): files go through the same
 * path as the route and the folder; taken-in files move to archive/ and refused ones to error/
 * (with the reason) on the server; a dead, silent or wrong server ends that directory's pass
 * with a recorded reason and never the loop.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';
import { pollInboundFolders, startInboundPoller } from '../../src/server/edi';
import { useSecretsKey } from '../../src/server/core/secret-box';
import { id } from '../helpers/fixtures';
import { createTestService, type TestService } from '../helpers/service';
import { startSftpServer } from '../helpers/sftp-server';
import { tempDirsPerTest } from '../helpers/temp-dirs';
import { goldenFor, polledInboundBundle, polledOrderDocuments } from './inbound-support';
import { partnerSuite, sftpInbound } from './partner-suite';

const { utils: sshUtils } = ssh2;
const USER = 'retailer';
const PASSWORD = 'sftp-inbound-secret';
const OTHER_HOST_KEY = `SHA256:${randomBytes(32).toString('base64').replace(/=+$/, '')}`;

describe('a polled SFTP directory', () => {
  const tempDir = tempDirsPerTest('edi-inbound-sftp');
  const suite = partnerSuite();
  afterEach(() => useSecretsKey(null));

  const inbound = (port: number, hostKey: string, extra: Record<string, unknown> = {}) =>
    sftpInbound(port, hostKey, { username: USER, password: PASSWORD }, extra);

  async function serviceWith(inboundSettings: unknown) {
    suite.svc = await createTestService({
      dataDir: tempDir(),
      seed: polledInboundBundle(suite.partner.url, inboundSettings),
    });
    return suite.svc;
  }

  const pollLog = (service: TestService) =>
    service.ctx.db
      .selectFrom('transactions')
      .select(['action_type', 'execution_status', 'error_message', 'request_url'])
      .where('correlation_id', '=', id('c', 1))
      .orderBy('created_at')
      .orderBy('transaction_id')
      .execute();

  it('takes an 850 in (archive/ on the server, orders, 997 sent) and refuses a stranger’s file (error/ + reason)', async () => {
    const root = tempDir();
    const outbox = join(root, 'outbox');
    mkdirSync(outbox);
    writeFileSync(join(outbox, 'po-517.edi'), goldenFor('850-two-orders.edi', 517));
    writeFileSync(
      join(outbox, 'other.edi'),
      goldenFor('850-two-orders.edi', 518).replaceAll('RECEIVER1', 'STRANGER1'),
    );
    writeFileSync(join(outbox, 'half.edi.part'), 'ISA*'); // a partner still uploading
    suite.sftp = await startSftpServer({ root, username: USER, password: PASSWORD });
    const service = await serviceWith(inbound(suite.sftp.port, suite.sftp.hostKeySha256));

    const results = await pollInboundFolders(service.ctx, { settleMs: 0 });
    expect(results.map((r) => [r.file, r.moved])).toEqual([
      ['other.edi', 'error'],
      ['po-517.edi', 'archive'],
    ]);
    expect(readdirSync(outbox).sort()).toEqual(['archive', 'error', 'half.edi.part']);
    expect(readdirSync(join(outbox, 'archive'))).toEqual(['po-517.edi']);
    expect(readFileSync(join(outbox, 'error', 'other.edi.reason.txt'), 'utf8')).toContain(
      'No EDI connection of yours takes interchanges from "STRANGER1"',
    );
    const orders = await service.ctx.db
      .selectFrom('orders')
      .select('po_number')
      .where('po_number', 'in', ['4500012345', '4500012346'])
      .execute();
    expect(orders).toHaveLength(2);
    const stored = await service.ctx.db
      .selectFrom('edi_interchanges')
      .select(['source', 'file_name', 'outcome', 'user_id'])
      .orderBy('file_name')
      .execute();
    // The refused file is kept too, for the directory's connection, so the EDI inbox lists it.
    expect(stored).toEqual([
      { source: 'sftp', file_name: 'other.edi', outcome: 'refused', user_id: null },
      { source: 'sftp', file_name: 'po-517.edi', outcome: 'accepted', user_id: null },
    ]);
    const ingestRows = await service.ctx.db
      .selectFrom('transactions')
      .select('request_url')
      .where('action_type', '=', 'INGEST_PURCHASE_ORDER')
      .execute();
    expect(ingestRows.map((r) => r.request_url)).toContain(
      `sftp://${USER}@127.0.0.1:${suite.sftp.port}/outbox/po-517.edi`,
    );
    expect(JSON.stringify(ingestRows)).not.toContain(PASSWORD);
    await suite.partner.waitFor(1);
    expect(suite.partner.received.at(-1)!.body).toContain('AK1*PO*');

    // Dropped again: a duplicate, archived under another name, nothing created.
    writeFileSync(join(outbox, 'po-517.edi'), goldenFor('850-two-orders.edi', 517));
    await pollInboundFolders(service.ctx, { settleMs: 0 });
    expect(readdirSync(join(outbox, 'archive')).sort()).toEqual(['1_po-517.edi', 'po-517.edi']);
    expect(await pollLog(service)).toEqual([]); // the server answered every time
  });

  it('a file still settling is left for a later pass', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'));
    writeFileSync(join(root, 'outbox', 'po-1.edi'), goldenFor('850-two-orders.edi', 519));
    suite.sftp = await startSftpServer({ root, username: USER, password: PASSWORD });
    const service = await serviceWith(inbound(suite.sftp.port, suite.sftp.hostKeySha256));
    expect(await pollInboundFolders(service.ctx, { settleMs: 60_000 })).toEqual([]);
    expect(readdirSync(join(root, 'outbox'))).toEqual(['po-1.edi']);
  });

  it('a dead server: one FAILURE row with the reason, not one per pass', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'));
    suite.sftp = await startSftpServer({ root, username: USER, password: PASSWORD });
    const { port, hostKeySha256 } = suite.sftp;
    await suite.sftp.close(); // nothing listens there now
    suite.sftp = undefined;
    const service = await serviceWith(inbound(port, hostKeySha256));

    for (let pass = 0; pass < 3; pass++) {
      expect(await pollInboundFolders(service.ctx, { settleMs: 0 })).toEqual([]);
    }
    const rows = await pollLog(service);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action_type: 'INGEST_PURCHASE_ORDER',
      execution_status: 'FAILURE',
      request_url: `sftp://${USER}@127.0.0.1:${port}/outbox`,
    });
    expect(rows[0]!.error_message).toMatch(/^Inbound directory not polled: SFTP 127\.0\.0\.1:\d+/);
    expect(rows[0]!.error_message).toMatch(/ECONNREFUSED/);
  });

  it('a server that accepts and never answers costs one deadline, and the loop goes on', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const service = await serviceWith(inbound(port, OTHER_HOST_KEY));
      const started = Date.now();
      expect(await pollInboundFolders(service.ctx, { settleMs: 0, sftpTimeoutMs: 300 })).toEqual(
        [],
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      const rows = await pollLog(service);
      expect(rows.map((r) => r.execution_status)).toEqual(['FAILURE']);
      expect(rows[0]!.error_message).toMatch(/did not answer within 300 ms|Timed out/i);

      // The loop itself: passes keep coming and none throws.
      const poller = startInboundPoller(service.ctx, {
        intervalMs: 20,
        firstPassMs: 0,
        poll: { settleMs: 0, sftpTimeoutMs: 300 },
        onError: (error) => {
          throw error;
        },
      });
      await poller.drainNow();
      await poller.drainNow();
      await poller.stop();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('a wrong host key or password: the reason says which, and no file is touched', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'));
    writeFileSync(join(root, 'outbox', 'po-2.edi'), goldenFor('850-two-orders.edi', 520));
    let passwordsSent = 0;
    suite.sftp = await startSftpServer({
      root,
      username: USER,
      password: PASSWORD,
      onPassword: () => (passwordsSent += 1),
    });
    const wrongKey = await serviceWith(inbound(suite.sftp.port, OTHER_HOST_KEY));
    await pollInboundFolders(wrongKey.ctx, { settleMs: 0 });
    const [keyRow] = await pollLog(wrongKey);
    expect(keyRow!.error_message).toContain('does not match host_key_sha256');
    expect(keyRow!.error_message).toContain(suite.sftp.hostKeySha256);
    expect(passwordsSent).toBe(0); // never sent to an unverified server
    await wrongKey.close();
    suite.svc = undefined;

    const wrongPassword = await serviceWith(
      inbound(suite.sftp.port, suite.sftp.hostKeySha256, { password: 'not-it' }),
    );
    await pollInboundFolders(wrongPassword.ctx, { settleMs: 0 });
    const [loginRow] = await pollLog(wrongPassword);
    expect(loginRow!.error_message).toContain(`refused the login of ${USER}`);
    expect(readdirSync(join(root, 'outbox'))).toEqual(['po-2.edi']);

    // Fixed on the server side: the next pass takes it and records that it answers again.
    await suite.sftp.close();
    suite.sftp = await startSftpServer({ root, username: USER, password: 'not-it' });
    await wrongPassword.ctx.db
      .updateTable('connections')
      .set({
        order_documents_json: JSON.stringify(
          polledOrderDocuments(
            inbound(suite.sftp.port, suite.sftp.hostKeySha256, { password: 'not-it' }),
          ),
        ),
      })
      .execute();
    const results = await pollInboundFolders(wrongPassword.ctx, { settleMs: 0 });
    expect(results.map((r) => r.moved)).toEqual(['archive']);
    const rows = await pollLog(wrongPassword);
    expect(rows.map((r) => r.execution_status)).toEqual(['FAILURE', 'SUCCESS']);
  });

  it('with a keychain key the password is stored sealed and still logs in', async () => {
    useSecretsKey(randomBytes(32));
    const root = tempDir();
    mkdirSync(join(root, 'outbox'));
    writeFileSync(join(root, 'outbox', 'po-3.edi'), goldenFor('850-two-orders.edi', 521));
    suite.sftp = await startSftpServer({ root, username: USER, password: PASSWORD });
    const service = await serviceWith(inbound(suite.sftp.port, suite.sftp.hostKeySha256));
    const row = await service.ctx.db
      .selectFrom('connections')
      .select('order_documents_json')
      .where('id', '=', id('c', 1))
      .executeTakeFirstOrThrow();
    expect(row.order_documents_json).not.toContain(PASSWORD);
    expect(row.order_documents_json).toContain('sealed:v1:');
    const results = await pollInboundFolders(service.ctx, { settleMs: 0 });
    expect(results.map((r) => r.moved)).toEqual(['archive']);
  });

  it('logs in with a private key instead of a password', async () => {
    const keys = sshUtils.generateKeyPairSync('ed25519');
    const root = tempDir();
    mkdirSync(join(root, 'outbox'));
    writeFileSync(join(root, 'outbox', 'po-4.edi'), goldenFor('850-two-orders.edi', 522));
    suite.sftp = await startSftpServer({
      root,
      username: USER,
      password: 'unused-password',
      publicKey: keys.public,
    });
    const { password: _password, ...withoutPassword } = inbound(
      suite.sftp.port,
      suite.sftp.hostKeySha256,
    );
    const service = await serviceWith({ ...withoutPassword, privateKey: keys.private });
    const results = await pollInboundFolders(service.ctx, { settleMs: 0 });
    expect(results.map((r) => r.moved)).toEqual(['archive']);
  });

  it('only the central (or a standalone install) polls: a workstation leaves every directory alone', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'outbox'));
    writeFileSync(join(root, 'outbox', 'po-5.edi'), goldenFor('850-two-orders.edi', 523));
    suite.sftp = await startSftpServer({ root, username: USER, password: PASSWORD });
    const service = await serviceWith(inbound(suite.sftp.port, suite.sftp.hostKeySha256));
    const asRole = (role: 'workstation' | 'central') => {
      const sync = { role, sqlite: null, deviceId: role === 'central' ? null : 'device-1' };
      service.ctx.sync = { ...sync, client: null } as unknown as NonNullable<
        typeof service.ctx.sync
      >;
    };
    try {
      // Even where the workstation sends the connection's documents: ingest is the central's.
      await service.ctx.db.updateTable('connections').set({ sender: 'workstation' }).execute();
      asRole('workstation');
      expect(await pollInboundFolders(service.ctx, { settleMs: 0 })).toEqual([]);
      expect(suite.sftp.connections()).toBe(0);
      asRole('central');
      const results = await pollInboundFolders(service.ctx, { settleMs: 0 });
      expect(results.map((r) => r.moved)).toEqual(['archive']);
    } finally {
      service.ctx.sync = undefined;
    }
  });
});
