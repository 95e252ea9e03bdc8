import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import { engineOf } from '../db/engine';
import { executeRaw } from '../db/raw-query';
import { runCompiledOnce, slot, slots } from '../db/compiled-once';
import { insertRows } from './bulk-insert';
import { redactUrl, redactUrlsInText } from './transmission/redact-url';
import type { AttemptRecord } from './transmission/types';
import type { AuthUser } from '../core/context';
import { timeOrderedUuid } from '../core/time-ordered-id';
import { visibleFacilitiesQuery } from '../access';
import { inCountLockOrder, TRANSACTION_COLUMNS } from '../transactions';
import type {
  AdviceDeliveriesTable,
  AdviceSnapshotsTable,
  Database,
  DeliveryStatus,
} from '../db/schema';

type Db = Kysely<Database>;

/** Every connection of a brand in the given organisations, with the names results report. */
export function listBrandConnections(db: Db, brandId: string, organizationIds: string[]) {
  if (organizationIds.length === 0) return Promise.resolve([]);
  // Built once per number of organisations (../db/compiled-once): every advice runs it.
  return runCompiledOnce(
    db,
    `inventory.listBrandConnections:${organizationIds.length}`,
    () => brandConnectionsQuery(db, slot(0), slots(organizationIds.length, 1)),
    [brandId, ...organizationIds],
  );
}

function brandConnectionsQuery(db: Db, brandId: string, organizationIds: string[]) {
  return db
    .selectFrom('connections as c')
    .innerJoin('retailers as r', 'r.id', 'c.retailer_id')
    .innerJoin('organizations as o', 'o.id', 'c.organization_id')
    .innerJoin('brands as b', 'b.id', 'c.brand_id')
    .where('c.brand_id', '=', brandId)
    .where('c.organization_id', 'in', organizationIds)
    .select([
      'c.id',
      'c.organization_id',
      'o.name as organization_name',
      'c.brand_id',
      'b.name as brand_name',
      'c.retailer_id',
      'r.name as retailer_name',
      'c.kind',
      'c.enabled',
      'c.transport_json',
      'c.edi_json',
      'c.sender',
    ])
    .orderBy('o.name')
    .orderBy('r.name')
    .orderBy('c.id');
}
export type BrandConnection = Awaited<ReturnType<typeof listBrandConnections>>[number];

/** ISA13 and GS06 have nine digits: after 999999999 a counter starts again at 1. */
const MAX_CONTROL_NUMBER = 999_999_999;
function nextControlNumber(
  eb: ExpressionBuilder<Database, 'connections'>,
  column: 'interchange_counter' | 'group_counter',
) {
  return eb
    .case()
    .when(column, '>=', MAX_CONTROL_NUMBER)
    .then(1)
    .else(eb(column, '+', 1))
    .end();
}

/** Takes the next ISA13/GS06 for a connection; run inside the transaction that stores the interchange. */
export async function takeControlNumbers(db: Db, connectionId: string) {
  const row = await db
    .updateTable('connections')
    .set((eb) => ({
      interchange_counter: nextControlNumber(eb, 'interchange_counter'),
      group_counter: nextControlNumber(eb, 'group_counter'),
    }))
    .where('id', '=', connectionId)
    .returning(['interchange_counter', 'group_counter'])
    .executeTakeFirstOrThrow();
  return { interchange: row.interchange_counter, group: row.group_counter };
}

/**
 * Takes the next ISA13/GS06 of several connections in one statement, by connection id; run
 * inside the transaction that stores the interchanges.
 */
export async function takeControlNumbersOf(db: Db, connectionIds: string[]) {
  const taken = new Map<string, { interchange: number; group: number }>();
  if (connectionIds.length === 0) return taken;
  const count = connectionIds.length;
  if (engineOf(db) === 'postgres') {
    // An UPDATE locks its rows in the order its plan meets them: the table's physical order
    // (which every update moves) or the primary key's. Two overlapping transactions could then
    // each hold one connection and wait for the other's (a deadlock). Locking them by id first
    // gives every transaction one order. SQLite has one writer at a time.
    await runCompiledOnce(
      db,
      `inventory.lockConnections:${count}`,
      () =>
        db
          .selectFrom('connections')
          .select('id')
          .where('id', 'in', slots(count))
          .orderBy('id')
          .forNoKeyUpdate(),
      connectionIds,
    );
  }
  // Built once per number of connections (../db/compiled-once): every advice runs it.
  const rows = await runCompiledOnce(
    db,
    `inventory.takeControlNumbersOf:${count}`,
    () =>
      db
        .updateTable('connections')
        .set((eb) => ({
          interchange_counter: nextControlNumber(eb, 'interchange_counter'),
          group_counter: nextControlNumber(eb, 'group_counter'),
        }))
        .where('id', 'in', slots(count))
        .returning(['id', 'interchange_counter', 'group_counter']),
    connectionIds,
  );
  for (const row of rows) {
    taken.set(row.id, { interchange: row.interchange_counter, group: row.group_counter });
  }
  return taken;
}

