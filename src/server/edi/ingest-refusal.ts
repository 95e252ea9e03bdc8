/**
 * A file refused before any connection was found for it (empty, not X12, addressed to another
 * company; or a polled file too large to take in, recorded with no text) is still recorded when
 * the connection is known from where it came (its polled folder, or the interchange being
 * reprocessed), so the EDI inbox lists it with the reason. One write.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../core/context';
import { findInterchangeRun, updateInterchangeRun } from './ingest-queries';
import type { InterchangeSource } from './tables';
import type { Interchange } from './x12/reader';

/** What of the inbound file (./ingest.ts InboundFile) a refusal records. */
export interface RefusedFile {
  text: string;
  source: InterchangeSource;
  fileName: string | null;
  userId: string | null;
  knownConnectionId?: string | null;
  reprocessOf?: string | null;
}

/**
 * Why a whole file was refused: empty, not X12, addressed to another company (or from a sender
 * the connection does not know), holding no functional group, or larger than a file may be (a
 * polled file: nothing of it is kept, ./inbound-too-large.ts).
 */
export type RefusalKind = 'empty' | 'not_x12' | 'addressee' | 'no_group' | 'too_large';

/** The size of a file refused as too large, stored in the summary (its text is not kept). */
export interface RefusedSize {
  bytes: number;
  max_bytes: number;
  /** True when the file was never read (its size alone refused it). */
  unread: boolean;
}

export interface Refusal {
  kind: RefusalKind;
  message: string;
  interchange: Interchange | null;
  size?: RefusedSize;
}

export async function recordRefusal(
  ctx: ServiceContext,
  file: RefusedFile,
  refusal: Refusal,
): Promise<void> {
  if (!file.knownConnectionId) return;
  const at = ctx.clock.now().toISOString();
  const { interchange } = refusal;
  const summary = (id: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      interchange_id: id,
      interchange_control_number: interchange?.control ?? '',
      duplicate: false,
      outcome: 'refused',
      transaction_sets: [],
      errors: [],
      refused: refusal.message,
      refusal: refusal.kind,
      located: [],
      ...refusal.size,
      ...extra,
    });
  if (file.reprocessOf) {
    const id = file.reprocessOf;
    await ctx.db.transaction().execute(async (trx) => {
      const row = await findInterchangeRun(trx, id);
      if (!row || row.outcome !== 'refused') return; // taken in meanwhile: leave it so
      const runs = (JSON.parse(row.summary_json) as { runs?: number }).runs ?? 1;
      await updateInterchangeRun(trx, id, {
        outcome: 'refused',
        duplicate_of: null,
        summary_json: summary(id, { reprocessed_at: at, runs: runs + 1 }),
      });
    });
    return;
  }
  const connection = await ctx.db
    .selectFrom('connections')
    .where('id', '=', file.knownConnectionId)
    .select(['id', 'organization_id', 'brand_id', 'retailer_id'])
    .executeTakeFirst();
  if (!connection) return;
  const id = randomUUID();
  await ctx.db
    .insertInto('edi_interchanges')
    .values({
      id,
      connection_id: connection.id,
      organization_id: connection.organization_id,
      brand_id: connection.brand_id,
      retailer_id: connection.retailer_id,
      sender_qualifier: interchange?.senderQualifier ?? '',
      sender_id: interchange?.senderId ?? '',
      receiver_id: interchange?.receiverId ?? '',
      control_number: interchange?.control ?? '',
      source: file.source,
      file_name: file.fileName,
      user_id: file.userId,
      received_at: at,
      raw: file.text,
      outcome: 'refused',
      duplicate_of: null,
      summary_json: summary(id),
    })
    .execute();
}
