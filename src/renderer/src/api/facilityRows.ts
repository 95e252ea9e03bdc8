import type { ApiClient } from './client';
import { listBrands, listFacilities, listRetailers } from './lookups';
import type { Facility, Retailer } from '../../../shared/lookups';

/** One line of the facilities table. */
export interface FacilityRow {
  id: string;
  name: string;
  code: string;
  brands: string[];
  /** Retailers of any of the facility's brands at this facility, each once. */
  retailers: string[];
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

function uniqueRetailerNames(retailers: Retailer[]): string[] {
  const names = new Map(retailers.map((retailer) => [retailer.retailer_id, retailer.name]));
  return [...names.values()].sort(byName);
}

async function loadRow(api: ApiClient, facility: Facility, signal: AbortSignal) {
  const brands = await listBrands(api, facility.id, signal);
  const retailers = await Promise.all(
    brands.map((brand) => listRetailers(api, facility.id, brand.brand_id, signal)),
  );
  return {
    id: facility.id,
    name: facility.name,
    code: facility.external_facility_code,
    brands: brands.map((brand) => brand.name).sort(byName),
    retailers: uniqueRetailerNames(retailers.flat()),
  } satisfies FacilityRow;
}

/** Facilities, then each facility's brands, then each brand's retailers there. */
export async function loadFacilityRows(
  api: ApiClient,
  signal: AbortSignal,
): Promise<FacilityRow[]> {
  const facilities = await listFacilities(api, signal);
  return Promise.all(facilities.map((facility) => loadRow(api, facility, signal)));
}