export async function peekControlNumbers(db: Db, connectionId: string) {
  const row = await db
    .selectFrom('connections')
    .select(['interchange_counter', 'group_counter'])
    .where('id', '=', connectionId)
    .executeTakeFirstOrThrow();
  return {
    interchange: (row.interchange_counter % MAX_CONTROL_NUMBER) + 1,
    group: (row.group_counter % MAX_CONTROL_NUMBER) + 1,
  };
}

/** An outbox row as the advice inserts it; the snapshot id and time stamps are added on insert. */
export type NewDeliveryRow = Omit<
  Selectable<AdviceDeliveriesTable>,
  'snapshot_id' | 'attempts' | 'created_at' | 'updated_at' | 'auto_retries' | 'given_up'
>;

export async function insertSnapshot(db: Db, snapshot: Selectable<AdviceSnapshotsTable>) {
  await insertRows(db, 'advice_snapshots', SNAPSHOT_COLUMNS, [snapshot]);
}

const SNAPSHOT_COLUMNS = [
  'id',
  'brand_id',
  'facility_id',
  'user_id',
  'items_json',
  'item_count',
  'created_at',
] as const satisfies readonly (keyof AdviceSnapshotsTable)[];

export async function insertDeliveries(
  db: Db,
  snapshot: { id: string; itemsJson: string },
  at: string,
  rows: NewDeliveryRow[],
) {
  if (rows.length === 0) return;
  await insertRows(
    db,
    'advice_deliveries',
    DELIVERY_COLUMNS,
    rows.map((row) => ({
      ...row,
      document: null,
      snapshot_id: snapshot.id,
      created_at: at,
      updated_at: at,
    })),
  );
  const documents = rows.flatMap((row) =>
    row.document === null ? [] : [{ delivery_id: row.id, body: row.document }],
  );
  if (documents.length > 0) await insertDocuments(db, snapshot.itemsJson, documents);
}

/** The columns an advice writes of a new delivery (the counters take their defaults). */
const DELIVERY_COLUMNS = [
  'id',
  'snapshot_id',
  'connection_id',
  'organization_id',
  'retailer_id',
  'kind',
  'sender_id',
  'status',
  'next_attempt_at',
  'document',
  'content_type',
  'file_name',
  'interchange_control_number',
  'error',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof AdviceDeliveriesTable)[];

/**
 * Stores delivery documents of one snapshot, once each: they are never updated. A document that
 * holds the snapshot's `items_json` keeps only what surrounds it (tables.ts AdviceDocumentsTable),
 * so `documentText` gives back the very same bytes.
 */
export async function insertDocuments(
  db: Db,
  snapshotItemsJson: string,
  documents: { delivery_id: string; body: string }[],
) {
  await insertRows(
    db,
    'advice_documents',
    ['delivery_id', 'body', 'tail'],
    documents.map(({ delivery_id, body }) => {
      // Wherever it is found, body = head + items + tail holds byte for byte.
      const at = itemsPosition(body, snapshotItemsJson);
      if (at < 0) return { delivery_id, body, tail: null };
      return {
        delivery_id,
        body: body.slice(0, at),
        tail: body.slice(at + snapshotItemsJson.length),
      };
    }),
  );
}

/**
 * Where `items` starts in `body`, or -1. A direct feed ends with `"items":<items>}`, so that
 * place is compared first (one equality test, ~20x cheaper than searching a 95 KB body for a
 * 90 KB needle); anywhere else, the search decides.
 */
function itemsPosition(body: string, items: string): number {
  const atEnd = body.length - items.length - 1;
  if (atEnd >= 0 && body.slice(atEnd, atEnd + items.length) === items) return atEnd;
  return body.indexOf(items);
}

