/** POSTs an outbound document to a partner endpoint: one attempt, no retries (see ../retry). */
import { STATUS_CODES } from 'node:http';
import { Agent, request } from 'undici';
import type { AttemptResult } from '../retry';
import { parseRetryAfter } from '../retry';
import type { OutboundDocument, TransportConfig } from '../types';
import {
  TRANSIENT_NETWORK_CODES,
  codedErrorText,
  errorCodeOf,
  errorMessageOf,
  failure,
  success,
} from './failure';

type HttpTransport = Extract<TransportConfig, { type: 'http' }>;

const MAX_STORED_BODY_BYTES = 4096;
const MAX_ERROR_TEXT_CHARS = 200;

/** Shared keep-alive pool: partners receive many small POSTs, so reusing sockets matters. */
const keepAliveAgent = new Agent();

/** undici's own codes, mapped to the Node-style codes the rest of the app reports. */
const UNDICI_CODE_ALIASES: Readonly<Record<string, string>> = {
  UND_ERR_CONNECT_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_HEADERS_TIMEOUT: 'ETIMEDOUT',
  UND_ERR_BODY_TIMEOUT: 'ETIMEDOUT',
};

class AttemptTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(timeoutMs: number) {
    super(`request timed out after ${timeoutMs} ms`);
  }
}

export async function attemptHttp(
  transport: HttpTransport,
  doc: OutboundDocument,
  timeoutMs: number,
): Promise<AttemptResult> {
  // One abort covers connect, headers and body, so an attempt can never outlive its timeout.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new AttemptTimeoutError(timeoutMs)), timeoutMs);
  try {
    const response = await request(transport.url, {
      method: 'POST',
      headers: requestHeaders(transport.headers, doc),
      body: doc.body,
      dispatcher: keepAliveAgent,
      signal: abort.signal,
    });
    const bodyText = await response.body.text();
    const status = response.statusCode;
    const stored = { status, body: truncateUtf8(bodyText, MAX_STORED_BODY_BYTES) };
    if (status >= 200 && status < 300) return success(transport.url, stored);
    return failure(transport.url, statusErrorText(status, bodyText), isTransientStatus(status), {
      ...stored,
      retryAfterMs: parseRetryAfter(headerValue(response.headers['retry-after']), Date.now()),
    });
  } catch (err) {
    const code = networkErrorCode(err);
    return failure(
      transport.url,
      codedErrorText(code, errorMessageOf(err)),
      TRANSIENT_NETWORK_CODES.has(code),
    );
  } finally {
    clearTimeout(timer);
  }
}

/** The document's own Content-Type and Idempotency-Key win over configured headers. */
function requestHeaders(
  configured: Record<string, string> | undefined,
  doc: OutboundDocument,
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (configured) {
    for (const [name, value] of Object.entries(configured)) {
      const lower = name.toLowerCase();
      if (lower !== 'content-type' && lower !== 'idempotency-key') headers[name] = value;
    }
  }
  headers['content-type'] = doc.contentType;
  headers['idempotency-key'] = doc.idempotencyKey;
  return headers;
}

/** 408 and 429 say "try later"; 5xx are the server's trouble, not the document's. */
function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

function statusErrorText(status: number, body: string): string {
  const text = body.trim().slice(0, MAX_ERROR_TEXT_CHARS).trimEnd();
  return `${status}: ${text || STATUS_CODES[status] || 'Unknown Status'}`;
}

function networkErrorCode(err: unknown): string {
  const code = errorCodeOf(err) ?? 'EUNKNOWN';
  if (code === 'UND_ERR_SOCKET') {
    // A real reset carries the OS code in `cause`; a plain close does not.
    return errorCodeOf((err as { cause?: unknown }).cause) ?? 'ECONNRESET';
  }
  return UNDICI_CODE_ALIASES[code] ?? code;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Cut to at most `maxBytes` of UTF-8 without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  // Each UTF-16 unit is at most 3 UTF-8 bytes, so short strings skip the encoding work.
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  // stream: true holds back a trailing partial character instead of emitting U+FFFD.
  return new TextDecoder().decode(bytes.subarray(0, maxBytes), { stream: true });
}
