/**
 * Writes one outbound document for a connection in the caller's transaction (the step that makes
 * it), and claims it for this process when this replica sends it: the caller sends it after the
 * commit, or releases the claim if the transaction rolls back. A document that cannot be built
 * is stored as failed with the reason rather than refusing the step that made it.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/db';
import type { ServiceContext } from '../core/context';
import { holdQueuedDeliveries, takeControlNumbers, type EdiSettings } from '../inventory';
import type { OrderRow } from '../orders';
import { senderOfNewDelivery, UNENVELOPED_X12_CONTENT_TYPE } from '../sync/role';
import { insertOrderDocument, type OrderConnection } from './queries';
import { claimDocument } from './send';
import type { OrderDocumentType } from './tables';
import { FUNCTIONAL_IDS, writeInterchange, X12_CONTENT_TYPE, type Segment } from './x12/writer';

/** A document a step wrote; `sendsHere` when this replica is the one that sends it. */
export interface QueuedDocument {
  id: string;
  type: OrderDocumentType;
  retailerName: string;
  sendsHere: boolean;
  /** Set when the document could not be built: it is stored as failed with this reason. */
  error: string | null;
}

export type DocumentContent =
  | { kind: 'x12'; type: '855' | '856' | '810'; body: Segment[] }
  | { kind: 'json'; type: 'SHIPMENT_CONFIRMATION' | 'TRACKING'; text: (id: string) => string };

export async function queueDocument(
  ctx: ServiceContext,
  trx: Db,
  order: OrderRow,
  connection: OrderConnection,
  at: string,
  type: OrderDocumentType,
  build: () => DocumentContent,
  what: string,
): Promise<QueuedDocument> {
  const id = randomUUID();
  const { senderId, sendsHere } = senderOfNewDelivery(ctx.sync, connection);
  const base = {
    id,
    order_id: order.id,
    brand_id: order.brand_id,
    facility_id: order.facility_id,
    connection_id: connection.id,
    organization_id: connection.organization_id,
    retailer_id: connection.retailer_id,
    type,
    direction: 'out' as const,
    sender_id: senderId,
    sent_at: null,
    acknowledged_at: null,
    created_at: at,
    updated_at: at,
  };
  const done = async (error: string | null): Promise<QueuedDocument> => {
    // Claimed (and, on PostgreSQL, held for this process) before the commit, so no drain pass
    // can send it before the step's answer does.
    if (sendsHere && error === null) {
      claimDocument(ctx, id);
      await holdQueuedDeliveries(ctx, trx, [id]);
    }
    return { id, type, retailerName: connection.retailer_name, sendsHere, error };
  };
  try {
    const content = build();
    if (content.kind === 'json') {
      await insertOrderDocument(trx, {
        ...base,
        status: 'queued',
        interchange_control_number: null,
        group_control_number: null,
        transaction_control_number: null,
        document: content.text(id),
        content_type: 'application/json',
        file_name: `${type.toLowerCase()}_${id}.json`,
        error: null,
        next_attempt_at: at,
      });
      return done(null);
    }
    if (!connection.edi_json) throw new Error('the connection has no EDI settings');
    if (!sendsHere) {
      // The sender envelopes it with its own control numbers when it sends it (send.ts): this
      // replica's ISA13/GS06 would clash with the sender's own for the same partner.
      await insertOrderDocument(trx, {
        ...base,
        status: 'queued',
        interchange_control_number: null,
        group_control_number: null,
        transaction_control_number: null,
        document: JSON.stringify([content.body]),
        content_type: UNENVELOPED_X12_CONTENT_TYPE,
        file_name: null,
        error: null,
        next_attempt_at: at,
      });
      return done(null);
    }
    // Taken only once the body is built, so a refused document wastes no control number.
    const numbers = await takeControlNumbers(trx, connection.id);
    const written = writeInterchange({
      edi: JSON.parse(connection.edi_json) as EdiSettings,
      functionalId: FUNCTIONAL_IDS[content.type],
      interchangeControlNumber: numbers.interchange,
      groupControlNumber: numbers.group,
      createdAt: new Date(at),
      transactionSets: [content.body],
    });
    await insertOrderDocument(trx, {
      ...base,
      status: 'queued',
      interchange_control_number: numbers.interchange,
      group_control_number: numbers.group,
      transaction_control_number: written.transactionControlNumbers[0]!,
      document: written.text,
      content_type: X12_CONTENT_TYPE,
      file_name: written.fileName,
      error: null,
      next_attempt_at: at,
    });
    return done(null);
  } catch (error) {
    const reason = `The ${what} could not be built: ${(error as Error).message}`;
    await insertOrderDocument(trx, {
      ...base,
      status: 'failed',
      interchange_control_number: null,
      group_control_number: null,
      transaction_control_number: null,
      document: null,
      content_type: null,
      file_name: null,
      error: reason,
      next_attempt_at: null,
    });
    return done(reason);
  }
}