/** A stored document's text (`ad`: advice_documents, `s`: its snapshot): see insertDocuments. */
const documentText = sql<
  string | null
>`CASE WHEN ad.tail IS NULL THEN ad.body ELSE ad.body || s.items_json || ad.tail END`;

export interface AttemptContext {
  deliveryId: string;
  snapshotId: string;
  brandId: string;
  facilityId: string | null;
  retailerId: string | null;
  documentBytes: number;
}

/**
 * One transaction-log row per attempt (the payload column references the stored document), for
 * several deliveries in one statement, in the order given.
 */
export async function insertAttempts(
  db: Db,
  deliveries: { context: AttemptContext; attempts: AttemptRecord[] }[],
) {
  const rows = deliveries.flatMap(({ context, attempts }) =>
    attempts.map((attempt) => attemptRow(context, attempt)),
  );
  // Two batches that met the same count rows in different orders would deadlock on PostgreSQL.
  await insertRows(db, 'transactions', TRANSACTION_COLUMNS, inCountLockOrder(db, rows));
}

function attemptRow(context: AttemptContext, attempt: AttemptRecord) {
  const at = attempt.startedAt.toISOString();
  return {
    transaction_id: timeOrderedUuid(),
    action_type: 'SEND_INVENTORY_ADVICE',
    action_type_label: 'Send inventory advice',
    brand_id: context.brandId,
    retailer_id: context.retailerId,
    facility_id: context.facilityId,
    order_id: null,
    carton_id: null,
    load_id: null,
    correlation_id: context.snapshotId,
    duration_ms: Math.round(attempt.durationMs),
    error_message: attempt.error === null ? null : redactUrlsInText(attempt.error),
    execution_status: attempt.status,
    request_method: attempt.requestUrl.startsWith('http') ? 'POST' : 'PUT',
    // Defence in depth: deliver() already redacts, but nothing else may store a secret here.
    request_url: redactUrl(attempt.requestUrl),
    request_payload: JSON.stringify({
      delivery_id: context.deliveryId,
      attempt: attempt.attempt,
      bytes: context.documentBytes,
    }),
    response_body:
      attempt.responseBody === null ? null : JSON.stringify({ text: attempt.responseBody }),
    response_status: attempt.responseStatus,
    created_at: at,
    updated_at: at,
  };
}

/** The states of several deliveries, by id, read in one query. */
export async function deliveryStates(db: Db, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return new Map<string, { status: string; auto_retries: number }>();
  // Built once per number of deliveries (../db/compiled-once): every outcome commit runs it.
  const rows = await runCompiledOnce(
    db,
    `inventory.deliveryStates:${deliveryIds.length}`,
    () =>
      db
        .selectFrom('advice_deliveries')
        .select(['id', 'status', 'auto_retries'])
        .where('id', 'in', slots(deliveryIds.length)),
    deliveryIds,
  );
  return new Map(rows.map(({ id, ...state }) => [id, state]));
}

/** Records an outcome and the drainer's plan for the delivery (see advice/redelivery.ts). */
export async function completeDelivery(
  db: Db,
  deliveryId: string,
  outcome: {
    status: DeliveryStatus;
    error: string | null;
    attempts: number;
    autoRetries: number;
    nextAttemptAt: string | null;
    givenUp: boolean;
    at: string;
  },
) {
  // One SQL text for every outcome (8 per advice): no builder nodes to make and compile each time.
  await executeRaw(db, COMPLETE_DELIVERY, [
    outcome.status,
    outcome.error,
    outcome.attempts,
    outcome.autoRetries,
    outcome.nextAttemptAt,
    outcome.givenUp ? 1 : 0,
    outcome.at,
    deliveryId,
  ]);
}

const COMPLETE_DELIVERY = `update "advice_deliveries" set "status" = ?, "error" = ?,
  "attempts" = "attempts" + ?, "auto_retries" = ?, "next_attempt_at" = ?, "given_up" = ?,
  "updated_at" = ? where "id" = ?`;

/** Deliveries to this connection of snapshots of one scope (a facility; the brand level if null). */
function scopeDeliveries(db: Db, connectionId: string, facilityId: string | null) {
  return db
    .selectFrom('advice_deliveries as d')
    .innerJoin('advice_snapshots as s', 's.id', 'd.snapshot_id')
    .where('d.connection_id', '=', connectionId)
    .where('s.facility_id', facilityId === null ? 'is' : '=', facilityId);
}

