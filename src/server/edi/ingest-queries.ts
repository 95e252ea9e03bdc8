/** The reads and writes of the inbound path (./ingest.ts), one transaction's worth each. */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { ingestSql as sqliteSql } from './ingest-sql';
import { ingestSql as postgresSql } from './ingest-sql.postgres';
import type { EdiInterchangesTable, OrderDocumentsTable, OrderPoLinesTable } from './tables';

/**
 * The enabled EDI connections a file from `senderId` to `receiverId` is addressed to (DESIGN:
 * ISA06 = the connection's edi.receiver_id, ISA08 = its edi.sender_id), oldest first. Decided
 * from the stored rows only; the caller keeps those the user may ingest for.
 */
export function findInboundConnections(db: Db, senderId: string, receiverId: string) {
  const { ediField } = engineOf(db) === 'postgres' ? postgresSql : sqliteSql;
  return db
    .selectFrom('connections as c')
    .innerJoin('retailers as r', 'r.id', 'c.retailer_id')
    .where('c.enabled', '=', 1)
    .where('c.edi_json', 'is not', null)
    .where(ediField('receiver_id'), '=', senderId)
    .where(ediField('sender_id'), '=', receiverId)
    .select([
      'c.id',
      'c.organization_id',
      'c.brand_id',
      'c.retailer_id',
      'r.name as retailer_name',
      'c.edi_json',
      'c.sender',
      'c.order_documents_json',
    ])
    .orderBy('c.id')
    .execute();
}
export type InboundConnectionRow = Awaited<ReturnType<typeof findInboundConnections>>[number];

/** The interchange taken in earlier with this (sender, ISA13), if any. */
export function findTakenInterchange(
  db: Db,
  key: { qualifier: string; senderId: string; control: string; exceptId?: string | null },
) {
  let query = db
    .selectFrom('edi_interchanges')
    .where('sender_qualifier', '=', key.qualifier)
    .where('sender_id', '=', key.senderId)
    .where('control_number', '=', key.control)
    .where('outcome', 'not in', ['duplicate', 'refused']);
  // A reprocessed interchange is no repeat of itself.
  if (key.exceptId) query = query.where('id', '!=', key.exceptId);
  return query.select(['id']).executeTakeFirst();
}

export async function insertInterchange(db: Db, row: Insertable<EdiInterchangesTable>) {
  await db.insertInto('edi_interchanges').values(row).execute();
}

/** What a reprocess needs of the stored run: its outcome and summary. */
export function findInterchangeRun(db: Db, id: string) {
  return db
    .selectFrom('edi_interchanges')
    .where('id', '=', id)
    .select(['id', 'outcome', 'summary_json'])
    .executeTakeFirst();
}

/** A reprocess's result, over the stored run (the raw text and how it came in stay). */
export async function updateInterchangeRun(
  db: Db,
  id: string,
  run: Pick<EdiInterchangesTable, 'outcome' | 'duplicate_of' | 'summary_json'>,
) {
  await db.updateTable('edi_interchanges').set(run).where('id', '=', id).execute();
}

/** The facilities of the connection's organisation where its brand works (N1*SF/WH codes). */
export function connectionFacilities(db: Db, organizationId: string, brandId: string) {
  return db
    .selectFrom('facilities as f')
    .innerJoin('brand_facilities as bf', 'bf.facility_id', 'f.id')
    .where('f.organization_id', '=', organizationId)
    .where('bf.brand_id', '=', brandId)
    .select(['f.id', 'f.external_facility_code'])
    .orderBy('f.id')
    .execute();
}

/**
 * The live order of a PO of this brand and retailer in the organisation (newest first; a
 * cancelled one only when there is no other).
 */
export function findOrderOfPo(
  db: Db,
  po: { organizationId: string; brandId: string; retailerId: string; poNumber: string },
) {
  return db
    .selectFrom('orders as o')
    .innerJoin('facilities as f', 'f.id', 'o.facility_id')
    .where('f.organization_id', '=', po.organizationId)
    .where('o.brand_id', '=', po.brandId)
    .where('o.retailer_id', '=', po.retailerId)
    .where('o.po_number', '=', po.poNumber)
    .selectAll('o')
    .orderBy(sql`o.status = 'Cancelled'`)
    .orderBy('o.created_at', 'desc')
    .executeTakeFirst();
}

/** The PO's lines of an order, in their order (each one's position is its index here). */
export async function replacePoLines(
  db: Db,
  orderId: string,
  lines: Omit<OrderPoLinesTable, 'position'>[],
) {
  await db.deleteFrom('order_po_lines').where('order_id', '=', orderId).execute();
  if (lines.length === 0) return;
  await db
    .insertInto('order_po_lines')
    .values(lines.map((line, position) => ({ ...line, position })))
    .execute();
}

export function listPoLines(db: Db, orderId: string) {
  const { poLineOrder } = engineOf(db) === 'postgres' ? postgresSql : sqliteSql;
  return db
    .selectFrom('order_po_lines')
    .selectAll()
    .where('order_id', '=', orderId)
    .orderBy('position')
    .orderBy(poLineOrder)
    .execute();
}

/** What a 997 needs of one of our outbound X12 documents. */
const GROUP_DOCUMENT_COLUMNS = [
  'id',
  'type',
  'order_id',
  'brand_id',
  'retailer_id',
  'facility_id',
  'status',
  'transaction_control_number',
] as const;
export type GroupDocument = Pick<
  Selectable<OrderDocumentsTable>,
  (typeof GROUP_DOCUMENT_COLUMNS)[number]
>;

/** GS06 values per query: well under SQLite's bound-parameter limit. */
const GROUPS_PER_QUERY = 500;

/**
 * The outbound documents of many of our groups at once, by GS06 (an interchange of thousands of
 * 997s reads them in a few queries rather than one per set).
 */
export async function findDocumentsOfGroups(db: Db, connectionId: string, groupControls: number[]) {
  const byGroup = new Map<number, GroupDocument[]>();
  const unique = [...new Set(groupControls)];
  for (let start = 0; start < unique.length; start += GROUPS_PER_QUERY) {
    const rows = await db
      .selectFrom('order_documents')
      .where('connection_id', '=', connectionId)
      .where('group_control_number', 'in', unique.slice(start, start + GROUPS_PER_QUERY))
      .where('direction', '=', 'out')
      .where('type', 'in', ['856', '855', '810'])
      .select([...GROUP_DOCUMENT_COLUMNS, 'group_control_number'])
      .execute();
    for (const { group_control_number: group, ...row } of rows) {
      const list = byGroup.get(group!) ?? [];
      list.push(row);
      byGroup.set(group!, list);
    }
  }
  return byGroup;
}
