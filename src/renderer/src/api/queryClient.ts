import { MutationCache, QueryClient } from '@tanstack/react-query';
import type { Health } from '../../../shared/health';
import { isApiError } from './ApiError';
import { healthKey } from './health';

/**
 * One cache per signed-in session (App creates it at sign-in and drops it at sign-out, so the
 * next user never sees the last one's data).
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    // A write refused for a full disk: ask health now, so the header says so at once. A write
    // that succeeds while the header says full: ask too, so the banner goes as soon as the
    // service agrees the fault is over (not 10 s later).
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isApiError(error) && error.code === 'INSUFFICIENT_STORAGE') {
          void client.invalidateQueries({ queryKey: healthKey });
        }
      },
      onSuccess: () => {
        if (client.getQueryData<Health>(healthKey)?.status === 'disk_full') {
          void client.invalidateQueries({ queryKey: healthKey });
        }
      },
    }),
    defaultOptions: {
      queries: {
        // The service is local: a failure is shown at once with a Retry button rather than
        // hidden behind seconds of automatic retries.
        retry: false,
        // Lists change rarely; moving between screens shows the cached answer without a refetch.
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