/**
 * Whether this connection accepted a snapshot of the same scope (the facility, or the brand
 * level) newer than `createdAt`: a full snapshot replaces that scope's stock levels.
 */
export async function newerSnapshotDelivered(
  db: Db,
  connectionId: string,
  facilityId: string | null,
  createdAt: string,
) {
  const row = await scopeDeliveries(db, connectionId, facilityId)
    .where('d.status', '=', 'SUCCESS')
    .where('s.created_at', '>', createdAt)
    .select('d.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a newer snapshot of the same scope has a document for this connection (sent or not). */
export async function newerSnapshotOutboxed(
  db: Db,
  connectionId: string,
  facilityId: string | null,
  createdAt: string,
) {
  const row = await scopeDeliveries(db, connectionId, facilityId)
    .innerJoin('advice_documents as ad', 'ad.delivery_id', 'd.id')
    .where('s.created_at', '>', createdAt)
    .select('d.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The items of the last snapshot of a scope that a connection accepted: a preview's baseline. */
export async function lastDeliveredSnapshot(
  db: Db,
  connectionId: string,
  facilityId: string | null,
) {
  return scopeDeliveries(db, connectionId, facilityId)
    .where('d.status', '=', 'SUCCESS')
    .select(['s.id', 's.items_json', 's.created_at'])
    .orderBy('s.created_at', 'desc')
    .orderBy('d.updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The organisations of the facilities a user sees: the only ones whose deliveries it sees. */
const userOrganizations = (db: Db, user: AuthUser) =>
  visibleFacilitiesQuery(db, user).select('f.organization_id');

/** Deliveries (as `d`) that went to no organisation or to one of the user's organisations. */
function deliveryOrganizationVisible(
  eb: ExpressionBuilder<{ d: Database['advice_deliveries'] }, 'd'>,
  db: Db,
  user: AuthUser,
) {
  return eb.or([
    eb('d.organization_id', 'is', null),
    eb('d.organization_id', 'in', userOrganizations(db, user)),
  ]);
}

/**
 * Snapshots the user may see: facility snapshots of visible facilities (of its brand, for brand
 * credentials); for brand credentials also the brand's brand-level snapshots that reached an
 * organisation of a facility it sees.
 */
function visibleSnapshots(db: Db, user: AuthUser) {
  return db.selectFrom('advice_snapshots as s').where((eb) => {
    const ofVisibleFacility = eb.and([
      eb('s.facility_id', 'in', visibleFacilitiesQuery(db, user).select('f.id')),
      ...(user.brandId ? [eb('s.brand_id', '=', user.brandId)] : []),
    ]);
    if (!user.brandId) return ofVisibleFacility;
    const reachedUserOrganization = eb.exists(
      eb
        .selectFrom('advice_deliveries as vd')
        .select('vd.id')
        .whereRef('vd.snapshot_id', '=', 's.id')
        .where((inner) =>
          inner.or([
            // The row of an advice that found no enabled connection belongs to no organisation.
            inner.and([
              inner('vd.organization_id', 'is', null),
              inner.exists(visibleFacilitiesQuery(db, user).select('f.id')),
            ]),
            inner('vd.organization_id', 'in', userOrganizations(db, user)),
          ]),
        ),
    );
    return eb.or([
      ofVisibleFacility,
      eb.and([
        eb('s.facility_id', 'is', null),
        eb('s.brand_id', '=', user.brandId),
        reachedUserOrganization,
      ]),
    ]);
  });
}

export async function listSnapshots(
  db: Db,
  user: AuthUser,
  filter: { brandId?: string; facilityId?: string; page: number; pageSize: number },
) {
  let query = visibleSnapshots(db, user);
  if (filter.brandId) query = query.where('s.brand_id', '=', filter.brandId);
  if (filter.facilityId) query = query.where('s.facility_id', '=', filter.facilityId);
  const total = await query
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .select(['s.id', 's.brand_id', 's.facility_id', 's.item_count', 's.created_at'])
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize)
    .execute();
  return { total: Number(total.n), rows };
}

export function findVisibleSnapshot(db: Db, user: AuthUser, snapshotId: string) {
  return visibleSnapshots(db, user)
    .select(['s.id', 's.brand_id', 's.facility_id', 's.item_count', 's.created_at', 's.items_json'])
    .where('s.id', '=', snapshotId)
    .executeTakeFirst();
}

/** The deliveries of these snapshots that went to an organisation of a facility the user sees. */
export function listVisibleDeliveriesOf(db: Db, user: AuthUser, snapshotIds: string[]) {
  if (snapshotIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('advice_deliveries as d')
    .leftJoin('retailers as r', 'r.id', 'd.retailer_id')
    .where('d.snapshot_id', 'in', snapshotIds)
    .where((eb) => deliveryOrganizationVisible(eb, db, user))
    .select([
      'd.id',
      'd.snapshot_id',
      'd.connection_id',
      'd.organization_id',
      'd.retailer_id',
      'r.name as retailer_name',
      'd.kind',
      'd.status',
      'd.error',
      'd.attempts',
      'd.next_attempt_at',
      'd.given_up',
      'd.file_name',
      'd.content_type',
      'd.interchange_control_number',
      'd.updated_at',
    ])
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
}

/** A delivery with its stored document, if the user sees its snapshot and its organisation. */
export function findVisibleDelivery(db: Db, user: AuthUser, deliveryId: string) {
  return visibleSnapshots(db, user)
    .innerJoin('advice_deliveries as d', 'd.snapshot_id', 's.id')
    .leftJoin('advice_documents as ad', 'ad.delivery_id', 'd.id')
    .where('d.id', '=', deliveryId)
    .where((eb) => deliveryOrganizationVisible(eb, db, user))
    .select([
      'd.id',
      'd.organization_id',
      'd.status',
      documentText.as('document'),
      'd.content_type',
      'd.file_name',
      's.brand_id',
      's.facility_id',
    ])
    .executeTakeFirst();
}

/** Everything needed to send a delivery again, read fresh (after the caller claimed it). */
export function findDeliveryToSend(db: Db, deliveryId: string) {
  return db
    .selectFrom('advice_deliveries as d')
    .innerJoin('advice_snapshots as s', 's.id', 'd.snapshot_id')
    .leftJoin('connections as c', 'c.id', 'd.connection_id')
    .leftJoin('advice_documents as ad', 'ad.delivery_id', 'd.id')
    .where('d.id', '=', deliveryId)
    .select([
      'd.id',
      'd.snapshot_id',
      'd.connection_id',
      'd.retailer_id',
      'd.status',
      documentText.as('document'),
      'd.content_type',
      'd.file_name',
      'd.next_attempt_at',
      'd.sender_id',
      's.brand_id',
      's.facility_id',
      's.created_at as snapshot_created_at',
      'c.transport_json',
      'c.enabled as connection_enabled',
    ])
    .executeTakeFirst();
}
export type DeliveryToSend = NonNullable<Awaited<ReturnType<typeof findDeliveryToSend>>>;

/** Deliveries whose background re-delivery is due, soonest first, except those being sent. */
export function listDueDeliveries(
  db: Db,
  now: string,
  limit: number,
  skip: Iterable<string>,
  senderIds: (string | null)[],
) {
  const skipped = [...skip];
  let query = db
    .selectFrom('advice_deliveries')
    .select('id')
    .where(sentBy(senderIds))
    .where('next_attempt_at', 'is not', null)
    .where('next_attempt_at', '<=', now);
  if (skipped.length > 0) query = query.where('id', 'not in', skipped);
  return query.orderBy('next_attempt_at').orderBy('id').limit(limit).execute();
}

/** The drainer stops planning this delivery; the reason replaces the error a clerk sees. */
export async function giveUpDelivery(db: Db, deliveryId: string, reason: string, at: string) {
  await db
    .updateTable('advice_deliveries')
    .set({ next_attempt_at: null, given_up: 1, error: reason, updated_at: at })
    .where('id', '=', deliveryId)
    .where('status', '!=', 'SUCCESS')
    .execute();
}

/** Deliveries a crash left unconfirmed (sent or not, the partner's answer was never recorded). */
export async function countPendingDeliveries(
  db: Db,
  senderIds: (string | null)[],
): Promise<number> {
  const row = await db
    .selectFrom('advice_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(sentBy(senderIds))
    .where('status', '=', 'PENDING')
    .where('given_up', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deliveries one of `senderIds` sends (sync: each delivery has exactly one sender). */
function sentBy(senderIds: (string | null)[]) {
  return (eb: ExpressionBuilder<Database, 'advice_deliveries'>) =>
    eb.or(
      senderIds.map((id) => (id === null ? eb('sender_id', 'is', null) : eb('sender_id', '=', id))),
    );
}
