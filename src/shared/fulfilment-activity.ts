import { z } from 'zod';
import { uuidSchema } from './ids';

/**
 * What happens to an order on the floor besides its steps, as analytics (9, 10) and billing
 * (12, 13) count it: label prints, packing slips and priced actions (VAS, carton and pallet work).
 * One row of `order_activity` per event, with a count.
 */
export const LABEL_PRINT_METRICS = [
  'Pallet Label Printed - QR Code',
  'Pallet Label Printed - GS1 Label',
  'Pallet Label Printed - Placard',
  'Carton Label Printed - GS1 Label',
  'Carton Label Printed - QR Code',
  'Carton Label Printed - Parcel Label',
] as const;
export type LabelPrintMetric = (typeof LABEL_PRINT_METRICS)[number];

export const PACKING_SLIP_METRIC = 'Packing Slips';

/** Action types; an invoice's `action_items` and the order detail's action maps use them. */
export const ACTION_TYPES = ['Carton Workflow', 'Pallet Workflow', 'VAS'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

export const ACTIVITY_KINDS = ['LABEL_PRINT', 'PACKING_SLIP', 'ACTION'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** An activity entry of a seed-bundle order (`orders[].activity`); the service records the same. */
export const activityEntrySchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('LABEL_PRINT'),
    metric: z.enum(LABEL_PRINT_METRICS),
    count: z.number().int().positive().default(1),
    /** The carton or pallet whose label was printed (its SSCC makes a unique label). */
    carton_id: uuidSchema.nullish(),
    pallet_id: uuidSchema.nullish(),
    at: z.iso.datetime({ offset: true }).optional(),
  }),
  z.strictObject({
    kind: z.literal('PACKING_SLIP'),
    count: z.number().int().positive().default(1),
    at: z.iso.datetime({ offset: true }).optional(),
  }),
  z.strictObject({
    kind: z.literal('ACTION'),
    action_type: z.enum(ACTION_TYPES),
    /** The action's name, e.g. `Pack` for Carton Workflow, `Kitting` for VAS. */
    metric: z.string().trim().min(1).max(100),
    count: z.number().int().positive().default(1),
    carton_id: uuidSchema.nullish(),
    pallet_id: uuidSchema.nullish(),
    at: z.iso.datetime({ offset: true }).optional(),
  }),
]);
export type ActivityEntry = z.infer<typeof activityEntrySchema>;
