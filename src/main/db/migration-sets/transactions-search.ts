import type { Migration } from 'kysely';

/** Migrations of this feature; the next one is named '0008_transactions_search' (keep the names sortable). */
export const transactionsSearchMigrations: Record<string, Migration> = {};
