import {
  chargebackPageSchema,
  importResultSchema,
  posPageSchema,
  type ChargebackPage,
  type ClaimsImportBody,
  type ImportResult,
  type PosPage,
} from '../../../shared/claims';
import { ApiError } from './ApiError';
import type { ApiClient } from './client';
import { errorFromText } from './http';

/** Query parameters of the chargeback list as text; unset ones are left out. */
export interface ChargebackListRequest {
  retailer_id?: string;
  po_number?: string;
  chargeback_id?: string;
  /** Comma-separated dispute statuses. */
  dispute_status?: string;
  settled?: 'true' | 'false';
  start_date?: string;
  end_date?: string;
  page: number;
  page_size: number;
}

export interface PosListRequest {
  retailer_id?: string;
  start_date?: string;
  end_date?: string;
  page: number;
  page_size: number;
}

/** What a CSV import feeds: the chargeback list or the POS reports. */
export type ClaimsImportKind = 'chargebacks' | 'pos';

function paramsOf(request: object): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params;
}

/** Endpoint 14: a page of the chargebacks the user sees. */
export function listChargebacks(
  api: ApiClient,
  request: ChargebackListRequest,
  signal?: AbortSignal,
): Promise<ChargebackPage> {
  return api.get(`/api/v1/chargebacks?${paramsOf(request)}`, chargebackPageSchema, signal);
}

/** Endpoint 15: a page of POS report rows. */
export function listPosReports(
  api: ApiClient,
  request: PosListRequest,
  signal?: AbortSignal,
): Promise<PosPage> {
  return api.get(`/api/v1/pos-reports?${paramsOf(request)}`, posPageSchema, signal);
}

const IMPORT_PATHS: Record<ClaimsImportKind, string> = {
  chargebacks: '/api/v1/chargebacks/import',
  pos: '/api/v1/pos-reports/import',
};

/** A CSV import: all rows or none; a refused file throws `ApiError` whose body lists the rows. */
export async function importClaimsCsv(
  api: ApiClient,
  kind: ClaimsImportKind,
  body: ClaimsImportBody,
  signal?: AbortSignal,
): Promise<ImportResult & { message: string }> {
  const envelope = await api.request(IMPORT_PATHS[kind], importResultSchema, {
    method: 'POST',
    body,
    signal,
  });
  return { ...envelope.data, message: envelope.message };
}

/** A downloaded file and the name the service gave it (null when it gave none). */
export interface DownloadedFile {
  blob: Blob;
  fileName: string | null;
}

/**
 * The file name of a Content-Disposition header: the exact UTF-8 `filename*` when present, else
 * the plain `filename`; only its last path part, so a name can never point into a folder.
 */
export function fileNameOf(header: string | null): string | null {
  if (!header) return null;
  let name: string | null = null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      name = decodeURIComponent(extended[1]!.trim());
    } catch {
      name = null;
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
    name = plain ? (plain[1] ?? plain[2] ?? '').trim() : null;
  }
  const lastPart = name?.split(/[/\\]/).pop()?.trim() ?? '';
  return lastPart === '' ? null : lastPart;
}

/** What a download is doing: waiting while the service builds the file, then receiving it. */
export type DownloadProgress = { phase: 'building' } | { phase: 'receiving'; share: number | null };

/**
 * A GET of a binary file with the session's token, reporting progress: `building` until the
 * answer starts, then the share received (null when the size is not known). Errors come as the
 * envelope; `onUnauthorized` is told about a 401.
 */
export async function downloadFile(
  path: string,
  token: string,
  onProgress: (progress: DownloadProgress) => void,
  onUnauthorized: () => void,
  signal?: AbortSignal,
): Promise<DownloadedFile> {
  onProgress({ phase: 'building' });
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { Authorization: `Bearer ${token}`, Accept: '*/*' },
      signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    if (signal?.aborted) throw new ApiError(0, 'ABORTED', 'The download was cancelled.');
    throw new ApiError(0, 'NETWORK_ERROR', 'Could not reach the service.');
  }
  if (!response.ok) {
    if (response.status === 401) onUnauthorized();
    throw errorFromText(response.status, await response.text());
  }
  const fileName = fileNameOf(response.headers.get('Content-Disposition'));
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  const total = Number(response.headers.get('Content-Length') ?? '');
  const known = Number.isFinite(total) && total > 0;
  onProgress({ phase: 'receiving', share: known ? 0 : null });
  if (!response.body) return { blob: await response.blob(), fileName };

  const reader = response.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    onProgress({ phase: 'receiving', share: known ? Math.min(1, received / total) : null });
  }
  return { blob: new Blob(parts, { type }), fileName };
}

/** The dispute packet of one chargeback (a zip). */
export function disputePacketPath(chargebackId: string): string {
  return `/api/v1/chargebacks/${encodeURIComponent(chargebackId)}/dispute-packet`;
}
