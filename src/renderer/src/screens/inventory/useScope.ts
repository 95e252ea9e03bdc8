import { useCallback, useEffect, useMemo } from 'react';
import type { AdviceScope } from '../../api/inventory';
import { loadStateOf, type LoadState } from '../../api/queries';
import { useBrands, useFacilities, useRetailers } from '../../api/lookupQueries';
import { useAuth } from '../../auth/AuthContext';
import { useUrlSearch } from '../../components/useUrlSearch';
import { browserStorage, recallScope, rememberScope } from '../../routing/lastScope';
import type { Brand, Facility, Retailer } from '../../../../shared/lookups';

export interface ScopeChoice {
  facilities: LoadState<Facility[]>;
  brands: LoadState<Brand[]>;
  /** Retailers of the chosen brand at the chosen facility (how many a send reaches). */
  retailers: LoadState<Retailer[]>;
  facilityId: string;
  brandId: string;
  chooseFacility: (id: string) => void;
  chooseBrand: (id: string) => void;
  /** Set once both are chosen (and known to the signed-in user). */
  scope: AdviceScope | null;
  reloadFacilities: () => void;
}

const known = <T>(state: LoadState<T[]>, has: (item: T) => boolean) =>
  state.status === 'ready' && state.data.some(has);

/**
 * The facility and brand an upload is for, with the lists to choose from. The choice lives in the
 * URL (`?facility=…&brand=…`), so moving between screens and a reload keep it; it is also
 * remembered per user for the next visit whose URL names none.
 */
export function useScope(): ScopeChoice {
  const [search, go] = useUrlSearch('/inventory');
  const email = useAuth().session?.email ?? '';
  const facilityId = search.facility ?? '';
  const brandId = search.brand ?? '';

  const choose = useCallback(
    (facility: string, brand: string) => {
      // replace: picking from a list is not a place to go Back to.
      go({ facility: facility || undefined, brand: brand || undefined }, { replace: true });
      rememberScope(
        browserStorage(),
        email,
        facility ? { facility, ...(brand ? { brand } : {}) } : null,
      );
    },
    [go, email],
  );

  // No choice in the URL: start from the last one.
  useEffect(() => {
    if (search.facility) return;
    const last = recallScope(browserStorage(), email);
    if (last) go(last, { replace: true });
  }, [search.facility, email, go]);

  const facilitiesQuery = useFacilities();
  const { refetch: refetchFacilities } = facilitiesQuery;
  const facilities = loadStateOf(facilitiesQuery);
  const facilityKnown = known(facilities, (facility) => facility.id === facilityId);
  const brandsQuery = useBrands(facilityKnown ? facilityId : '');
  const brands = loadStateOf(brandsQuery, facilityKnown);
  const brandKnown = known(brands, (brand) => brand.brand_id === brandId);
  const retailersQuery = useRetailers(
    facilityKnown ? facilityId : '',
    facilityKnown && brandKnown ? brandId : '',
  );

  // One brand at the facility: nothing to choose.
  const onlyBrand =
    brands.status === 'ready' && brands.data.length === 1 ? brands.data[0]!.brand_id : null;
  useEffect(() => {
    if (onlyBrand && !brandId) choose(facilityId, onlyBrand);
  }, [onlyBrand, brandId, facilityId, choose]);

  const scope = useMemo(
    () => (facilityKnown && brandKnown ? { facilityId, brandId } : null),
    [facilityKnown, brandKnown, facilityId, brandId],
  );
  // A choice that arrived by address (a bookmark, Back) becomes the last one too.
  useEffect(() => {
    if (scope)
      rememberScope(browserStorage(), email, { facility: scope.facilityId, brand: scope.brandId });
  }, [scope, email]);
  return {
    facilities,
    brands,
    retailers: loadStateOf(retailersQuery, scope !== null),
    // A remembered id the user can no longer see reads as no choice.
    facilityId: facilities.status === 'ready' && !facilityKnown ? '' : facilityId,
    brandId: brands.status === 'ready' && brandKnown ? brandId : '',
    chooseFacility: useCallback((id: string) => choose(id, ''), [choose]),
    chooseBrand: useCallback((id: string) => choose(facilityId, id), [choose, facilityId]),
    scope,
    reloadFacilities: useCallback(() => void refetchFacilities(), [refetchFacilities]),
  };
}
