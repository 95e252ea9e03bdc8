import { sql } from 'kysely';
import {
  conflictListQuerySchema,
  type ConflictAction,
  type ConflictField,
  type SyncConflict,
  type SyncStatus,
} from '../../shared/sync';
import { visibleFacilitiesQuery } from '../db/lookups';
import type { AuthUser, ServiceContext } from '../domain/context';
import { conflict, invalidRequest, notFound } from '../domain/errors';
import { CentralError } from './client';
import { columnsOf } from './columns';
import { bindable } from './rows';
import { REPLICATED_BY_NAME } from './tables';

/** Conflicts of the facilities the user sees (narrowed to the user's brand, through the order). */
function visibleConflicts(ctx: ServiceContext, user: AuthUser) {
  let query = ctx.db
    .selectFrom('sync_conflicts as c')
    .leftJoin('orders as o', 'o.id', 'c.order_id')
    .where('c.facility_id', 'in', visibleFacilitiesQuery(ctx.db, user).select('f.id'));
  if (user.brandId) query = query.where('o.brand_id', '=', user.brandId);
  return query;
}

const conflictColumns = [
  'c.id',
  'c.created_at',
  'c.client_id',
  'c.seq',
  'c.mutation',
  'c.order_id',
  'o.picksheet_code',
  'c.reason',
  'c.fields_json',
  'c.status',
  'c.resolution',
  'c.resolved_at',
] as const;

type ConflictRow = {
  id: string;
  created_at: string;
  client_id: string;
  seq: number;
  mutation: string;
  order_id: string | null;
  picksheet_code: string | null;
  reason: string;
  fields_json: string;
  status: 'open' | 'resolved';
  resolution: ConflictAction | null;
  resolved_at: string | null;
};

function conflictOf(row: ConflictRow): SyncConflict {
  return {
    id: row.id,
    created_at: row.created_at,
    device_id: row.client_id,
    seq: row.seq,
    mutation: row.mutation,
    order_id: row.order_id,
    picksheet_code: row.picksheet_code,
    reason: row.reason,
    fields: JSON.parse(row.fields_json) as ConflictField[],
    status: row.status,
    resolution: row.resolution,
    resolved_at: row.resolved_at,
  };
}

export async function listConflicts(ctx: ServiceContext, user: AuthUser, query: unknown) {
  const parsed = conflictListQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidRequest('Invalid query parameters');
  const { status, page, page_size } = parsed.data;
  const base = visibleConflicts(ctx, user).where('c.status', '=', status);
  const [rows, total] = await Promise.all([
    base
      .select(conflictColumns)
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => conflictOf(row as ConflictRow)),
    total_count: Number(total.n),
    page,
    page_size,
  };
}

/**
 * Resolves a conflict. `keep_central` changes nothing else; `apply_mine` writes the clerk's
 * values again as a new local edit (on a workstation it is pushed like any edit, so the central
 * checks it again: an order shipped meanwhile refuses it once more). One transaction.
 */
export async function resolveConflict(
  ctx: ServiceContext,
  user: AuthUser,
  conflictId: string,
  action: ConflictAction,
): Promise<SyncConflict> {
  const at = ctx.clock.now().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    const row = await visibleConflicts({ ...ctx, db: trx }, user)
      .select(['c.id', 'c.status', 'c.fields_json'])
      .where('c.id', '=', conflictId)
      .executeTakeFirst();
    if (!row) throw notFound('Conflict not found');
    if (row.status !== 'open') throw conflict('Conflict already resolved');
    if (action === 'apply_mine') {
      for (const field of JSON.parse(row.fields_json) as ConflictField[]) {
        const table = REPLICATED_BY_NAME.get(field.table);
        if (!table || !table.pushed || !field.key || field.key.length !== table.key.length)
          continue;
        const sqlite = ctx.sync?.sqlite;
        if (!sqlite || !columnsOf(sqlite, table.name).includes(field.field)) continue;
        const where = sql.join(
          table.key.map((k, i) => sql`${sql.ref(k)} = ${bindable(field.key![i])}`),
          sql` AND `,
        );
        await sql`UPDATE ${sql.table(table.name)} SET ${sql.ref(field.field)} = ${bindable(field.yours)} WHERE ${where}`.execute(
          trx,
        );
      }
    }
    await trx
      .updateTable('sync_conflicts')
      .set({
        status: 'resolved',
        resolution: action,
        resolved_at: at,
        resolved_by: user.id,
        updated_at: at,
      })
      .where('id', '=', conflictId)
      .execute();
  });
  const row = await visibleConflicts(ctx, user)
    .select(conflictColumns)
    .where('c.id', '=', conflictId)
    .executeTakeFirstOrThrow();
  return conflictOf(row as ConflictRow);
}

/** `GET /api/sync/v1/status`: what the header badge shows. */
export async function syncStatus(ctx: ServiceContext, user: AuthUser): Promise<SyncStatus> {
  const sync = ctx.sync;
  const role = sync?.role ?? 'standalone';
  const open = await visibleConflicts(ctx, user)
    .where('c.status', '=', 'open')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const conflicts = Number(open.n);
  if (role !== 'workstation' || !sync?.deviceId) {
    return {
      role,
      online: role === 'central',
      pending_mutations: 0,
      last_push_at: null,
      last_pull_at: null,
      conflicts,
      last_error: null,
    };
  }
  const state = await ctx.db
    .selectFrom('sync_state')
    .select(['acked_seq', 'last_push_at', 'last_pull_at'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  const pending = await ctx.db
    .selectFrom('sync_mutations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('client_id', '=', sync.deviceId)
    .where('seq', '>', state.acked_seq)
    .executeTakeFirstOrThrow();
  return {
    role,
    online: sync.client?.online ?? false,
    pending_mutations: Number(pending.n),
    last_push_at: state.last_push_at,
    last_pull_at: state.last_pull_at,
    conflicts,
    last_error: errorText(sync.client?.lastError ?? null),
  };
}

/** A failed round's reason in words; a network failure reads as the central being unreachable. */
function errorText(error: unknown): string | null {
  if (error === null || error === undefined) return null;
  if (error instanceof CentralError) return error.message;
  return 'The central service could not be reached';
}
