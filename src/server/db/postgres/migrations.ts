import type { Migration, MigrationProvider } from 'kysely';
import * as baseline from './migrations/0015_baseline';
import * as adviceDocuments from './migrations/0016_advice_documents';
import * as ediDocumentStatus from './migrations/0016_edi_document_status';
import * as syncPullProgress from './migrations/0016_sync_pull_progress';
import * as ediPoLinePosition from './migrations/0016_edi_po_line_position';
import * as jsonOrNull from './migrations/0016_json_or_null';
import * as processCoordination from './migrations/0017_process_coordination';
import * as storedFiles from './migrations/0017_stored_files';
import * as syncStamps from './migrations/0017_sync_stamps';
import * as transactionsSearchKey from './migrations/0018_transactions_search_key';
import * as adviceDeliveryConnectionIndex from './migrations/0018_advice_delivery_connection_index';
import * as pushCachedPlans from './migrations/0018_push_cached_plans';
import * as trgmOrdersFastupdate from './migrations/0018_trgm_orders_fastupdate';
import * as syncRowJson from './migrations/0019_sync_row_json';
import * as billingTotalsRowLock from './migrations/0020_billing_totals_row_lock';
import * as ediLogRowsFacility from './migrations/0020_edi_log_rows_facility';
import * as printRate from './migrations/0021_print_rate';
import * as ediPolledFileIndex from './migrations/0022_edi_polled_file_index';

/**
 * PostgreSQL's migration list (docs/decisions, "PostgreSQL twins and migrations"). It starts at
 * the SQLite schema of 0015 in one baseline; each later SQLite migration gets a twin of the same
 * name here, so both engines' kysely_migration tables name the same steps from then on. Frozen
 * like the SQLite ones (test/postgres/schema-twin.test.ts checks the imports).
 */
const allMigrations: Record<string, Migration> = {
  '0015_baseline': baseline,
  '0016_advice_documents': adviceDocuments,
  '0016_edi_document_status': ediDocumentStatus,
  '0016_sync_pull_progress': syncPullProgress,
  '0016_edi_po_line_position': ediPoLinePosition,
  '0016_json_or_null': jsonOrNull,
  // PostgreSQL only: what several central processes share (cache versions, delivery leases, the
  // signing secret) and the file store.
  '0017_process_coordination': processCoordination,
  '0017_stored_files': storedFiles,
  // PostgreSQL only: the central's version stamps (SQLite's are TEMP triggers, sync/stamps.ts).
  '0017_sync_stamps': syncStamps,
  // PostgreSQL only: the transaction search's stored, lower-cased key and its trigram index.
  '0018_transactions_search_key': transactionsSearchKey,
  '0018_advice_delivery_connection_index': adviceDeliveryConnectionIndex,
  // PostgreSQL only: the triggers' helper functions keep their plans (PL/pgSQL, not SQL).
  '0018_push_cached_plans': pushCachedPlans,
  // PostgreSQL only: the orders' trigram index without a pending list for every search to scan.
  '0018_trgm_orders_fastupdate': trgmOrdersFastupdate,
  // PostgreSQL only: a version entry keeps the JSON of its row, for the pulls to serve.
  '0019_sync_row_json': syncRowJson,
  // PostgreSQL only: a billing recount locks its totals row before it reads the order's rows.
  '0020_billing_totals_row_lock': billingTotalsRowLock,
  // Twin of edi/migrations/0020: the inbound log rows written before decision 0226 take a facility.
  '0020_edi_log_rows_facility': ediLogRowsFacility,
  // Twin of documents/migrations/0021: the print rate counted in the database.
  '0021_print_rate': printRate,
  // Twin of edi/migrations/0022: polled interchanges by connection and file name.
  '0022_edi_polled_file_index': ediPolledFileIndex,
};

export const postgresMigrationProvider: MigrationProvider = {
  getMigrations: async () => allMigrations,
};
