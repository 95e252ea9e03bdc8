import {
  findVisibleFacility,
  listBrandsAtFacility,
  listRetailersForBrands,
  listVisibleFacilities,
} from './lookup-queries';
import type { Brand, Facility, Retailer } from '../../shared/lookups';
import { cachedAuthData } from './auth-cache';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';

/*
 * The lookups read only users, grants and the organisation tree, so they are cached until one of
 * those rows changes (auth-cache). Cache keys name the user and its brand, the inputs of every
 * visibility rule, and the route's own inputs.
 */
const userKey = (user: AuthUser) => `${user.id}|${user.brandId ?? ''}`;

export function facilitiesOf(ctx: ServiceContext, user: AuthUser): Promise<readonly Facility[]> {
  return cachedAuthData(ctx.db, `facilities|${userKey(user)}`, async () => {
    const rows = await listVisibleFacilities(ctx.db, user);
    return rows.map(({ id, name, external_facility_code }) => ({
      id,
      name,
      external_facility_code,
    }));
  });
}

/** A facility the user cannot see answers exactly like one that does not exist. */
export async function brandsAt(
  ctx: ServiceContext,
  user: AuthUser,
  facilityId: string,
): Promise<readonly Brand[]> {
  const brands = await cachedAuthData(ctx.db, `brands|${userKey(user)}|${facilityId}`, async () => {
    const facility = await findVisibleFacility(ctx.db, user, facilityId);
    return facility ? await listBrandsAtFacility(ctx.db, user, facilityId) : [];
  });
  if (brands.length === 0) throw notFound('No brands found', 'NO_BRANDS_FOUND');
  return brands;
}

export async function retailersAt(
  ctx: ServiceContext,
  user: AuthUser,
  facilityId: string,
  brandId: string | undefined,
): Promise<readonly Retailer[]> {
  const key = `retailers|${userKey(user)}|${facilityId}|${brandId ?? ''}`;
  const retailers = await cachedAuthData(ctx.db, key, async (): Promise<Retailer[]> => {
    const facility = await findVisibleFacility(ctx.db, user, facilityId);
    if (!facility) return [];
    const brandIds = (await listBrandsAtFacility(ctx.db, user, facilityId))
      .map((b) => b.brand_id)
      .filter((id) => brandId === undefined || id === brandId);
    return listRetailersForBrands(ctx.db, facility.organization_id, brandIds);
  });
  if (retailers.length === 0) throw notFound('No retailers found');
  return retailers;
}
