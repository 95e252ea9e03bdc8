import type { Migration, MigrationProvider } from 'kysely';
import * as core from '../access/migrations/0001_core';
import * as signInThrottle from '../access/migrations/0003_signin_throttle';
import * as advice from '../inventory/migrations/0002_advice';
import * as outboxDrain from '../inventory/migrations/0004_outbox_drain';
import * as orders from '../orders/migrations/0005_orders';
import * as orderBol from '../orders/migrations/0006_order_bol';
import * as fulfilment from '../fulfilment/migrations/0007_fulfilment';
import * as transactionsSearch from '../transactions/migrations/0008_transactions_search';
import * as orderCodeSearch from '../transactions/migrations/0013_order_code_search';
import * as claims from '../claims/migrations/0010_claims';
import * as sync from '../sync/migrations/0011_sync';
import * as ssccSerialBlocks from '../sync/migrations/0012_sscc_serial_blocks';
import * as syncConflictsBrand from '../sync/migrations/0013_sync_conflicts_brand';
import * as syncFileUploads from '../sync/migrations/0013_sync_file_uploads';
import { billingMigrations } from '../billing/migrations/0009_billing';

/**
 * Migrations are code, keyed by a sortable name, and imported statically so that bundlers
 * (electron-vite) keep them; Kysely's FileMigrationProvider would need the files on disk.
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
  ...billingMigrations,
  '0010_claims': claims,
  '0011_sync': sync,
  '0012_sscc_serial_blocks': ssccSerialBlocks,
  '0013_order_code_search': orderCodeSearch,
  '0013_sync_conflicts_brand': syncConflictsBrand,
  '0013_sync_file_uploads': syncFileUploads,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => allMigrations,
};
