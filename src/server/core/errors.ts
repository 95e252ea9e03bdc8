import type { ErrorCode } from '../../shared/envelope';

/** What went wrong, in domain terms; the service maps each kind to an HTTP status. */
export type FailureKind =
  | 'invalid_request'
  | 'invalid_credentials'
  | 'rate_limited'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'upgrade_required'
  | 'insufficient_storage'
  | 'internal';

/** A failure carrying the interface's code, message and any extra `error` fields (details, errors). */
export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const invalidRequest = (message: string, extra?: Record<string, unknown>) =>
  new DomainError('invalid_request', 'INVALID_REQUEST', message, extra);
export const notFound = (message: string, code: ErrorCode = 'NOT_FOUND') =>
  new DomainError('not_found', code, message);
/** The request is valid but clashes with the stored state (HTTP 409; the interface's INVALID_REQUEST code). */
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new DomainError('conflict', 'INVALID_REQUEST', message, extra);
export const unauthenticated = (message = 'Authentication failed') =>
  new DomainError('unauthenticated', 'UNAUTHORIZED', message);
export const forbidden = (message = 'Unauthorized') =>
  new DomainError('forbidden', 'UNAUTHORIZED', message);

/**
 * A write refused because the disk holding the data dir is full (HTTP 507). Reads go on working,
 * and the same write succeeds once space is freed (docs/decisions.md, "Faults a workstation meets").
 */
export const diskFull = (dataDir: string) =>
  new DomainError(
    'insufficient_storage',
    'INSUFFICIENT_STORAGE',
    `The disk holding the data is full: free space on ${dataDir} and try again`,
  );
