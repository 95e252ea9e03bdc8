/**
 * A real SFTP server on 127.0.0.1 for tests, serving a directory on disk. Implements the
 * requests ssh2-sftp-client needs for put/rename/exists/stat/list/delete/mkdir.
 * Rename refuses to replace an existing file, as OpenSSH does without posix-rename.
 */
import {
  lstat,
  mkdir,
  open,
  readdir,
  rename,
  rm,
  rmdir,
  stat,
  type FileHandle,
} from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join, posix } from 'node:path';
import ssh2 from 'ssh2';
import type { Attributes, Connection, FileEntry, SFTPWrapper } from 'ssh2';

const { Server, utils } = ssh2;
const STATUS = utils.sftp.STATUS_CODE;

export interface SftpServerOptions {
  /** Directory on disk that is `/` for the client. */
  root: string;
  username: string;
  password: string;
  /** Answer PERMISSION_DENIED to every attempt to create or change files. */
  readOnly?: boolean;
  /** Called whenever a client sends a password (to prove when none was sent). */
  onPassword?: () => void;
  /** An OpenSSH public key the user may also log in with (publickey authentication). */
  publicKey?: string;
  /**
   * Asked before each READDIR and READ request: true cuts every connection there, as a server
   * or network going away in the middle of a listing or a download would.
   */
  dropAt?: (request: 'READDIR' | 'READ') => boolean;
  /** Called with the path of each STAT request before it is answered (a test's race goes here). */
  beforeStat?: (path: string) => void;
}

export interface RunningSftpServer {
  port: number;
  /** The host key's fingerprint as `ssh-keygen -lf` prints it: `SHA256:<base64, no padding>`. */
  hostKeySha256: string;
  /** TCP connections accepted so far. */
  connections: () => number;
  close: () => Promise<void>;
}

type OpenHandle =
  { kind: 'file'; file: FileHandle } | { kind: 'dir'; entries: FileEntry[]; listed: boolean };

/**
 * A fresh ed25519 host key. ssh2 now and then cannot parse a key its own generator wrote
 * ("Malformed OpenSSH private key"), so a few tries are made before giving up.
 */
function generateHostKey() {
  let failure: Error | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const hostKey = utils.generateKeyPairSync('ed25519').private;
    const parsed = utils.parseKey(hostKey);
    if (!(parsed instanceof Error))
      return { hostKey, publicKey: Array.isArray(parsed) ? parsed[0]! : parsed };
    failure = parsed;
  }
  throw failure!;
}

export async function startSftpServer(options: SftpServerOptions): Promise<RunningSftpServer> {
  const { hostKey, publicKey } = generateHostKey();
  const hostKeySha256 = `SHA256:${createHash('sha256')
    .update(publicKey.getPublicSSH())
    .digest('base64')
    .replace(/=+$/, '')}`;
  // A plain TCP listener we own, so close() (and a dropAt fault) can cut every open socket.
  const sockets = new Set<Socket>();
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const ssh = new Server({ hostKeys: [hostKey] }, (connection) =>
    serveConnection(connection, options, dropAll),
  );

  let accepted = 0;
  const tcp = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    ssh.injectSocket(socket);
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(0, '127.0.0.1', () => resolve());
  });
  const address = tcp.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP port');

  return {
    port: address.port,
    hostKeySha256,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        tcp.close(() => resolve());
      }),
  };
}

