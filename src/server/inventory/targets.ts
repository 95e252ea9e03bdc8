import { listBrandConnections, type BrandConnection } from './queries';
import { brandWorksAt, findBrand, hasAdminGrant } from '../access';
import { findVisibleFacility, listVisibleFacilities } from '../access';
import type { AuthUser, ServiceContext } from '../core/context';
import { forbidden, notFound } from '../core/errors';

/** Facility-scoped (endpoint 2) or brand-level across the brand's organisations (endpoint 3). */
export type AdviceScope =
  { kind: 'facility'; brandId: string; facilityId: string } | { kind: 'brand' };

/**
 * `846` when the facility endpoint reaches only EDI connections: results then use the interface's
 * `846 inventory advice` messages and the edi_config_id variant of the result shape.
 */
export type ResultVariant = '846' | 'standard';

export interface AdviceTargets {
  brand: { brand_id: string; name: string; external_brand_code: string | null };
  facility: { id: string; name: string; external_facility_code: string } | null;
  connections: BrandConnection[];
  variant: ResultVariant;
}

/** Resolves who receives an advice, enforcing visibility (404) and admin access (403). */
export async function resolveTargets(
  ctx: ServiceContext,
  user: AuthUser,
  scope: AdviceScope,
): Promise<AdviceTargets> {
  if (scope.kind === 'facility') {
    const facility = await findVisibleFacility(ctx.db, user, scope.facilityId);
    if (!facility) throw notFound('Facility not found');
    const allowed =
      (user.brandId === null || user.brandId === scope.brandId) &&
      (await hasAdminGrant(ctx.db, user.id, scope.brandId, scope.facilityId));
    if (!allowed) throw forbidden();
    const brand = await findBrand(ctx.db, scope.brandId);
    const connections =
      brand && (await brandWorksAt(ctx.db, scope.brandId, scope.facilityId))
        ? await listBrandConnections(ctx.db, scope.brandId, [facility.organization_id])
        : [];
    if (!brand || connections.length === 0) {
      throw notFound('No inventory advice configuration found for this brand and facility');
    }
    return {
      brand: {
        brand_id: brand.id,
        name: brand.name,
        external_brand_code: brand.external_brand_code,
      },
      facility: {
        id: facility.id,
        name: facility.name,
        external_facility_code: facility.external_facility_code,
      },
      connections,
      variant: variantOf(connections),
    };
  }
  if (!user.brandId) throw forbidden();
  const brandId = user.brandId;
  const facilities = await listVisibleFacilities(ctx.db, user);
  if (facilities.length === 0) throw notFound('No facilities associated with this brand');
  if (!(await hasAdminGrant(ctx.db, user.id, brandId))) throw forbidden();
  const brand = await findBrand(ctx.db, brandId);
  const organizationIds = [...new Set(facilities.map((f) => f.organization_id))];
  const connections = brand ? await listBrandConnections(ctx.db, brandId, organizationIds) : [];
  if (!brand || connections.length === 0) {
    throw notFound('No inventory advice configuration found for this brand');
  }
  return {
    brand: { brand_id: brand.id, name: brand.name, external_brand_code: brand.external_brand_code },
    facility: null,
    connections,
    variant: 'standard',
  };
}

/** Judged on the connections that will be reached (all of them when none is enabled). */
function variantOf(connections: BrandConnection[]): ResultVariant {
  const enabled = connections.filter((c) => c.enabled);
  const reached = enabled.length > 0 ? enabled : connections;
  return reached.every((c) => c.kind === 'EDI_846') ? '846' : 'standard';
}
