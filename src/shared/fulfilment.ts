import { z } from 'zod';
import { ACTION_TYPES } from './fulfilment-activity';
import { uuidSchema } from './ids';
import { orderStatusSchema } from './orders';

/**
 * Fulfilment on the floor (DESIGN.md, Fulfilment): request bodies of the steps (pick, pack,
 * palletise, stage, load, ship, cancel), the packing screen's read and the GS1 prefix setting,
 * shared by the service (validation, OpenAPI) and the packing screen.
 */

/** The 409 refusing a scan on a Packed order; the packing screen offers reopening on it. */
export const PACKING_COMPLETE = 'Packing is complete for this order';

export const FULFILMENT_LIMITS = {
  code: 100,
  skusPerCarton: 200,
  serialsPerSku: 10_000,
  quantity: 10_000_000,
  cartonsPerPallet: 1000,
  measure: 100_000,
  actionCount: 10_000,
} as const;

const code = z.string().trim().min(1, { message: 'is required' }).max(FULFILMENT_LIMITS.code);
const measure = z.number().positive().max(FULFILMENT_LIMITS.measure).nullish();

/** Dimensions and weight of a carton or pallet; all optional. */
export const measuresSchema = z.object({
  dim_unit: z.enum(['in', 'cm']).nullish(),
  height: measure,
  width: measure,
  length: measure,
  weight_unit: z.enum(['lb', 'kg']).nullish(),
  weight: measure,
});
export type Measures = z.infer<typeof measuresSchema>;

const cartonFacts = measuresSchema.extend({
  /** The parcel carrier's tracking number (parcel orders). */
  parcel_tracking_number: z.string().trim().min(1).max(FULFILMENT_LIMITS.code).nullish(),
});

export const packCartonSkuSchema = z
  .object({
    /** The SKU of an order line. */
    sku: code,
    quantity: z
      .number({ message: 'must be a whole number' })
      .int({ message: 'must be a whole number' })
      .positive({ message: 'must be greater than 0' })
      .max(FULFILMENT_LIMITS.quantity),
    /** One serial per unit at most. */
    serial_numbers: z.array(code).max(FULFILMENT_LIMITS.serialsPerSku).default([]),
  })
  .refine((line) => line.serial_numbers.length <= line.quantity, {
    message: 'cannot list more serial numbers than units',
    path: ['serial_numbers'],
  });

/** `POST /api/v1/orders/{order_id}/cartons`: a whole carton packed at once (closed at once). */
export const packCartonBodySchema = cartonFacts
  .extend({
    skus: z
      .array(packCartonSkuSchema)
      .min(1, { message: 'must list at least one SKU' })
      .max(FULFILMENT_LIMITS.skusPerCarton),
    /** Pack more of a SKU than was ordered (over all cartons); refused otherwise. */
    allow_over_ship: z.boolean().default(false),
    /** Put the new carton straight on this Open pallet of the order. */
    pallet_id: uuidSchema.nullish(),
  })
  .refine((body) => new Set(body.skus.map((s) => s.sku)).size === body.skus.length, {
    message: 'each SKU at most once per carton',
    path: ['skus'],
  });
export type PackCartonBody = z.infer<typeof packCartonBodySchema>;

/** `POST /api/v1/orders/{order_id}/cartons/open`: an empty carton that scans fill. */
export const openCartonBodySchema = cartonFacts;
export type OpenCartonBody = z.infer<typeof openCartonBodySchema>;

/** `POST /api/v1/orders/{order_id}/scan`: one scan at the packing station. */
export const scanUnitBodySchema = z.object({
  /**
   * What was scanned: an order line's SKU or UPC (one unit), or its case barcode (one case:
   * `case_pack_quantity` units).
   */
  code,
  /** The unit's serial number, when the SKU is serialised. */
  serial_number: code.nullish(),
  allow_over_ship: z.boolean().default(false),
});
export type ScanUnitBody = z.infer<typeof scanUnitBodySchema>;

