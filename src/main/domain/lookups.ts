import {
  findVisibleFacility,
  listBrandsAtFacility,
  listRetailersForBrands,
  listVisibleFacilities,
} from '../db/lookups';
import type { Brand, Facility, Retailer } from '../../shared/lookups';
import type { AuthUser, ServiceContext } from './context';
import { notFound } from './errors';

export async function facilitiesOf(ctx: ServiceContext, user: AuthUser): Promise<Facility[]> {
  const rows = await listVisibleFacilities(ctx.db, user);
  return rows.map(({ id, name, external_facility_code }) => ({ id, name, external_facility_code }));
}

/** A facility the user cannot see answers exactly like one that does not exist. */
export async function brandsAt(
  ctx: ServiceContext,
  user: AuthUser,
  facilityId: string,
): Promise<Brand[]> {
  const facility = await findVisibleFacility(ctx.db, user, facilityId);
  const brands = facility ? await listBrandsAtFacility(ctx.db, user, facilityId) : [];
  if (brands.length === 0) throw notFound('No brands found', 'NO_BRANDS_FOUND');
  return brands;
}

export async function retailersAt(
  ctx: ServiceContext,
  user: AuthUser,
  facilityId: string,
  brandId: string | undefined,
): Promise<Retailer[]> {
  const facility = await findVisibleFacility(ctx.db, user, facilityId);
  let retailers: Retailer[] = [];
  if (facility) {
    const brandIds = (await listBrandsAtFacility(ctx.db, user, facilityId))
      .map((b) => b.brand_id)
      .filter((id) => brandId === undefined || id === brandId);
    retailers = await listRetailersForBrands(ctx.db, facility.organization_id, brandIds);
  }
  if (retailers.length === 0) throw notFound('No retailers found');
  return retailers;
}
