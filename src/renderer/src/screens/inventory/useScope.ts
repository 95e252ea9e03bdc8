import { useCallback, useMemo, useState } from 'react';
import { useApi } from '../../api/ApiContext';
import type { AdviceScope } from '../../api/inventory';
import { listBrands, listFacilities, listRetailers } from '../../api/lookups';
import type { Brand, Facility, Retailer } from '../../../../shared/lookups';
import { useLoad, type LoadState } from './useLoad';

export interface ScopeChoice {
  facilities: LoadState<Facility[]>;
  brands: LoadState<Brand[]>;
  /** Retailers of the chosen brand at the chosen facility (how many a send reaches). */
  retailers: LoadState<Retailer[]>;
  facilityId: string;
  brandId: string;
  chooseFacility: (id: string) => void;
  chooseBrand: (id: string) => void;
  /** Set once both are chosen. */
  scope: AdviceScope | null;
  reloadFacilities: () => void;
}

/** The facility and brand an upload is for, with the lists to choose from. */
export function useScope(): ScopeChoice {
  const api = useApi();
  const [facilityId, setFacilityId] = useState('');
  const [brandId, setBrandId] = useState('');

  const loadFacilities = useCallback((signal: AbortSignal) => listFacilities(api, signal), [api]);
  const loadBrands = useCallback(
    async (signal: AbortSignal) => {
      const brands = await listBrands(api, facilityId, signal);
      // One brand at the facility: nothing to choose.
      if (brands.length === 1) setBrandId((current) => current || brands[0]!.brand_id);
      return brands;
    },
    [api, facilityId],
  );
  const loadRetailers = useCallback(
    (signal: AbortSignal) => listRetailers(api, facilityId, brandId, signal),
    [api, facilityId, brandId],
  );

  const facilities = useLoad(loadFacilities);
  const brands = useLoad(facilityId ? loadBrands : null);
  const retailers = useLoad(facilityId && brandId ? loadRetailers : null);

  const chooseFacility = useCallback((id: string) => {
    setFacilityId(id);
    setBrandId('');
  }, []);

  const scope = useMemo(
    () => (facilityId && brandId ? { facilityId, brandId } : null),
    [facilityId, brandId],
  );
  return {
    facilities: facilities.state,
    brands: brands.state,
    retailers: retailers.state,
    facilityId,
    brandId,
    chooseFacility,
    chooseBrand: setBrandId,
    scope,
    reloadFacilities: facilities.reload,
  };
}
