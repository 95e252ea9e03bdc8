/**
 * Polled inbound directories: every enabled connection whose `order_documents.inbound` names a
 * folder (`{type: 'file', directory}`, relative to the data dir, like the file transport) or an
 * SFTP directory (`{type: 'sftp', …}`, ./inbound-sftp.ts) has its files taken in through the same
 * path as POST /api/v1/edi/inbound. A file taken in (whatever its sets' fate, duplicates too)
 * moves to `archive/`; a refused one (not X12, another addressee, no group, too large) to
 * `error/` with a `.reason.txt` beside it, on the same server. Every refused file is recorded for
 * the connection, so the EDI inbox lists it; one too large keeps no text, only its size
 * (./inbound-too-large.ts). A database failure leaves the file for the next pass; so does a
 * source that fails (a dead or slow server: every SFTP step has a deadline), which is logged and
 * recorded for the clerk (./inbound-poll-status.ts). No network I/O happens inside a database
 * transaction: the file is read, then ingested (one transaction), then moved. A file dealt with
 * whose move failed (or a crash between ingest and move) is only moved by a later pass, never
 * taken in twice: this process remembers it, and after a restart the stored rows say so (same
 * connection, file name and text; ./inbound-taken.ts).
 * On PostgreSQL a pass first takes the source's lease (./inbound-lease.ts), so two central
 * processes never take one file; a source another process is polling is left for the next pass.
 * A pass never throws (the loop is the outbox's: passes never overlap).
 */
