/** The reads of the EDI inbox (./inbox.ts): inbound interchanges within the caller's scopes. */
import { sql } from 'kysely';
import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';
import { visibleOrdersQuery } from '../orders';
import type { InterchangeOutcome } from './tables';

export interface InboxScope {
  brand_id: string;
  organization_id: string;
}

export interface InboxFilter {
  outcome?: InterchangeOutcome | undefined;
  connectionId?: string | undefined;
}

function inboxQuery(db: Db, scopes: InboxScope[], filter: InboxFilter) {
  let query = db
    .selectFrom('edi_interchanges as i')
    .leftJoin('retailers as r', 'r.id', 'i.retailer_id')
    .leftJoin('brands as b', 'b.id', 'i.brand_id')
    .leftJoin('connections as c', 'c.id', 'i.connection_id')
    .where((eb) =>
      eb.or(
        scopes.map((scope) =>
          eb.and([
            eb('i.brand_id', '=', scope.brand_id),
            eb('i.organization_id', '=', scope.organization_id),
          ]),
        ),
      ),
    );
  if (filter.outcome) query = query.where('i.outcome', '=', filter.outcome);
  if (filter.connectionId) query = query.where('i.connection_id', '=', filter.connectionId);
  return query;
}

const ITEM_COLUMNS = [
  'i.id',
  'i.received_at',
  'i.source',
  'i.file_name',
  'i.connection_id',
  'i.organization_id',
  'i.brand_id',
  'r.name as retailer_name',
  'b.name as brand_name',
  'i.sender_id',
  'i.receiver_id',
  'i.control_number',
  'i.outcome',
  'i.summary_json',
  // The connection's identities: a misaddressed file's reason names what differs.
  'c.edi_json as connection_edi_json',
] as const;

/** One page, newest first (ties by id, so pages do not overlap), and the count of all. */
export async function listInterchanges(
  db: Db,
  scopes: InboxScope[],
  filter: InboxFilter,
  page: { page: number; pageSize: number },
) {
  if (scopes.length === 0) return { rows: [], total: 0 };
  const [rows, count] = await Promise.all([
    inboxQuery(db, scopes, filter)
      .select(ITEM_COLUMNS)
      .orderBy('i.received_at', 'desc')
      .orderBy('i.id', 'desc')
      .limit(page.pageSize)
      .offset((page.page - 1) * page.pageSize)
      .execute(),
    inboxQuery(db, scopes, filter)
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
export type InboxRow = Awaited<ReturnType<typeof listInterchanges>>['rows'][number];

/** One interchange with its raw text, whoever's it is (the caller checks the scope). */
export function findInterchange(db: Db, id: string) {
  return db
    .selectFrom('edi_interchanges as i')
    .leftJoin('retailers as r', 'r.id', 'i.retailer_id')
    .leftJoin('brands as b', 'b.id', 'i.brand_id')
    .leftJoin('connections as c', 'c.id', 'i.connection_id')
    .where('i.id', '=', id)
    .select([...ITEM_COLUMNS, 'i.raw'])
    .executeTakeFirst();
}

/**
 * The orders named that the caller sees, with what the clerk sees of them. Seeing the interchange
 * (an admin of its brand in its organisation) is not seeing every facility its POs went to.
 */
export function ordersByIds(db: Db, user: AuthUser, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return visibleOrdersQuery(db, user)
    .where('o.id', 'in', ids)
    .select(['o.id', 'o.po_number', 'o.status'])
    .execute();
}
