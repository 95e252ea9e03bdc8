import type { RedeliveryPolicy } from '../inventory/transmission/redelivery';
import type { DeliveryPolicy } from '../inventory/transmission/types';
import type { Db } from '../db/database';
import type { SyncRuntime } from '../sync/runtime';
import type { PrinterNetwork } from '../documents/label-printer';
import type { PasswordCost } from '../access/passwords';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** Everything a domain function needs; built once per service instance. */
export interface ServiceContext {
  db: Db;
  secret: Uint8Array;
  clock: Clock;
  dataDir: string;
  deliveryPolicy: DeliveryPolicy;
  /** How many connections one advice delivers to at once. */
  deliveryConcurrency: number;
  /** Deliveries this process is sending right now (a retry of one of them is refused). */
  deliveriesInFlight: Set<string>;
  /** scrypt cost for new password hashes; PASSWORD_COST unless a test lowers it to stay fast. */
  passwordCost?: PasswordCost;
  /** Backoff and limit of background re-delivery; defaultRedeliveryPolicy when absent. */
  redeliveryPolicy?: RedeliveryPolicy;
  /** Sync with a central service (docs/sync.md); absent on a standalone install. */
  sync?: SyncRuntime;
  /** The ports this service listens on (set once listening): never a label printer's. */
  servicePorts?: number[];
  /**
   * Tests only: a stand-in for DNS and TCP when printing labels, so a test printer on loopback can
   * be reached without the service ever allowing loopback printers. Production leaves it unset.
   */
  labelPrinterNetwork?: Partial<PrinterNetwork>;
}

/** The signed-in user, as every authorised route sees it. */
export interface AuthUser {
  id: string;
  email: string;
  /** The brand these credentials act for; null for a facility-wide user. */
  brandId: string | null;
}
