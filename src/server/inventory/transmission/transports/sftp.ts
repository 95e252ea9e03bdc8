/**
 * Uploads an outbound document over SFTP: one attempt, no retries (see ../retry).
 * The file is written as `<name>.part` and renamed, so a partner never picks up half a file.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import { posix } from 'node:path';
import SftpClient from 'ssh2-sftp-client';
import { HOST_KEY_SHA256_PATTERN } from '../../../../shared/seed';
import type { AttemptResult } from '../retry';
import type { OutboundDocument, TransportConfig } from '../types';
import {
  TRANSIENT_NETWORK_CODES,
  codedErrorText,
  errorCodeOf,
  errorMessageOf,
  failure,
  invalidFileNameError,
  success,
} from './failure';

type SftpTransport = Extract<TransportConfig, { type: 'sftp' }>;

/** ssh2 tags errors with where they happened: 'client-authentication', 'client-socket', … */
type SshError = Error & { level?: string };

const DEFAULT_SFTP_PORT = 22;
/** How long a polite goodbye may take before the socket is simply destroyed. */
const GRACEFUL_END_MS = 1000;

/** SFTP status codes (draft-ietf-secsh-filexfer-02) as Node-style codes. */
const SFTP_STATUS_CODES: Readonly<Record<string, { code: string; transient: boolean }>> = {
  '2': { code: 'ENOENT', transient: false },
  '3': { code: 'EACCES', transient: false },
  '4': { code: 'EFAILURE', transient: false },
  '5': { code: 'EBADMSG', transient: false },
  '6': { code: 'ENOTCONN', transient: true },
  '7': { code: 'ECONNRESET', transient: true },
  '8': { code: 'EOPNOTSUPP', transient: false },
};

/** ssh2-sftp-client prefixes messages with its method name (`_put: `, `getConnection: `). */
const LIBRARY_STEP_PREFIX = /^_?[A-Za-z]+: /;

/** The client library calls these on stray connection events; the attempt reports them itself. */
const IGNORE_GLOBAL_EVENTS = { error: () => {}, end: () => {}, close: () => {} };

/** A failure whose code, text and retry-worthiness this module decided itself. */
class SftpFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

interface RemoteTarget {
  directory: string;
  finalPath: string;
  partPath: string;
}

export async function attemptSftp(
  transport: SftpTransport,
  doc: OutboundDocument,
  timeoutMs: number,
): Promise<AttemptResult> {
  const port = transport.port ?? DEFAULT_SFTP_PORT;
  const target = remoteTarget(transport.directory, doc.fileName);
  const requestUrl = sftpRequestUrl(transport.username, transport.host, port, target.finalPath);
  const nameError = invalidFileNameError(doc.fileName);
  if (nameError) return failure(requestUrl, nameError, false);
  const hostKey = expectedHostKey(transport, port);
  if ('error' in hostKey) return failure(requestUrl, hostKey.error, false);

  // Owning the socket lets a timed-out attempt be cut off at any stage, not just the handshake.
  let socket: Socket;
  try {
    socket = connectTcp({ host: transport.host, port });
  } catch (err) {
    // Thrown synchronously only for unusable settings, such as a port out of range.
    return failure(
      requestUrl,
      codedErrorText(errorCodeOf(err) ?? 'EINVAL', errorMessageOf(err)),
      false,
    );
  }
  const client = new SftpClient('advice', IGNORE_GLOBAL_EVENTS);
  let firstSshError: SshError | undefined;
  // The library rewraps errors and drops ssh2's `level`, which tells auth from network trouble.
  client.on('error', (err: SshError) => {
    firstSshError ??= err;
  });

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new SftpFailure('ETIMEDOUT', `sftp upload timed out after ${timeoutMs} ms`, true)),
      timeoutMs,
    );
  });
  const hostCheck: HostKeyCheck = { expected: hostKey.digest, presented: null };
  try {
    const upload = uploadAtomically(client, socket, transport, port, doc, target, {
      timeoutMs,
      hostCheck,
    });
    upload.catch(() => {}); // the race below may abandon it; its error is reported via the race
    await Promise.race([upload, timedOut]);
    return success(requestUrl);
  } catch (err) {
    const { text, transient } = describeFailure(
      err,
      firstSshError,
      socket,
      transport,
      port,
      hostCheck,
    );
    return failure(requestUrl, text, transient);
  } finally {
    clearTimeout(timer);
    await closeConnection(client, socket);
  }
}

