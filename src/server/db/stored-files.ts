import * as dataDirStore from '../core/file-store';
import type { ServiceContext } from '../core/context';
import { engineOf } from './engine';
import * as postgresStore from './stored-files.postgres';

/**
 * Where stored documents (bills of lading) live: the data dir on SQLite (core/file-store), the
 * database on PostgreSQL (./stored-files.postgres), where several processes serve one central
 * and none may depend on its own disk. Same digests, same checks, either way.
 */
type FileStoreContext = Pick<ServiceContext, 'db' | 'dataDir' | 'clock'>;

export function storeFile(
  ctx: FileStoreContext,
  bytes: Uint8Array,
): Promise<dataDirStore.StoredDocument> {
  return engineOf(ctx.db) === 'postgres'
    ? postgresStore.storeDocument(ctx.db, bytes, ctx.clock.now().toISOString())
    : dataDirStore.storeDocument(ctx.dataDir, bytes);
}

export function readStoredFile(ctx: FileStoreContext, sha256: string): Promise<Buffer> {
  return engineOf(ctx.db) === 'postgres'
    ? postgresStore.readDocument(ctx.db, sha256)
    : dataDirStore.readDocument(ctx.dataDir, sha256);
}

/** The stored file's size in bytes, or null when this store does not have it. */
export function storedFileSize(ctx: FileStoreContext, sha256: string): Promise<number | null> {
  return engineOf(ctx.db) === 'postgres'
    ? postgresStore.storedDocumentSize(ctx.db, sha256)
    : dataDirStore.storedDocumentSize(ctx.dataDir, sha256);
}
