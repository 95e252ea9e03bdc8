import { useAuth } from '../auth/AuthContext';
import { ApiError } from './ApiError';
import { errorFromText } from './http';

/** Calls that move files: an upload whose progress is shown, a PDF download. */
export interface FileTransfer {
  /** POSTs `body` as JSON; `onProgress` gets the share sent, 0 to 1. Resolves with the envelope's message. */
  postJsonWithProgress(
    path: string,
    body: unknown,
    onProgress: (sent: number) => void,
    signal?: AbortSignal,
  ): Promise<string>;
  /** A GET answered with a binary document (errors still come as the envelope). */
  getBlob(path: string, signal?: AbortSignal): Promise<Blob>;
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function recordOf(body: unknown): Record<string, unknown> {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
}

/** The envelope's message of a successful answer ('' when there is none). */
function messageOf(text: string): string {
  const message = recordOf(parsed(text)).message;
  return typeof message === 'string' ? message : '';
}

/**
 * The session's file transfers. Upload progress needs XMLHttpRequest (fetch reports none), so
 * these bypass the JSON client but keep its rules: bearer token, envelope errors, a 401 ends the
 * session.
 */
export function useFileTransfer(): FileTransfer {
  const { session, expireSession } = useAuth();
  const token = session?.token ?? '';
  const failed = (status: number, text: string) => {
    if (status === 401) expireSession(token);
    return errorFromText(status, text);
  };

  return {
    postJsonWithProgress: (path, body, onProgress, signal) =>
      new Promise<string>((resolve, reject) => {
        if (signal?.aborted) {
          reject(new ApiError(0, 'ABORTED', 'The upload was cancelled.'));
          return;
        }
        const request = new XMLHttpRequest();
        request.open('POST', path);
        request.setRequestHeader('Content-Type', 'application/json');
        request.setRequestHeader('Accept', 'application/json');
        request.setRequestHeader('Authorization', `Bearer ${token}`);
        request.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
        };
        request.onload = () => {
          if (request.status >= 200 && request.status < 300) {
            onProgress(1);
            resolve(messageOf(request.responseText));
          } else {
            reject(failed(request.status, request.responseText));
          }
        };
        request.onerror = () =>
          reject(new ApiError(0, 'NETWORK_ERROR', 'Could not reach the service.'));
        request.onabort = () => reject(new ApiError(0, 'ABORTED', 'The upload was cancelled.'));
        signal?.addEventListener('abort', () => request.abort(), { once: true });
        request.send(JSON.stringify(body));
      }),
    getBlob: async (path, signal) => {
      let response: Response;
      try {
        response = await fetch(path, {
          headers: { Authorization: `Bearer ${token}`, Accept: '*/*' },
          signal,
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch {
        throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the service.');
      }
      if (!response.ok) throw failed(response.status, await response.text());
      return response.blob();
    },
  };
}
