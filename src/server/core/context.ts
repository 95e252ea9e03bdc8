/**
 * The leaf every feature builds on: it imports only types of the database and core, so no
 * feature module is reachable from here (ARCHITECTURE.md, layers).
 */
import type SQLite from 'better-sqlite3';
import type { SyncRole } from '../../shared/sync';
import type { Db } from '../db/db';
import type { DeliveryPolicy, PasswordCost, PrinterNetwork, RedeliveryPolicy } from './policies';

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
  sync?: SyncView;
  /** The ports this service listens on (set once listening): never a label printer's. */
  servicePorts?: number[];
  /**
   * Tests only: a stand-in for DNS and TCP when printing labels, so a test printer on loopback can
   * be reached without the service ever allowing loopback printers. Production leaves it unset.
   */
  labelPrinterNetwork?: Partial<PrinterNetwork>;
}

/**
 * What features see of sync: the role, the device, its database handle and client. The runtime
 * behind it (sync/runtime.ts) adds the central's version stamps, which only the sync feature reads.
 */
export interface SyncView {
  role: SyncRole;
  /** The SQLite handle; null for a central on PostgreSQL (its stamps are triggers there). */
  sqlite: SQLite.Database | null;
  /** Workstation: its device id. */
  deviceId: string | null;
  /** Workstation: the client that talks to the central. */
  client: SyncClient | null;
}

export interface SyncClient {
  /** True after the last request reached the central; false after a network error. */
  readonly online: boolean;
  /** Why the last round failed; null after a round that went through. */
  readonly lastError: unknown;
  /** Runs a round now (or joins the one under way): push everything, then pull to the end. */
  syncNow(): Promise<void>;
  /** A local write happened: sync soon. */
  kick(): void;
  /** A BOL file was asked for and is not here: look for missing files in the next round. */
  wantFiles(): void;
  stop(): Promise<void>;
}

/** The signed-in user, as every authorised route sees it. */
export interface AuthUser {
  id: string;
  email: string;
  /** The brand these credentials act for; null for a facility-wide user. */
  brandId: string | null;
}
