import type { ExpressionBuilder, Insertable, Kysely, Selectable } from 'kysely';
import type { AttemptRecord } from '../advice/types';
import type { AuthUser } from '../domain/context';
import type {
  AdviceDeliveriesTable,
  AdviceSnapshotsTable,
  Database,
  DeliveryStatus,
} from './schema';

type Db = Kysely<Database>;

/** Every connection of a brand in the given organisations, with the names results report. */
export function listBrandConnections(db: Db, brandId: string, organizationIds: string[]) {
  if (organizationIds.length === 0) return Promise.resolve([]);
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
    ])
    .orderBy('o.name')
    .orderBy('r.name')
    .orderBy('c.id')
    .execute();
}
export type BrandConnection = Awaited<ReturnType<typeof listBrandConnections>>[number];

export function findBrand(db: Db, brandId: string) {
  return db
    .selectFrom('brands')
    .select(['id', 'name', 'external_brand_code'])
    .where('id', '=', brandId)
    .executeTakeFirst();
}

export async function hasAdminGrant(db: Db, userId: string, brandId: string, facilityId?: string) {
  let query = db
    .selectFrom('user_admin')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('brand_id', '=', brandId);
  if (facilityId) query = query.where('facility_id', '=', facilityId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function brandWorksAt(db: Db, brandId: string, facilityId: string) {
  const row = await db
    .selectFrom('brand_facilities')
    .select('brand_id')
    .where('brand_id', '=', brandId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return row !== undefined;
}

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
  'snapshot_id' | 'attempts' | 'created_at' | 'updated_at'
>;

export async function insertSnapshot(db: Db, snapshot: Insertable<AdviceSnapshotsTable>) {
  await db.insertInto('advice_snapshots').values(snapshot).execute();
}

export async function insertDeliveries(
  db: Db,
  snapshotId: string,
  at: string,
  rows: NewDeliveryRow[],
) {
  if (rows.length === 0) return;
  await db
    .insertInto('advice_deliveries')
    .values(
      rows.map((row) => ({ ...row, snapshot_id: snapshotId, created_at: at, updated_at: at })),
    )
    .execute();
}

export interface AttemptContext {
  deliveryId: string;
  snapshotId: string;
  brandId: string;
  facilityId: string | null;
  retailerId: string | null;
  documentBytes: number;
}

/** One transaction-log row per attempt; the payload column references the stored document. */
export async function insertAttempts(db: Db, context: AttemptContext, attempts: AttemptRecord[]) {
  if (attempts.length === 0) return;
  await db
    .insertInto('transactions')
    .values(
      attempts.map((attempt) => {
        const at = attempt.startedAt.toISOString();
        return {
          transaction_id: crypto.randomUUID(),
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
          error_message: attempt.error,
          execution_status: attempt.status,
          request_method: attempt.requestUrl.startsWith('http') ? 'POST' : 'PUT',
          request_url: attempt.requestUrl,
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
      }),
    )
    .execute();
}

/** Records an outcome; a delivery the partner accepted is never downgraded by a later failure. */
export async function completeDelivery(
  db: Db,
  deliveryId: string,
  outcome: { status: DeliveryStatus; error: string | null; attempts: number; at: string },
) {
  await db
    .updateTable('advice_deliveries')
    .set((eb) => ({
      status: eb
        .case()
        .when('status', '=', 'SUCCESS')
        .then('SUCCESS' as DeliveryStatus)
        .else(outcome.status)
        .end(),
      error: eb.case().when('status', '=', 'SUCCESS').then(null).else(outcome.error).end(),
      attempts: eb('attempts', '+', outcome.attempts),
      updated_at: outcome.at,
    }))
    .where('id', '=', deliveryId)
    .execute();
}

/** Whether a snapshot newer than `createdAt` already reached this connection. */
export async function newerSnapshotDelivered(db: Db, connectionId: string, createdAt: string) {
  const row = await db
    .selectFrom('advice_deliveries as d')
    .innerJoin('advice_snapshots as s', 's.id', 'd.snapshot_id')
    .where('d.connection_id', '=', connectionId)
    .where('d.status', '=', 'SUCCESS')
    .where('s.created_at', '>', createdAt)
    .select('d.id')
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The items of the last snapshot a connection accepted: the baseline a preview compares against. */
export async function lastDeliveredSnapshot(db: Db, connectionId: string) {
  return db
    .selectFrom('advice_deliveries as d')
    .innerJoin('advice_snapshots as s', 's.id', 'd.snapshot_id')
    .where('d.connection_id', '=', connectionId)
    .where('d.status', '=', 'SUCCESS')
    .select(['s.id', 's.items_json', 's.created_at'])
    .orderBy('s.created_at', 'desc')
    .orderBy('d.updated_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Snapshots the user may see: facility snapshots of visible facilities, brand-level ones of its brand. */
function visibleSnapshots(db: Db, user: AuthUser) {
  return db.selectFrom('advice_snapshots as s').where((eb) => {
    const ofVisibleFacility = eb.and([
      eb('s.facility_id', 'is not', null),
      eb.exists(
        eb
          .selectFrom('user_facilities as uf')
          .select('uf.facility_id')
          .whereRef('uf.facility_id', '=', 's.facility_id')
          .where('uf.user_id', '=', user.id),
      ),
      ...(user.brandId ? [eb('s.brand_id', '=', user.brandId)] : []),
    ]);
    if (!user.brandId) return ofVisibleFacility;
    return eb.or([
      ofVisibleFacility,
      eb.and([eb('s.facility_id', 'is', null), eb('s.brand_id', '=', user.brandId)]),
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

export function listDeliveriesOf(db: Db, snapshotIds: string[]) {
  if (snapshotIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('advice_deliveries as d')
    .leftJoin('retailers as r', 'r.id', 'd.retailer_id')
    .where('d.snapshot_id', 'in', snapshotIds)
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
      'd.file_name',
      'd.content_type',
      'd.interchange_control_number',
      'd.updated_at',
    ])
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
}

/** A delivery with its stored document, if its snapshot is visible to the user. */
export function findVisibleDelivery(db: Db, user: AuthUser, deliveryId: string) {
  return visibleSnapshots(db, user)
    .innerJoin('advice_deliveries as d', 'd.snapshot_id', 's.id')
    .leftJoin('connections as c', 'c.id', 'd.connection_id')
    .where('d.id', '=', deliveryId)
    .select([
      'd.id',
      'd.snapshot_id',
      'd.connection_id',
      'd.retailer_id',
      'd.status',
      'd.document',
      'd.content_type',
      'd.file_name',
      's.brand_id',
      's.facility_id',
      's.created_at as snapshot_created_at',
      'c.transport_json',
    ])
    .executeTakeFirst();
}

/** Deliveries a crash left unconfirmed (sent or not, the partner's answer was never recorded). */
export async function countPendingDeliveries(db: Db): Promise<number> {
  const row = await db
    .selectFrom('advice_deliveries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'PENDING')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
