import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliver,
  type DeliverContext,
} from '../../../src/server/inventory/transmission/transports';
import type {
  OutboundDocument,
  TransportConfig,
} from '../../../src/server/inventory/transmission/types';
import { startSftpServer, type RunningSftpServer } from '../../helpers/sftp-server';

const USERNAME = 'edi-partner';
const PASSWORD = 'correct horse';

let root: string;
let server: RunningSftpServer;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sftp-transport-'));
  await mkdir(join(root, 'outbound'));
  server = await startSftpServer({ root, username: USERNAME, password: PASSWORD });
});

afterAll(async () => {
  await server?.close();
  await rm(root, { recursive: true, force: true });
});

const ctx: DeliverContext = {
  dataDir: '/unused',
  policy: {
    attemptTimeoutMs: 2_000,
    totalBudgetMs: 5_000,
    maxAttempts: 3,
    baseBackoffMs: 10,
    maxBackoffMs: 40,
  },
  sleep: async () => {},
};

const doc = (
  fileName: string,
  body = 'ISA*00*~GS*IB~\nLIN**SK*Ü-€~\r\nIEA*1*000000101~',
): OutboundDocument => ({
  body,
  contentType: 'application/edi-x12',
  fileName,
  idempotencyKey: `key-${fileName}`,
});

const sftpTransport = (overrides: Partial<Extract<TransportConfig, { type: 'sftp' }>> = {}) =>
  ({
    type: 'sftp',
    host: '127.0.0.1',
    port: server.port,
    username: USERNAME,
    password: PASSWORD,
    directory: '/outbound',
    host_key_sha256: server.hostKeySha256,
    ...overrides,
  }) satisfies TransportConfig;

