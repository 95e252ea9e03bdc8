/**
 * The database: the union of every feature's tables (each feature declares its own in tables.ts).
 * db/ imports features only here, type-only, and in the migration list: that is the union.
 */
import type { AccessTables } from '../access/tables';
import type { BillingTables } from '../billing/tables';
import type { ClaimsTables } from '../claims/tables';
import type { DocumentsTables } from '../documents/tables';
import type { EdiTables } from '../edi/tables';
import type { FulfilmentTables } from '../fulfilment/tables';
import type { InventoryTables } from '../inventory/tables';
import type { OrdersTables } from '../orders/tables';
import type { SyncTables } from '../sync/tables';
import type { TransactionsTables } from '../transactions/tables';

export type {
  OrganizationsTable,
  FacilitiesTable,
  BrandsTable,
  RetailersTable,
  BrandFacilitiesTable,
  UsersTable,
  UserFacilitiesTable,
  UserAdminTable,
  SignInFailuresTable,
} from '../access/tables';
export type {
  ConnectionsTable,
  AdviceSnapshotsTable,
  DeliveryStatus,
  AdviceDeliveriesTable,
} from '../inventory/tables';
export type { TransactionsTable } from '../transactions/tables';
export type {
  OrderStatusValue,
  OrdersTable,
  OrderItemsTable,
  OrderIdempotencyTable,
  OrderBolVersionsTable,
} from '../orders/tables';
export type { PalletsTable, CartonsTable, CartonSkusTable } from '../fulfilment/tables';

export interface Database
  extends
    AccessTables,
    InventoryTables,
    TransactionsTables,
    OrdersTables,
    FulfilmentTables,
    BillingTables,
    ClaimsTables,
    SyncTables,
    EdiTables,
    DocumentsTables {}
