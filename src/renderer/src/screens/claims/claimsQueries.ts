import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ClaimsImportBody, PosRow } from '../../../../shared/claims';
import { useApi } from '../../api/ApiContext';
import {
  importClaimsCsv,
  listChargebacks,
  listPosReports,
  type ChargebackListRequest,
  type ClaimsImportKind,
  type PosListRequest,
} from '../../api/claims';
import type { ApiClient } from '../../api/client';
import { CHART_ROW_LIMIT } from '../pos/posChart';

/** Chargebacks and POS rows each under one prefix, so an import refreshes every view of them. */
export const claimKeys = {
  chargebacks: ['chargebacks'] as const,
  chargebackList: (request: ChargebackListRequest) =>
    [...claimKeys.chargebacks, 'list', request] as const,
  pos: ['pos-reports'] as const,
  posPage: (request: PosListRequest) => [...claimKeys.pos, 'page', request] as const,
  posChart: (filter: Omit<PosListRequest, 'page' | 'page_size'>) =>
    [...claimKeys.pos, 'chart', filter] as const,
};

export function useChargebackList(request: ChargebackListRequest) {
  const api = useApi();
  return useQuery({
    queryKey: claimKeys.chargebackList(request),
    queryFn: ({ signal }) => listChargebacks(api, request, signal),
    staleTime: 0,
    // Paging and filtering keep the current rows on screen until the next ones are in.
    placeholderData: keepPreviousData,
  });
}

export function usePosPage(request: PosListRequest) {
  const api = useApi();
  return useQuery({
    queryKey: claimKeys.posPage(request),
    queryFn: ({ signal }) => listPosReports(api, request, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** Every row the filter matches, newest first, up to CHART_ROW_LIMIT (pages of 100). */
async function loadChartRows(
  api: ApiClient,
  filter: Omit<PosListRequest, 'page' | 'page_size'>,
  signal: AbortSignal,
): Promise<{ rows: PosRow[]; total: number }> {
  const rows: PosRow[] = [];
  let total = 0;
  for (let page = 1; rows.length < CHART_ROW_LIMIT; page++) {
    const answer = await listPosReports(api, { ...filter, page, page_size: 100 }, signal);
    total = answer.total_count;
    rows.push(...answer.items);
    if (answer.items.length < 100 || rows.length >= total) break;
  }
  return { rows: rows.slice(0, CHART_ROW_LIMIT), total };
}

/** The rows the POS chart sums: the whole filter, not only the table's page. */
export function usePosChartRows(filter: Omit<PosListRequest, 'page' | 'page_size'>) {
  const api = useApi();
  return useQuery({
    queryKey: claimKeys.posChart(filter),
    queryFn: ({ signal }) => loadChartRows(api, filter, signal),
    staleTime: 0,
    placeholderData: keepPreviousData,
  });
}

/** A CSV import; on success every list of that kind loads again. */
export function useClaimsImport(kind: ClaimsImportKind) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ClaimsImportBody) => importClaimsCsv(api, kind, body),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: kind === 'chargebacks' ? claimKeys.chargebacks : claimKeys.pos,
      }),
  });
}
