/**
 * A timed replica of `sendInventoryAdvice` (src/main/domain/inventory/advise.ts), built from the
 * same src functions, so one advice's wall time splits into validation, documents, outbox write,
 * network and completion. Deviation from the real flow: all 8 deliveries finish before the
 * completion transactions run (the service overlaps them), which keeps network and database apart.
 * Keep in step with advise.ts if that changes.
 */
import { randomUUID } from 'node:crypto';
import { mapBounded } from '../src/main/advice/bounded';
import { documentFor, transportOf, type SnapshotContext } from '../src/main/advice/documents';
import { deliver } from '../src/main/advice/transports';
import type { OutboundDocument } from '../src/main/advice/types';
import {
  completeDelivery,
  insertAttempts,
  insertDeliveries,
  insertSnapshot,
  takeControlNumbers,
  type NewDeliveryRow,
} from '../src/main/db/advice';
import type { AuthUser, ServiceContext } from '../src/main/domain/context';
import { resolveTargets, type AdviceScope } from '../src/main/domain/inventory/targets';
import { validateAdvice } from '../src/main/domain/inventory/validate';
import { summarise, type LatencySummary } from './stats';

export const PHASES = [
  'resolveTargets (auth scope, 4 queries)',
  'validateAdvice (zod + row rules)',
  'documents: 4 x build846 + 4 x buildDirectFeed',
  'outbox transaction without documents (incl. commit)',
  'network: 8 deliveries in parallel (undici)',
  'completion: 8 transactions (attempt + status)',
] as const;
export type Phase = (typeof PHASES)[number];

export interface PhaseRow {
  phase: Phase | 'total';
  medianMs: number;
  meanMs: number;
  p95Ms: number;
}

async function timedAdvice(
  ctx: ServiceContext,
  user: AuthUser,
  scope: AdviceScope,
  body: unknown,
): Promise<Record<Phase, number>> {
  let t = performance.now();
  const lap = () => {
    const now = performance.now();
    const elapsed = now - t;
    t = now;
    return elapsed;
  };
  const targets = await resolveTargets(ctx, user, scope);
  const targetsMs = lap();
  const items = validateAdvice(ctx, targets, body);
  const validateMs = lap();

  const createdAt = ctx.clock.now();
  const at = createdAt.toISOString();
  const snapshot: SnapshotContext = {
    snapshotId: randomUUID(),
    createdAt,
    brand: targets.brand,
    facility: targets.facility,
    items,
  };
  const enabled = targets.connections.filter((c) => c.enabled);
  const rows: NewDeliveryRow[] = [];
  const jobs: { id: string; doc: OutboundDocument; connectionIndex: number }[] = [];
  let documentsMs = 0;
  await ctx.db.transaction().execute(async (trx) => {
    await insertSnapshot(trx, {
      id: snapshot.snapshotId,
      brand_id: targets.brand.brand_id,
      facility_id: targets.facility?.id ?? null,
      user_id: user.id,
      items_json: JSON.stringify(items),
      item_count: items.length,
      created_at: at,
    });
    for (const [index, connection] of enabled.entries()) {
      const id = randomUUID();
      const numbers =
        connection.kind === 'EDI_846' ? await takeControlNumbers(trx, connection.id) : null;
      const d0 = performance.now();
      const doc = documentFor(connection, snapshot, id, numbers);
      documentsMs += performance.now() - d0;
      rows.push({
        id,
        connection_id: connection.id,
        organization_id: connection.organization_id,
        retailer_id: connection.retailer_id,
        kind: connection.kind,
        status: 'PENDING',
        document: doc.body,
        content_type: doc.contentType,
        file_name: doc.fileName,
        interchange_control_number: numbers?.interchange ?? null,
        error: null,
      });
      jobs.push({ id, doc, connectionIndex: index });
    }
    await insertDeliveries(trx, snapshot.snapshotId, at, rows);
  });
  const outboxMs = lap() - documentsMs;

  const outcomes = await mapBounded(jobs, ctx.deliveryConcurrency, (job) =>
    deliver(transportOf(enabled[job.connectionIndex]!), job.doc, {
      dataDir: ctx.dataDir,
      policy: ctx.deliveryPolicy,
    }),
  );
  const networkMs = lap();
  for (const [index, job] of jobs.entries()) {
    const outcome = outcomes[index]!;
    if (!outcome.success) throw new Error(`delivery failed: ${outcome.error}`);
    await ctx.db.transaction().execute(async (trx) => {
      await insertAttempts(
        trx,
        {
          deliveryId: job.id,
          snapshotId: snapshot.snapshotId,
          brandId: targets.brand.brand_id,
          facilityId: targets.facility?.id ?? null,
          retailerId: enabled[job.connectionIndex]!.retailer_id,
          documentBytes: Buffer.byteLength(job.doc.body),
        },
        outcome.attempts,
      );
      await completeDelivery(trx, job.id, {
        status: 'SUCCESS',
        error: null,
        attempts: outcome.attempts.length,
        at: ctx.clock.now().toISOString(),
      });
    });
  }
  const completionMs = lap();
  return {
    [PHASES[0]]: targetsMs,
    [PHASES[1]]: validateMs,
    [PHASES[2]]: documentsMs,
    [PHASES[3]]: outboxMs,
    [PHASES[4]]: networkMs,
    [PHASES[5]]: completionMs,
  } as Record<Phase, number>;
}

/** Runs the replica `runs` times (after `warmup`) and summarises each phase and the total. */
export async function measurePhases(
  ctx: ServiceContext,
  user: AuthUser,
  scope: AdviceScope,
  body: unknown,
  runs: number,
  warmup: number,
): Promise<{ rows: PhaseRow[]; total: LatencySummary }> {
  for (let i = 0; i < warmup; i++) await timedAdvice(ctx, user, scope, body);
  const samples = new Map<Phase, number[]>(PHASES.map((p) => [p, []]));
  const totals: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const times = await timedAdvice(ctx, user, scope, body);
    totals.push(performance.now() - t0);
    for (const phase of PHASES) samples.get(phase)!.push(times[phase]);
  }
  const row = (phase: PhaseRow['phase'], values: number[]): PhaseRow => {
    const s = summarise(values, 1);
    return { phase, medianMs: s.medianMs, meanMs: s.meanMs, p95Ms: s.p95Ms };
  };
  const total = summarise(
    totals,
    totals.reduce((a, b) => a + b, 0),
  );
  return {
    rows: [...PHASES.map((p) => row(p, samples.get(p)!)), row('total', totals)],
    total,
  };
}