function serveConnection(
  connection: Connection,
  options: SftpServerOptions,
  dropAll: () => void,
): void {
  connection.on('error', () => {
    // Clients going away abruptly is part of what the tests exercise.
  });
  const allowedKey = options.publicKey ? utils.parseKey(options.publicKey) : null;
  if (allowedKey instanceof Error) throw allowedKey;
  const publicKey = Array.isArray(allowedKey) ? allowedKey[0]! : allowedKey;
  connection.on('authentication', (ctx) => {
    if (ctx.method === 'publickey' && publicKey && ctx.username === options.username) {
      const sameKey =
        ctx.key.algo === publicKey.type && ctx.key.data.equals(publicKey.getPublicSSH());
      if (!sameKey) return ctx.reject(['password', 'publickey']);
      // Without a signature the client only asks whether the key would do.
      if (!ctx.signature) return ctx.accept();
      const signed = publicKey.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) === true;
      return signed ? ctx.accept() : ctx.reject(['password', 'publickey']);
    }
    if (ctx.method === 'password') options.onPassword?.();
    const passwordMatches =
      ctx.method === 'password' &&
      ctx.username === options.username &&
      ctx.password === options.password;
    if (passwordMatches) ctx.accept();
    else ctx.reject(publicKey ? ['password', 'publickey'] : ['password']);
  });
  connection.on('ready', () => {
    connection.on('session', (acceptSession) => {
      const session = acceptSession();
      session.on('sftp', (acceptSftp) => serveSftp(acceptSftp(), options, dropAll));
    });
  });
}

