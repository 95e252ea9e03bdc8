import { documentFor, newSnapshot, transportOf } from './transmission/documents';
import { adviceLinesJson } from './transmission/direct-feed';
import { holdQueuedDeliveries } from './transmission/delivery-lease';
import {
  claimDelivery,
  releaseDelivery,
  runDeliveries,
  type DeliveryJob,
  type JobOutcome,
} from './transmission/engine';
import type { AdviceLine } from './transmission/types';
import {
  insertDeliveries,
  insertSnapshot,
  takeControlNumbersOf,
  type NewDeliveryRow,
} from './queries';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict } from '../core/errors';
import { timeOrderedUuid } from '../core/time-ordered-id';
import {
  messageOf,
  noEnabledConnectionMessage,
  outcomeOf,
  resultOf,
  summarise,
  type AdviceOutcome,
  type AdviceResult,
  type AdviceSummary,
} from './results';
import { senderOfNewDelivery } from '../sync/role';
import { resolveTargets, type AdviceScope, type AdviceTargets } from './targets';
import { validateAdvice } from './validate';

export const BRAND_WIDE_ON_WORKSTATION =
  'A brand-wide inventory advice is sent from the central service; on a workstation, send it for a facility';

export interface AdviceResponse {
  message: string;
  outcome: AdviceOutcome;
  data: { snapshot_id: string; results: AdviceResult[]; summary: AdviceSummary };
}

/** A snapshot whose outbox rows (with their exact documents) are committed, ready to send. */
export interface PreparedAdvice {
  targets: AdviceTargets;
  snapshotId: string;
  rows: NewDeliveryRow[];
  jobs: DeliveryJob[];
}

/**
 * Sends an inventory snapshot to every enabled connection of the scope. The snapshot and one
 * outbox row per delivery (with the exact document) are committed before any network call, so a
 * crash mid-send loses nothing: PENDING rows can be resumed. The phases are exported so the
 * benchmark times the real functions.
 */
export async function sendInventoryAdvice(
  ctx: ServiceContext,
  user: AuthUser,
  scope: AdviceScope,
  body: unknown,
): Promise<AdviceResponse> {
  const targets = await resolveTargets(ctx, user, scope);
  // The central refuses brand-wide rows from devices (docs/sync.md, Push): say so now, not later.
  if (targets.facility === null && ctx.sync?.role === 'workstation') {
    throw conflict(BRAND_WIDE_ON_WORKSTATION);
  }
  const items = validateAdvice(ctx, targets, body);
  const prepared = await writeOutbox(ctx, user, targets, items);
  const outcomes = await runDeliveries(ctx, prepared.jobs);
  return adviceResponseOf(prepared, outcomes);
}

