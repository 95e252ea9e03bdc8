import { z } from 'zod';
import { activityEntrySchema } from './fulfilment-activity';
import { uuidSchema } from './ids';
import { createOrderBodySchema, orderStatusSchema } from './orders';

/**
 * `orders` of the seed bundle (DESIGN.md, Seed bundle): every field of the create body, plus the
 * id, status, the timestamps and identifiers of Order details, and pallets with their cartons and
 * SKUs as Order details shows them. Objects are strict, like the rest of the bundle.
 */
const timestamp = z.iso.datetime({ offset: true }).nullish();
const text = z.string().max(255).nullish();
const measure = z.number().nonnegative().nullish();

export const seedCartonSkuSchema = z.strictObject({
  sku: z.string().trim().min(1).max(100),
  upc: z.string().max(100).nullish(),
  serial_numbers: z.array(z.string().min(1).max(100)).default([]),
  quantity: z.number().int().positive(),
});

export const seedCartonSchema = z.strictObject({
  id: uuidSchema,
  sscc: z.string().max(100).nullish(),
  created_at: z.iso.datetime({ offset: true }),
  packed_by: text,
  packing_complete_at: timestamp,
  parcel_tracking_number: text,
  dim_unit: text,
  height: measure,
  width: measure,
  length: measure,
  weight_unit: text,
  weight: measure,
  skus: z.array(seedCartonSkuSchema).default([]),
});

export const seedPalletSchema = z
  .strictObject({
    id: uuidSchema,
    sscc: z.string().max(100).nullish(),
    status: z.string().trim().min(1).max(50),
    created_at: z.iso.datetime({ offset: true }),
    staged_by: text,
    staged_at: timestamp,
    /** Derived from `cartons`; accepted so that Order details can be fed back as they are. */
    cartonQuantity: z.number().int().nonnegative().optional(),
    dim_unit: text,
    height: measure,
    width: measure,
    length: measure,
    weight_unit: text,
    weight: measure,
    cartons: z.array(seedCartonSchema).default([]),
  })
  .refine((p) => p.cartonQuantity === undefined || p.cartonQuantity === p.cartons.length, {
    message: 'cartonQuantity must equal the number of cartons',
    path: ['cartonQuantity'],
  });

export const SEED_ORDER_TIMESTAMP_FIELDS = [
  'pickup_date',
  'requested_pickup_date',
  'scheduled_delivery_date',
  'delivery_appointment_date',
  'started_at',
  'packed_at',
  'staged_at',
  'loaded_at',
  'shipped_at',
  'cancelled_at',
  'parcel_print_start_time',
  'parcel_print_end_time',
  'asn_sent_at',
  'invoice_sent_at',
  'po_acknowledgment_sent_at',
] as const;

export const SEED_ORDER_IDENTIFIER_FIELDS = [
  'bill_of_lading_number',
  'pro_number',
  'carrier_alpha_code',
  'external_load_number',
  'service_method',
  'parcel_account_number',
  'parcel_billing_type',
] as const;

export const seedOrderSchema = createOrderBodySchema
  .extend({
    id: uuidSchema,
    status: orderStatusSchema,
    /** Absent: the import time for a new order; an existing order keeps its own. */
    created_at: z.iso.datetime({ offset: true }).optional(),
    /** Absent: `created_at`. */
    updated_at: z.iso.datetime({ offset: true }).optional(),
    ...(Object.fromEntries(SEED_ORDER_TIMESTAMP_FIELDS.map((f) => [f, timestamp])) as Record<
      (typeof SEED_ORDER_TIMESTAMP_FIELDS)[number],
      typeof timestamp
    >),
    ...(Object.fromEntries(
      SEED_ORDER_IDENTIFIER_FIELDS.map((f) => [f, z.string().trim().max(100).nullish()]),
    ) as Record<
      (typeof SEED_ORDER_IDENTIFIER_FIELDS)[number],
      z.ZodOptional<z.ZodNullable<z.ZodString>>
    >),
    pallets: z.array(seedPalletSchema).default([]),
    /** Label prints, packing slips and priced actions (docs/seed-bundle.md); replaces the stored ones. */
    activity: z.array(activityEntrySchema).default([]),
  })
  .strict();
export type SeedOrder = z.infer<typeof seedOrderSchema>;
