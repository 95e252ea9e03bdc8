/**
 * GET /api/v1/edi/documents and its summary: the outbound documents of every order the user
 * sees, newest first, filtered and paged; and the counts per status the header shows.
 */
import type { AuthUser, ServiceContext } from '../core/context';
import {
  ORDER_DOCUMENT_STATUSES,
  type OrderDocumentStatusValue,
} from '../../shared/order-documents';
import type {
  EdiDocumentListQuery,
  EdiDocumentPage,
  EdiDocumentSummary,
} from '../../shared/edi-documents';
import {
  countVisibleDocuments,
  countVisibleDocumentsByStatus,
  listVisibleDocuments,
} from './documents-queries';

export async function documentList(
  ctx: ServiceContext,
  user: AuthUser,
  query: EdiDocumentListQuery,
): Promise<EdiDocumentPage> {
  const now = ctx.clock.now().toISOString();
  const filter = { status: query.status, type: query.type, retailer_id: query.retailer_id };
  const [totalCount, rows] = await Promise.all([
    countVisibleDocuments(ctx.db, user, now, filter),
    listVisibleDocuments(ctx.db, user, now, filter, {
      limit: query.page_size,
      offset: (query.page - 1) * query.page_size,
    }),
  ]);
  return {
    page: query.page,
    page_size: query.page_size,
    total_count: totalCount,
    documents: rows.map(({ order_id, picksheet_code, po_number, ...document }) => ({
      ...document,
      order: { id: order_id, picksheet_code, po_number },
    })),
  };
}

export async function documentSummary(
  ctx: ServiceContext,
  user: AuthUser,
): Promise<EdiDocumentSummary> {
  const rows = await countVisibleDocumentsByStatus(ctx.db, user, ctx.clock.now().toISOString());
  const counts = Object.fromEntries(ORDER_DOCUMENT_STATUSES.map((status) => [status, 0])) as Record<
    OrderDocumentStatusValue,
    number
  >;
  for (const row of rows) {
    if (row.status in counts) counts[row.status] += Number(row.n);
  }
  return { counts, needs_attention: counts.overdue + counts.failed };
}
