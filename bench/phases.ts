/**
 * Times the real phases of `sendInventoryAdvice` (src/server/inventory/advise.ts exports
 * them), so one advice's wall time splits into scope, validation, outbox and delivery.
 */
import { runDeliveries } from '../src/server/inventory/transmission/engine';
import type { AuthUser, ServiceContext } from '../src/server/core/context';
import { adviceResponseOf, writeOutbox } from '../src/server/inventory/advise';
import { resolveTargets, type AdviceScope } from '../src/server/inventory/targets';
import { validateAdvice } from '../src/server/inventory/validate';
import { summarise, type LatencySummary } from './stats';

export const PHASES = [
  'resolveTargets (auth scope, 4 queries)',
  'validateAdvice (field checks + row rules)',
  'writeOutbox: 8 documents + snapshot and outbox commit',
  'runDeliveries: 8 sends in parallel + outcome writes',
  'adviceResponseOf (results, summary, message)',
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
  const prepared = await writeOutbox(ctx, user, targets, items);
  const outboxMs = lap();
  const outcomes = await runDeliveries(ctx, prepared.jobs);
  const deliveriesMs = lap();
  const response = adviceResponseOf(prepared, outcomes);
  const responseMs = lap();
  if (response.outcome !== 'all_succeeded') throw new Error(`advice failed: ${response.message}`);
  return {
    [PHASES[0]]: targetsMs,
    [PHASES[1]]: validateMs,
    [PHASES[2]]: outboxMs,
    [PHASES[3]]: deliveriesMs,
    [PHASES[4]]: responseMs,
  } as Record<Phase, number>;
}

/** Runs the phases `runs` times (after `warmup`) and summarises each phase and the total. */
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