/** Builds every connection's document and commits the snapshot and its outbox rows. */
export async function writeOutbox(
  ctx: ServiceContext,
  user: AuthUser,
  targets: AdviceTargets,
  items: AdviceLine[],
): Promise<PreparedAdvice> {
  const snapshot = newSnapshot(targets, items, ctx.clock.now());
  const at = snapshot.createdAt.toISOString();
  const enabled = targets.connections.filter((c) => c.enabled);
  const rows: NewDeliveryRow[] = [];
  const jobs: DeliveryJob[] = [];

  const committed = ctx.db.transaction().execute(async (trx) => {
    const itemsJson = adviceLinesJson(items);
    await insertSnapshot(trx, {
      id: snapshot.snapshotId,
      brand_id: targets.brand.brand_id,
      facility_id: targets.facility?.id ?? null,
      user_id: user.id,
      items_json: itemsJson,
      item_count: items.length,
      created_at: at,
    });
    const planned = enabled.map((connection) => ({
      connection,
      ...senderOfNewDelivery(ctx.sync, connection),
    }));
    // Every EDI connection sent from here takes its ISA13/GS06 in one statement.
    const controlNumbers = await takeControlNumbersOf(
      trx,
      planned
        .filter((p) => p.sendsHere && p.connection.kind === 'EDI_846')
        .map((p) => p.connection.id),
    );
    for (const { connection, senderId, sendsHere } of planned) {
      const deliveryId = timeOrderedUuid();
      const base = {
        id: deliveryId,
        connection_id: connection.id,
        organization_id: connection.organization_id,
        retailer_id: connection.retailer_id,
        kind: connection.kind,
        sender_id: senderId,
      };
      if (!sendsHere) {
        // The central builds it (its own control numbers) and sends it once it has the snapshot.
        rows.push({ ...base, ...QUEUED_FOR_CENTRAL });
        continue;
      }
      try {
        const numbers = controlNumbers.get(connection.id) ?? null;
        const document = documentFor(connection, snapshot, deliveryId, numbers);
        rows.push({
          ...base,
          status: 'PENDING',
          // Due at once for the drainer, which skips it while this process is sending it.
          next_attempt_at: at,
          document: document.body,
          content_type: document.contentType,
          file_name: document.fileName,
          interchange_control_number: numbers?.interchange ?? null,
          error: null,
        });
        jobs.push({
          deliveryId,
          transport: transportOf(connection),
          document,
          log: {
            deliveryId,
            snapshotId: snapshot.snapshotId,
            brandId: targets.brand.brand_id,
            facilityId: targets.facility?.id ?? null,
            retailerId: connection.retailer_id,
            documentBytes: Buffer.byteLength(document.body),
          },
        });
        // Claimed before the commit, so a drain tick never takes it for a row a crash left.
        claimDelivery(ctx, deliveryId);
      } catch (error) {
        // A document that cannot be built (bad EDI settings) fails this connection only.
        rows.push({
          ...base,
          status: 'FAILURE',
          next_attempt_at: null,
          document: null,
          content_type: null,
          file_name: null,
          interchange_control_number: null,
          error: `Cannot build the document: ${(error as Error).message}`,
        });
      }
    }
    if (enabled.length === 0) {
      rows.push({
        id: timeOrderedUuid(),
        connection_id: null,
        organization_id: null,
        retailer_id: null,
        kind: null,
        sender_id: senderOfNewDelivery(ctx.sync, {}).senderId,
        status: 'FAILURE',
        next_attempt_at: null,
        document: null,
        content_type: null,
        file_name: null,
        interchange_control_number: null,
        error: noEnabledConnectionMessage(targets.variant),
      });
    }
    await insertDeliveries(trx, { id: snapshot.snapshotId, itemsJson }, at, rows);
    await holdQueuedDeliveries(
      ctx,
      trx,
      jobs.map((job) => job.deliveryId),
    );
  });
  await committed.catch((error: unknown) => {
    for (const job of jobs) releaseDelivery(ctx, job.deliveryId);
    throw error;
  });

  return { targets, snapshotId: snapshot.snapshotId, rows, jobs };
}

/** A workstation's delivery of a connection the central sends. */
export const QUEUED_FOR_CENTRAL = {
  status: 'PENDING',
  next_attempt_at: null,
  document: null,
  content_type: null,
  file_name: null,
  interchange_control_number: null,
  error: 'Queued for the central service',
} as const;

/** The interface's answer: one result per outbox row, the summary and the message. */
export function adviceResponseOf(
  prepared: PreparedAdvice,
  outcomes: Map<string, JobOutcome>,
): AdviceResponse {
  const { targets } = prepared;
  const byId = new Map(targets.connections.map((c) => [c.id, c]));
  const results = prepared.rows.map((row) => {
    const outcome = outcomes.get(row.id);
    return resultOf(targets.variant, {
      deliveryId: row.id,
      connection: row.connection_id ? (byId.get(row.connection_id) ?? null) : null,
      brandName: targets.brand.name,
      success: outcome?.success ?? false,
      error: outcome ? outcome.error : row.error,
    });
  });
  const summary = summarise(results);
  return {
    message: messageOf(targets.variant, summary),
    outcome: outcomeOf(summary),
    data: { snapshot_id: prepared.snapshotId, results, summary },
  };
}