describe('sftp transport', () => {
  it('uploads the exact bytes under the final name and leaves no .part file', async () => {
    const document = doc('846_000000101.x12');
    const outcome = await deliver(sftpTransport(), document, ctx);

    expect(outcome.error).toBeNull();
    expect(outcome.success).toBe(true);
    expect(outcome.attempts).toHaveLength(1);
    expect(outcome.attempts[0]).toMatchObject({
      status: 'SUCCESS',
      // The user name is user-info, which the transaction log never keeps (redact-url.ts).
      requestUrl: `sftp://127.0.0.1:${server.port}/outbound/846_000000101.x12`,
      responseStatus: null,
      error: null,
    });
    const written = await readFile(join(root, 'outbound', '846_000000101.x12'));
    expect(written.equals(Buffer.from(document.body, 'utf8'))).toBe(true);
    const names = await readdir(join(root, 'outbound'));
    expect(names.filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('replaces an earlier copy of the same document', async () => {
    await writeFile(join(root, 'outbound', '846_000000102.x12'), 'stale');
    const outcome = await deliver(sftpTransport(), doc('846_000000102.x12', 'fresh'), ctx);

    expect(outcome.success).toBe(true);
    expect(await readFile(join(root, 'outbound', '846_000000102.x12'), 'utf8')).toBe('fresh');
    const names = await readdir(join(root, 'outbound'));
    expect(names.filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('accepts a directory relative to the login directory', async () => {
    const outcome = await deliver(sftpTransport({ directory: 'outbound/' }), doc('rel.x12'), ctx);
    expect(outcome.success).toBe(true);
    expect(await readdir(join(root, 'outbound'))).toContain('rel.x12');
  });

  it('fails without retrying on a wrong password', async () => {
    const outcome = await deliver(sftpTransport({ password: 'wrong' }), doc('auth.x12'), ctx);

    expect(outcome.success).toBe(false);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.error).toBe(
      `EAUTH: authentication failed for edi-partner@127.0.0.1:${server.port}`,
    );
    expect(await readdir(join(root, 'outbound'))).not.toContain('auth.x12');
  });

  it('fails without retrying when the remote directory is missing', async () => {
    const outcome = await deliver(sftpTransport({ directory: '/nope' }), doc('lost.x12'), ctx);

    expect(outcome.success).toBe(false);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.error).toBe('ENOENT: remote directory /nope does not exist');
  });

  it('fails when the remote path is a file, not a directory', async () => {
    await writeFile(join(root, 'not-a-dir'), '');
    const outcome = await deliver(sftpTransport({ directory: '/not-a-dir' }), doc('x.x12'), ctx);
    expect(outcome.error).toBe('ENOTDIR: remote path /not-a-dir is not a directory');
    expect(outcome.attempts).toHaveLength(1);
  });

  it('fails without retrying when the server denies the write', async () => {
    const readOnly = await startSftpServer({
      root,
      username: USERNAME,
      password: PASSWORD,
      readOnly: true,
    });
    try {
      const outcome = await deliver(
        sftpTransport({ port: readOnly.port, host_key_sha256: readOnly.hostKeySha256 }),
        doc('ro.x12'),
        ctx,
      );
      expect(outcome.success).toBe(false);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
      expect(outcome.error).toBe(
        'EACCES: Write stream error: Permission denied /outbound/ro.x12.part',
      );
    } finally {
      await readOnly.close();
    }
  });

  it('accepts the host key fingerprint as OpenSSH prints it, bare base64, or hex', async () => {
    const digest = Buffer.from(server.hostKeySha256.replace(/^SHA256:/, ''), 'base64');
    expect(digest).toHaveLength(32);
    const hex = digest.toString('hex');
    for (const [n, fingerprint] of [
      server.hostKeySha256,
      ` ${server.hostKeySha256} `,
      digest.toString('base64'),
      hex.toUpperCase(),
      hex.match(/../g)!.join(':'),
    ].entries()) {
      const outcome = await deliver(
        sftpTransport({ host_key_sha256: fingerprint }),
        doc(`fp-${n}.x12`),
        ctx,
      );
      expect([fingerprint, outcome.error]).toEqual([fingerprint, null]);
    }
  });

  it('refuses a server whose host key does not match, once, and sends nothing', async () => {
    const impostor = await startSftpServer({ root, username: USERNAME, password: PASSWORD });
    try {
      const outcome = await deliver(
        // The fingerprint of the real server, but the impostor answers on this port.
        sftpTransport({ port: impostor.port, host_key_sha256: server.hostKeySha256 }),
        doc('mitm.x12'),
        ctx,
      );
      expect(outcome.success).toBe(false);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
      expect(outcome.error).toBe(
        `EHOSTKEY: host key of 127.0.0.1:${impostor.port} does not match host_key_sha256; ` +
          `the server presented ssh-ed25519 ${impostor.hostKeySha256}`,
      );
      expect(await readdir(join(root, 'outbound'))).not.toContain('mitm.x12');
    } finally {
      await impostor.close();
    }
  });

  it('does not send the password to a server with the wrong host key', async () => {
    let passwordsSeen = 0;
    const impostor = await startSftpServer({
      root,
      username: USERNAME,
      password: PASSWORD,
      onPassword: () => (passwordsSeen += 1),
    });
    try {
      const wrong = Buffer.alloc(32, 7).toString('hex');
      const outcome = await deliver(
        sftpTransport({ port: impostor.port, host_key_sha256: wrong }),
        doc('mitm2.x12'),
        ctx,
      );
      expect(outcome.error).toMatch(/^EHOSTKEY: /);
      expect(passwordsSeen).toBe(0);
    } finally {
      await impostor.close();
    }
  });

  it.each([
    ['missing', undefined],
    ['empty', '  '],
  ])('refuses to connect at all when the host key is %s', async (_name, fingerprint) => {
    let passwords = 0;
    const counting = await startSftpServer({
      root,
      username: USERNAME,
      password: PASSWORD,
      onPassword: () => (passwords += 1),
    });
    try {
      const outcome = await deliver(
        sftpTransport({ port: counting.port, host_key_sha256: fingerprint }),
        doc('nokey.x12'),
        ctx,
      );
      expect(outcome.success).toBe(false);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
      expect(outcome.error).toBe(
        `EHOSTKEY: no host_key_sha256 is configured for sftp 127.0.0.1:${counting.port}; ` +
          `refusing to connect to an unverified server (ssh-keyscan -p ${counting.port} ` +
          '127.0.0.1 | ssh-keygen -lf - prints it)',
      );
      expect(counting.connections()).toBe(0);
      expect(passwords).toBe(0);
    } finally {
      await counting.close();
    }
  });

  it('refuses a host_key_sha256 that is not a SHA-256 fingerprint', async () => {
    const outcome = await deliver(
      sftpTransport({ host_key_sha256: 'SHA1:abcdef' }),
      doc('badkey.x12'),
      ctx,
    );
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.error).toBe(
      `EHOSTKEY: host_key_sha256 for sftp 127.0.0.1:${server.port} is not a SHA-256 fingerprint (SHA256:… or 64 hex digits)`,
    );
  });

  it('refuses a file name that would leave the directory', async () => {
    const outcome = await deliver(sftpTransport(), doc('../escape.x12'), ctx);
    expect(outcome.error).toBe('EINVAL: invalid file name "../escape.x12"');
    expect(await readdir(root)).not.toContain('escape.x12');
  });

  it('reports an unusable port without retrying', async () => {
    const outcome = await deliver(sftpTransport({ port: 70_000 }), doc('port.x12'), ctx);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
    expect(outcome.error).toMatch(/^ERR_SOCKET_BAD_PORT: /);
  });

  it('retries and then fails when the server is down', async () => {
    const down = await startSftpServer({ root, username: USERNAME, password: PASSWORD });
    await down.close();
    const outcome = await deliver(sftpTransport({ port: down.port }), doc('down.x12'), ctx);

    expect(outcome.success).toBe(false);
    expect(outcome.error).toMatch(/^ECONNREFUSED: /);
    expect(outcome.attempts.map((a) => a.status)).toEqual(['RETRY', 'RETRY', 'FAILURE']);
  });

  it('times out a server that never completes the handshake', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => {
      sockets.add(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      const outcome = await deliver(sftpTransport({ port }), doc('slow.x12'), {
        ...ctx,
        policy: { ...ctx.policy, attemptTimeoutMs: 200, totalBudgetMs: 1_000, maxAttempts: 2 },
      });

      expect(outcome.success).toBe(false);
      expect(outcome.error).toMatch(/^ETIMEDOUT: /);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['RETRY', 'FAILURE']);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
