import type { ZodType } from 'zod';
import { ApiError } from './ApiError';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest<T> {
  method?: HttpMethod;
  /** Serialised as JSON when present. */
  body?: unknown;
  /** Sent as `Authorization: Bearer <token>` when present. */
  token?: string;
  signal?: AbortSignal;
  /** Validates the envelope's `data`; the parsed value is returned. */
  schema: ZodType<T>;
}

export interface Envelope<T> {
  message: string;
  data: T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFromBody(status: number, body: unknown): ApiError {
  if (isRecord(body)) {
    const message = typeof body.message === 'string' ? body.message : undefined;
    const error = body.error;
    const code = isRecord(error) && typeof error.code === 'string' ? error.code : undefined;
    // Some endpoints answer `{error: "text"}` instead of the envelope.
    const text = message ?? (typeof error === 'string' ? error : undefined);
    if (text !== undefined || code !== undefined) {
      return new ApiError(status, code ?? 'HTTP_ERROR', text ?? `Request failed (${status})`, body);
    }
  }
  return new ApiError(status, 'HTTP_ERROR', `Request failed (${status})`, body);
}

/** One call to the same-origin API: parses the envelope, throws `ApiError` on any failure. */
export async function httpRequest<T>(path: string, request: HttpRequest<T>): Promise<Envelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (request.body !== undefined) headers['Content-Type'] = 'application/json';
  if (request.token) headers.Authorization = `Bearer ${request.token}`;

  let response: Response;
  try {
    response = await fetch(path, {
      method: request.method ?? 'GET',
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (cause) {
    if (request.signal?.aborted) throw new ApiError(0, 'ABORTED', 'The request was cancelled.');
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the service.', String(cause));
  }

  const body = await readBody(response);
  if (!response.ok) throw errorFromBody(response.status, body);

  if (!isRecord(body) || !('data' in body)) {
    throw new ApiError(
      response.status,
      'BAD_RESPONSE',
      'The service sent an unexpected response.',
      body,
    );
  }
  const parsed = request.schema.safeParse(body.data);
  if (!parsed.success) {
    throw new ApiError(
      response.status,
      'BAD_RESPONSE',
      'The service sent an unexpected response.',
      body,
    );
  }
  return { message: typeof body.message === 'string' ? body.message : '', data: parsed.data };
}
