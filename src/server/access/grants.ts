/**
 * The grant checks every feature asks: is this user an admin of the brand (at a facility, or in an
 * organisation), and does the brand work at the facility.
 */
import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';
import { visibleFacilitiesQuery } from './lookup-queries';

export function findBrand(db: Db, brandId: string) {
  return db
    .selectFrom('brands')
    .select(['id', 'name', 'external_brand_code'])
    .where('id', '=', brandId)
    .executeTakeFirst();
}

export async function hasAdminGrant(db: Db, userId: string, brandId: string, facilityId?: string) {
  let query = db
    .selectFrom('user_admin')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('brand_id', '=', brandId);
  if (facilityId) query = query.where('facility_id', '=', facilityId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function brandWorksAt(db: Db, brandId: string, facilityId: string) {
  const row = await db
    .selectFrom('brand_facilities')
    .select('brand_id')
    .where('brand_id', '=', brandId)
    .where('facility_id', '=', facilityId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the user holds an admin grant for the brand at a facility it sees in this organisation
 * (any organisation it sees when null).
 */
export async function hasAdminGrantInOrganization(
  db: Db,
  user: AuthUser,
  brandId: string,
  organizationId: string | null,
) {
  let query = visibleFacilitiesQuery(db, user)
    .innerJoin('user_admin as ua', 'ua.facility_id', 'f.id')
    .where('ua.user_id', '=', user.id)
    .where('ua.brand_id', '=', brandId);
  if (organizationId !== null) query = query.where('f.organization_id', '=', organizationId);
  return (await query.select('f.id').executeTakeFirst()) !== undefined;
}

/**
 * Every (brand, organisation) in which the user holds an admin grant at a facility it sees: the
 * scopes hasAdminGrantInOrganization says yes to, for lists filtered in SQL.
 */
export async function adminBrandOrganizations(
  db: Db,
  user: AuthUser,
): Promise<{ brand_id: string; organization_id: string }[]> {
  return visibleFacilitiesQuery(db, user)
    .innerJoin('user_admin as ua', 'ua.facility_id', 'f.id')
    .where('ua.user_id', '=', user.id)
    .select(['ua.brand_id', 'f.organization_id'])
    .distinct()
    .execute();
}
