import type { Kysely } from 'kysely';
import { listActionPrices, listPrices, replacePrices, type PriceRows } from './queries';
import type { Database } from '../db/schema';
import { SeedError, type RequireRow } from '../core/seed-support';
import type { SeedBillingEntry } from '../../shared/billing-seed';
import { priceRowsOf } from './prices';

/**
 * Imports billing prices per brand (seed bundle 'billing') inside the seed transaction: each
 * entry is the brand's whole price list and replaces the stored one, so a second import of the
 * same bundle changes nothing. A brand named twice, or unknown, fails the whole import.
 */
export async function importSeedBilling(
  trx: Kysely<Database>,
  entries: readonly SeedBillingEntry[],
  requireRow: RequireRow,
): Promise<void> {
  const seen = new Map<string, number>();
  for (const [i, entry] of entries.entries()) {
    const first = seen.get(entry.brand_id);
    if (first !== undefined) {
      throw new SeedError(
        `Invalid seed bundle at billing[${i}].brand_id: duplicate '${entry.brand_id}' (also billing[${first}])`,
      );
    }
    seen.set(entry.brand_id, i);
    await requireRow('brands', entry.brand_id, `billing[${i}].brand_id`);
  }
  const at = new Date().toISOString();
  for (const entry of entries) {
    const rows = priceRowsOf(entry);
    // Unchanged prices keep their rows (and updated_at): a re-import changes nothing.
    if (!(await samePrices(trx, entry.brand_id, rows))) {
      await replacePrices(trx, entry.brand_id, rows, at);
    }
  }
}

async function samePrices(trx: Kysely<Database>, brandId: string, rows: PriceRows) {
  const [prices, actions] = await Promise.all([
    listPrices(trx, [brandId]),
    listActionPrices(trx, [brandId]),
  ]);
  const key = (list: { metric: string; price_cents: number; action_type?: string }[]) =>
    list
      .map((r) => `${r.action_type ?? ''}|${r.metric}|${r.price_cents}`)
      .sort()
      .join('\n');
  return key(prices) === key(rows.prices) && key(actions) === key(rows.actions);
}
