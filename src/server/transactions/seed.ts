import type { Kysely } from 'kysely';
import type { Database, TransactionsTable } from '../db/schema';
import { upsertTransactionRows } from './queries';
import type { RequireRow } from '../core/seed-support';
import type { SeedTransaction } from '../../shared/transactions-seed';

const json = (value: unknown) =>
  value === undefined || value === null ? null : JSON.stringify(value);
const utc = (time: string) => new Date(time).toISOString();

/**
 * Imports transaction-log rows (seed bundle 'transactions') inside the seed transaction: upsert by
 * transaction_id, all or nothing. The brand, facility and retailer a row names must exist
 * (requireRow throws the SeedError naming the entry); order, carton and load ids are kept as
 * given, since the log also records writes that were refused.
 */
export async function importSeedTransactions(
  trx: Kysely<Database>,
  entries: readonly SeedTransaction[],
  requireRow: RequireRow,
): Promise<void> {
  // The demo's ~2,000 rows name a handful of brands, facilities and retailers: check each once.
  const checked = new Set<string>();
  const require = async (
    table: 'brands' | 'facilities' | 'retailers',
    id: string,
    where: string,
  ) => {
    if (checked.has(`${table}:${id}`)) return;
    await requireRow(table, id, where);
    checked.add(`${table}:${id}`);
  };
  const rows: TransactionsTable[] = [];
  for (const [i, entry] of entries.entries()) {
    if (entry.brand_id) await require('brands', entry.brand_id, `transactions[${i}].brand_id`);
    if (entry.facility_id) {
      await require('facilities', entry.facility_id, `transactions[${i}].facility_id`);
    }
    if (entry.retailer_id) {
      await require('retailers', entry.retailer_id, `transactions[${i}].retailer_id`);
    }
    rows.push({
      transaction_id: entry.transaction_id,
      action_type: entry.action_type,
      action_type_label: entry.action_type_label,
      brand_id: entry.brand_id ?? null,
      retailer_id: entry.retailer_id ?? null,
      facility_id: entry.facility_id ?? null,
      order_id: entry.order_id ?? null,
      carton_id: entry.carton_id ?? null,
      load_id: entry.load_id ?? null,
      correlation_id: entry.correlation_id ?? null,
      duration_ms: entry.duration_ms,
      error_message: entry.error_message ?? null,
      execution_status: entry.execution_status,
      request_method: entry.request_method,
      request_url: entry.request_url,
      request_payload: json(entry.request_payload),
      response_body: json(entry.response_body),
      response_status: entry.response_status ?? null,
      // Stored as ISO 8601 UTC, so the date filters (which compare text) read them right.
      created_at: utc(entry.created_at),
      updated_at: utc(entry.updated_at ?? entry.created_at),
    });
  }
  await upsertTransactionRows(trx, rows);
}
