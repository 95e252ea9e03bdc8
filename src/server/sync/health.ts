import { createHash, timingSafeEqual } from 'node:crypto';
import type { ServiceContext } from '../core/context';
import { DomainError, notFound, unauthenticated } from '../core/errors';
import type { Db } from '../db/db';
import { engineOf } from '../db/engine';
import type { SyncHealth } from '../../shared/sync-health';
import { CENTRAL_ID } from './role';
import { oldestTransaction as oldestOnSqlite } from './oldest-transaction';
import { oldestTransaction as oldestOnPostgres } from './oldest-transaction.postgres';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may read the central's health: the holder of the monitoring token (--monitoring-token), and
 * no one else. The figures cover every tenant's devices, so neither a user (whose grants are per
 * facility) nor a device may read them (docs/decisions, "Sync health behind a monitoring token").
 */
export function requireMonitoringToken(ctx: ServiceContext, header: string | undefined): void {
  if (ctx.sync?.role !== 'central') {
    throw notFound('This service is not a central service (start it with --role central)');
  }
  if (!ctx.monitoringToken) {
    throw new DomainError(
      'forbidden',
      'UNAUTHORIZED',
      'The sync health is off: start the central with --monitoring-token (env MONITORING_TOKEN)',
    );
  }
  const given = /^Bearer (.+)$/i.exec(header ?? '')?.[1];
  // Digests have one length, so the comparison takes the same time whatever was sent.
  if (!given || !timingSafeEqual(digest(given), digest(ctx.monitoringToken))) {
    throw unauthenticated('The monitoring token is required');
  }
}

const secondsSince = (now: number, iso: string | null) =>
  iso === null ? null : Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));

/** The highest version handed out and committed: of a row, or of an eviction. */
export async function latestVersion(db: Db): Promise<number> {
  const latest = await db
    .selectNoFrom((eb) => [
      eb
        .selectFrom('sync_row_versions')
        .select((e) => e.fn.max('version').as('v'))
        .as('rows'),
      eb
        .selectFrom('sync_evictions')
        .select((e) => e.fn.max('version').as('v'))
        .as('evictions'),
    ])
    .executeTakeFirstOrThrow();
  return Math.max(Number(latest.rows ?? 0), Number(latest.evictions ?? 0));
}

/** The figures of `GET /api/sync/v1/health` (docs/operations.md, Monitoring). */
export async function syncHealth(ctx: ServiceContext): Promise<SyncHealth> {
  const now = ctx.clock.now();
  const engine = engineOf(ctx.db);
  const latest = await latestVersion(ctx.db);
  const devices = await ctx.db
    .selectFrom('devices as d')
    .leftJoin('sync_clients as c', 'c.client_id', 'd.id')
    .select([
      'd.id',
      'd.name',
      'd.disabled_at',
      'c.last_pull_at',
      'c.pulled_version',
      'c.last_push_at',
      'c.last_seq',
    ])
    .orderBy('c.last_pull_at')
    .orderBy('d.id')
    .execute();
  const stalestFirst = [...devices].sort(
    (a, b) => (a.last_pull_at === null ? 0 : 1) - (b.last_pull_at === null ? 0 : 1),
  );
  return {
    engine,
    at: now.toISOString(),
    latest_version: latest,
    devices: stalestFirst.map((d) => {
      const pulled = d.pulled_version === null ? null : Number(d.pulled_version);
      return {
        device_id: d.id,
        name: d.name,
        disabled: d.disabled_at !== null,
        last_pull_at: d.last_pull_at,
        pull_age_seconds: secondsSince(now.getTime(), d.last_pull_at),
        pulled_version: pulled,
        versions_behind: pulled === null ? null : Math.max(0, latest - pulled),
        last_push_at: d.last_push_at,
        last_seq: Number(d.last_seq ?? 0),
      };
    }),
    oldest_transaction:
      engine === 'postgres' ? await oldestOnPostgres(ctx.db) : await oldestOnSqlite(ctx.db),
    pending_deliveries: await pendingDeliveries(ctx, now.getTime()),
  };
}

/** Deliveries this central sends (its own and those made before sync: sender null or central). */
async function pendingDeliveries(ctx: ServiceContext, now: number) {
  const advices = await ctx.db
    .selectFrom('advice_deliveries')
    .select((eb) => [
      eb.fn.count<number>(eb.case().when('status', '=', 'PENDING').then(1).end()).as('queued'),
      eb.fn
        .count<number>(
          eb
            .case()
            .when(eb.and([eb('status', '=', 'FAILURE'), eb('given_up', '=', 0)]))
            .then(1)
            .end(),
        )
        .as('failed'),
      eb.fn
        .min<string | null>(
          eb.case().when('status', '=', 'PENDING').then(eb.ref('created_at')).end(),
        )
        .as('oldest'),
    ])
    .where((eb) => eb.or([eb('sender_id', 'is', null), eb('sender_id', '=', CENTRAL_ID)]))
    .where('status', 'in', ['PENDING', 'FAILURE'])
    .executeTakeFirstOrThrow();
  const documents = await ctx.db
    .selectFrom('order_documents')
    .select((eb) => [
      eb.fn.count<number>(eb.case().when('status', '=', 'queued').then(1).end()).as('queued'),
      eb.fn.count<number>(eb.case().when('status', '=', 'failed').then(1).end()).as('failed'),
      eb.fn
        .min<string | null>(
          eb.case().when('status', '=', 'queued').then(eb.ref('created_at')).end(),
        )
        .as('oldest'),
    ])
    .where('direction', '=', 'out')
    .where((eb) => eb.or([eb('sender_id', 'is', null), eb('sender_id', '=', CENTRAL_ID)]))
    .where('status', 'in', ['queued', 'failed'])
    .executeTakeFirstOrThrow();
  const shape = (row: { queued: number; failed: number; oldest: string | null }) => ({
    queued: Number(row.queued),
    failed: Number(row.failed),
    oldest_queued_seconds: secondsSince(now, row.oldest),
  });
  return { advices: shape(advices), order_documents: shape(documents) };
}
