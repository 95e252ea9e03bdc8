import { sql } from 'kysely';
import { createOrderBodySchema, ORDER_LIMITS, updateOrderBodySchema } from '../../shared/orders';
import {
  conflictListQuerySchema,
  recreateOrderBodySchema,
  type ConflictAction,
  type ConflictField,
  type ConflictOffer,
  type ConflictResolution,
  type SyncConflict,
  type SyncStatus,
} from '../../shared/sync';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import { visibleFacilitiesQuery } from '../access';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, forbidden, invalidRequest, notFound } from '../core/errors';
import { createOrder } from '../orders';
import { ORDER_ACTIONS } from '../orders';
import { updateOrder } from '../orders';
import { asOrderUpdate } from './apply-mine';
import type { ApplySql } from './apply-sql';
import { postgresApplySql } from './apply-sql-postgres';
import { sqliteApplySql } from './apply-sql-sqlite';
import { CentralError } from './client';
import {
  ALREADY_RESOLVED,
  applicableValues,
  applyMineOffered,
  judgeApplyMine,
  storedConflict,
} from './conflict-rules';
import type { RowChange } from './protocol';
import { bindable } from './rows';

/**
 * Conflicts of the facilities the user sees, narrowed to the user's brand: the conflict's own
 * (kept for a refused create, whose order exists nowhere), else its order's. On a workstation also
 * its own conflicts the central tied to no facility (the order moved away while it was offline):
 * every user there sees them, a user of one brand only those of that brand or of none.
 */
function visibleConflicts(ctx: ServiceContext, user: AuthUser) {
  const ownDevice = ctx.sync?.role === 'workstation' ? ctx.sync.deviceId : null;
  let query = ctx.db
    .selectFrom('sync_conflicts as c')
    .leftJoin('orders as o', 'o.id', 'c.order_id')
    .where((eb) => {
      const inScope = eb(
        'c.facility_id',
        'in',
        visibleFacilitiesQuery(ctx.db, user).select('f.id'),
      );
      if (!ownDevice) return inScope;
      return eb.or([
        inScope,
        eb.and([eb('c.facility_id', 'is', null), eb('c.client_id', '=', ownDevice)]),
      ]);
    });
  if (user.brandId) {
    const brandId = user.brandId;
    query = query.where((eb) => {
      const brand = eb.fn.coalesce('c.brand_id', 'o.brand_id');
      return eb.or([
        eb(brand, '=', brandId),
        eb.and([eb('c.facility_id', 'is', null), eb(brand, 'is', null)]),
      ]);
    });
  }
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
  'o.status as order_status',
  'c.reason',
  'c.fields_json',
  'c.changes_json',
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
  brand_id: string | null;
  picksheet_code: string | null;
  order_status: string | null;
  reason: string;
  fields_json: string;
  changes_json: string;
  status: 'open' | 'resolved';
  resolution: ConflictResolution | null;
  resolved_at: string | null;
  /** The user holds an admin grant for the conflict's brand and facility (SQLite: 0 or 1). */
  admin: number | boolean;
};

function conflictOf(row: ConflictRow): SyncConflict {
  const fields = JSON.parse(row.fields_json) as ConflictField[];
  const offers: ConflictOffer[] = [];
  if (row.status === 'open') {
    offers.push('keep_central');
    if (row.admin && applyMineOffered(row)) offers.push('apply_mine');
    if (row.order_status === null && refusedCreate(row) !== null) {
      offers.push('create_with_new_picksheet');
    }
  }
  // A refused create has no order to name it: its own picksheet code does.
  const refusedCode = fields.find((f) => f.table === 'orders' && f.field === 'picksheet_code');
  return {
    id: row.id,
    created_at: row.created_at,
    device_id: row.client_id,
    seq: row.seq,
    mutation: row.mutation,
    order_id: row.order_id,
    brand_id: row.brand_id,
    picksheet_code:
      row.picksheet_code ?? (typeof refusedCode?.yours === 'string' ? refusedCode.yours : null),
    reason: row.reason,
    fields,
    status: row.status,
    resolution: row.resolution,
    resolved_at: row.resolved_at,
    offers,
  };
}

