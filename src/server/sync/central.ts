import type { ServiceContext } from '../core/context';
import type pg from 'pg';
import { z } from 'zod';
import { leaseSerialBlock } from '../fulfilment';
import { serialCapacity } from '../fulfilment';
import { conflict, DomainError, invalidRequest, notFound } from '../core/errors';
import { engineOf } from '../db/engine';
import { SYNC_PROTOCOL_VERSION } from '../../shared/sync';
import { poolOf } from '../db/postgres/pool';
import { postgresClientApplySql } from './apply-sql-postgres';
import type { ApplySql } from './apply-sql';
import { sqliteApplySql } from './apply-sql-sqlite';
import { applyPush } from './central-apply';
import { crashPoint } from './crash';
import { buildCentralDocuments } from './central-documents';
import type { Device } from './devices';
import { buildPullPage } from './pull';
import { postgresPull } from './pull.postgres';
import { latestVersion } from './health';
import { pullQuerySchema, pushBodySchema, type PushAnswer, type PushedMutation } from './protocol';
import { syncRuntimeOf, type SyncRuntime } from './runtime';

/** Every device request names the protocol it speaks; another one gets 426 and what to do. */
export function requireProtocol(header: string | string[] | undefined): void {
  if (header === String(SYNC_PROTOCOL_VERSION)) return;
  throw new DomainError(
    'upgrade_required',
    'UPGRADE_REQUIRED',
    `Upgrade required: this central service speaks sync protocol ${SYNC_PROTOCOL_VERSION}${
      header ? `, not ${String(header)}` : ''
    }; install the same app version on the workstation`,
  );
}

export function centralRuntime(ctx: ServiceContext): SyncRuntime {
  const sync = syncRuntimeOf(ctx);
  if (sync?.role !== 'central') {
    throw notFound('This service is not a central service (start it with --role central)');
  }
  return sync;
}

/** A SQLite central's handle and stamps (a PostgreSQL central has neither: it runs the twins). */
function sqliteCentral(sync: SyncRuntime) {
  if (!sync.sqlite || !sync.stamps) {
    throw conflict('Pushing to a central on PostgreSQL is not available yet');
  }
  return { sqlite: sync.sqlite, stamps: sync.stamps };
}

