import { listActionPrices, listPrices } from './queries';
import type { Db } from '../db/db';
import { actionKey } from './activity';

/** Unit prices (cents) of the given brands: line metrics, and actions by `actionKey`. */
export interface BrandPricing {
  metrics: Map<string, number>;
  actions: Map<string, { type: string; metric: string; cents: number }>;
}

export async function pricingOf(
  db: Db,
  brandIds: readonly string[],
): Promise<Map<string, BrandPricing>> {
  const [prices, actions] = await Promise.all([
    listPrices(db, brandIds),
    listActionPrices(db, brandIds),
  ]);
  const pricing = new Map<string, BrandPricing>(
    brandIds.map((id) => [id, { metrics: new Map(), actions: new Map() }]),
  );
  for (const p of prices) pricing.get(p.brand_id)?.metrics.set(p.metric, p.price_cents);
  for (const a of actions) {
    pricing.get(a.brand_id)?.actions.set(actionKey(a.action_type, a.metric), {
      type: a.action_type,
      metric: a.metric,
      cents: a.price_cents,
    });
  }
  return pricing;
}
