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
import type { QueuedDocument } from './queue';
import { errorText } from './error-text';

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
  onError?: (error: unknown) => void,
): Promise<string> {
  const results = await sendAfterCommit(ctx, queued, onError);
  const phrases = queued.map((d) => phrase(d, results.get(d.id)));
  if (!queued.some((d) => d.type !== '810')) {
    phrases.unshift('no ASN is set up for this retailer');
  }
  return `Order shipped; ${phrases.join('; ')}`;
}

/**
 * Sends the documents a committed step queued (those this replica sends), waiting at most
 * SHIP_ANSWER_WAIT_MS for their outcomes; a send still under way goes on in the background.
 * Never throws.
 */
export async function sendAfterCommit(
  ctx: ServiceContext,
  queued: QueuedDocument[],
  onError: (error: unknown) => void = (error) =>
    console.error(`order document send failed: ${errorText(error)}`),
): Promise<Map<string, SendResult>> {
  const toSend = queued.filter((d) => d.sendsHere && d.error === null).map((d) => d.id);
  if (toSend.length === 0) return new Map();
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
  const results = (await Promise.race([sending, timeout])) ?? new Map<string, SendResult>();
  clearTimeout(timer);
  return results;
}

/** What became of one document, in a clerk's words (`what`: "the ASN", "the invoice", …). */
export function documentPhrase(
  what: string,
  document: QueuedDocument,
  result: SendResult | undefined,
): string {
  const to = document.retailerName;
  if (document.error !== null) return `${what} for ${to} failed: ${document.error}`;
  if (!document.sendsHere)
    return `${what} is queued for ${to} (${describeSender('central')} sends it)`;
  if (!result) return `${what} is queued for ${to}`;
  if (result.status === 'sent') return `${what} was sent to ${to}`;
  const next = result.willRetry ? 'it will be tried again' : 'retry it from the order';
  return `${what} to ${to} failed: ${result.error ?? 'unknown error'}; ${next}`;
}

function phrase(document: QueuedDocument, result: SendResult | undefined): string {
  const what = { '856': 'the ASN', '810': 'the invoice' } as Partial<Record<string, string>>;
  return documentPhrase(what[document.type] ?? 'the shipment confirmation', document, result);
}
