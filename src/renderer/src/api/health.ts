import { useQuery } from '@tanstack/react-query';
import { healthSchema, type Health } from '../../../shared/health';
import { useApi } from './ApiContext';
import { ApiError } from './ApiError';
import type { ApiClient } from './client';

/** How often the header asks whether the service can write. */
const HEALTH_POLL_MS = 10_000;

export const healthKey = ['health'] as const;

/** Health answers bare JSON, not the `{message, data}` envelope. */
async function fetchHealth(api: ApiClient, signal?: AbortSignal): Promise<Health> {
  const document = await api.getText('/api/health', signal);
  let body: unknown = document.text;
  try {
    body = JSON.parse(document.text) as unknown;
  } catch {
    // Not JSON: the check below refuses it.
  }
  const parsed = healthSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'BAD_RESPONSE', 'The service sent an unexpected response.', body);
  }
  return parsed.data;
}

/** The header's source for faults such as a full disk; asked every 10 s and after a 507. */
export function useServiceHealth() {
  const api = useApi();
  return useQuery({
    queryKey: healthKey,
    queryFn: ({ signal }) => fetchHealth(api, signal),
    staleTime: 0,
    refetchInterval: HEALTH_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
