import {
  interchangeDetailSchema,
  interchangePageSchema,
  type InterchangeDetail,
  type InterchangeOutcomeValue,
  type InterchangePage,
} from '../../../shared/edi-inbox';
import { interchangeSummarySchema, type InterchangeSummaryView } from '../../../shared/edi-inbound';
import { z } from 'zod';
import { isApiError } from './ApiError';
import type { ApiClient } from './client';

/** The EDI inbox: inbound interchanges, one with its text, a download, a reprocess, an import. */
const INTERCHANGES = '/api/v1/edi/interchanges';
const interchangePath = (id: string) => `${INTERCHANGES}/${encodeURIComponent(id)}`;

export const ediInboxKeys = {
  all: ['edi-inbox'] as const,
  list: (outcome: InterchangeOutcomeValue | null, page: number) =>
    [...ediInboxKeys.all, 'list', outcome, page] as const,
  one: (id: string) => [...ediInboxKeys.all, 'one', id] as const,
};

export const INBOX_PAGE_SIZE = 25;

export function fetchInterchanges(
  api: ApiClient,
  filter: { outcome: InterchangeOutcomeValue | null; page: number },
  signal?: AbortSignal,
): Promise<InterchangePage> {
  const query = new URLSearchParams({
    page: String(filter.page),
    page_size: String(INBOX_PAGE_SIZE),
  });
  if (filter.outcome) query.set('outcome', filter.outcome);
  return api.get(`${INTERCHANGES}?${query.toString()}`, interchangePageSchema, signal);
}

export function fetchInterchange(
  api: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<InterchangeDetail> {
  return api.get(interchangePath(id), interchangeDetailSchema, signal);
}

/** The text exactly as received, for a download. */
export function fetchInterchangeRaw(api: ApiClient, id: string) {
  return api.getText(`${interchangePath(id)}/raw`);
}

export async function reprocessInterchange(
  api: ApiClient,
  id: string,
): Promise<{ message: string; interchange: InterchangeDetail }> {
  const envelope = await api.request(`${interchangePath(id)}/reprocess`, interchangeDetailSchema, {
    method: 'POST',
    body: {},
  });
  return { message: envelope.message, interchange: envelope.data };
}

/** One file posted as an interchange (the same path as a partner's POST). */
export async function importInterchange(
  api: ApiClient,
  text: string,
): Promise<{ message: string; summary: InterchangeSummaryView }> {
  const envelope = await api.request('/api/v1/edi/inbound', interchangeSummarySchema, {
    method: 'POST',
    rawBody: { text, contentType: 'application/edi-x12' },
  });
  return { message: envelope.message, summary: envelope.data };
}

const refusalBodySchema = z.object({
  error: z.object({ data: z.object({ interchange_id: z.string().min(1) }) }),
});

/**
 * The interchange a refused import was recorded as (the refusal's `error.data`), whose stored
 * reason is in clerk words; null when the refusal recorded none (not X12, unknown sender).
 */
export function refusedInterchangeId(error: unknown): string | null {
  if (!isApiError(error)) return null;
  const parsed = refusalBodySchema.safeParse(error.body);
  return parsed.success ? parsed.data.error.data.interchange_id : null;
}
