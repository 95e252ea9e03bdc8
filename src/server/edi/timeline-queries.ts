/**
 * What an order's document timeline reads besides its own documents: the inbound 850 and 860
 * sets that made or changed it (edi_interchanges.summary_json names each set's order), and the
 * 997s that answered its outbound documents (the *_STATUS_CHECK log rows name the document and
 * the interchange the 997 came in).
 */
import { sql } from 'kysely';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { INGEST_ACTIONS } from './ingest-log';

// The PostgreSQL twin of the inbound sets' query is ./timeline-queries.postgres.ts
// (./order-timeline.ts picks one).

export interface InboundSetRow {
  interchange_id: string;
  interchange_control_number: string;
  received_at: string;
  set_json: string;
}

/**
 * An 850 is received in the transaction that makes its order, and 860s come later: interchanges
 * received more than a day before the order was made cannot name it. The margin covers clocks
 * of a central and its workstations that disagree.
 */
const RECEIVED_BEFORE_ORDER_MS = 24 * 3_600_000;

/** The earliest received_at of an interchange that can name the order (both engines' queries). */
export function receivedFromFor(order: { created_at: string }): string {
  const created = Date.parse(order.created_at);
  return Number.isNaN(created) ? '' : new Date(created - RECEIVED_BEFORE_ORDER_MS).toISOString();
}

/**
 * The 850/860 sets naming this order, oldest first: of interchanges addressed to its brand (in
 * any organisation: an order may move to another one's facility), received from shortly before
 * the order was made. Both columns sit before the raw text in the row, so a passed-over
 * interchange costs no read of its content or summary.
 */
export async function listInboundSetsOfOrder(
  db: Db,
  order: { id: string; brand_id: string; created_at: string },
): Promise<InboundSetRow[]> {
  const from = receivedFromFor(order);
  const result = await sql<InboundSetRow>`
    SELECT i.id AS interchange_id, i.control_number AS interchange_control_number,
           i.received_at, s.value AS set_json
    FROM edi_interchanges i,
         json_each(CASE WHEN json_valid(i.summary_json) THEN i.summary_json ELSE '{}' END,
                   '$.transaction_sets') s
    WHERE i.brand_id = ${order.brand_id}
      AND i.received_at >= ${from}
      AND json_extract(s.value, '$.order_id') = ${order.id}
      AND json_extract(s.value, '$.type') IN ('850', '860')
    ORDER BY i.received_at, i.id, s.key`.execute(db);
  return result.rows;
}

export const STATUS_CHECKS = [
  INGEST_ACTIONS['855'].code,
  INGEST_ACTIONS['856'].code,
  INGEST_ACTIONS['810'].code,
];

/**
 * A field of the log row's payload; null when the payload is not JSON (a hand-edited row). The
 * one engine-bound piece of the answers' query: PostgreSQL reads it through json_or_null
 * (db/postgres/migrations/0016_json_or_null).
 */
const payload = (db: Db, field: string) =>
  engineOf(db) === 'postgres'
    ? sql`json_or_null(t.request_payload) ->> ${field}`
    : sql`CASE WHEN json_valid(t.request_payload) THEN json_extract(t.request_payload, ${`$.${field}`}) END`;

/** Each 997 outcome logged for a document of this order, with the interchange it came in. */
export function listAnswersOfOrder(db: Db, orderId: string) {
  return db
    .selectFrom('transactions as t')
    .innerJoin('edi_interchanges as i', 'i.id', 't.correlation_id')
    .where('t.order_id', '=', orderId)
    .where('t.action_type', 'in', STATUS_CHECKS)
    .select([
      sql<string | null>`${payload(db, 'document_id')}`.as('document_id'),
      sql<string | null>`${payload(db, 'outcome')}`.as('outcome'),
      'i.id as interchange_id',
      'i.control_number as interchange_control_number',
      'i.received_at',
    ])
    .orderBy('i.received_at')
    .orderBy('t.created_at')
    .execute();
}
