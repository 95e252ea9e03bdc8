import { hasAdminGrant } from '../access';
import { findVisibleBrand, setBrandGs1Prefix } from './queries';
import type { Gs1PrefixBody } from '../../shared/fulfilment';
import type { AuthUser, ServiceContext } from '../core/context';
import { forbidden, notFound } from '../core/errors';
import { requireCentralWrite } from '../sync/role';

export const BRAND_NOT_FOUND = 'Brand not found';

/**
 * PUT /api/v1/brands/{brand_id}/gs1-prefix: sets the brand's GS1 company prefix (SSCCs made from
 * now on use it; those already printed stay). The user must see the brand (else 404, like an
 * unknown id) and hold an admin grant for it at some facility (else 403 `Unauthorized`).
 */
export async function setGs1Prefix(
  ctx: ServiceContext,
  user: AuthUser,
  brandId: string,
  body: Gs1PrefixBody,
) {
  requireCentralWrite(ctx);
  return ctx.db.transaction().execute(async (trx) => {
    const brand = await findVisibleBrand(trx, user, brandId);
    if (!brand) throw notFound(BRAND_NOT_FOUND);
    if (!(await hasAdminGrant(trx, user.id, brand.id))) throw forbidden();
    await setBrandGs1Prefix(trx, brand.id, body.gs1_company_prefix);
    return { brand_id: brand.id, gs1_company_prefix: body.gs1_company_prefix };
  });
}

/**
 * GET /api/v1/brands/{brand_id}/gs1-prefix: the brand's current prefix (null when none is set),
 * so a supervisor sees it before changing it. Anyone who sees the brand may read it; a brand the
 * user does not see answers 404 like an unknown id.
 */
export async function gs1PrefixOf(ctx: ServiceContext, user: AuthUser, brandId: string) {
  const brand = await findVisibleBrand(ctx.db, user, brandId);
  if (!brand) throw notFound(BRAND_NOT_FOUND);
  return { brand_id: brand.id, gs1_company_prefix: brand.gs1_company_prefix };
}
