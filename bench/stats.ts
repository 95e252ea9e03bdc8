/** Small latency statistics for the bench: nearest-rank percentiles over milliseconds. */

export interface LatencySummary {
  count: number;
  medianMs: number;
  p95Ms: number;
  minMs: number;
  maxMs: number;
  meanMs: number;
  /** Operations per second over the wall-clock time of the measured loop. */
  perSecond: number;
}

/** Nearest-rank percentile (p in 0..1) of an already sorted, non-empty list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new Error('percentile of an empty list');
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

export function summarise(samplesMs: readonly number[], wallMs: number): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    medianMs: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    minMs: sorted[0] as number,
    maxMs: sorted[sorted.length - 1] as number,
    meanMs: sum / sorted.length,
    perSecond: (sorted.length * 1000) / wallMs,
  };
}

/** Median of a small list of samples (ms). */
export const median = (samplesMs: readonly number[]) =>
  percentile(
    [...samplesMs].sort((a, b) => a - b),
    0.5,
  );

/** Runs `fn` `warmup` times unmeasured, then `runs` times measured, strictly one after another. */
export async function timeRuns(
  runs: number,
  warmup: number,
  fn: () => Promise<unknown> | unknown,
): Promise<{ samples: number[]; wallMs: number }> {
  for (let i = 0; i < warmup; i++) await fn();
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  return { samples, wallMs: performance.now() - started };
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
