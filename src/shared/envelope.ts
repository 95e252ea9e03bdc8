/** Error codes of the interface's error envelope, plus DELIVERY_FAILED (see docs/decisions.md). */
export type ErrorCode =
  | 'INVALID_REQUEST'
  | 'INVALID_CREDENTIALS'
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'NO_BRANDS_FOUND'
  | 'INTERNAL_SERVER_ERROR'
  | 'DELIVERY_FAILED'
  /** Sync (not in the interface): an older sync protocol, and a push whose seq skips ahead. */
  | 'UPGRADE_REQUIRED'
  | 'SYNC_GAP'
  /** A write refused because the disk holding the data is full (HTTP 507). */
  | 'INSUFFICIENT_STORAGE';

export interface ErrorEnvelope {
  message: string;
  error: { code: ErrorCode; [extra: string]: unknown };
}

export interface SuccessEnvelope<T> {
  message: string;
  data: T;
}
