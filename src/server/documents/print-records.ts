import { randomUUID } from 'node:crypto';
import type { LabelKind } from '../../shared/documents';
import { PACKING_SLIP_METRIC } from '../../shared/fulfilment-activity';
import { insertActivity, type ActivityRow } from '../orders';
import { labelMetric, type LabelUnit } from './label-model';
import type { AuthUser, ServiceContext } from '../core/context';

/**
 * Prints as order activity (analytics and billing count them): one LABEL_PRINT row per label,
 * naming its carton or pallet and SSCC, or one PACKING_SLIP row. One transaction per print job.
 */
export async function recordLabelPrints(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  kind: LabelKind,
  units: readonly LabelUnit[],
) {
  const at = ctx.clock.now().toISOString();
  const rows: ActivityRow[] = units.map((unit) => ({
    id: randomUUID(),
    order_id: orderId,
    kind: 'LABEL_PRINT',
    action_type: null,
    metric: labelMetric(unit.unit, kind),
    count: 1,
    carton_id: unit.unit === 'carton' ? unit.id : null,
    pallet_id: unit.unit === 'pallet' ? unit.id : null,
    sscc: unit.sscc,
    user_id: user.id,
    created_at: at,
  }));
  await ctx.db.transaction().execute((trx) => insertActivity(trx, rows));
}

/** The activity row of one packing slip printed for `orderId` by `userId` at `at`. */
export const packingSlipRow = (
  orderId: string,
  userId: string | null,
  at: string,
): ActivityRow => ({
  id: randomUUID(),
  order_id: orderId,
  kind: 'PACKING_SLIP',
  action_type: null,
  metric: PACKING_SLIP_METRIC,
  count: 1,
  carton_id: null,
  pallet_id: null,
  sscc: null,
  user_id: userId,
  created_at: at,
});

export async function recordPackingSlipPrint(ctx: ServiceContext, user: AuthUser, orderId: string) {
  const row = packingSlipRow(orderId, user.id, ctx.clock.now().toISOString());
  await ctx.db.transaction().execute((trx) => insertActivity(trx, [row]));
}
