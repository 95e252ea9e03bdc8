import { listVisibleBrandIds, retailerLinkedToBrands } from './queries';
import { cachedAuthData } from '../access';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';

/**
 * The brands whose chargebacks and POS rows the user sees: those working at its visible
 * facilities, only its own for credentials acting for a brand. Cached until auth data changes.
 */
export function visibleBrandIds(ctx: ServiceContext, user: AuthUser): Promise<readonly string[]> {
  return cachedAuthData(ctx.db, `claims-brands|${user.id}|${user.brandId ?? ''}`, () =>
    listVisibleBrandIds(ctx.db, user),
  );
}

/**
 * A retailer filter must name a retailer one of the brands is or was associated with (a
 * connection, or a chargeback, POS row or order naming both); otherwise 404 `Retailer not found`,
 * also for unknown retailers and those only other tenants deal with.
 */
export async function requireLinkedRetailer(
  ctx: ServiceContext,
  retailerId: string,
  brandIds: readonly string[],
): Promise<void> {
  if (!(await retailerLinkedToBrands(ctx.db, retailerId, brandIds))) {
    throw notFound('Retailer not found');
  }
}
