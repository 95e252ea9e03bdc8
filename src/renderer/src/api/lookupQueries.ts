import { useQuery } from '@tanstack/react-query';
import type { Brand, Retailer } from '../../../shared/lookups';
import { useApi } from './ApiContext';
import type { ApiClient } from './client';
import { loadFacilityRows } from './facilityRows';
import { listBrands, listFacilities, listRetailers } from './lookups';

/**
 * The facilities, brands and retailers the user sees, which every screen's filters and forms
 * choose from. All under one prefix: they change only with the user's grants.
 */
export const lookupKeys = {
  lookups: ['lookups'] as const,
  facilities: () => [...lookupKeys.lookups, 'facilities'] as const,
  brands: (facilityId: string) => [...lookupKeys.lookups, 'brands', facilityId] as const,
  retailers: (facilityId: string, brandId: string) =>
    [...lookupKeys.lookups, 'retailers', facilityId, brandId] as const,
  facilityRows: () => [...lookupKeys.lookups, 'facility-rows'] as const,
  allBrands: () => [...lookupKeys.lookups, 'all-brands'] as const,
  brandRetailers: () => [...lookupKeys.lookups, 'brand-retailers'] as const,
};

export function useFacilities() {
  const api = useApi();
  return useQuery({
    queryKey: lookupKeys.facilities(),
    queryFn: ({ signal }) => listFacilities(api, signal),
  });
}

export function useBrands(facilityId: string) {
  const api = useApi();
  return useQuery({
    queryKey: lookupKeys.brands(facilityId),
    queryFn: ({ signal }) => listBrands(api, facilityId, signal),
    enabled: facilityId !== '',
  });
}

export function useRetailers(facilityId: string, brandId: string) {
  const api = useApi();
  return useQuery({
    queryKey: lookupKeys.retailers(facilityId, brandId),
    queryFn: ({ signal }) => listRetailers(api, facilityId, brandId, signal),
    enabled: facilityId !== '' && brandId !== '',
  });
}

export function useFacilityRows() {
  const api = useApi();
  return useQuery({
    queryKey: lookupKeys.facilityRows(),
    queryFn: ({ signal }) => loadFacilityRows(api, signal),
  });
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** Every brand working at a facility the user sees, by name. */
async function loadAllBrands(api: ApiClient, signal: AbortSignal): Promise<Brand[]> {
  const facilities = await listFacilities(api, signal);
  const lists = await Promise.all(
    facilities.map((facility) => listBrands(api, facility.id, signal)),
  );
  const byId = new Map(lists.flat().map((brand) => [brand.brand_id, brand]));
  return [...byId.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The brand filter's choices. */
export function useAllBrands() {
  const api = useApi();
  return useQuery({
    queryKey: lookupKeys.allBrands(),
    queryFn: ({ signal }) => loadAllBrands(api, signal),
  });
}

/** A brand the user sees, with the retailers it deals with at any of the user's facilities. */
export interface BrandWithRetailers {
  brand: Brand;
  retailers: Retailer[];
}

async function loadBrandRetailers(
  api: ApiClient,
  signal: AbortSignal,
): Promise<BrandWithRetailers[]> {
  const facilities = await listFacilities(api, signal);
  const pairs = (
    await Promise.all(
      facilities.map(async (facility) =>
        (await listBrands(api, facility.id, signal)).map((brand) => ({ facility, brand })),
      ),
    )
  ).flat();
  const byBrand = new Map<string, { brand: Brand; retailers: Map<string, Retailer> }>();
  await Promise.all(
    pairs.map(async ({ facility, brand }) => {
      const retailers = await listRetailers(api, facility.id, brand.brand_id, signal);
      const entry = byBrand.get(brand.brand_id) ?? { brand, retailers: new Map() };
      for (const retailer of retailers) entry.retailers.set(retailer.retailer_id, retailer);
      byBrand.set(brand.brand_id, entry);
    }),
  );
  return [...byBrand.values()]
    .map((entry) => ({ brand: entry.brand, retailers: [...entry.retailers.values()].sort(byName) }))
    .sort((a, b) => byName(a.brand, b.brand));
}

/** The brands the user sees with their retailers (the import panel's choices), or `select` of them. */
export function useBrandRetailers<T = BrandWithRetailers[]>(
  select?: (entries: BrandWithRetailers[]) => T,
) {
  const api = useApi();
  return useQuery({
    queryKey: lookupKeys.brandRetailers(),
    queryFn: ({ signal }) => loadBrandRetailers(api, signal),
    select,
  });
}

/** Every retailer of any of the brands, each once, by name (the retailer filter's choices). */
export function allRetailersOf(entries: readonly BrandWithRetailers[]): Retailer[] {
  const byId = new Map<string, Retailer>();
  for (const entry of entries) {
    for (const retailer of entry.retailers) byId.set(retailer.retailer_id, retailer);
  }
  return [...byId.values()].sort(byName);
}

/** The retailer filter's choices: every retailer of any brand the user sees, each once, by name. */
export function useAllRetailers() {
  return useBrandRetailers(allRetailersOf);
}
