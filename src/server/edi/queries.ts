import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { shownStatus as sqliteShownStatus } from './document-status';
import { shownStatus as postgresShownStatus } from './document-status.postgres';
import type { OrderDocumentsTable } from './tables';

export type OrderDocumentRow = Selectable<OrderDocumentsTable>;

/** The enabled connections of an order's brand and retailer in the facility's organisation. */
export function connectionsForOrder(
  db: Db,
  order: { brand_id: string; retailer_id: string; facility_id: string },
) {
  return db
    .selectFrom('connections as c')
    .innerJoin('facilities as f', 'f.organization_id', 'c.organization_id')
    .innerJoin('retailers as r', 'r.id', 'c.retailer_id')
    .where('f.id', '=', order.facility_id)
    .where('c.brand_id', '=', order.brand_id)
    .where('c.retailer_id', '=', order.retailer_id)
    .where('c.enabled', '=', 1)
    .where('c.order_documents_json', 'is not', null)
    .select([
      'c.id',
      'c.organization_id',
      'c.retailer_id',
      'r.name as retailer_name',
      'c.kind',
      'c.edi_json',
      'c.sender',
      'c.order_documents_json',
    ])
    .orderBy('c.id')
    .execute();
}
export type OrderConnection = Awaited<ReturnType<typeof connectionsForOrder>>[number];

export async function insertOrderDocument(db: Db, row: Insertable<OrderDocumentsTable>) {
  await db.insertInto('order_documents').values(row).execute();
}

/** An outbound document with what sending it needs: its connection's transport. */
export function findDocumentToSend(db: Db, documentId: string) {
  return db
    .selectFrom('order_documents as d')
    .leftJoin('connections as c', 'c.id', 'd.connection_id')
    .where('d.id', '=', documentId)
    .where('d.direction', '=', 'out')
    .selectAll('d')
    .select(['c.transport_json', 'c.enabled as connection_enabled'])
    .executeTakeFirst();
}
export type DocumentToSend = NonNullable<Awaited<ReturnType<typeof findDocumentToSend>>>;

/** Outbound documents this replica sends that are due: left queued (a crash) or failed and planned again. */
export function listDueDocuments(db: Db, now: string, limit: number, senderIds: (string | null)[]) {
  const named = senderIds.filter((id): id is string => id !== null);
  return db
    .selectFrom('order_documents')
    .where('direction', '=', 'out')
    .where((eb) =>
      eb.or([
        // A queued row is due at once unless its first send was planned for later.
        eb.and([
          eb('status', '=', 'queued'),
          eb.or([eb('next_attempt_at', 'is', null), eb('next_attempt_at', '<=', now)]),
        ]),
        eb.and([eb('status', '=', 'failed'), eb('next_attempt_at', '<=', now)]),
      ]),
    )
    .where((eb) =>
      eb.or([
        ...(senderIds.includes(null) ? [eb('sender_id', 'is', null)] : []),
        ...(named.length > 0 ? [eb('sender_id', 'in', named)] : []),
      ]),
    )
    .select(['id'])
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** The overdue rule's SQL on this engine: ./document-status.ts or its PostgreSQL twin. */
export const shownStatusOn = (db: Db, now: string) =>
  (engineOf(db) === 'postgres' ? postgresShownStatus : sqliteShownStatus)(now);

/** The columns of a document as the API shows it, its status by the overdue rule at `now`. */
export const documentViewColumns = (db: Db, now: string) =>
  [
    'd.id',
    'd.type',
    'd.direction',
    shownStatusOn(db, now).as('status'),
    'd.retailer_id',
    'r.name as retailer_name',
    'd.connection_id',
    'd.interchange_control_number',
    'd.group_control_number',
    'd.transaction_control_number',
    'd.content_type',
    'd.file_name',
    'd.attempts',
    'd.error',
    'd.created_at',
    'd.updated_at',
    'd.sent_at',
    'd.acknowledged_at',
    'd.next_attempt_at',
  ] as const;

/** Documents with what showing them needs: the retailer's name, the connection's ack_hours. */
export const documentsWithConnection = (db: Db) =>
  db
    .selectFrom('order_documents as d')
    .leftJoin('retailers as r', 'r.id', 'd.retailer_id')
    .leftJoin('connections as c', 'c.id', 'd.connection_id');

export function listOrderDocuments(db: Db, orderId: string, now: string) {
  return documentsWithConnection(db)
    .where('d.order_id', '=', orderId)
    .select(documentViewColumns(db, now))
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
}

/** One document of an order as the API shows it, with its content; undefined when not found. */
export function findOrderDocumentView(db: Db, orderId: string, documentId: string, now: string) {
  return documentsWithConnection(db)
    .where('d.order_id', '=', orderId)
    .where('d.id', '=', documentId)
    .select(documentViewColumns(db, now))
    .select('d.document')
    .executeTakeFirst();
}

/**
 * The order's invoices (810s) that still stand: every one but those the retailer rejected and
 * those that could not be built (no price: nothing was numbered or sent), which are invoiced
 * again. Newest first.
 */
export function standingInvoices(db: Db, orderId: string) {
  return db
    .selectFrom('order_documents')
    .where('order_id', '=', orderId)
    .where('type', '=', '810')
    .where('direction', '=', 'out')
    .where('status', '!=', 'rejected')
    .where((eb) => eb.or([eb('status', '!=', 'failed'), eb('document', 'is not', null)]))
    .select(['id', 'status'])
    .orderBy('created_at', 'desc')
    .execute();
}

export function findOrderDocumentRow(db: Db, orderId: string, documentId: string) {
  return db
    .selectFrom('order_documents')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('id', '=', documentId)
    .executeTakeFirst();
}

/** The packed facts of an order the 856 and the shipment confirmation are built from. */
export async function loadPackedFacts(db: Db, orderId: string) {
  const [pallets, cartons, lines] = await Promise.all([
    db
      .selectFrom('pallets')
      .where('order_id', '=', orderId)
      .select(['id', 'sscc', 'weight', 'weight_unit', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('cartons')
      .where('order_id', '=', orderId)
      .select([
        'id',
        'sscc',
        'pallet_id',
        'parcel_tracking_number',
        'weight',
        'weight_unit',
        'created_at',
      ])
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('carton_skus as s')
      .innerJoin('cartons as c', 'c.id', 's.carton_id')
      .where('c.order_id', '=', orderId)
      .select(['s.carton_id', 's.sku', 's.upc', 's.quantity'])
      .orderBy('s.carton_id')
      .orderBy('s.sku')
      .orderBy('s.id')
      .execute(),
  ]);
  return { pallets, cartons, lines };
}

export function findFacility(db: Db, facilityId: string) {
  return db
    .selectFrom('facilities')
    .where('id', '=', facilityId)
    .select(['id', 'name', 'external_facility_code', 'organization_id'])
    .executeTakeFirstOrThrow();
}
