/** Shapes shared by the advice engine's parts (builders, transports, orchestration). */

export type StockStatus = 'DISCONTINUED' | 'TEMPORARILY_UNAVAILABLE';

/** One validated, normalised line of an inventory snapshot. */
export interface AdviceLine {
  sku: string;
  available_quantity: number;
  status: StockStatus | null;
  /** YYYY-MM-DD */
  estimated_back_in_stock_date: string | null;
}

/** The `edi` settings of an EDI_846 connection (seed bundle, DESIGN.md). */
export type { EdiSettings } from '../../core/x12-text';

export type TransportConfig =
  | { type: 'http'; url: string; headers?: Record<string, string> }
  | {
      type: 'sftp';
      host: string;
      port?: number;
      username: string;
      password?: string;
      privateKey?: string;
      directory: string;
      /** SHA-256 fingerprint of the server's host key; without it the transport refuses to connect. */
      host_key_sha256?: string;
    }
  | { type: 'file'; directory: string };

/** What a transport carries: the exact bytes stored in the outbox. */
export interface OutboundDocument {
  body: string;
  /** `application/edi-x12` or `application/json` */
  contentType: string;
  /** File name for sftp/file transports, e.g. `846_000000101.x12` */
  fileName: string;
  /** Sent as the Idempotency-Key header over http. */
  idempotencyKey: string;
}

export type AttemptStatus = 'SUCCESS' | 'FAILURE' | 'RETRY';

/** One try at delivering a document; each becomes a transaction-log row. */
export interface AttemptRecord {
  attempt: number;
  /** http URL, sftp://user@host:port/dir/file, or file:///abs/path */
  requestUrl: string;
  startedAt: Date;
  durationMs: number;
  status: AttemptStatus;
  responseStatus: number | null;
  /** Response body text (truncated to 4 KiB) or null. */
  responseBody: string | null;
  /** `<status>: <text>` for upstream answers, `<CODE>: <text>` for network errors; null on success. */
  error: string | null;
}

export interface DeliveryOutcome {
  success: boolean;
  /** Error text of the last attempt when success is false. */
  error: string | null;
  /** A failure that sending again later may fix (network trouble, timeouts, 408, 429, 5xx). */
  retryable: boolean;
  /** The wait the receiver asked for on its last answer (Retry-After), when it asked. */
  retryAfterMs?: number;
  attempts: AttemptRecord[];
}

export const defaultDeliveryPolicy: DeliveryPolicy = {
  attemptTimeoutMs: 10_000,
  totalBudgetMs: 30_000,
  maxAttempts: 4,
  baseBackoffMs: 250,
  maxBackoffMs: 5_000,
};

import type { DeliveryPolicy } from '../../core/policies';

export type { DeliveryPolicy } from '../../core/policies';