async function uploadAtomically(
  client: SftpClient,
  socket: Socket,
  transport: SftpTransport,
  port: number,
  doc: OutboundDocument,
  target: RemoteTarget,
  { timeoutMs, hostCheck }: { timeoutMs: number; hostCheck: HostKeyCheck },
): Promise<void> {
  await client.connect({
    sock: socket,
    host: transport.host,
    port,
    username: transport.username,
    password: transport.password,
    privateKey: transport.privateKey,
    readyTimeout: timeoutMs,
    // Checked before any credential is sent: a wrong key ends the handshake.
    hostVerifier: (key: Buffer) => verifyHostKey(hostCheck, key),
  });
  await assertDirectory(client, target.directory);
  try {
    await client.put(Buffer.from(doc.body, 'utf8'), target.partPath);
    await moveIntoPlace(client, target.partPath, target.finalPath);
  } catch (err) {
    // Best effort: leave no stale `.part` behind while the connection still works.
    await client.delete(target.partPath, true).catch(() => {});
    throw err;
  }
}

/** The fingerprint the connection expects, and what the server showed (for the error text). */
interface HostKeyCheck {
  expected: Buffer;
  presented: { type: string; fingerprint: string } | null;
}

/** The configured fingerprint as 32 bytes, or why the transport must not connect at all. */
function expectedHostKey(
  transport: SftpTransport,
  port: number,
): { digest: Buffer } | { error: string } {
  const where = `${transport.host}:${port}`;
  const configured = transport.host_key_sha256?.trim() ?? '';
  if (configured === '') {
    return {
      error:
        `EHOSTKEY: no host_key_sha256 is configured for sftp ${where}; refusing to connect ` +
        `to an unverified server (ssh-keyscan -p ${port} ${transport.host} | ssh-keygen -lf - ` +
        'prints it)',
    };
  }
  const digest = HOST_KEY_SHA256_PATTERN.test(configured) ? hostKeyDigest(configured) : null;
  if (digest?.length !== 32) {
    return {
      error: `EHOSTKEY: host_key_sha256 for sftp ${where} is not a SHA-256 fingerprint (SHA256:… or 64 hex digits)`,
    };
  }
  return { digest };
}

/** `SHA256:base64`, bare base64 (padded or not) or hex (with or without colons) to bytes. */
export function hostKeyDigest(fingerprint: string): Buffer {
  const text = fingerprint.trim();
  const hex = text.replaceAll(':', '');
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  return Buffer.from(text.replace(/^SHA256:/, ''), 'base64');
}

/** OpenSSH's way of showing a key: `SHA256:` and the unpadded base64 of its SHA-256. */
export function openSshFingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

function verifyHostKey(check: HostKeyCheck, keyBlob: Buffer): boolean {
  const digest = createHash('sha256').update(keyBlob).digest();
  const matches = timingSafeEqual(digest, check.expected);
  if (!matches)
    check.presented = { type: keyType(keyBlob), fingerprint: openSshFingerprint(keyBlob) };
  return matches;
}

/** The SSH wire format starts with the key type as a length-prefixed string (RFC 4253 6.6). */
function keyType(keyBlob: Buffer): string {
  if (keyBlob.length < 4) return 'unknown';
  const length = keyBlob.readUInt32BE(0);
  return length > 0 && length < 64 && keyBlob.length >= 4 + length
    ? keyBlob.subarray(4, 4 + length).toString('latin1')
    : 'unknown';
}

