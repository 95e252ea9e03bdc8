/**
 * An SFTP directory as an inbound source (order_documents.inbound {type: 'sftp'}). It connects
 * the way the outbound SFTP transport does (inventory's transports/sftp.ts): our own socket, the
 * host key checked against `host_key_sha256` before any credential is sent, the sealed password
 * or key opened only here. Every step has a deadline; past it the socket is destroyed, so a dead
 * or stalling server costs one timeout per pass and never holds the poller.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import { posix } from 'node:path';
import type { FileEntry, SFTPWrapper } from 'ssh2';
import SftpClient from 'ssh2-sftp-client';
import type { InboundSftpSettings } from '../../shared/order-documents';
import { openCredential } from '../core/sealed-order-documents';
import { hostKeyDigest, openSshFingerprint } from '../inventory';
import type { InboundSource } from './inbound-sources';

/** Default deadline of one step (connect, list, read, move). */
export const SFTP_STEP_TIMEOUT_MS = 15_000;
const IGNORE_GLOBAL_EVENTS = { error: () => {}, end: () => {}, close: () => {} };

/**
 * The directory's entries with their attributes. Not the client library's list(): it reads the
 * file type from the `ls -l` style long name, which servers other than OpenSSH do not all send.
 */
function readDirectory(client: SftpClient, directory: string): Promise<FileEntry[]> {
  const sftp = (client as unknown as { sftp: SFTPWrapper }).sftp;
  return new Promise((resolve, reject) =>
    sftp.readdir(directory, (error, list) => (error ? reject(error) : resolve(list))),
  );
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const isRegularFile = (mode: number | undefined) =>
  mode !== undefined && (mode & S_IFMT) === S_IFREG;

/** Why a pass over an SFTP directory stopped, in words a clerk can act on. */
export class InboundSourceError extends Error {}

export function sftpSource(
  settings: InboundSftpSettings,
  timeoutMs: number = SFTP_STEP_TIMEOUT_MS,
): InboundSource {
  const directory = posix.normalize(settings.directory);
  const where = `${settings.host}:${settings.port}`;
  const hostPart = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const base = `sftp://${encodeURIComponent(settings.username)}@${hostPart}:${settings.port}`;
  let session: Promise<{ client: SftpClient; socket: Socket }> | null = null;
  let socket: Socket | null = null;
  /** Rejects once the connection is gone: a step under way then ends at once, not at its deadline. */
  let closed: Promise<never> = new Promise<never>(() => {});
  let presentedKey: string | null = null;

  /** One step under the deadline; on timeout the connection is cut and the step fails. */
  async function step<T>(what: string, work: (client: SftpClient) => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        socket?.destroy();
        reject(
          new InboundSourceError(
            `The SFTP server ${where} did not answer within ${timeoutMs} ms (${what})`,
          ),
        );
      }, timeoutMs);
    });
    try {
      const running = (async () => {
        const { client } = await (session ??= connect());
        // A request the server dropped the connection under is never answered by the library.
        return Promise.race([work(client), closed]);
      })();
      running.catch(() => {}); // the race may abandon it
      return await Promise.race([running, deadline]);
    } catch (error) {
      if (error instanceof InboundSourceError) throw error;
      throw new InboundSourceError(describe(error, what));
    } finally {
      clearTimeout(timer);
    }
  }

  async function connect() {
    const expected = hostKeyDigest(settings.host_key_sha256);
    socket = connectTcp({ host: settings.host, port: settings.port });
    const opened = socket;
    closed = new Promise<never>((_, reject) =>
      opened.once('close', () => reject(new Error('the server closed the connection'))),
    );
    closed.catch(() => {}); // only a step under way listens
    const client = new SftpClient('inbound', IGNORE_GLOBAL_EVENTS);
    await client.connect({
      sock: socket,
      host: settings.host,
      port: settings.port,
      username: settings.username,
      password: openCredential(settings.password),
      privateKey: openCredential(settings.privateKey),
      readyTimeout: timeoutMs,
      // Checked before any credential is sent: a wrong key ends the handshake.
      hostVerifier: (key: Buffer) => {
        const digest = createHash('sha256').update(key).digest();
        const matches = digest.length === expected.length && timingSafeEqual(digest, expected);
        if (!matches) presentedKey = openSshFingerprint(key);
        return matches;
      },
    });
    return { client, socket };
  }

  function describe(error: unknown, what: string): string {
    if (presentedKey) {
      return `The host key of ${where} does not match host_key_sha256; the server presented ${presentedKey}`;
    }
    const message = (error as Error)?.message ?? String(error);
    if (/authentication/i.test(message)) {
      return `The SFTP server ${where} refused the login of ${settings.username}`;
    }
    return `SFTP ${where} (${what}): ${message.replace(/^_?[A-Za-z]+: /, '')}`;
  }

  const pathOf = (name: string) => posix.join(directory, name);

  return {
    kind: 'sftp',
    list: ({ now, settleMs, limit }) =>
      step('listing the directory', async (client) => {
        const entries = await readDirectory(client, directory);
        return entries
          .filter((e) => isRegularFile(e.attrs.mode))
          .filter((e) => !e.filename.startsWith('.') && !e.filename.endsWith('.part'))
          .filter((e) => now - e.attrs.mtime * 1000 >= settleMs)
          .map((e) => e.filename)
          .sort()
          .slice(0, limit);
      }),
    read: (name, maxBytes) =>
      step(`reading ${name}`, async (client) => {
        // Sized first: a huge file is never downloaded into memory.
        let size: number;
        try {
          ({ size } = await client.stat(pathOf(name)));
        } catch (error) {
          // Taken meanwhile (by the partner or another reader): passed over, not a fault.
          if ((error as { code?: unknown } | null)?.code === 'ENOENT') return { gone: true };
          throw error;
        }
        if (size > maxBytes) return { tooLargeBytes: size };
        const body = await client.get(pathOf(name));
        return { text: Buffer.isBuffer(body) ? body.toString('utf8') : String(body) };
      }),
    moveTo: (sub, name, reason) =>
      step(`moving ${name} to ${sub}/`, async (client) => {
        const folder = posix.join(directory, sub);
        if ((await client.exists(folder)) !== 'd') await client.mkdir(folder, true);
        let target = posix.join(folder, name);
        for (let n = 1; (await client.exists(target)) !== false; n++) {
          target = posix.join(folder, `${n}_${name}`);
        }
        await client.rename(pathOf(name), target);
        if (reason !== undefined) {
          await client.put(Buffer.from(`${reason}\n`, 'utf8'), `${target}.reason.txt`);
        }
      }),
    urlOf: (name) => `${base}${pathOf(name).startsWith('/') ? '' : '/'}${pathOf(name)}`,
    async close() {
      const open = session;
      session = null;
      if (!open) return;
      const opened = await open.catch(() => null);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        opened?.client.end().catch(() => {}),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000))),
      ]);
      clearTimeout(timer);
      socket?.destroy();
    },
  };
}
