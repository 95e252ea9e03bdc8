import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';
import { documentsDir, sha256Of } from '../../core/file-store';
import { FILE_STORE_TABLE } from './postgres-rules';

export interface FilesCopied {
  /** False when this release keeps files in the data dir on PostgreSQL too. */
  intoDatabase: boolean;
  files: number;
  bytes: number;
  /** Files whose content does not match their name's digest: not copied, named in the summary. */
  damaged: string[];
}

const STORED_NAME = /^([0-9a-f]{64})\.pdf$/;

/**
 * BOL files and stored documents (`<data-dir>/documents/sha256/<hash>.pdf`) into the database's
 * file store, inside the copy's transaction, one file a statement (a file is up to 10 MB). Each
 * is checked against its digest first, as the service checks it before serving it.
 */
export async function copyFiles(
  client: pg.Client,
  dataDir: string,
  targetTables: string[],
): Promise<FilesCopied> {
  const copied: FilesCopied = { intoDatabase: false, files: 0, bytes: 0, damaged: [] };
  const dir = documentsDir(dataDir);
  if (!targetTables.includes(FILE_STORE_TABLE)) return copied;
  copied.intoDatabase = true;
  if (!existsSync(dir)) return copied;
  for (const name of (await readdir(dir)).sort()) {
    const sha256 = STORED_NAME.exec(name)?.[1];
    if (!sha256) continue; // temp files of an interrupted write
    const path = join(dir, name);
    const bytes = await readFile(path);
    if (sha256Of(bytes) !== sha256) {
      copied.damaged.push(name);
      continue;
    }
    const { mtime } = await stat(path);
    await client.query(
      `INSERT INTO ${FILE_STORE_TABLE} (sha256, content, size, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (sha256) DO NOTHING`,
      [sha256, bytes, bytes.byteLength, mtime.toISOString()],
    );
    copied.files += 1;
    copied.bytes += bytes.byteLength;
  }
  return copied;
}