function serveSftp(
  sftp: SFTPWrapper,
  { root, readOnly = false, dropAt, beforeStat }: SftpServerOptions,
  dropAll: () => void,
): void {
  /** True (and every connection cut) when the test asks for a drop at this request. */
  const dropped = (request: 'READDIR' | 'READ'): boolean => {
    if (!dropAt?.(request)) return false;
    dropAll();
    return true;
  };
  const handles = new Map<number, OpenHandle>();
  let nextHandleId = 1;

  /** Client paths are virtual, rooted at `/`; `..` can never climb above root. */
  const virtualPath = (path: string): string => posix.resolve('/', path);
  const diskPath = (path: string): string => join(root, virtualPath(path));

  const newHandle = (value: OpenHandle): Buffer => {
    const id = nextHandleId++;
    handles.set(id, value);
    const handle = Buffer.alloc(4);
    handle.writeUInt32BE(id);
    return handle;
  };
  const handleOf = (handle: Buffer): OpenHandle | undefined =>
    handle.length === 4 ? handles.get(handle.readUInt32BE()) : undefined;

  /** True (and answered) when a read-only server must refuse this change. */
  const refusedAsReadOnly = (reqId: number): boolean => {
    if (readOnly) sftp.status(reqId, STATUS.PERMISSION_DENIED, 'Permission denied');
    return readOnly;
  };

  /** Runs a request; any fs error becomes the matching SFTP status. */
  const respond = (reqId: number, work: () => Promise<void>): void => {
    work().catch((err: NodeJS.ErrnoException) => sftp.status(reqId, statusFor(err), err.message));
  };

  sftp.on('REALPATH', (reqId, path) => {
    const resolved = virtualPath(path);
    sftp.name(reqId, [{ filename: resolved, longname: resolved, attrs: {} as Attributes }]);
  });
  sftp.on('STAT', (reqId, path) =>
    respond(reqId, async () => {
      beforeStat?.(virtualPath(path));
      sftp.attrs(reqId, toAttributes(await stat(diskPath(path))));
    }),
  );
  sftp.on('LSTAT', (reqId, path) =>
    respond(reqId, async () => sftp.attrs(reqId, toAttributes(await lstat(diskPath(path))))),
  );
  sftp.on('FSTAT', (reqId, handle) =>
    respond(reqId, async () => {
      const open = handleOf(handle);
      if (open?.kind !== 'file') return sftp.status(reqId, STATUS.FAILURE, 'bad handle');
      sftp.attrs(reqId, toAttributes(await open.file.stat()));
    }),
  );
  sftp.on('OPEN', (reqId, path, flags, attrs) =>
    respond(reqId, async () => {
      const mode = utils.sftp.flagsToString(flags);
      if (mode === null) return sftp.status(reqId, STATUS.FAILURE, 'bad open flags');
      if (mode !== 'r' && refusedAsReadOnly(reqId)) return;
      const file = await open(diskPath(path), mode, attrs.mode ?? 0o644);
      sftp.handle(reqId, newHandle({ kind: 'file', file }));
    }),
  );
  sftp.on('WRITE', (reqId, handle, offset, data) =>
    respond(reqId, async () => {
      const open = handleOf(handle);
      if (open?.kind !== 'file') return sftp.status(reqId, STATUS.FAILURE, 'bad handle');
      await open.file.write(data, 0, data.length, offset);
      sftp.status(reqId, STATUS.OK);
    }),
  );
  sftp.on('READ', (reqId, handle, offset, length) =>
    respond(reqId, async () => {
      if (dropped('READ')) return;
      const open = handleOf(handle);
      if (open?.kind !== 'file') return sftp.status(reqId, STATUS.FAILURE, 'bad handle');
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await open.file.read(buffer, 0, length, offset);
      if (bytesRead === 0) sftp.status(reqId, STATUS.EOF);
      else sftp.data(reqId, buffer.subarray(0, bytesRead));
    }),
  );
  sftp.on('CLOSE', (reqId, handle) =>
    respond(reqId, async () => {
      const open = handleOf(handle);
      if (!open) return sftp.status(reqId, STATUS.FAILURE, 'bad handle');
      handles.delete(handle.readUInt32BE());
      if (open.kind === 'file') await open.file.close();
      sftp.status(reqId, STATUS.OK);
    }),
  );
  sftp.on('OPENDIR', (reqId, path) =>
    respond(reqId, async () => {
      const dir = diskPath(path);
      const names = await readdir(dir);
      const entries = await Promise.all(
        names.map(async (filename) => {
          const attrs = toAttributes(await lstat(join(dir, filename)));
          return { filename, longname: filename, attrs };
        }),
      );
      sftp.handle(reqId, newHandle({ kind: 'dir', entries, listed: false }));
    }),
  );
  sftp.on('READDIR', (reqId, handle) => {
    if (dropped('READDIR')) return;
    const open = handleOf(handle);
    if (open?.kind !== 'dir') return sftp.status(reqId, STATUS.FAILURE, 'bad handle');
    if (open.listed || open.entries.length === 0) return sftp.status(reqId, STATUS.EOF);
    open.listed = true;
    sftp.name(reqId, open.entries);
  });
  sftp.on('RENAME', (reqId, oldPath, newPath) =>
    respond(reqId, async () => {
      if (refusedAsReadOnly(reqId)) return;
      const target = diskPath(newPath);
      if (await exists(target)) return sftp.status(reqId, STATUS.FAILURE, 'target exists');
      await rename(diskPath(oldPath), target);
      sftp.status(reqId, STATUS.OK);
    }),
  );
  sftp.on('MKDIR', (reqId, path) =>
    respond(reqId, async () => {
      if (refusedAsReadOnly(reqId)) return;
      await mkdir(diskPath(path));
      sftp.status(reqId, STATUS.OK);
    }),
  );
  sftp.on('RMDIR', (reqId, path) =>
    respond(reqId, async () => {
      if (refusedAsReadOnly(reqId)) return;
      await rmdir(diskPath(path));
      sftp.status(reqId, STATUS.OK);
    }),
  );
  sftp.on('REMOVE', (reqId, path) =>
    respond(reqId, async () => {
      if (refusedAsReadOnly(reqId)) return;
      await rm(diskPath(path));
      sftp.status(reqId, STATUS.OK);
    }),
  );
  // Attribute changes (chmod, times) do not matter to these tests; accept them.
  sftp.on('SETSTAT', (reqId) => sftp.status(reqId, STATUS.OK));
  sftp.on('FSETSTAT', (reqId) => sftp.status(reqId, STATUS.OK));
  sftp.on('close', () => {
    for (const open of handles.values())
      if (open.kind === 'file') open.file.close().catch(() => {});
    handles.clear();
  });
}

function toAttributes(stats: Stats): Attributes {
  return {
    mode: stats.mode,
    uid: stats.uid,
    gid: stats.gid,
    size: stats.size,
    atime: Math.floor(stats.atimeMs / 1000),
    mtime: Math.floor(stats.mtimeMs / 1000),
  };
}

function statusFor(err: NodeJS.ErrnoException): number {
  if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return STATUS.NO_SUCH_FILE;
  if (err.code === 'EACCES' || err.code === 'EPERM') return STATUS.PERMISSION_DENIED;
  return STATUS.FAILURE;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}
