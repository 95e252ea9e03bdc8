import { findBrand, hasAdminGrantInOrganization } from '../access';
import { listActionPrices, listPrices, replacePrices, type PriceRows } from './queries';
import { findVisibleBrand } from '../fulfilment';
import type { Db } from '../db/db';
import {
  centsToDollars,
  dollarsToCents,
  INVOICE_LINE_METRICS,
  type BillingPrices,
  type BillingPricesBody,
  type InvoiceLineMetric,
} from '../../shared/billing';
import type { AuthUser, ServiceContext } from '../core/context';
import { forbidden, notFound } from '../core/errors';
import { requireCentralWrite } from '../sync/role';
import { engineOf } from '../db/engine';
import { lockBrandPrices as sqliteLockPrices } from './price-lock';
import { lockBrandPrices as postgresLockPrices } from './price-lock.postgres';

export const BRAND_NOT_FOUND = 'Brand not found';

/** The rows (cents) of a validated price list. */
export function priceRowsOf(body: BillingPricesBody): PriceRows {
  const cents = (dollars: number) => dollarsToCents(dollars) ?? Math.round(dollars * 100);
  return {
    prices: Object.entries(body.prices).map(([metric, dollars]) => ({
      metric,
      price_cents: cents(dollars),
    })),
    actions: body.actions.map((action) => ({
      action_type: action.type,
      metric: action.metric,
      price_cents: cents(action.price_dollars),
    })),
  };
}

/** A brand's prices, in dollars; metrics in the interface's order. */
export async function readPrices(
  db: Db,
  brandId: string,
  brandName: string,
): Promise<BillingPrices> {
  const [prices, actions] = await Promise.all([
    listPrices(db, [brandId]),
    listActionPrices(db, [brandId]),
  ]);
  const byMetric = new Map(prices.map((p) => [p.metric, p.price_cents]));
  const ordered: Partial<Record<InvoiceLineMetric, number>> = {};
  for (const metric of INVOICE_LINE_METRICS) {
    const price = byMetric.get(metric);
    if (price !== undefined) ordered[metric] = centsToDollars(price);
  }
  return {
    brand_id: brandId,
    brand_name: brandName,
    prices: ordered,
    actions: actions.map((a) => ({
      type: a.action_type,
      metric: a.metric,
      price_dollars: centsToDollars(a.price_cents),
    })),
  };
}

/** The brand if the user sees it (it works at a facility the user sees); 404 otherwise. */
async function visibleBrand(ctx: ServiceContext, user: AuthUser, brandId: string) {
  const brand = await findVisibleBrand(ctx.db, user, brandId);
  if (!brand) throw notFound(BRAND_NOT_FOUND);
  return brand;
}

export async function getBillingPrices(ctx: ServiceContext, user: AuthUser, brandId: string) {
  const brand = await visibleBrand(ctx, user, brandId);
  return readPrices(ctx.db, brand.id, brand.name);
}

/**
 * Replaces a brand's whole price list (one transaction). Only a user with an admin grant for
 * the brand at a facility it sees may; one who sees the brand without it gets 403.
 */
export async function setBillingPrices(
  ctx: ServiceContext,
  user: AuthUser,
  brandId: string,
  body: BillingPricesBody,
): Promise<BillingPrices> {
  requireCentralWrite(ctx);
  const brand = await visibleBrand(ctx, user, brandId);
  if (!(await hasAdminGrantInOrganization(ctx.db, user, brand.id, null))) throw forbidden();
  const at = ctx.clock.now().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const lock = engineOf(trx) === 'postgres' ? postgresLockPrices : sqliteLockPrices;
    await lock(trx, brand.id);
    // Read again inside: the brand may have been deleted meanwhile.
    const current = await findBrand(trx, brand.id);
    if (!current) throw notFound(BRAND_NOT_FOUND);
    await replacePrices(trx, brand.id, priceRowsOf(body), at);
    return readPrices(trx, current.id, current.name);
  });
}