/** `POST /api/v1/orders/{order_id}/cartons/{carton_id}/close`: measures taken when closing. */
export const closeCartonBodySchema = cartonFacts;
export type CloseCartonBody = z.infer<typeof closeCartonBodySchema>;

/** `POST /api/v1/orders/{order_id}/complete-packing`. */
export const completePackingBodySchema = z.object({
  /** Finish although some ordered units are not packed (a short shipment); refused otherwise. */
  allow_short: z.boolean().default(false),
});
export type CompletePackingBody = z.infer<typeof completePackingBodySchema>;

/** `POST /api/v1/orders/{order_id}/pallets`. */
export const createPalletBodySchema = measuresSchema.extend({
  /** Closed cartons of the order to put on the new pallet (moved from another pallet if on one). */
  carton_ids: z.array(uuidSchema).max(FULFILMENT_LIMITS.cartonsPerPallet).default([]),
});
export type CreatePalletBody = z.infer<typeof createPalletBodySchema>;

/** `PUT /api/v1/orders/{order_id}/cartons/{carton_id}/pallet`: null takes it off its pallet. */
export const moveCartonBodySchema = z.object({ pallet_id: uuidSchema.nullable() });
export type MoveCartonBody = z.infer<typeof moveCartonBodySchema>;

/** `POST /api/v1/orders/{order_id}/actions`: a value-added service or carton/pallet work. */
export const recordActionBodySchema = z.object({
  action_type: z.enum(ACTION_TYPES),
  /** The action's name, e.g. `Pack`, `Kitting`, `Labelling`, `Wrap`. */
  metric: z.string().trim().min(1).max(100),
  count: z.number().int().positive().max(FULFILMENT_LIMITS.actionCount).default(1),
  carton_id: uuidSchema.nullish(),
  pallet_id: uuidSchema.nullish(),
});
export type RecordActionBody = z.infer<typeof recordActionBodySchema>;

export const GS1_PREFIX_PATTERN = /^\d{7,10}$/;
/** `PUT /api/v1/brands/{brand_id}/gs1-prefix`. */
export const gs1PrefixBodySchema = z.object({
  gs1_company_prefix: z.string().regex(GS1_PREFIX_PATTERN, { message: 'must be 7 to 10 digits' }),
});
export type Gs1PrefixBody = z.infer<typeof gs1PrefixBodySchema>;
export const brandIdParamsSchema = z.object({ brand_id: uuidSchema });
export const gs1PrefixDataSchema = z.object({
  brand_id: z.uuid(),
  gs1_company_prefix: z.string(),
});
/** `GET /api/v1/brands/{brand_id}/gs1-prefix`: the brand's current prefix, null when none is set. */
export const gs1PrefixReadSchema = z.object({
  brand_id: z.uuid(),
  gs1_company_prefix: z.string().nullable(),
});

export const cartonParamsSchema = z.object({ order_id: uuidSchema, carton_id: uuidSchema });
export const palletParamsSchema = z.object({ order_id: uuidSchema, pallet_id: uuidSchema });

/* ---- The packing screen's read: GET /api/v1/orders/{order_id}/fulfilment ---- */

const nullableText = z.string().nullable();
const measureColumns = {
  dim_unit: nullableText,
  height: z.number().nullable(),
  width: z.number().nullable(),
  length: z.number().nullable(),
  weight_unit: nullableText,
  weight: z.number().nullable(),
};

export const fulfilmentCartonSchema = z.object({
  id: z.uuid(),
  sscc: nullableText,
  /** Null while the carton is not on a pallet. */
  pallet_id: z.uuid().nullable(),
  created_at: z.string(),
  packed_by: nullableText,
  /** Null while the carton is open (scans go into it). */
  packing_complete_at: nullableText,
  parcel_tracking_number: nullableText,
  ...measureColumns,
  /** Units in the carton. */
  units: z.number().int(),
  skus: z.array(
    z.object({
      sku: z.string(),
      upc: nullableText,
      quantity: z.number().int(),
      serial_numbers: z.array(z.string()),
    }),
  ),
});
export type FulfilmentCarton = z.infer<typeof fulfilmentCartonSchema>;

