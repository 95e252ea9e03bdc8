import type { ZodType } from 'zod';
import { ApiError } from './ApiError';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface HttpRequest<T> {
  method?: HttpMethod;
  /** Serialised as JSON when present. */
  body?: unknown;
  /** Sent as is with its own Content-Type instead of a JSON body (an X12 file). */
  rawBody?: RawBody;
  /** Sent as `Authorization: Bearer <token>` when present. */
  token?: string;
  signal?: AbortSignal;
  /** Validates the envelope's `data`; the parsed value is returned. */
  schema: ZodType<T>;
}

export interface RawBody {
  text: string;
  contentType: string;
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

/** The ApiError of a failed answer read as text (JSON envelope, `{error}` text, or neither). */
export function errorFromText(status: number, text: string): ApiError {
  let body: unknown = text;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    // Not JSON: the text itself is the body.
  }
  return errorFromBody(status, body);
}

interface FetchOptions {
  method?: HttpMethod;
  body?: unknown;
  rawBody?: RawBody | undefined;
  token?: string;
  signal?: AbortSignal;
  accept: string;
}

/** Sends the request; a network failure or an abort becomes an `ApiError`. */
async function send(path: string, options: FetchOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: options.accept };
  if (options.rawBody) headers['Content-Type'] = options.rawBody.contentType;
  else if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  try {
    return await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      body: options.rawBody
        ? options.rawBody.text
        : options.body === undefined
          ? undefined
          : JSON.stringify(options.body),
      signal: options.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (cause) {
    if (options.signal?.aborted) throw new ApiError(0, 'ABORTED', 'The request was cancelled.');
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the service.', String(cause));
  }
}

/** One call to the same-origin API: parses the envelope, throws `ApiError` on any failure. */
export async function httpRequest<T>(path: string, request: HttpRequest<T>): Promise<Envelope<T>> {
  const response = await send(path, { ...request, accept: 'application/json' });
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

/** A document the service answers with as-is (no envelope), e.g. a delivered EDI file. */
export interface TextDocument {
  text: string;
  contentType: string;
}

/** A GET whose success body is a raw document; errors still come as the envelope. */
export async function httpText(
  path: string,
  request: { token?: string; signal?: AbortSignal },
): Promise<TextDocument> {
  const response = await send(path, { ...request, accept: '*/*' });
  if (!response.ok) throw errorFromBody(response.status, await readBody(response));
  return { text: await response.text(), contentType: response.headers.get('Content-Type') ?? '' };
}