/** A missing directory is a configuration problem: report it plainly rather than create it. */
async function assertDirectory(client: SftpClient, directory: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await client.stat(directory)).isDirectory;
  } catch (err) {
    if (errorCodeOf(err) !== 'ENOENT') throw err;
    throw new SftpFailure('ENOENT', `remote directory ${directory} does not exist`, false);
  }
  if (!isDirectory) {
    throw new SftpFailure('ENOTDIR', `remote path ${directory} is not a directory`, false);
  }
}

/**
 * Prefer posix-rename (OpenSSH), which atomically replaces an existing file. Plain SFTP
 * rename refuses to overwrite, yet a re-delivery of the same document must still land.
 */
async function moveIntoPlace(client: SftpClient, partPath: string, finalPath: string) {
  try {
    await client.posixRename(partPath, finalPath);
    return;
  } catch (err) {
    if (!/does not support/i.test(errorMessageOf(err))) throw err;
  }
  try {
    await client.rename(partPath, finalPath);
  } catch (err) {
    if ((await client.exists(finalPath)) !== '-') throw err;
    await client.delete(finalPath);
    await client.rename(partPath, finalPath);
  }
}

async function closeConnection(client: SftpClient, socket: Socket): Promise<void> {
  if (!socket.destroyed) {
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, GRACEFUL_END_MS);
    });
    await Promise.race([client.end().catch(() => {}), gaveUp]);
    clearTimeout(timer);
  }
  socket.destroy();
}

/** Auth, permission and path problems need a human; a dropped or refused connection may heal. */
function describeFailure(
  err: unknown,
  sshError: SshError | undefined,
  socket: Socket,
  transport: SftpTransport,
  port: number,
  hostCheck: HostKeyCheck,
): { text: string; transient: boolean } {
  if (err instanceof SftpFailure) {
    return { text: `${err.code}: ${err.message}`, transient: err.transient };
  }
  if (hostCheck.presented) {
    // Possibly someone in the middle: a person must look, so trying again would not help.
    const { type, fingerprint } = hostCheck.presented;
    return {
      text:
        `EHOSTKEY: host key of ${transport.host}:${port} does not match host_key_sha256; ` +
        `the server presented ${type} ${fingerprint}`,
      transient: false,
    };
  }
  if (sshError?.level === 'client-authentication') {
    const who = `${transport.username}@${transport.host}:${port}`;
    return { text: `EAUTH: authentication failed for ${who}`, transient: false };
  }
  if (sshError?.level === 'client-timeout') {
    return { text: `ETIMEDOUT: ${sshError.message}`, transient: true };
  }
  const code = errorCodeOf(err) ?? errorCodeOf(sshError);
  // Prefer ssh2's own error: the client library's copy adds its method name in front.
  const cause = sshError && errorCodeOf(sshError) === code ? sshError : err;
  const message = errorMessageOf(cause).replace(LIBRARY_STEP_PREFIX, '');
  const sftpStatus = code === undefined ? undefined : SFTP_STATUS_CODES[code];
  if (sftpStatus) {
    return { text: codedErrorText(sftpStatus.code, message), transient: sftpStatus.transient };
  }
  if (code !== undefined && TRANSIENT_NETWORK_CODES.has(code)) {
    return { text: codedErrorText(code, message), transient: true };
  }
  // The connection went away mid-transfer without a clearer cause: treat it as a network drop.
  if (socket.destroyed || socket.readyState !== 'open') {
    return { text: codedErrorText(code ?? 'ECONNRESET', message), transient: true };
  }
  return { text: codedErrorText(code ?? 'ESFTP', message), transient: false };
}

function remoteTarget(directory: string, fileName: string): RemoteTarget {
  const normalized = directory.trim() === '' ? '.' : posix.normalize(directory);
  const finalPath = posix.join(normalized, fileName);
  return { directory: normalized, finalPath, partPath: `${finalPath}.part` };
}

function sftpRequestUrl(username: string, host: string, port: number, remotePath: string): string {
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const pathPart = remotePath.startsWith('/') ? remotePath : `/${remotePath}`;
  return `sftp://${encodeURIComponent(username)}@${hostPart}:${port}${pathPart}`;
}