export const fulfilmentPalletSchema = z.object({
  id: z.uuid(),
  sscc: nullableText,
  status: z.string(),
  created_at: z.string(),
  staged_by: nullableText,
  staged_at: nullableText,
  ...measureColumns,
  carton_ids: z.array(z.uuid()),
});
export type FulfilmentPallet = z.infer<typeof fulfilmentPalletSchema>;

export const fulfilmentLineSchema = z.object({
  /** Position in the order's items, from 0. */
  line_number: z.number().int(),
  sku: z.string(),
  upc: nullableText,
  case_barcode: nullableText,
  case_pack_quantity: z.number().int().nullable(),
  description: nullableText,
  ordered_quantity: z.number().int(),
  /**
   * Units of this SKU packed (open carton included). When a SKU is on several lines, its packed
   * units fill the lines in order.
   */
  packed_quantity: z.number().int(),
  /** ordered - packed, never below 0. */
  remaining_quantity: z.number().int(),
});
export type FulfilmentLine = z.infer<typeof fulfilmentLineSchema>;

export const FULFILMENT_STEPS = [
  'start_picking',
  'complete_packing',
  'stage',
  'load',
  'ship',
] as const;
export type FulfilmentStep = (typeof FULFILMENT_STEPS)[number];

export const fulfilmentActivitySchema = z.object({
  id: z.string(),
  kind: z.string(),
  action_type: nullableText,
  metric: z.string(),
  count: z.number().int(),
  carton_id: nullableText,
  pallet_id: nullableText,
  sscc: nullableText,
  created_at: z.string(),
});

export const fulfilmentViewSchema = z.object({
  order_id: z.uuid(),
  picksheet_code: z.string(),
  po_number: nullableText,
  status: orderStatusSchema,
  transportation_method: nullableText,
  /** Parcel orders need no pallets; every other order ships on pallets. */
  needs_pallets: z.boolean(),
  bill_of_lading_number: nullableText,
  brand: z.object({
    brand_id: z.uuid(),
    name: z.string(),
    /** Null: no SSCC can be made until an admin sets it. */
    gs1_company_prefix: nullableText,
  }),
  started_at: nullableText,
  packed_at: nullableText,
  staged_at: nullableText,
  loaded_at: nullableText,
  shipped_at: nullableText,
  asn_sent_at: nullableText,
  cancelled_at: nullableText,
  lines: z.array(fulfilmentLineSchema),
  totals: z.object({
    ordered_units: z.number().int(),
    packed_units: z.number().int(),
    cartons: z.number().int(),
    pallets: z.number().int(),
    cartons_not_on_pallet: z.number().int(),
  }),
  /** The carton scans go into (packing_complete_at null), if one is open. */
  open_carton: fulfilmentCartonSchema.nullable(),
  /** Every carton, in packing order (the open one included). */
  cartons: z.array(fulfilmentCartonSchema),
  pallets: z.array(fulfilmentPalletSchema),
  /** The step that moves the order forward from here; null once Shipped or Cancelled. */
  next_step: z.enum(FULFILMENT_STEPS).nullable(),
  /** What stops `next_step` now, in words (empty when it can be taken). */
  missing: z.array(z.string()),
  /** Label prints, packing slips and actions recorded for the order, oldest first. */
  activity: z.array(fulfilmentActivitySchema),
});
export type FulfilmentView = z.infer<typeof fulfilmentViewSchema>;

/** What every step answers: the order's status after it, and the carton or pallet it touched. */
export const stepResultSchema = z.object({
  order_id: z.uuid(),
  status: orderStatusSchema,
  carton: fulfilmentCartonSchema.optional(),
  pallet: fulfilmentPalletSchema.optional(),
});
export type StepResult = z.infer<typeof stepResultSchema>;

export const recordedActionSchema = fulfilmentActivitySchema;
