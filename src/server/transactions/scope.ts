import { brandsAtFacilities, type TransactionScope } from './queries';
import { cachedAuthData } from '../access';
import type { AuthUser, ServiceContext } from '../core/context';
import { facilitiesOf } from '../access';

/**
 * What of the log a user sees: rows at its facilities (only its brand's, when the credentials act
 * for a brand), and brand-level rows (no facility, e.g. brand-wide inventory advice) of the brands
 * working at those facilities (its own brand only). Rows naming neither are nobody's to list.
 */
export async function transactionScope(
  ctx: ServiceContext,
  user: AuthUser,
): Promise<TransactionScope> {
  const facilityIds = (await facilitiesOf(ctx, user)).map((facility) => facility.id);
  const brandIds = await cachedAuthData(
    ctx.db,
    `transaction-brands|${user.id}|${user.brandId ?? ''}`,
    async () => {
      const brands = await brandsAtFacilities(ctx.db, facilityIds);
      return user.brandId === null ? brands : brands.filter((id) => id === user.brandId);
    },
  );
  return { facilityIds, userBrandId: user.brandId, brandIds };
}
