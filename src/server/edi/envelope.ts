/**
 * A workstation queues an X12 document that another replica sends (the connection's sender is
 * the central) as its transaction sets only (UNENVELOPED_X12_CONTENT_TYPE). The sender puts its
 * envelope round them with its own next ISA13/GS06 just before the first send, once, in one
 * transaction: control numbers are assigned by the one replica that sends the connection's
 * documents, so they never clash (docs/sync.md section 5).
 */
import type { ServiceContext } from '../core/context';
import { takeControlNumbers, type EdiSettings } from '../inventory';
import { UNENVELOPED_X12_CONTENT_TYPE } from '../sync/role';
import {
  FUNCTIONAL_IDS,
  writeInterchange,
  X12_CONTENT_TYPE,
  type Segment,
  type FunctionalId,
} from './x12/writer';

/** Envelopes the document when it still waits for one; answers why it cannot be, else null. */
export async function envelopeQueuedSets(ctx: ServiceContext, id: string): Promise<string | null> {
  const now = ctx.clock.now();
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('order_documents as d')
        .leftJoin('connections as c', 'c.id', 'd.connection_id')
        .where('d.id', '=', id)
        .where('d.content_type', '=', UNENVELOPED_X12_CONTENT_TYPE)
        .select(['d.type', 'd.document', 'd.connection_id', 'c.edi_json'])
        .executeTakeFirst();
      if (!row) return; // enveloped meanwhile
      if (!row.connection_id || !row.edi_json) {
        throw new Error('the connection has no EDI settings');
      }
      const functionalId = (FUNCTIONAL_IDS as Partial<Record<string, FunctionalId>>)[row.type];
      if (!functionalId) throw new Error(`a ${row.type} is not an X12 document`);
      const sets = setsOf(row.document);
      // Rolled back with the rest when the writer refuses the sets: no control number is lost.
      const numbers = await takeControlNumbers(trx, row.connection_id);
      const written = writeInterchange({
        edi: JSON.parse(row.edi_json) as EdiSettings,
        functionalId,
        interchangeControlNumber: numbers.interchange,
        groupControlNumber: numbers.group,
        createdAt: now,
        transactionSets: sets,
      });
      await trx
        .updateTable('order_documents')
        .set({
          document: written.text,
          content_type: X12_CONTENT_TYPE,
          file_name: written.fileName,
          interchange_control_number: numbers.interchange,
          group_control_number: numbers.group,
          transaction_control_number: written.transactionControlNumbers[0]!,
          updated_at: now.toISOString(),
        })
        .where('id', '=', id)
        .execute();
    });
    return null;
  } catch (error) {
    return `The document could not be enveloped: ${(error as Error).message}`;
  }
}

/** The stored sets: a JSON array of sets, each an array of segments of strings (or repeats). */
function setsOf(document: string | null): Segment[][] {
  const sets: unknown = document === null ? null : JSON.parse(document);
  const isElement = (e: unknown) =>
    typeof e === 'string' || (Array.isArray(e) && e.every((r) => typeof r === 'string'));
  const valid =
    Array.isArray(sets) &&
    sets.length > 0 &&
    sets.every(
      (set) =>
        Array.isArray(set) &&
        set.every((segment) => Array.isArray(segment) && segment.every(isElement)),
    );
  if (!valid) throw new Error('the transaction sets are not readable');
  return sets as Segment[][];
}
