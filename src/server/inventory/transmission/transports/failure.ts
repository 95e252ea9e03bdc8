/** Helpers every transport uses to turn what went wrong into an attempt result. */
import type { AttemptResult } from '../retry';

/** Network-level errors where trying again later can succeed. */
export const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
  // Offline laptops report DNS failures too; the total budget bounds the cost of retrying.
  'ENOTFOUND',
]);

export function errorCodeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  const code = (err as { code: unknown }).code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : undefined;
}

export function errorMessageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function failure(
  requestUrl: string,
  error: string,
  transient: boolean,
  response: { status: number | null; body: string | null; retryAfterMs?: number | null } = {
    status: null,
    body: null,
  },
): AttemptResult {
  return {
    ok: false,
    requestUrl,
    responseStatus: response.status,
    responseBody: response.body,
    error,
    transient,
    retryAfterMs: response.retryAfterMs ?? null,
  };
}

export function success(
  requestUrl: string,
  response: { status: number | null; body: string | null } = { status: null, body: null },
): AttemptResult {
  return {
    ok: true,
    requestUrl,
    responseStatus: response.status,
    responseBody: response.body,
    error: null,
    transient: false,
    retryAfterMs: null,
  };
}

/**
 * File names come from the outbox; refuse anything that could escape the target directory
 * (`../x`, `a/b`, `a\b`) rather than trusting every producer to be careful.
 */
export function invalidFileNameError(fileName: string): string | null {
  if (fileName === '' || fileName === '.' || fileName === '..' || /[/\\\0]/.test(fileName)) {
    return `EINVAL: invalid file name ${JSON.stringify(fileName)}`;
  }
  return null;
}

/** `<CODE>: <message>`, without doubling the code Node already puts in many messages. */
export function codedErrorText(code: string, message: string): string {
  return message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
}
