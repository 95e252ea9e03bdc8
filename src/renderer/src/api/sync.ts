import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import {
  syncConflictSchema,
  syncStatusSchema,
  type ConflictAction,
  type SyncConflict,
  type SyncStatus,
} from '../../../shared/sync';
import { orderKeys } from './orderKeys';
import { useApi } from './ApiContext';
import { ApiError } from './ApiError';
import type { ApiClient } from './client';

export type ConflictStatus = 'open' | 'resolved';

/** Rows per page of the conflicts table. */
export const CONFLICT_PAGE_SIZE = 50;

/** How often the header badge asks for the sync state. */
const SYNC_STATUS_POLL_MS = 5_000;

const conflictPageSchema = z.object({
  items: z.array(syncConflictSchema),
  total_count: z.number().int().nonnegative(),
  page: z.number().int(),
  page_size: z.number().int(),
});
type ConflictPage = z.infer<typeof conflictPageSchema>;

/** Everything about sync sits under one prefix, so a resolution refreshes the badge and lists. */
export const syncKeys = {
  all: ['sync'] as const,
  status: () => [...syncKeys.all, 'status'] as const,
  conflictLists: () => [...syncKeys.all, 'conflicts'] as const,
  conflicts: (status: ConflictStatus, page: number) =>
    [...syncKeys.conflictLists(), status, page] as const,
};

/** The sync state; this one answer comes bare, not inside the `{message, data}` envelope. */
async function fetchSyncStatus(api: ApiClient, signal?: AbortSignal): Promise<SyncStatus> {
  const document = await api.getText('/api/sync/v1/status', signal);
  let body: unknown;
  try {
    body = JSON.parse(document.text) as unknown;
  } catch {
    body = document.text;
  }
  const parsed = syncStatusSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'BAD_RESPONSE', 'The service sent an unexpected response.', body);
  }
  return parsed.data;
}

/** A page of conflicts with the given status, newest first. */
export function listConflicts(
  api: ApiClient,
  status: ConflictStatus,
  page: number,
  signal?: AbortSignal,
): Promise<ConflictPage> {
  const params = new URLSearchParams({
    status,
    page: String(page),
    page_size: String(CONFLICT_PAGE_SIZE),
  });
  return api.get(`/api/sync/v1/conflicts?${params}`, conflictPageSchema, signal);
}

/** Settles one open conflict; the service answers the conflict as it now stands. */
export async function resolveConflict(
  api: ApiClient,
  conflictId: string,
  action: ConflictAction,
): Promise<SyncConflict> {
  const envelope = await api.request(
    `/api/sync/v1/conflicts/${encodeURIComponent(conflictId)}/resolve`,
    syncConflictSchema,
    { method: 'POST', body: { action } },
  );
  return envelope.data;
}

/** The badge's source: asked every 5 s and whenever the window comes back into focus. */
export function useSyncStatus() {
  const api = useApi();
  return useQuery({
    queryKey: syncKeys.status(),
    queryFn: ({ signal }) => fetchSyncStatus(api, signal),
    staleTime: 0,
    refetchInterval: SYNC_STATUS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

export function useConflicts(status: ConflictStatus, page: number) {
  const api = useApi();
  return useQuery({
    queryKey: syncKeys.conflicts(status, page),
    queryFn: ({ signal }) => listConflicts(api, status, page, signal),
    staleTime: 0,
    // Switching pages or tabs keeps the current rows on screen until the next ones are in.
    placeholderData: keepPreviousData,
  });
}

function invalidateSync(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: syncKeys.all });
}

interface ResolveRequest {
  conflictId: string;
  action: ConflictAction;
}

/**
 * Resolves one conflict. Success refreshes the badge and every conflict list (and orders, since
 * `apply_mine` edits one); a failure refreshes the badge only, so the row and its message stay.
 */
export function useResolveConflict() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conflictId, action }: ResolveRequest) =>
      resolveConflict(api, conflictId, action),
    onSuccess: async (_conflict, { action }) => {
      await invalidateSync(queryClient);
      if (action === 'apply_mine') await queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: syncKeys.status() }),
  });
}

const recreatedSchema = z.object({ order_id: z.string(), conflict: syncConflictSchema });

/** "Create with a new picksheet code": the refused new order, created again under `picksheetCode`. */
export async function createRefusedOrder(
  api: ApiClient,
  conflictId: string,
  picksheetCode: string,
): Promise<z.infer<typeof recreatedSchema>> {
  const envelope = await api.request(
    `/api/sync/v1/conflicts/${encodeURIComponent(conflictId)}/create-order`,
    recreatedSchema,
    { method: 'POST', body: { picksheet_code: picksheetCode } },
  );
  return envelope.data;
}

/** Creates a refused order again; success refreshes sync and orders, a failure the badge only. */
export function useCreateRefusedOrder() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ conflictId, picksheetCode }: { conflictId: string; picksheetCode: string }) =>
      createRefusedOrder(api, conflictId, picksheetCode),
    onSuccess: async () => {
      await invalidateSync(queryClient);
      await queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
    onError: () => queryClient.invalidateQueries({ queryKey: syncKeys.status() }),
  });
}