function firstIssue(error: { issues: { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
}

/**
 * The push body limit. A workstation cuts its batches (500 mutations) at 16 MiB (client.ts
 * PUSH_BODY_BYTES), and the largest mutation measured, a full edit of an order of 1,000 lines with
 * every text field at its limit, is 5.6 MB (old and new rows); 32 MiB holds either with margin.
 */
export const PUSH_BODY_LIMIT = 32 * 1024 * 1024;

/** Services that have looked for deliveries left without a document since they started. */
const checkedSinceStart = new WeakSet<ServiceContext>();

/**
 * Whether a push may have brought deliveries the central must build documents for: only one
 * carrying advice deliveries does, but the first push after a start also builds what a crash
 * after an earlier push's commit left without a document. The search is a query over every
 * pending delivery, which most pushes (order edits) need not pay for.
 */
function mayNeedCentralDocuments(ctx: ServiceContext, mutations: PushedMutation[]): boolean {
  if (!checkedSinceStart.has(ctx)) {
    checkedSinceStart.add(ctx);
    return true;
  }
  return mutations.some((m) => m.args.changes.some((c) => c.t === 'advice_deliveries'));
}

/** `POST /api/sync/v1/push`: applies in seq order; the answer comes only after the commit. */
export async function pushFromDevice(
  ctx: ServiceContext,
  device: Device,
  body: unknown,
): Promise<PushAnswer> {
  const sync = centralRuntime(ctx);
  const parsed = pushBodySchema.safeParse(body);
  if (!parsed.success) throw invalidRequest(`Invalid push: ${firstIssue(parsed.error)}`);
  const facilityIds = new Set(device.facilityIds);
  const answer =
    engineOf(ctx.db) === 'postgres'
      ? await applyPushOnPool(
          ctx,
          postgresClientApplySql,
          device.id,
          facilityIds,
          parsed.data.mutations,
        )
      : // Kysely's only connection, so no other request's transaction can interleave.
        await ctx.db.connection().execute(() => {
          const central = sqliteCentral(sync);
          return applyPush(
            { sql: sqliteApplySql(central.sqlite, central.stamps), now: () => ctx.clock.now() },
            device.id,
            facilityIds,
            parsed.data.mutations,
          );
        });
  crashPoint('after_server_commit');
  if (answer.applied > 0 && mayNeedCentralDocuments(ctx, parsed.data.mutations)) {
    await buildCentralDocuments(ctx);
  }
  if (answer.gap !== null) {
    throw new DomainError('conflict', 'SYNC_GAP', `Mutation ${answer.gap} must come next`, {
      expected_seq: answer.gap,
      last_seq: answer.last_seq,
    });
  }
  const { gap: _gap, ...rest } = answer;
  return rest;
}

/**
 * A push on PostgreSQL: a client checked out of the service's pool for the whole push, its
 * transactions its own, with named prepared statements (apply-sql-postgres.ts). A connection must
 * never go back to the pool inside a transaction: it would hold its row locks, and every later
 * push of the device would wait on them. So after a failed push (a lost connection, a failed
 * ROLLBACK, anything) the client is closed, not returned. The port is a parameter so the tests
 * can fail it between any two statements.
 */
export async function applyPushOnPool(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  port: (client: pg.PoolClient) => ApplySql,
  deviceId: string,
  facilityIds: ReadonlySet<string>,
  mutations: PushedMutation[],
): Promise<Awaited<ReturnType<typeof applyPush>>> {
  const pool = poolOf(ctx.db);
  if (!pool) throw new Error('No PostgreSQL pool behind this database');
  const client = await pool.connect();
  try {
    const result = await applyPush(
      { sql: port(client), now: () => ctx.clock.now() },
      deviceId,
      facilityIds,
      mutations,
    );
    client.release();
    return result;
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/**
 * `GET /api/sync/v1/pull?cursor=&limit=`: the page as JSON text (on PostgreSQL its rows come from
 * the database as JSON, pull-json.ts), recorded in `sync_clients` for the health figures.
 */
export async function pullForDevice(
  ctx: ServiceContext,
  device: Device,
  query: unknown,
): Promise<string> {
  const sync = centralRuntime(ctx);
  const parsed = pullQuerySchema.safeParse(query);
  if (!parsed.success) throw invalidRequest(`Invalid pull: ${firstIssue(parsed.error)}`);
  const at = ctx.clock.now().toISOString();
  const { cursor, limit } = parsed.data;
  if (engineOf(ctx.db) === 'postgres') {
    return (await postgresPull(ctx.db, { device, cursor, limit, at })).json;
  }
  const page = await ctx.db.connection().execute(async () => {
    const central = sqliteCentral(sync);
    return buildPullPage(central.sqlite, central.stamps, device, cursor, limit);
  });
  // The central's latest version once the device has pulled to the end, for its health (./health.ts).
  const caughtUp = page.more ? {} : { pulled_version: await latestVersion(ctx.db) };
  await ctx.db
    .insertInto('sync_clients')
    .values({ client_id: device.id, last_pull_at: at, ...caughtUp })
    .onConflict((oc) => oc.column('client_id').doUpdateSet({ last_pull_at: at, ...caughtUp }))
    .execute();
  return JSON.stringify(page);
}

/** Serials per leased block; a workstation asks for another when less than a fifth is left. */
export const SSCC_BLOCK_SIZE = 10_000;
export const leaseBodySchema = z.strictObject({ company_prefix: z.string().regex(/^\d{7,10}$/) });

/**
 * `POST /api/sync/v1/sscc-blocks`: leases the next block of a prefix's serials to the device.
 * Only prefixes of brands that work at one of the device's facilities.
 */
export async function leaseSsccBlock(ctx: ServiceContext, device: Device, body: unknown) {
  centralRuntime(ctx);
  const parsed = leaseBodySchema.safeParse(body);
  if (!parsed.success) throw invalidRequest('company_prefix must be 7 to 10 digits');
  const prefix = parsed.data.company_prefix;
  const at = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const brand = await trx
      .selectFrom('brands as b')
      .innerJoin('brand_facilities as bf', 'bf.brand_id', 'b.id')
      .select('b.id')
      .where('b.gs1_company_prefix', '=', prefix)
      .where('bf.facility_id', 'in', device.facilityIds.length ? device.facilityIds : [''])
      .executeTakeFirst();
    if (!brand) throw notFound('No brand of this device has that GS1 company prefix');
    const block = await leaseSerialBlock(trx, prefix, device.id, SSCC_BLOCK_SIZE, at);
    if (block.last_serial > serialCapacity(prefix)) {
      throw conflict(`The SSCC serials of GS1 company prefix ${prefix} are used up`);
    }
    return block;
  });
}
