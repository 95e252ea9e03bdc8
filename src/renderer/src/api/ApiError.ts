import type { ErrorCode } from '../../../shared/envelope';

/** Codes the client itself produces when there is no usable error envelope. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'ABORTED' | 'BAD_RESPONSE' | 'HTTP_ERROR';

/** Interface codes first; any other code the service sends still comes through as a string. */
export type ApiErrorCode = ErrorCode | ClientErrorCode | (string & {});

/** Every failure of an API call: HTTP status (0 when no response), envelope code and message, raw body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly body: unknown;

  constructor(status: number, code: ApiErrorCode, message: string, body: unknown = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** A message fit to show a user for any thrown value. */
export function describeError(error: unknown): string {
  if (isApiError(error)) {
    if (error.code === 'NETWORK_ERROR') {
      return 'Could not reach the service. Check that it is running, then try again.';
    }
    return error.message;
  }
  return 'Something went wrong. Please try again.';
}
