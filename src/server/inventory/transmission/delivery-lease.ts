import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/db';
import { engineOf } from '../../db/engine';
import type { ServiceContext } from '../../core/context';

/**
 * Cross-process claims of outbound deliveries (advice deliveries and order documents), on
 * PostgreSQL, where several central processes drain one outbox. SQLite has one process, whose
 * in-memory claim (`ctx.deliveriesInFlight`) already suffices: there every lease is granted and
 * nothing is written.
 *
 * A lease is a `delivery_claims` row written and committed in one short statement before the
 * send, and deleted after the send's outcome is committed: no transaction is open while a
 * transport waits on the network. The same statement locks the delivery's row `FOR UPDATE`,
 * which always reads its latest committed version, and grants the lease only while the delivery
 * still waits to be sent. So a process that leases after another's outcome was committed sees
 * it sent and keeps off, and one that tries while another holds the lease is refused: nothing
 * is sent twice. A process that dies mid-send leaves its lease until it expires; the drainer of
 * any process then sends the delivery again with the same idempotency key, as after a crash.
 */

/** Much longer than any send (DeliveryPolicy.totalBudgetMs, 30 s by default) and its recording. */
const MIN_LEASE_MS = 10 * 60_000;

/** Who holds a lease: one id per opened database (a service instance), never shared. */
const owners = new WeakMap<Db, string>();
function ownerOf(db: Db): string {
  let owner = owners.get(db);
  if (!owner) {
    owner = randomUUID();
    owners.set(db, owner);
  }
  return owner;
}

export type LeasedOutbox = 'advice_deliveries' | 'order_documents';

/** The statuses in which a delivery still waits to be sent, per outbox. */
const waiting = {
  advice_deliveries: sql`status <> 'SUCCESS'`,
  order_documents: sql`status IN ('queued', 'failed')`,
};

/**
 * How long a delivery a request queued is held for that request, which sends it right after its
 * commit: otherwise another process's drain pass could take it first, and the request would
 * answer that it did not send it. A crash's leftovers wait this much longer for their first try.
 */
export const FRESH_DELIVERY_MS = 30_000;

/**
 * Holds deliveries a request queues for that request, in the transaction that queues them (so
 * no drain pass of another process sees them unheld), for FRESH_DELIVERY_MS; the request's own
 * `leaseDelivery` then takes the full lease (same owner). Deliveries that arrive otherwise (a
 * workstation's, pushed to the central) carry no hold, and the first drain pass sends them.
 */
export async function holdQueuedDeliveries(
  ctx: Pick<ServiceContext, 'db'>,
  trx: Db,
  deliveryIds: string[],
): Promise<void> {
  if (engineOf(ctx.db) === 'sqlite' || deliveryIds.length === 0) return;
  const owner = ownerOf(ctx.db);
  await sql`INSERT INTO delivery_claims (delivery_id, owner, expires_at)
    SELECT id, ${owner}, clock_timestamp() + make_interval(secs => ${FRESH_DELIVERY_MS / 1000})
    FROM unnest(${deliveryIds}::text[]) AS id
    ON CONFLICT (delivery_id) DO NOTHING`.execute(trx);
}

/**
 * Takes the lease on a delivery for this process; false when another process holds it or the
 * delivery no longer waits to be sent.
 * The same process may take its own lease again (its in-memory claim already keeps its own
 * sends apart).
 */
export async function leaseDelivery(
  ctx: Pick<ServiceContext, 'db' | 'deliveryPolicy' | 'clock'>,
  outbox: LeasedOutbox,
  deliveryId: string,
): Promise<boolean> {
  if (engineOf(ctx.db) === 'sqlite') return true;
  const leaseMs = Math.max(MIN_LEASE_MS, 4 * ctx.deliveryPolicy.totalBudgetMs);
  const owner = ownerOf(ctx.db);
  const { rows } = await sql<{ delivery_id: string }>`
    WITH target AS (
      SELECT id FROM ${sql.table(outbox)}
      WHERE id = ${deliveryId} AND ${waiting[outbox]}
      FOR UPDATE
    )
    INSERT INTO delivery_claims (delivery_id, owner, expires_at)
    SELECT id, ${owner}, clock_timestamp() + make_interval(secs => ${leaseMs / 1000}) FROM target
    ON CONFLICT (delivery_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
      WHERE delivery_claims.owner = excluded.owner OR delivery_claims.expires_at < clock_timestamp()
    RETURNING delivery_id`.execute(ctx.db);
  return rows.length === 1;
}

/** Gives the lease back once the send's outcome is committed (or nothing was sent). */
export async function releaseDeliveryLease(
  ctx: Pick<ServiceContext, 'db'>,
  deliveryId: string,
): Promise<void> {
  if (engineOf(ctx.db) === 'sqlite') return;
  await sql`DELETE FROM delivery_claims WHERE delivery_id = ${deliveryId} AND owner = ${ownerOf(ctx.db)}`.execute(
    ctx.db,
  );
}
