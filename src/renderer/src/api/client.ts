import type { ZodType } from 'zod';
import { tokenResponseSchema, type TokenRequest, type TokenResponse } from '../../../shared/auth';
import { isApiError } from './ApiError';
import {
  httpRequest,
  httpText,
  type Envelope,
  type HttpMethod,
  type RawBody,
  type TextDocument,
} from './http';

export interface CallOptions {
  method?: HttpMethod;
  body?: unknown;
  /** A non-JSON body with its Content-Type (an X12 file). */
  rawBody?: RawBody;
  signal?: AbortSignal;
}

/** Authenticated calls, bound to one session's token. */
export interface ApiClient {
  request<T>(path: string, schema: ZodType<T>, options?: CallOptions): Promise<Envelope<T>>;
  get<T>(path: string, schema: ZodType<T>, signal?: AbortSignal): Promise<T>;
  /** A GET answered with a raw document instead of the JSON envelope. */
  getText(path: string, signal?: AbortSignal): Promise<TextDocument>;
}

export interface ApiClientOptions {
  token: string;
  /** Called when the service rejects the token (401 UNAUTHORIZED). */
  onUnauthorized: () => void;
}

/** Endpoint 1. Never signs anyone out: a 401 here is a wrong password, not an expired session. */
export async function requestToken(
  credentials: TokenRequest,
  signal?: AbortSignal,
): Promise<TokenResponse> {
  const envelope = await httpRequest('/api/auth/token', {
    method: 'POST',
    body: credentials,
    schema: tokenResponseSchema,
    signal,
  });
  return envelope.data;
}

export function createApiClient({ token, onUnauthorized }: ApiClientOptions): ApiClient {
  async function guarded<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (error) {
      // 403 also carries UNAUTHORIZED (missing admin rights); only 401 means the token is dead.
      if (isApiError(error) && error.status === 401) {
        onUnauthorized();
      }
      throw error;
    }
  }
  const request = <T>(path: string, schema: ZodType<T>, options: CallOptions = {}) =>
    guarded(httpRequest(path, { ...options, schema, token }));
  return {
    request,
    get: async (path, schema, signal) => (await request(path, schema, { signal })).data,
    getText: (path, signal) => guarded(httpText(path, { token, signal })),
  };
}
