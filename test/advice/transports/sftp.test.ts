import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliver, type DeliverContext } from '../../../src/main/advice/transports';
import type { OutboundDocument, TransportConfig } from '../../../src/main/advice/types';
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
      requestUrl: `sftp://edi-partner@127.0.0.1:${server.port}/outbound/846_000000101.x12`,
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
      const outcome = await deliver(sftpTransport({ port: readOnly.port }), doc('ro.x12'), ctx);
      expect(outcome.success).toBe(false);
      expect(outcome.attempts.map((a) => a.status)).toEqual(['FAILURE']);
      expect(outcome.error).toBe(
        'EACCES: Write stream error: Permission denied /outbound/ro.x12.part',
      );
    } finally {
      await readOnly.close();
    }
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
