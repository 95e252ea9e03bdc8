/**
 * After the ship step commits: send the documents it queued and say what really happened. The
 * answer waits a little for the transport (a partner on the network answers in well under a
 * second), then tells "sent", "failed: why" or "queued"; a send still under way goes on in the
 * background, and the drainer takes whatever is left.
 */
import type { ServiceContext } from '../core/context';
import { reportQuietly } from '../inventory';
import { describeSender } from '../sync/role';
import { releaseDocument, sendClaimedDocuments, type SendResult } from './send';
import type { QueuedDocument } from './ship-documents';

/** How long the ship answer waits for its documents to go out before it says "queued". */
export const SHIP_ANSWER_WAIT_MS = 2_000;

/** Releases the claims of documents whose step rolled back (nothing was stored). */
export function releaseShipDocuments(ctx: ServiceContext, queued: QueuedDocument[]): void {
  for (const document of queued) releaseDocument(ctx, document.id);
}

/** Sends what this replica sends and returns the ship answer's message. Never throws. */
export async function announceShipDocuments(
  ctx: ServiceContext,
  queued: QueuedDocument[],
  onError: (error: unknown) => void = (error) =>
    console.error(`order document send failed: ${(error as Error).message ?? error}`),
): Promise<string> {
  if (queued.length === 0) return 'Order shipped; no ASN is set up for this retailer';
  const toSend = queued.filter((d) => d.sendsHere && d.error === null).map((d) => d.id);
  let results = new Map<string, SendResult>();
  if (toSend.length > 0) {
    const sending = sendClaimedDocuments(ctx, toSend, { automatic: false }).catch(
      (error: unknown) => {
        reportQuietly(onError, error);
        return new Map<string, SendResult>();
      },
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), SHIP_ANSWER_WAIT_MS);
      timer.unref();
    });
    results = (await Promise.race([sending, timeout])) ?? new Map();
    clearTimeout(timer);
  }
  return `Order shipped; ${queued.map((d) => phrase(d, results.get(d.id))).join('; ')}`;
}

function phrase(document: QueuedDocument, result: SendResult | undefined): string {
  const what = document.type === '856' ? 'the ASN' : 'the shipment confirmation';
  const to = document.retailerName;
  if (document.error !== null) return `${what} for ${to} failed: ${document.error}`;
  if (!document.sendsHere)
    return `${what} is queued for ${to} (${describeSender('central')} sends it)`;
  if (!result) return `${what} is queued for ${to}`;
  if (result.status === 'sent') return `${what} was sent to ${to}`;
  const next = result.willRetry ? 'it will be tried again' : 'retry it from the order';
  return `${what} to ${to} failed: ${result.error ?? 'unknown error'}; ${next}`;
}
