import { z } from 'zod';
import { ORDER_TIMESTAMP_FIELDS, type OrderTimestampField } from './orders';

/**
 * Orders analytics tables (interface endpoints 9 and 10): query and row shapes, shared by the
 * service (validation, OpenAPI) and the UI.
 */

/** The interface's default and maximum page size of both tables; a larger page_size is cut to it. */
export const ANALYTICS_PAGE_SIZE = 10;

/** page and page_size arrive as text; absent takes the default, above the maximum is capped. */
const wholeNumberFrom1 = (name: string) =>
  z
    .string()
    .regex(/^\s*\d+\s*$/, { message: `${name} must be a whole number from 1` })
    .transform(Number)
    .refine((n) => n >= 1, { message: `${name} must be a whole number from 1` })
    // A thousand digits would reach SQL as Infinity (issue 18 item 9).
    .refine((n) => Number.isSafeInteger(n), { message: `${name} is too large` });

export const analyticsV1QuerySchema = z.object({
  page: wholeNumberFrom1('page').optional(),
  page_size: wholeNumberFrom1('page_size').optional(),
});
export type AnalyticsV1Query = z.infer<typeof analyticsV1QuerySchema>;

export const analyticsV2QuerySchema = analyticsV1QuerySchema.extend({
  /** One order (its UUID). */
  order_id: z
    .uuid({ message: 'order_id must be a UUID' })
    .transform((value) => value.toLowerCase())
    .optional(),
});
export type AnalyticsV2Query = z.infer<typeof analyticsV2QuerySchema>;

export const analyticsFacilityParamsSchema = z.object({ facility_id: z.string() });

const httpDate = z.string().nullable();
const count = z.number().int().nonnegative();

/** The counts both versions carry, computed from the order's pallets, cartons and activity. */
const totalsShape = {
  total_cartons: count,
  total_labels: count,
  total_pallets: count,
  total_units: count,
  total_vas_actions: count,
  unique_labels: count,
  unique_sku_count: count,
};

export const analyticsLineItemSchema = z.object({
  ordered_quantity: count,
  shipped_quantity: count,
  sku: z.string(),
  upc: z.string().nullable(),
});

export const analyticsV2RowSchema = z.object({
  /** The order's timestamps, as HTTP-date strings (`Tue, 06 Jan 2026 12:00:00 GMT`) or null. */
  ...(Object.fromEntries(ORDER_TIMESTAMP_FIELDS.map((f) => [f, httpDate])) as Record<
    OrderTimestampField,
    typeof httpDate
  >),
  order_id: z.string(),
  order_number: z.string(),
  order_status: z.string(),
  brand: z.string(),
  retailer: z.string(),
  line_items: z.array(analyticsLineItemSchema),
  ...totalsShape,
});
export type AnalyticsV2Row = z.infer<typeof analyticsV2RowSchema>;

export const analyticsV1RowSchema = z.object({
  asn_sent_at: httpDate,
  brand: z.string(),
  retailer: z.string(),
  order_number: z.string(),
  order_status: z.string(),
  ...totalsShape,
});
export type AnalyticsV1Row = z.infer<typeof analyticsV1RowSchema>;
