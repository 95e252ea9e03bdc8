import { LABEL_PRINT_METRICS, PACKING_SLIP_METRIC } from '../../shared/fulfilment-activity';
import type { InvoiceLineMetric } from '../../shared/billing';

/** Recorded activity summed by kind, action type and metric (db/analytics, db/billing). */
export interface ActivityTotal {
  kind: string;
  action_type: string | null;
  metric: string;
  count: number;
}

export interface ActivityCounts {
  /** Labels Generated, the six label kinds, VAS Actions, Packing Slips. */
  metrics: Partial<Record<InvoiceLineMetric, number>>;
  /** Actions by `type|lower-case name`, with the name as recorded. */
  actions: Map<string, { type: string; metric: string; count: number }>;
}

export const actionKey = (type: string, metric: string) => `${type}|${metric.toLowerCase()}`;

const LABELS = new Set<string>(LABEL_PRINT_METRICS);

/**
 * What activity adds up to: every label print counts under its kind and under Labels Generated;
 * a VAS action counts under VAS Actions and as its own action; other actions as themselves.
 */
export function countActivity(rows: readonly ActivityTotal[]): ActivityCounts {
  const metrics: ActivityCounts['metrics'] = {};
  const actions: ActivityCounts['actions'] = new Map();
  const add = (metric: InvoiceLineMetric, count: number) => {
    metrics[metric] = (metrics[metric] ?? 0) + count;
  };
  for (const row of rows) {
    const count = Number(row.count);
    if (row.kind === 'LABEL_PRINT' && LABELS.has(row.metric)) {
      add(row.metric as InvoiceLineMetric, count);
      add('Labels Generated', count);
    } else if (row.kind === 'PACKING_SLIP') {
      add(PACKING_SLIP_METRIC, count);
    } else if (row.kind === 'ACTION' && row.action_type) {
      if (row.action_type === 'VAS') add('VAS Actions', count);
      const key = actionKey(row.action_type, row.metric);
      const entry = actions.get(key);
      if (entry) entry.count += count;
      else actions.set(key, { type: row.action_type, metric: row.metric, count });
    }
  }
  return { metrics, actions };
}
