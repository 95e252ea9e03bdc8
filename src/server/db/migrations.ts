import type { Migration, MigrationProvider } from 'kysely';
import * as core from '../access/migrations/0001_core';
import * as advice from '../inventory/migrations/0002_advice';
import * as signInThrottle from '../access/migrations/0003_signin_throttle';
import * as outboxDrain from '../inventory/migrations/0004_outbox_drain';
import * as orders from '../orders/migrations/0005_orders';
import * as orderBol from '../orders/migrations/0006_order_bol';
import * as fulfilment from '../fulfilment/migrations/0007_fulfilment';
import * as transactionsSearch from '../transactions/migrations/0008_transactions_search';
import * as billing from '../billing/migrations/0009_billing';
import * as claims from '../claims/migrations/0010_claims';
import * as sync from '../sync/migrations/0011_sync';
import * as ssccSerialBlocks from '../sync/migrations/0012_sscc_serial_blocks';
import * as orderCodeSearch from '../transactions/migrations/0013_order_code_search';
import * as syncConflictsBrand from '../sync/migrations/0013_sync_conflicts_brand';
import * as syncFileUploads from '../sync/migrations/0013_sync_file_uploads';
import * as orderDocuments from '../edi/migrations/0014_order_documents';
import * as ediInbound from '../edi/migrations/0015_edi_inbound';
import * as adviceDocuments from '../inventory/migrations/0016_advice_documents';
import * as ediDocumentStatus from '../edi/migrations/0016_edi_document_status';
import * as syncPullProgress from '../sync/migrations/0016_sync_pull_progress';
import * as ediPoLinePosition from '../edi/migrations/0016_edi_po_line_position';
import * as adviceDeliveryConnectionIndex from '../inventory/migrations/0018_advice_delivery_connection_index';
import * as ediLogRowsFacility from '../edi/migrations/0020_edi_log_rows_facility';
import * as printRate from '../documents/migrations/0021_print_rate';
import * as ediPolledFileIndex from '../edi/migrations/0022_edi_polled_file_index';

/**
 * The migration runner's list. Each feature owns its migrations, one file per migration in
 * `<feature>/migrations/NNNN_name.ts`; db/ may import them (like the union of the feature tables
 * in ./schema), and nothing else in a feature. Migrations are code, keyed by a sortable name, and
 * imported statically so that bundlers (electron-vite) keep them; Kysely's FileMigrationProvider
 * would need the files on disk. Kysely runs them in name order.
 *
 * The names are recorded in each database's kysely_migration table: never rename one (it would
 * run again on upgraded installs). Migrations are frozen: each file holds its SQL literally and
 * imports nothing but Kysely, so a fresh install and an upgraded one end with the same schema
 * (test/unit/migrations-frozen.test.ts). SQL text keeps its whitespace byte for byte, as earlier
 * installs stored it in sqlite_master. A later change to a table or trigger is a new migration.
 */
const allMigrations: Record<string, Migration> = {
  '0001_core': core,
  '0002_advice': advice,
  '0003_signin_throttle': signInThrottle,
  '0004_outbox_drain': outboxDrain,
  '0005_orders': orders,
  '0006_order_bol': orderBol,
  '0007_fulfilment': fulfilment,
  '0008_transactions_search': transactionsSearch,
  '0009_billing': billing,
  '0010_claims': claims,
  '0011_sync': sync,
  '0012_sscc_serial_blocks': ssccSerialBlocks,
  '0013_order_code_search': orderCodeSearch,
  '0013_sync_conflicts_brand': syncConflictsBrand,
  '0013_sync_file_uploads': syncFileUploads,
  '0014_order_documents': orderDocuments,
  '0015_edi_inbound': ediInbound,
  '0016_advice_documents': adviceDocuments,
  '0016_edi_document_status': ediDocumentStatus,
  '0016_sync_pull_progress': syncPullProgress,
  '0016_edi_po_line_position': ediPoLinePosition,
  '0018_advice_delivery_connection_index': adviceDeliveryConnectionIndex,
  // Named after 0019: a PostgreSQL central applied 0019_sync_row_json, and Kysely refuses a new
  // migration named before the last one applied.
  '0020_edi_log_rows_facility': ediLogRowsFacility,
  '0021_print_rate': printRate,
  '0022_edi_polled_file_index': ediPolledFileIndex,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => allMigrations,
};
