/**
 * The background loop that sends outbound order documents: queued ones a crash left (so a
 * restart sends them) and failed ones whose next try is due. The loop itself is the advice
 * outbox's (it never throws, passes never overlap); the state lives in order_documents rows.
 */
import type { ServiceContext } from '../core/context';
import { startOutboxDrainer, type OutboxDrainer, type OutboxDrainerOptions } from '../inventory';
import { sendDueDocuments } from './send';
import { errorText } from './error-text';

/** Documents one pass takes on. */
export const DOCUMENT_DRAIN_BATCH_SIZE = 16;

export function startOrderDocumentDrainer(
  ctx: ServiceContext,
  options: Partial<OutboxDrainerOptions> = {},
): OutboxDrainer {
  return startOutboxDrainer(() => sendDueDocuments(ctx, DOCUMENT_DRAIN_BATCH_SIZE), {
    onError: (error) => console.error(`order document drain failed: ${errorText(error)}`),
    ...options,
  });
}
