import type { AuthUser } from '../core/context';
import type { Db } from '../db/db';

/**
 * The facilities a user sees: those in its facility list, narrowed to the facilities its brand
 * works with when the credentials act for a brand (DESIGN.md, Visibility).
 */
export function visibleFacilitiesQuery(db: Db, user: AuthUser) {
  let query = db
    .selectFrom('facilities as f')
    .innerJoin('user_facilities as uf', 'uf.facility_id', 'f.id')
    .where('uf.user_id', '=', user.id);
  if (user.brandId) {
    const brandId = user.brandId;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('brand_facilities as bf')
          .select('bf.facility_id')
          .whereRef('bf.facility_id', '=', 'f.id')
          .where('bf.brand_id', '=', brandId),
      ),
    );
  }
  return query;
}

export function listVisibleFacilities(db: Db, user: AuthUser) {
  return visibleFacilitiesQuery(db, user)
    .select(['f.id', 'f.name', 'f.external_facility_code', 'f.organization_id'])
    .orderBy('f.name')
    .orderBy('f.id')
    .execute();
}

export function findVisibleFacility(db: Db, user: AuthUser, facilityId: string) {
  return visibleFacilitiesQuery(db, user)
    .select(['f.id', 'f.name', 'f.external_facility_code', 'f.organization_id'])
    .where('f.id', '=', facilityId)
    .executeTakeFirst();
}

/** Brands working at a facility, narrowed to the user's brand when it has one. */
export function listBrandsAtFacility(db: Db, user: AuthUser, facilityId: string) {
  let query = db
    .selectFrom('brands as b')
    .innerJoin('brand_facilities as bf', 'bf.brand_id', 'b.id')
    .where('bf.facility_id', '=', facilityId)
    .select(['b.id as brand_id', 'b.name', 'b.external_brand_code']);
  if (user.brandId) query = query.where('b.id', '=', user.brandId);
  return query.orderBy('b.name').orderBy('b.id').execute();
}

/** Retailers connected to any of `brandIds` through the organisation `organizationId`. */
export function listRetailersForBrands(db: Db, organizationId: string, brandIds: string[]) {
  if (brandIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('retailers as r')
    .innerJoin('connections as c', 'c.retailer_id', 'r.id')
    .where('c.organization_id', '=', organizationId)
    .where('c.brand_id', 'in', brandIds)
    .select(['r.id as retailer_id', 'r.name'])
    .distinct()
    .orderBy('r.name')
    .orderBy('r.id')
    .execute();
}