/** The visible conflicts with their order's state, and whether the user is their admin. */
const selectConflicts = (ctx: ServiceContext, user: AuthUser) =>
  visibleConflicts(ctx, user)
    .select(conflictColumns)
    .select((eb) => [
      eb.fn.coalesce('c.brand_id', 'o.brand_id').as('brand_id'),
      eb
        .exists(
          eb
            .selectFrom('user_admin as ua')
            .select('ua.user_id')
            .where('ua.user_id', '=', user.id)
            .whereRef('ua.facility_id', '=', 'c.facility_id')
            .whereRef('ua.facility_id', '=', 'o.facility_id')
            .where((inner) =>
              inner('ua.brand_id', '=', inner.fn.coalesce('c.brand_id', 'o.brand_id')),
            ),
        )
        .as('admin'),
    ]);

export async function listConflicts(ctx: ServiceContext, user: AuthUser, query: unknown) {
  const parsed = conflictListQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidRequest('Invalid query parameters');
  const { status, page, page_size } = parsed.data;
  const [rows, total] = await Promise.all([
    selectConflicts(ctx, user)
      .where('c.status', '=', status)
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(page_size)
      .offset((page - 1) * page_size)
      .execute(),
    visibleConflicts(ctx, user)
      .where('c.status', '=', status)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => conflictOf(row as ConflictRow)),
    total_count: Number(total.n),
    page,
    page_size,
  };
}

async function visibleConflict(ctx: ServiceContext, user: AuthUser, conflictId: string) {
  const row = await selectConflicts(ctx, user).where('c.id', '=', conflictId).executeTakeFirst();
  if (!row) throw notFound('Conflict not found');
  return conflictOf(row as ConflictRow);
}

/** The conflict rules' SQL in the caller's transaction (`trx`), on either engine. */
function rulesSql(ctx: ServiceContext, trx: Db): ApplySql {
  if (engineOf(trx) === 'postgres') return postgresApplySql(trx);
  // SQLite: the raw handle is the transaction's own connection (Kysely has one).
  const sqlite = ctx.sync?.sqlite;
  if (!sqlite) throw notFound('Conflict not found');
  return sqliteApplySql(sqlite, null);
}

const markResolved = (
  trx: Db,
  user: AuthUser,
  conflictId: string,
  resolution: ConflictResolution,
  at: string,
) =>
  trx
    .updateTable('sync_conflicts')
    .set({ status: 'resolved', resolution, resolved_at: at, resolved_by: user.id, updated_at: at })
    .where('id', '=', conflictId)
    .where('status', '=', 'open')
    .executeTakeFirst();

/**
 * Resolves a conflict. `keep_central` changes nothing else. `apply_mine` needs an admin grant for
 * the conflict's brand and facility and an order not Shipped or Cancelled (409: "Shipped wins"),
 * and writes the clerk's values again, only fields of that order's rows (conflict-rules.ts): the
 * order's own fields replayed as the order update command, in whose transaction the conflict is
 * resolved. On a workstation it is pushed like any edit, and the central judges it by the same
 * rules.
 */
export async function resolveConflict(
  ctx: ServiceContext,
  user: AuthUser,
  conflictId: string,
  action: ConflictAction,
): Promise<SyncConflict> {
  const at = ctx.clock.now().toISOString();
  if (action === 'apply_mine') {
    await applyMine(ctx, user, conflictId, at);
  } else {
    await ctx.db.transaction().execute(async (trx) => {
      await openConflict(ctx, trx, user, conflictId);
      await markResolved(trx, user, conflictId, action, at);
    });
  }
  return visibleConflict(ctx, user, conflictId);
}

/** The conflict, when the user sees it and it is still open (read in the caller's transaction). */
async function openConflict(ctx: ServiceContext, trx: Db, user: AuthUser, conflictId: string) {
  const row = await visibleConflicts({ ...ctx, db: trx }, user)
    .select(['c.id', 'c.status'])
    .where('c.id', '=', conflictId)
    .executeTakeFirst();
  if (!row) throw notFound('Conflict not found');
  if (row.status !== 'open') throw conflict(ALREADY_RESOLVED);
}

