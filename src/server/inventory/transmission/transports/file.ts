/**
 * Writes an outbound document into a local (or mounted) directory: one attempt, no retries.
 * The write is atomic — temp file, fsync, rename — so a watcher never reads half a file.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AttemptResult } from '../retry';
import type { OutboundDocument, TransportConfig } from '../types';
import {
  codedErrorText,
  errorCodeOf,
  errorMessageOf,
  failure,
  invalidFileNameError,
  success,
} from './failure';

type FileTransport = Extract<TransportConfig, { type: 'file' }>;

/** Resource exhaustion or a locked file (Windows, scanners) can clear up by the next try. */
const TRANSIENT_FILE_CODES: ReadonlySet<string> = new Set(['EBUSY', 'EAGAIN', 'EMFILE', 'ENFILE']);

/** Where a document lands: relative directories live under the app's data directory. */
export function fileTargetPath(
  transport: FileTransport,
  fileName: string,
  dataDir: string,
): string {
  return join(resolve(dataDir, transport.directory), fileName);
}

/**
 * Whether a relative `directory` leaves the data dir through `..` (`../elsewhere`,
 * `outbox/../../x`). Absolute directories are the administrator's explicit choice and allowed.
 */
export function climbsOutOfDataDir(directory: string): boolean {
  if (isAbsolute(directory)) return false;
  // Any absolute base will do: only `..` segments can lead out of it.
  const base = resolve(sep, 'data-dir');
  const path = relative(base, resolve(base, directory));
  return path === '..' || path.startsWith(`..${sep}`) || isAbsolute(path);
}

export function climbingDirectoryError(directory: string): string {
  return (
    `file transport directory ${JSON.stringify(directory)} climbs out of the data dir with ` +
    "'..'; use a folder inside the data dir or an absolute path"
  );
}

export async function attemptFile(
  transport: FileTransport,
  doc: OutboundDocument,
  dataDir: string,
): Promise<AttemptResult> {
  const finalPath = fileTargetPath(transport, doc.fileName, dataDir);
  const requestUrl = pathToFileURL(finalPath).href;
  const nameError = invalidFileNameError(doc.fileName);
  if (nameError) return failure(requestUrl, nameError, false);
  // Checked again here: connections stored before the seed import refused this are still sent.
  if (climbsOutOfDataDir(transport.directory)) {
    return failure(requestUrl, `EINVAL: ${climbingDirectoryError(transport.directory)}`, false);
  }

  try {
    await mkdir(dirname(finalPath), { recursive: true });
    await writeAtomically(finalPath, doc.body);
    return success(requestUrl);
  } catch (err) {
    const code = errorCodeOf(err) ?? 'EIO';
    return failure(
      requestUrl,
      codedErrorText(code, errorMessageOf(err)),
      TRANSIENT_FILE_CODES.has(code),
    );
  }
}

async function writeAtomically(finalPath: string, body: string): Promise<void> {
  // Same directory as the target, so the rename never crosses file systems.
  const tempPath = `${finalPath}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(tempPath, 'wx');
    try {
      await handle.writeFile(body, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tempPath, finalPath);
  } catch (err) {
    await rm(tempPath, { force: true }).catch(() => {});
    throw err;
  }
  await syncDirectory(dirname(finalPath));
}

/** Makes the rename itself durable. Windows cannot open directories, so this is best effort. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file is already in place; only crash-durability of the rename is at stake.
  }
}
