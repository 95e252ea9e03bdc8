import { DomainError, type FailureKind } from '../core/errors';

const statusOf: Record<FailureKind, number> = {
  invalid_request: 400,
  invalid_credentials: 401,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  upgrade_required: 426,
  insufficient_storage: 507,
  rate_limited: 429,
  internal: 500,
};

export function httpStatusOf(error: DomainError): number {
  return statusOf[error.kind];
}

export function envelopeOf(error: DomainError) {
  return { message: error.message, error: { code: error.code, ...error.extra } };
}

export const internalError = () =>
  new DomainError('internal', 'INTERNAL_SERVER_ERROR', 'Internal server error');

/** The 415 answer names the media type the route takes. */
export function unsupportedMediaTypeMessage(contentType = 'application/json'): string {
  return `Unsupported Content-Type; send ${contentType}`;
}
