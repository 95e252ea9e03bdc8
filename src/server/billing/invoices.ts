import { invoiceActionTotals, invoiceLineTotals, listBrandsAtFacilities } from './queries';
import {
  centsToDollars,
  INVOICE_LINE_METRICS,
  type Invoice,
  type InvoiceBrand,
  type InvoiceQuery,
} from '../../shared/billing';
import type { AuthUser, ServiceContext } from '../core/context';
import { facilitiesOf } from '../access';
import { countActivity, type ActivityTotal } from './activity';
import { pricingOf, type BrandPricing } from './pricing';
import { invoiceFilterOf } from './filters';

/**
 * A brand's invoice: a line per metric that has a price configured, and an action item per
 * priced action, each line `count x unit price`. Amounts are summed in cents and turned into
 * dollars last, so the total is the exact sum of the lines.
 */
export function invoiceBrand(
  brand: { id: string; name: string },
  /** Every line metric's count. */
  counts: Record<string, number>,
  /** ACTION totals by type and name. */
  activity: readonly ActivityTotal[],
  pricing: BrandPricing,
): InvoiceBrand {
  const { actions } = countActivity(activity);
  let totalCents = 0;
  const lineItems = INVOICE_LINE_METRICS.flatMap((metric) => {
    const unit = pricing.metrics.get(metric);
    if (unit === undefined) return [];
    const count = counts[metric] ?? 0;
    totalCents += count * unit;
    return [
      {
        metric,
        count,
        price_dollars: centsToDollars(count * unit),
        unit_price_dollars: centsToDollars(unit),
      },
    ];
  });
  const actionItems = [...pricing.actions.entries()].map(([key, price]) => {
    const count = actions.get(key)?.count ?? 0;
    totalCents += count * price.cents;
    return {
      type: price.type,
      metric: price.metric,
      count,
      price_dollars: centsToDollars(count * price.cents),
      unit_price_dollars: centsToDollars(price.cents),
    };
  });
  return {
    brand_id: brand.id,
    brand_name: brand.name,
    line_items: lineItems,
    action_items: actionItems,
    total_price_dollars: centsToDollars(totalCents),
  };
}

const centsOf = (dollars: number) => Math.round(dollars * 100);

/**
 * Invoices (12): one entry per brand the user sees (narrowed by brand_id), over the orders of
 * the facilities it sees that match the filters; cancelled orders are not billed.
 */
export async function invoices(
  ctx: ServiceContext,
  user: AuthUser,
  query: InvoiceQuery,
): Promise<Invoice> {
  const facilityIds = (await facilitiesOf(ctx, user)).map((f) => f.id);
  const filter = invoiceFilterOf(query, { facilityIds, userBrandId: user.brandId });
  const brands = (await listBrandsAtFacilities(ctx.db, facilityIds, user.brandId)).filter(
    (brand) => !filter.brandId || brand.id === filter.brandId,
  );
  if (brands.length === 0) return { brands: [], total_price_dollars: 0 };
  const [core, activity, pricing] = await Promise.all([
    invoiceLineTotals(ctx.db, filter),
    invoiceActionTotals(ctx.db, filter),
    pricingOf(
      ctx.db,
      brands.map((b) => b.id),
    ),
  ]);
  const coreOf = new Map(core.map((row) => [row.brandId, row.counts]));
  const entries = brands.map((brand) =>
    invoiceBrand(
      brand,
      coreOf.get(brand.id) ?? {},
      activity.filter((row) => row.brand_id === brand.id),
      pricing.get(brand.id)!,
    ),
  );
  const totalCents = entries.reduce((sum, entry) => sum + centsOf(entry.total_price_dollars), 0);
  return { brands: entries, total_price_dollars: centsToDollars(totalCents) };
}
