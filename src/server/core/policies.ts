/**
 * Types of the service's tunable parts (delivery, passwords, the label printer's network) that
 * ServiceContext carries; here so core/context.ts imports no feature.
 */
import type { Socket } from 'node:net';

export interface DeliveryPolicy {
  /** Per-attempt timeout (connect + response). */
  attemptTimeoutMs: number;
  /** Total time a delivery may take, retries and waits included. */
  totalBudgetMs: number;
  maxAttempts: number;
  baseBackoffMs: number;
  maxBackoffMs: number;
}

/**
 * When the background drainer sends a failed or interrupted delivery again: exponential backoff
 * with a ceiling, and a limit after which it gives up and leaves the delivery to a clerk.
 */
export interface RedeliveryPolicy {
  /** Wait after the first failure; doubled after every background re-delivery. */
  baseDelayMs: number;
  /** Ceiling of the wait. */
  maxDelayMs: number;
  /** Background re-deliveries before giving up. */
  maxAutoRetries: number;
}

/** scrypt's cost parameters; memory per hash is 128 * N * r bytes. */
export interface PasswordCost {
  N: number;
  r: number;
  p: number;
}

export type PrinterLookup = (host: string) => Promise<{ address: string }[]>;

/** How the sender reaches the network: the system's, or a test's stand-in. */
export interface PrinterNetwork {
  lookup: PrinterLookup;
  /** Opens a TCP connection to an address already checked by resolvePrinterAddress. */
  connect(port: number, address: string): Socket;
  /** Tests only: a shorter deadline than DEFAULT_PRINTER_TIMEOUT_MS. */
  timeoutMs: number;
}
