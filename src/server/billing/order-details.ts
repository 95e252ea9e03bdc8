import { activityTotals, packedTotals } from '../analytics';
import { invoiceOrderPage } from './queries';
import {
  CORE_COUNT_KEYS,
  LABEL_CORE_KEYS,
  type CoreCountKey,
  type InvoiceDetailsPage,
  type InvoiceDetailsQuery,
  type InvoiceOrderDetail,
} from '../../shared/billing';
import { LABEL_PRINT_METRICS } from '../../shared/fulfilment-activity';
import type { AuthUser, ServiceContext } from '../core/context';
import { facilitiesOf } from '../access';
import { countActivity } from './activity';
import { invoiceDetailsFilterOf } from './filters';
import { pricingOf } from './pricing';

const ACTION_MAPS = {
  'Carton Workflow': 'carton_actions',
  'Pallet Workflow': 'pallet_actions',
  VAS: 'vas_actions',
} as const;

/**
 * Invoice order details (13): a page of the orders invoices count (newest first), also those of
 * brands without prices, with their counts and, per action type, the count of every action
 * that has a price configured for the order's brand (0 when not done).
 */
export async function invoiceOrderDetails(
  ctx: ServiceContext,
  user: AuthUser,
  query: InvoiceDetailsQuery,
): Promise<InvoiceDetailsPage> {
  const facilityIds = (await facilitiesOf(ctx, user)).map((f) => f.id);
  const { filter, page, pageSize } = invoiceDetailsFilterOf(query, {
    facilityIds,
    userBrandId: user.brandId,
  });
  const { total, rows } = await invoiceOrderPage(ctx.db, filter, {
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  const ids = rows.map((row) => row.id);
  const [packed, activity, pricing] = await Promise.all([
    packedTotals(ctx.db, ids),
    activityTotals(ctx.db, ids),
    pricingOf(ctx.db, [...new Set(rows.map((row) => row.brand_id))]),
  ]);
  const packedOf = new Map(packed.map((row) => [row.id, row]));
  const items = rows.map((row): InvoiceOrderDetail => {
    const counts = countActivity(activity.filter((a) => a.order_id === row.id));
    const totals = packedOf.get(row.id);
    const core = Object.fromEntries(CORE_COUNT_KEYS.map((key) => [key, 0])) as Record<
      CoreCountKey,
      number
    >;
    core.pallets = Number(totals?.pallets ?? 0);
    core.cartons = Number(totals?.cartons ?? 0);
    core.units = Number(totals?.units ?? 0);
    core.skus = Number(totals?.skus ?? 0);
    core.labels_generated = counts.metrics['Labels Generated'] ?? 0;
    for (const metric of LABEL_PRINT_METRICS) {
      core[LABEL_CORE_KEYS[metric]] = counts.metrics[metric] ?? 0;
    }
    core.vas_actions = counts.metrics['VAS Actions'] ?? 0;
    core.packing_slips = counts.metrics['Packing Slips'] ?? 0;
    const maps: Record<(typeof ACTION_MAPS)[keyof typeof ACTION_MAPS], Record<string, number>> = {
      carton_actions: {},
      pallet_actions: {},
      vas_actions: {},
    };
    for (const [key, price] of pricing.get(row.brand_id)?.actions ?? []) {
      const map = ACTION_MAPS[price.type as keyof typeof ACTION_MAPS];
      if (map) maps[map][price.metric] = counts.actions.get(key)?.count ?? 0;
    }
    return {
      order_id: row.id,
      picksheet_code: row.picksheet_code,
      retailer: row.retailer,
      brand: row.brand,
      core,
      ...maps,
    };
  });
  return { items, total_count: total, page, page_size: pageSize };
}
