/**
 * The outbound documents of every order a user sees (GET /api/v1/edi/documents and its summary).
 * Visibility is the orders' own (visibleOrdersQuery): a document of an order the user cannot
 * see is simply absent. Statuses are shown by the one overdue rule (document-status.ts).
 */
import { sql } from 'kysely';
import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';
import { visibleOrdersQuery } from '../orders';
import type { OrderDocumentStatusValue } from '../../shared/order-documents';
import type { EdiDocumentListQuery } from '../../shared/edi-documents';
import { documentViewColumns, shownStatusOn } from './queries';

export type DocumentListFilter = Pick<EdiDocumentListQuery, 'status' | 'type' | 'retailer_id'>;

function visibleDocuments(db: Db, user: AuthUser, now: string, filter: DocumentListFilter) {
  let query = visibleOrdersQuery(db, user)
    .innerJoin('order_documents as d', 'd.order_id', 'o.id')
    .leftJoin('retailers as r', 'r.id', 'd.retailer_id')
    .leftJoin('connections as c', 'c.id', 'd.connection_id')
    .where('d.direction', '=', 'out');
  if (filter.type) query = query.where('d.type', '=', filter.type);
  if (filter.retailer_id) query = query.where('d.retailer_id', '=', filter.retailer_id);
  if (filter.status) {
    // overdue is a sent document by the rule; the stored status narrows the rows first.
    const stored = filter.status === 'overdue' ? 'sent' : filter.status;
    query = query.where('d.status', '=', stored).where(shownStatusOn(db, now), '=', filter.status);
  }
  return query;
}

export function listVisibleDocuments(
  db: Db,
  user: AuthUser,
  now: string,
  filter: DocumentListFilter,
  page: { limit: number; offset: number },
) {
  return visibleDocuments(db, user, now, filter)
    .select(documentViewColumns(db, now))
    .select(['o.id as order_id', 'o.picksheet_code', 'o.po_number'])
    .orderBy('d.created_at', 'desc')
    .orderBy('d.id', 'desc')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export async function countVisibleDocuments(
  db: Db,
  user: AuthUser,
  now: string,
  filter: DocumentListFilter,
): Promise<number> {
  const row = await visibleDocuments(db, user, now, filter)
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Counts per shown status in one pass over the visible documents. */
export function countVisibleDocumentsByStatus(db: Db, user: AuthUser, now: string) {
  // By position: PostgreSQL matches no GROUP BY expression to the select's when each has its
  // own parameters, and `status` would name the stored column there.
  return visibleDocuments(db, user, now, {})
    .select([shownStatusOn(db, now).as('status'), sql<number>`count(*)`.as('n')])
    .groupBy(sql`1`)
    .execute() as Promise<{ status: OrderDocumentStatusValue; n: number }[]>;
}
