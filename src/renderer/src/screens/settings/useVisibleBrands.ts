import { useQueries } from '@tanstack/react-query';
import type { Brand } from '../../../../shared/lookups';
import { useApi } from '../../api/ApiContext';
import { listBrands } from '../../api/lookups';
import { queryKeys, useFacilities } from '../../api/queries';

/** Every brand the user sees at any of their facilities, each once, by name. */
export function useVisibleBrands() {
  const api = useApi();
  const facilities = useFacilities();
  const ids = (facilities.data ?? []).map((facility) => facility.id);
  return useQueries({
    queries: ids.map((facilityId) => ({
      queryKey: queryKeys.brands(facilityId),
      queryFn: ({ signal }: { signal: AbortSignal }) => listBrands(api, facilityId, signal),
    })),
    combine: (results) => {
      const byId = new Map<string, Brand>();
      for (const result of results) {
        for (const brand of result.data ?? []) byId.set(brand.brand_id, brand);
      }
      return {
        loading: facilities.isPending || results.some((result) => result.isPending),
        error: facilities.error ?? results.find((result) => result.isError)?.error ?? null,
        brands: [...byId.values()].sort((a, b) => a.name.localeCompare(b.name)),
      };
    },
  });
}