async function applyMine(ctx: ServiceContext, user: AuthUser, conflictId: string, at: string) {
  const judged = async (trx: Db) => {
    await openConflict(ctx, trx, user, conflictId);
    const rules = rulesSql(ctx, trx);
    const stored = (await storedConflict(rules, conflictId))!;
    const verdict = await judgeApplyMine(rules, stored, user.id);
    if (!verdict.ok) {
      throw verdict.kind === 'forbidden' ? forbidden(verdict.message) : conflict(verdict.message);
    }
    return stored;
  };
  // Judged first on its own, so a refusal speaks of the conflict (a grant, a Shipped order)
  // rather than of the command; judged again inside the write, which may come later.
  const stored = await ctx.db.transaction().execute(judged);
  const values = await applicableValues(
    rulesSql(ctx, ctx.db),
    stored,
    JSON.parse(stored.fields_json) as ConflictField[],
  );
  const { body, rest } = asOrderUpdate(values, {
    id: stored.order_id!,
    picksheet_code: stored.picksheet_code!,
  });
  const finish = async (trx: Db) => {
    await judged(trx);
    for (const value of rest) {
      const where = sql.join(
        value.table.key.map((k, i) => sql`${sql.ref(k)} = ${bindable(value.key[i])}`),
        sql` AND `,
      );
      await sql`UPDATE ${sql.table(value.table.name)} SET ${sql.ref(value.column)} = ${bindable(value.value)} WHERE ${where}`.execute(
        trx,
      );
    }
    await markResolved(trx, user, conflictId, 'apply_mine', at);
  };
  if (body === null) {
    await ctx.db.transaction().execute(finish);
    return;
  }
  const update = updateOrderBodySchema.safeParse(body);
  if (!update.success) {
    throw conflict(
      'Your values are no longer valid for this order: keep the central’s, or edit the order',
      {
        details: update.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      },
    );
  }
  await updateOrder(ctx, user, update.data, {}, finish);
}

/** The create body a refused create was made from (its log row), or null when there is none. */
function refusedCreate(row: Pick<ConflictRow, 'order_id' | 'changes_json'>): unknown {
  if (row.order_id === null) return null;
  const changes = JSON.parse(row.changes_json) as RowChange[];
  if (!changes.some((c) => c.t === 'orders' && c.op === 'I' && c.k[0] === row.order_id)) {
    return null;
  }
  const log = changes.find(
    (c) =>
      c.t === 'transactions' &&
      c.op === 'I' &&
      c.new?.order_id === row.order_id &&
      c.new?.action_type === ORDER_ACTIONS.create.code,
  );
  const payload = log?.new?.request_payload;
  if (typeof payload !== 'string') return null;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null;
  }
}

/**
 * "Create with a new picksheet code": the refused create runs again as the create command, with
 * its kept values and the code the clerk typed (checked as any create: scope, brand, retailer,
 * a code free at the facility); the conflict is resolved in the same transaction.
 */
export async function recreateRefusedOrder(
  ctx: ServiceContext,
  user: AuthUser,
  conflictId: string,
  input: unknown,
): Promise<{ order_id: string; conflict: SyncConflict }> {
  const parsed = recreateOrderBodySchema.safeParse(input);
  if (!parsed.success) {
    throw invalidRequest('picksheet_code: enter the new picksheet code', {
      details: `picksheet_code: is required (at most ${ORDER_LIMITS.code} characters)`,
    });
  }
  const found = await visibleConflict(ctx, user, conflictId);
  if (found.status !== 'open') throw conflict(ALREADY_RESOLVED);
  if (!found.offers.includes('create_with_new_picksheet')) {
    throw conflict('This conflict is not a refused new order');
  }
  const row = await ctx.db
    .selectFrom('sync_conflicts')
    .select(['order_id', 'changes_json'])
    .where('id', '=', conflictId)
    .executeTakeFirstOrThrow();
  const kept = refusedCreate(row) as Record<string, unknown>;
  const body = createOrderBodySchema.safeParse({
    ...kept,
    picksheet_code: parsed.data.picksheet_code,
  });
  if (!body.success) throw conflict('The refused order’s values no longer make a valid order');
  const at = ctx.clock.now().toISOString();
  const answer = await createOrder(ctx, user, body.data, null, {}, async (trx) => {
    const done = await markResolved(trx, user, conflictId, 'created_new', at);
    if (Number(done.numUpdatedRows) !== 1) throw conflict(ALREADY_RESOLVED);
  });
  return {
    order_id: answer.body.data.order_id,
    conflict: await visibleConflict(ctx, user, conflictId),
  };
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
