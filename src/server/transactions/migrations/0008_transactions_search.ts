import { sql, type Kysely, type Migration } from 'kysely';
import { createTransactionCounts } from '../counts';
import { createOrderCodeSearch, createTransactionSearch } from '../search-queries';

/** Migrations of this feature (keep the names sortable). */
export const transactionsSearchMigrations: Record<string, Migration> = {
  '0008_transactions_search': {
    async up(db: Kysely<unknown>) {
      // Each sort order with its tie-breaker, so a page is read in index order, never sorted.
      const indexes: [string, string][] = [
        ['transactions_created_id', 'created_at, transaction_id'],
        ['transactions_updated_id', 'updated_at, transaction_id'],
        ['transactions_status_created', 'execution_status, created_at, transaction_id'],
        ['transactions_action_created', 'action_type, created_at, transaction_id'],
        // Narrow filters (one retailer, one brand, one facility) read only their own rows.
        ['transactions_facility_created', 'facility_id, created_at'],
        ['transactions_brand_created', 'brand_id, created_at'],
        ['transactions_retailer_created', 'retailer_id, created_at'],
      ];
      for (const [name, columns] of indexes) {
        await sql.raw(`CREATE INDEX ${name} ON transactions (${columns})`).execute(db);
      }
      // Superseded by transactions_created_id (same leading column).
      await sql`DROP INDEX IF EXISTS transactions_created`.execute(db);
      await createTransactionSearch(db);
      await createTransactionCounts(db);
    },
  },
  // The transaction search also finds an order's picksheet code and PO number (issue 19).
  '0013_order_code_search': {
    async up(db: Kysely<unknown>) {
      await createOrderCodeSearch(db);
    },
  },
};