import { resolve } from 'node:path';
import { INBOUND_MAX_BYTES } from '../../shared/edi-inbound';
import type { InboundSettings } from '../../shared/order-documents';
import type { ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';
import { startOutboxDrainer, type OutboxDrainer, type OutboxDrainerOptions } from '../inventory';
import { ingestInterchange } from './ingest';
import { noteSourceFailed, noteSourceReached, type PolledConnection } from './inbound-poll-status';
import { inboundSourceLease, type SourceLease } from './inbound-lease';
import {
  noteMoved,
  noteUnmoved,
  unmovedFile,
  type PolledFileIdentity,
  type UnmovedFile,
} from './inbound-unmoved';
import { storedPolledFile } from './inbound-taken';
import { recordTooLarge } from './inbound-too-large';
import { folderSource, type InboundSource } from './inbound-sources';
import { SFTP_STEP_TIMEOUT_MS, sftpSource } from './inbound-sftp';
import { orderDocumentSettingsOf } from './settings';
import { errorText } from './error-text';

export interface InboundPollOptions {
  /** A file changed more recently than this is left for the next pass (a partner still writing). */
  settleMs: number;
  /** Deadline of one SFTP step (connect, list, read, move). */
  sftpTimeoutMs?: number;
}

const DEFAULT_POLL: InboundPollOptions = { settleMs: 2_000, sftpTimeoutMs: SFTP_STEP_TIMEOUT_MS };
/** Files one pass takes per directory, so one big drop does not hold the loop. */
const FILES_PER_PASS = 50;

export interface PolledFile {
  connectionId: string;
  file: string;
  moved: 'archive' | 'error' | null;
  reason: string | null;
}

export async function pollInboundFolders(
  ctx: ServiceContext,
  options: InboundPollOptions = DEFAULT_POLL,
): Promise<PolledFile[]> {
  // Interchanges are taken in on the central (or a standalone install) only; their orders reach
  // the devices by sync. A workstation polling would move the files to error/ (ingest refuses).
  if (ctx.sync?.role === 'workstation') return [];
  const connections = await ctx.db
    .selectFrom('connections')
    .where('enabled', '=', 1)
    .where('order_documents_json', 'is not', null)
    .select(['id', 'organization_id', 'brand_id', 'retailer_id', 'sender', 'order_documents_json'])
    .orderBy('id')
    .execute();
  const results: PolledFile[] = [];
  for (const connection of connections) {
    const inbound = orderDocumentSettingsOf(connection.order_documents_json)?.inbound;
    if (!inbound) continue;
    const lease = inboundSourceLease(ctx.db, connection.id, leaseMsOf(options));
    // Another process polls this source now (PostgreSQL); or the database failed: next pass.
    if (!(await lease.hold().catch(leaseFailed))) continue;
    try {
      const source = sourceOf(ctx, inbound, options);
      results.push(...(await pollSource(ctx, connection, source, options, lease)));
    } finally {
      await lease.release();
    }
  }
  return results;
}

function leaseFailed(error: unknown): false {
  console.error(`inbound source lease not taken: ${(error as Error)?.message ?? String(error)}`);
  return false;
}

/**
 * A source's lease lasts well beyond one file's steps (read, ingest, move), and is renewed before
 * each file, so a slow source never loses it mid-pass; a dead process holds it this long.
 */
function leaseMsOf(options: InboundPollOptions): number {
  return Math.max(120_000, 10 * (options.sftpTimeoutMs ?? SFTP_STEP_TIMEOUT_MS));
}

function sourceOf(
  ctx: ServiceContext,
  inbound: InboundSettings,
  options: InboundPollOptions,
): InboundSource {
  return inbound.type === 'file'
    ? folderSource(resolve(ctx.dataDir, inbound.directory))
    : sftpSource(inbound, options.sftpTimeoutMs ?? SFTP_STEP_TIMEOUT_MS);
}

/** One directory's pass; a failing source ends it (recorded), never the loop. */
async function pollSource(
  ctx: ServiceContext,
  connection: PolledConnection,
  source: InboundSource,
  options: InboundPollOptions,
  lease: SourceLease,
): Promise<PolledFile[]> {
  const results: PolledFile[] = [];
  try {
    const names = await source.list({
      now: ctx.clock.now().getTime(),
      settleMs: options.settleMs,
      limit: FILES_PER_PASS,
    });
    for (const name of names) {
      // Lost (it expired and another process took it): that process polls the rest.
      if (!(await lease.hold().catch(leaseFailed))) return results;
      results.push(await takeFile(ctx, connection.id, source, name));
    }
    await noteSourceReached(ctx, connection, source.urlOf(''));
  } catch (error) {
    const reason = (error as Error)?.message ?? String(error);
    await noteSourceFailed(ctx, connection, source.urlOf(''), reason).catch((logError) =>
      console.error(`inbound poll status not recorded: ${(logError as Error).message}`),
    );
  } finally {
    await source.close().catch(() => {});
  }
  return results;
}

/**
 * Takes one file; a source failure (read, move) is thrown and ends the directory's pass. A file
 * dealt with before (taken in or refused, its move failed) is only moved: known from this
 * process's memory first (./inbound-unmoved.ts), else from the stored rows (./inbound-taken.ts,
 * after a restart). A file gone before it was read (another reader took it) is passed over.
 */
async function takeFile(
  ctx: ServiceContext,
  connectionId: string,
  source: InboundSource,
  name: string,
): Promise<PolledFile> {
  const read = await source.read(name, INBOUND_MAX_BYTES);
  if ('gone' in read) {
    return {
      connectionId,
      file: name,
      moved: null,
      reason: 'The file was gone before it was read',
    };
  }
  const identity = identityOf(read);
  let move: UnmovedFile;
  try {
    move =
      unmovedFile(ctx, connectionId, name, identity) ??
      (await storedPolledFile(ctx.db, connectionId, name, identity)) ??
      (await takeIn(ctx, connectionId, source, name, identity, 'text' in read));
  } catch (error) {
    // The database: the file stays and is tried again next pass.
    const reason = (error as Error)?.message ?? String(error);
    console.error(`inbound file ${source.urlOf(name)} not taken: ${reason}`);
    return { connectionId, file: name, moved: null, reason };
  }
  return moveFile(ctx, connectionId, source, name, identity, move);
}

/** A file is known by its text; one too large to take in by its size (its text is not kept). */
function identityOf(read: { text: string } | { tooLargeBytes: number }): PolledFileIdentity {
  if ('tooLargeBytes' in read) return { tooLargeBytes: read.tooLargeBytes };
  const bytes = Buffer.byteLength(read.text, 'utf8');
  return bytes > INBOUND_MAX_BYTES ? { tooLargeBytes: bytes } : { text: read.text };
}

/**
 * Takes a new file in through the one ingest path, or records it refused as too large; answers
 * where it goes. A database failure is thrown (the file stays for the next pass).
 */
async function takeIn(
  ctx: ServiceContext,
  connectionId: string,
  source: InboundSource,
  name: string,
  identity: PolledFileIdentity,
  read: boolean,
): Promise<UnmovedFile> {
  if ('tooLargeBytes' in identity) {
    const size = { bytes: identity.tooLargeBytes, max_bytes: INBOUND_MAX_BYTES, unread: !read };
    const file = { connectionId, source: source.kind, fileName: name };
    return { sub: 'error', reason: await recordTooLarge(ctx, file, size) };
  }
  try {
    await ingestInterchange(
      ctx,
      {
        text: identity.text,
        source: source.kind,
        fileName: name,
        userId: null,
        requestUrl: source.urlOf(name),
        // A refused file is recorded for this source's connection (the EDI inbox lists it).
        knownConnectionId: connectionId,
      },
      async (connection) => connection.id === connectionId,
    );
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { sub: 'error', reason: error.message };
  }
  return { sub: 'archive', reason: null };
}

/** Moves a file that was dealt with; when that fails, later passes only move it. */
async function moveFile(
  ctx: ServiceContext,
  connectionId: string,
  source: InboundSource,
  name: string,
  identity: PolledFileIdentity,
  move: UnmovedFile,
): Promise<PolledFile> {
  try {
    await source.moveTo(move.sub, name, move.reason ?? undefined);
  } catch (error) {
    noteUnmoved(ctx, connectionId, name, identity, move);
    const why = (error as Error)?.message ?? String(error);
    const done = move.sub === 'archive' ? 'was taken in' : 'was refused';
    throw new Error(`The file ${name} ${done} but could not be moved to ${move.sub}/: ${why}`);
  }
  noteMoved(ctx, connectionId, name);
  return { connectionId, file: name, moved: move.sub, reason: move.reason };
}

/** The polling loop, started next to the order-document drainer. */
export function startInboundPoller(
  ctx: ServiceContext,
  options: Partial<OutboxDrainerOptions> & { poll?: InboundPollOptions } = {},
): OutboxDrainer {
  return startOutboxDrainer(() => pollInboundFolders(ctx, options.poll), {
    onError: (error) => console.error(`inbound folder poll failed: ${errorText(error)}`),
    ...options,
  });
}
