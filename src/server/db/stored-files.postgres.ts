import { sql } from 'kysely';
import { sha256Of, type StoredDocument } from '../core/file-store';
import type { Db } from './db';

/**
 * PostgreSQL twin of core/file-store's data-dir store: the same content-addressed files in the
 * `stored_files` table (migration 0017_stored_files), so every central process serves every
 * file. The same bytes are stored once; a row is never updated.
 */
export async function storeDocument(
  db: Db,
  bytes: Uint8Array,
  at: string,
): Promise<StoredDocument> {
  const sha256 = sha256Of(bytes);
  const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  await sql`INSERT INTO stored_files (sha256, content, size, created_at)
    VALUES (${sha256}, ${content}, ${bytes.byteLength}, ${at})
    ON CONFLICT (sha256) DO NOTHING`.execute(db);
  return { sha256, size: bytes.byteLength };
}

/**
 * The stored bytes, checked against their digest. A file not there fails with code ENOENT, as
 * the data-dir store does.
 */
export async function readDocument(db: Db, sha256: string): Promise<Buffer> {
  const { rows } = await sql<{
    content: Buffer;
  }>`SELECT content FROM stored_files WHERE sha256 = ${sha256}`.execute(db);
  const bytes = rows[0]?.content;
  if (!bytes) {
    throw Object.assign(new Error(`stored document ${sha256} not found`), { code: 'ENOENT' });
  }
  if (sha256Of(bytes) !== sha256) throw new Error(`stored document ${sha256} is damaged`);
  return bytes;
}

/** The stored file's size in bytes, or null when there is no row (its content is not read). */
export async function storedDocumentSize(db: Db, sha256: string): Promise<number | null> {
  const { rows } = await sql<{
    size: number;
  }>`SELECT size FROM stored_files WHERE sha256 = ${sha256}`.execute(db);
  return rows[0] ? Number(rows[0].size) : null;
}
