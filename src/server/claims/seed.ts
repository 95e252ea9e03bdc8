import type { Kysely } from 'kysely';
import {
  otherChargebackWithKey,
  otherPosRowWithKey,
  upsertChargebackById,
  upsertPosRowById,
  upsertPosRowsByKey,
} from './queries';
import type { Database } from '../db/schema';
import type { ChargebacksTable } from './tables';
import type { SeedChargeback, SeedPosRow } from '../../shared/claims-seed';
import { derivedId } from '../orders';
import { SeedError, type RequireRow } from '../core/seed-support';
import { centsOf } from './money';
import { posMetricColumns } from './pos-values';

const invalid = (where: string, detail: string) =>
  new SeedError(`Invalid seed bundle at ${where}: ${detail}`);

/** Throws for the second entry with the same key (ids, or natural keys). */
function refuseRepeats<T>(
  entries: readonly T[],
  section: string,
  field: string,
  keyOf: (entry: T) => string | undefined,
) {
  const seen = new Map<string, number>();
  entries.forEach((entry, index) => {
    const key = keyOf(entry);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first !== undefined) {
      throw invalid(`${section}[${index}].${field}`, `duplicate of ${section}[${first}]`);
    }
    seen.set(key, index);
  });
}

/**
 * Imports chargebacks (seed bundle 'chargebacks') inside the seed transaction: upsert by id, all
 * or nothing. Without `uploaded_at` a chargeback gets the import time once and keeps it.
 */
export async function importSeedChargebacks(
  trx: Kysely<Database>,
  entries: readonly SeedChargeback[],
  requireRow: RequireRow,
): Promise<void> {
  refuseRepeats(entries, 'chargebacks', 'id', (entry) => entry.id);
  refuseRepeats(entries, 'chargebacks', 'chargeback_id', (entry) =>
    JSON.stringify([entry.brand_id, entry.retailer_id, entry.chargeback_id, entry.po_number]),
  );
  const now = new Date().toISOString();
  for (const [i, entry] of entries.entries()) {
    await requireRow('brands', entry.brand_id, `chargebacks[${i}].brand_id`);
    await requireRow('retailers', entry.retailer_id, `chargebacks[${i}].retailer_id`);
    const row = {
      id: entry.id,
      brand_id: entry.brand_id,
      retailer_id: entry.retailer_id,
      chargeback_id: entry.chargeback_id,
      po_number: entry.po_number,
      amount_cents: centsOf(entry.amount),
      amount_won_back_cents: centsOf(entry.amount_won_back),
      retailer_chargeback_code: entry.retailer_chargeback_code,
      category: entry.category,
      description: entry.description,
      chargeback_date: entry.chargeback_date,
      uploaded_at: entry.uploaded_at ? new Date(entry.uploaded_at).toISOString() : now,
      dispute_deadline: entry.dispute_deadline ?? null,
      dispute_status: entry.dispute_status,
      import_id: null,
      updated_at: now,
    };
    const clash = await otherChargebackWithKey(trx, row);
    if (clash) {
      throw invalid(
        `chargebacks[${i}].chargeback_id`,
        `chargeback '${clash}' already has this brand, retailer, chargeback_id and po_number`,
      );
    }
    const keep: (keyof ChargebacksTable)[] = ['updated_at', 'import_id'];
    if (!entry.uploaded_at) keep.push('uploaded_at');
    await upsertChargebackById(trx, row, keep);
  }
}

/**
 * Imports POS rows (seed bundle 'pos_reports') inside the seed transaction, all or nothing. A row
 * with an id is upserted by id; one without is keyed by brand, retailer, SKU, location and dates
 * (its id derived from them, so a second import writes the same row).
 */
export async function importSeedPosReports(
  trx: Kysely<Database>,
  entries: readonly SeedPosRow[],
  requireRow: RequireRow,
): Promise<void> {
  const naturalKey = (entry: SeedPosRow) =>
    JSON.stringify([
      entry.brand_id,
      entry.retailer_id,
      entry.sku,
      entry.location,
      entry.start_date,
      entry.end_date,
    ]);
  refuseRepeats(entries, 'pos_reports', 'id', (entry) => entry.id);
  refuseRepeats(entries, 'pos_reports', 'sku', naturalKey);
  const now = new Date().toISOString();
  for (const [i, entry] of entries.entries()) {
    await requireRow('brands', entry.brand_id, `pos_reports[${i}].brand_id`);
    await requireRow('retailers', entry.retailer_id, `pos_reports[${i}].retailer_id`);
    const row = {
      id: entry.id ?? derivedId(naturalKey(entry), 'pos-row', 0),
      brand_id: entry.brand_id,
      retailer_id: entry.retailer_id,
      sku: entry.sku,
      location: entry.location,
      start_date: entry.start_date,
      end_date: entry.end_date,
      ...posMetricColumns(entry),
      import_id: null,
      uploaded_at: now,
      updated_at: now,
    };
    if (!entry.id) {
      await upsertPosRowsByKey(trx, [row], false);
      continue;
    }
    const clash = await otherPosRowWithKey(trx, row);
    if (clash) {
      throw invalid(
        `pos_reports[${i}].sku`,
        `POS row '${clash}' already has this brand, retailer, sku, location and dates`,
      );
    }
    await upsertPosRowById(trx, row);
  }
}
