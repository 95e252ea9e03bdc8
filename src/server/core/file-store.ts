import { createHash, randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR_MODE, DATA_FILE_MODE } from './file-modes';

/** A document kept under its content's SHA-256: the same bytes are stored once. */
export interface StoredDocument {
  sha256: string;
  size: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
const TEMP_PREFIX = '.tmp-';
/** A temp file this old was left by a process that died mid-write (a write takes well under a second). */
const STALE_TEMP_MS = 60 * 60 * 1000;
/** Folders whose stale temp files this process has already removed. */
const sweptDirs = new Set<string>();

export const documentsDir = (dataDir: string) => join(dataDir, 'documents', 'sha256');

export function documentPath(dataDir: string, sha256: string): string {
  if (!SHA256_HEX.test(sha256)) throw new Error(`not a SHA-256 digest: ${sha256}`);
  return join(documentsDir(dataDir), `${sha256}.pdf`);
}

export const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * Writes `bytes` to `<data-dir>/documents/sha256/<hash>.pdf` atomically: a private temp file
 * (0600), fsync, rename over the final name, fsync of the folder. A crash leaves either no file
 * or the whole one under its hash (at worst a stray `.tmp-*` file); a file already there is
 * the same content and is kept.
 */
export async function storeDocument(dataDir: string, bytes: Uint8Array): Promise<StoredDocument> {
  const sha256 = sha256Of(bytes);
  const target = documentPath(dataDir, sha256);
  const existing = await stat(target).catch(() => null);
  if (existing?.size === bytes.byteLength) return { sha256, size: bytes.byteLength };

  const dir = documentsDir(dataDir);
  await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
  await sweepStaleTempFiles(dir);
  const temp = join(dir, `${TEMP_PREFIX}${randomUUID()}`);
  try {
    const handle = await open(temp, 'wx', DATA_FILE_MODE);
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
  return { sha256, size: bytes.byteLength };
}

/** The stored bytes, checked against their digest (a damaged file is not served as the BOL). */
export async function readDocument(dataDir: string, sha256: string): Promise<Buffer> {
  const bytes = await readFile(documentPath(dataDir, sha256));
  if (sha256Of(bytes) !== sha256) throw new Error(`stored document ${sha256} is damaged`);
  return bytes;
}

/** The stored file's size in bytes, or null when it is not there (its content is not read). */
export async function storedDocumentSize(dataDir: string, sha256: string): Promise<number | null> {
  const info = await stat(documentPath(dataDir, sha256)).catch(() => null);
  return info?.size ?? null;
}

/** Once per process and folder: removes temp files that a killed process left behind. */
async function sweepStaleTempFiles(dir: string): Promise<void> {
  if (sweptDirs.has(dir)) return;
  sweptDirs.add(dir);
  const cutoff = Date.now() - STALE_TEMP_MS;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < cutoff) await rm(path, { force: true });
  }
}

/** Makes the rename durable; Windows cannot open folders for fsync, and NTFS journals it. */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
