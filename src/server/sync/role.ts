/**
 * Sync as other features see it: who sends a delivery, which rows a workstation may write. Pure
 * (it imports only core), so any feature may import it; the runtime itself is sync/runtime.ts.
 */
import type { ServiceContext, SyncView } from '../core/context';
import { conflict } from '../core/errors';

/** The central's replica id: the sender of deliveries it sends, the writer of its own rows. */
export const CENTRAL_ID = 'central';

/** The sender ids whose deliveries this replica sends (null: rows made before sync was on). */
export function ownSenderIds(sync: SyncView | undefined): (string | null)[] {
  if (!sync || sync.role === 'standalone') return [null];
  if (sync.role === 'central') return [null, CENTRAL_ID];
  return [sync.deviceId];
}

/**
 * Who sends a new delivery of `connection`: on a workstation, itself when the connection's sender
 * is `workstation`, else the central (which builds the document with its own control numbers).
 */
export function senderOfNewDelivery(
  sync: SyncView | undefined,
  connection: { sender?: 'central' | 'workstation' },
): { senderId: string | null; sendsHere: boolean } {
  if (!sync || sync.role === 'standalone') return { senderId: null, sendsHere: true };
  if (sync.role === 'central') return { senderId: CENTRAL_ID, sendsHere: true };
  return connection.sender === 'workstation'
    ? { senderId: sync.deviceId, sendsHere: true }
    : { senderId: CENTRAL_ID, sendsHere: false };
}

/**
 * The content type of an X12 document a workstation queued for another replica to send: the
 * transaction sets only (a JSON array of sets, each an array of segments, ST and SE left out).
 * The sender puts the envelope round it with its own ISA13/GS06 when it sends it (edi/send.ts).
 */
export const UNENVELOPED_X12_CONTENT_TYPE = 'application/vnd.x12-sets+json';

export function describeSender(senderId: string | null): string {
  return senderId === CENTRAL_ID ? 'the central service' : 'another workstation';
}

export const CENTRAL_ONLY_MESSAGE =
  'This is changed on the central service only; a workstation receives it from there';

/**
 * Prices, chargebacks, POS rows and GS1 prefixes are written centrally and read everywhere
 * (docs/sync.md): a workstation refuses them (409) rather than keep a change that would never go up.
 */
export function requireCentralWrite(ctx: Pick<ServiceContext, 'sync'>): void {
  if (ctx.sync?.role === 'workstation') throw conflict(CENTRAL_ONLY_MESSAGE);
}
