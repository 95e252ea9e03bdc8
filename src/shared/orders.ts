import { z } from 'zod';
import { uuidSchema } from './ids';
import { isCalendarDate } from './inventory';

/**
 * Orders (interface endpoints 4-8, the order list): request bodies, details and list shapes, shared
 * by the service (validation, OpenAPI) and the UI (forms), so both apply the same rules.
 */

/** Status flow: Open → Picking → Packed → Staged → Loaded → Shipped, or Cancelled before shipping. */
export const ORDER_STATUSES = [
  'Open',
  'Picking',
  'Packed',
  'Staged',
  'Loaded',
  'Shipped',
  'Cancelled',
] as const;
export const orderStatusSchema = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof orderStatusSchema>;

/** Items may change only before packing. */
export const ITEM_EDITABLE_STATUSES: readonly OrderStatus[] = ['Open', 'Picking'];
/** An order may move to another facility only before packing. */
export const MOVABLE_STATUSES: readonly OrderStatus[] = ['Open', 'Picking'];
/** Finished orders: never rewritten. */
export const FINAL_STATUSES: readonly OrderStatus[] = ['Shipped', 'Cancelled'];

export const ORDER_LIMITS = {
  /** Identifiers and codes (picksheet, PO, SKU, UPC, ...). */
  code: 100,
  /** Names and address lines. */
  text: 255,
  description: 1000,
  itemsPerOrder: 1000,
  trackersPerItem: 1000,
  quantity: 10_000_000,
} as const;

/** A blank string counts as not given (null), so an empty form input clears a field. */
const blankAsNull = (value: string | null) => (value === '' ? null : value);

/** Optional text, trimmed. Left out (undefined) stays undefined: an update keeps that field. */
const optionalText = (max: number = ORDER_LIMITS.text) =>
  z.string().trim().max(max).nullable().transform(blankAsNull).optional();

export const calendarDateSchema = z
  .string()
  .refine(isCalendarDate, { message: 'must be a real calendar date written YYYY-MM-DD' });
const optionalDate = z
  .string()
  .trim()
  .refine((value) => value === '' || isCalendarDate(value), {
    message: 'must be a real calendar date written YYYY-MM-DD',
  })
  .nullable()
  .transform(blankAsNull)
  .optional();

/** Required text, trimmed, not blank. */
const requiredCode = z
  .string({ message: 'is required' })
  .trim()
  .min(1, { message: 'is required' })
  .max(ORDER_LIMITS.code);

const quantitySchema = z
  .number({ message: 'must be a whole number' })
  .int({ message: 'must be a whole number' })
  .positive({ message: 'must be greater than 0' })
  .max(ORDER_LIMITS.quantity);

/** What a browser's `<input type="email">` accepts, so the form and the service agree. */
const billToEmailSchema = z.email({ pattern: z.regexes.html5Email });

export const shipToContactSchema = z.object({
  name: optionalText(),
  address_line1: optionalText(),
  address_line2: optionalText(),
  city: optionalText(),
  province: optionalText(),
  country: optionalText(),
  zip: optionalText(ORDER_LIMITS.code),
  facility_code: optionalText(ORDER_LIMITS.code),
  dc_number: optionalText(ORDER_LIMITS.code),
});
export const billToContactSchema = z.object({
  name: optionalText(),
  address_line1: optionalText(),
  address_line2: optionalText(),
  city: optionalText(),
  province: optionalText(),
  country: optionalText(),
  zip: optionalText(ORDER_LIMITS.code),
  facility_code: optionalText(ORDER_LIMITS.code),
  address_number: optionalText(ORDER_LIMITS.code),
  email: z
    .string()
    .trim()
    .max(254)
    .refine((value) => value === '' || billToEmailSchema.safeParse(value).success, {
      message: 'must be an e-mail address',
    })
    .nullable()
    .transform(blankAsNull)
    .optional(),
});
export const markForContactSchema = z.object({
  name: optionalText(),
  address_line1: optionalText(),
  address_line2: optionalText(),
  city: optionalText(),
  state: optionalText(),
  country: optionalText(),
  zip: optionalText(ORDER_LIMITS.code),
  facility_code: optionalText(ORDER_LIMITS.code),
  address_number: optionalText(ORDER_LIMITS.code),
});
export const addressDataSchema = z.object({
  ship_to_contact: shipToContactSchema.nullish(),
  bill_to_contact: billToContactSchema.nullish(),
  mark_for_contact: markForContactSchema.nullish(),
});
export type AddressData = z.infer<typeof addressDataSchema>;
export type ShipToContact = z.infer<typeof shipToContactSchema>;
export type BillToContact = z.infer<typeof billToContactSchema>;
export type MarkForContact = z.infer<typeof markForContactSchema>;

export const ORDER_DATE_FIELDS = [
  'requested_delivery_date',
  'earliest_delivery_date',
  'latest_delivery_date',
  'earliest_ship_date',
  'latest_ship_date',
  'cancel_by_date',
  'requested_ship_date',
  'stage_by',
] as const;
export type OrderDateField = (typeof ORDER_DATE_FIELDS)[number];

export const orderDatesSchema = z
  .object({
    requested_delivery_date: optionalDate,
    earliest_delivery_date: optionalDate,
    latest_delivery_date: optionalDate,
    earliest_ship_date: optionalDate,
    latest_ship_date: optionalDate,
    cancel_by_date: optionalDate,
    requested_ship_date: optionalDate,
    stage_by: optionalDate,
  })
  .superRefine((dates, ctx) => {
    // YYYY-MM-DD strings compare as dates.
    const ordered: [OrderDateField, OrderDateField][] = [
      ['earliest_ship_date', 'latest_ship_date'],
      ['earliest_delivery_date', 'latest_delivery_date'],
    ];
    for (const [first, last] of ordered) {
      const from = dates[first];
      const to = dates[last];
      if (from && to && from > to) {
        ctx.addIssue({ code: 'custom', path: [last], message: `must not be before ${first}` });
      }
    }
  });
export type OrderDates = z.infer<typeof orderDatesSchema>;

/** Values of `pass_through` objects: the interface names some keys; others are kept as given. */
const passThroughValue = z.union([
  z.string().max(ORDER_LIMITS.text),
  z.number(),
  z.boolean(),
  z.null(),
]);

export const trackerSchema = z.object({
  quantity: quantitySchema,
  lot_number: optionalText(ORDER_LIMITS.code),
  exp_date: optionalDate,
  pass_through: z
    .object({ lot_id: optionalText(ORDER_LIMITS.code) })
    .catchall(passThroughValue)
    .nullish(),
});
export type Tracker = z.infer<typeof trackerSchema>;

export const itemPassThroughSchema = z
  .object({
    line_id: optionalText(ORDER_LIMITS.code),
    stock_number: optionalText(ORDER_LIMITS.code),
    pull_id: optionalText(ORDER_LIMITS.code),
  })
  .catchall(passThroughValue);

export const createOrderItemSchema = z.object({
  sku: requiredCode,
  upc: optionalText(ORDER_LIMITS.code),
  quantity: quantitySchema,
  case_pack_quantity: quantitySchema.nullish(),
  case_barcode: optionalText(ORDER_LIMITS.code),
  vendor_pn: optionalText(ORDER_LIMITS.code),
  description: optionalText(ORDER_LIMITS.description),
});
export type CreateOrderItem = z.infer<typeof createOrderItemSchema>;

/**
 * An item of the update body: the interface's `sku`, `upc`, `quantity`, `trackers`,
 * `pass_through`, and the create item's other fields (kept from the order's line with the same
 * SKU when left out).
 */
export const updateOrderItemSchema = createOrderItemSchema
  .extend({
    trackers: z.array(trackerSchema).max(ORDER_LIMITS.trackersPerItem).nullish(),
    pass_through: itemPassThroughSchema.nullish(),
  })
  .superRefine((item, ctx) => {
    const tracked = (item.trackers ?? []).reduce((sum, tracker) => sum + tracker.quantity, 0);
    if (tracked > item.quantity) {
      ctx.addIssue({
        code: 'custom',
        path: ['trackers'],
        message: `tracker quantities add up to ${tracked}, more than the item quantity ${item.quantity}`,
      });
    }
  });
export type UpdateOrderItem = z.infer<typeof updateOrderItemSchema>;

/** Fields of the create body besides the ids, items and picksheet code. */
const orderDetailFields = {
  po_number: optionalText(ORDER_LIMITS.code),
  external_order_id: optionalText(ORDER_LIMITS.code),
  dept_number: optionalText(ORDER_LIMITS.code),
  purchase_order_type: optionalText(ORDER_LIMITS.code),
  transportation_method: optionalText(ORDER_LIMITS.code),
  carrier: optionalText(ORDER_LIMITS.code),
  address_data: addressDataSchema.nullish(),
  dates: orderDatesSchema.nullish(),
};

/** Endpoint 4 body. Required: picksheet_code, brand_id, retailer_id, facility_id, one item or more. */
export const createOrderBodySchema = z.object({
  picksheet_code: requiredCode,
  brand_id: uuidSchema,
  retailer_id: uuidSchema,
  facility_id: uuidSchema,
  items: z.array(createOrderItemSchema).min(1).max(ORDER_LIMITS.itemsPerOrder),
  ...orderDetailFields,
});
export type CreateOrderBody = z.infer<typeof createOrderBodySchema>;
export type CreateOrderInput = z.input<typeof createOrderBodySchema>;

/**
 * Endpoint 5 body. The order is found by `picksheet_code` in the user's scope, narrowed by
 * `brand_id`, `retailer_id` and `facility_id` when given. A field left out stays as it is; `items`
 * replaces every line. The create body's detail fields are accepted too (the order form edits them).
 */
export const updateOrderBodySchema = z.object({
  picksheet_code: requiredCode,
  brand_id: uuidSchema.optional(),
  retailer_id: uuidSchema.optional(),
  facility_id: uuidSchema.optional(),
  /** Beyond the interface: picks one order when the code and ids still match several. */
  order_id: uuidSchema.optional(),
  items: z.array(updateOrderItemSchema).min(1).max(ORDER_LIMITS.itemsPerOrder).optional(),
  ...orderDetailFields,
});
export type UpdateOrderBody = z.infer<typeof updateOrderBodySchema>;
export type UpdateOrderInput = z.input<typeof updateOrderBodySchema>;

/**
 * Endpoint 6 body: as endpoint 5, but `facility_id` is the destination (required) and does not
 * narrow the search; other fields are not applied (a move changes only the facility).
 */
export const changeFacilityBodySchema = z.object({
  picksheet_code: requiredCode,
  brand_id: uuidSchema.optional(),
  retailer_id: uuidSchema.optional(),
  facility_id: uuidSchema,
  /** Beyond the interface: picks one order when the code and ids still match several. */
  order_id: uuidSchema.optional(),
  po_number: optionalText(ORDER_LIMITS.code),
  items: z.array(updateOrderItemSchema).max(ORDER_LIMITS.itemsPerOrder).optional(),
});
export type ChangeFacilityBody = z.infer<typeof changeFacilityBodySchema>;

/** A create's `Idempotency-Key`: 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
/** Headers of endpoint 4 (for the OpenAPI document). */
export const createOrderHeadersSchema = z.object({
  'Idempotency-Key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN)
    .optional()
    .describe(
      'A retry with the same key (per user) and body returns the first answer instead of a second order; the same key with another body is refused (409)',
    ),
});

/** `data` of the create, update and change-facility answers. */
export const orderIdDataSchema = z.object({ order_id: z.uuid() });
export type OrderIdData = z.infer<typeof orderIdDataSchema>;
export const orderIdParamsSchema = z.object({ order_id: uuidSchema });

/** `YYYY-MM-DD HH:mm:ss`, a real date and time of day. */
export const BOL_DATETIME_PATTERN = /^(\d{4}-\d{2}-\d{2}) ([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
export function isBolDateTime(text: string): boolean {
  const match = BOL_DATETIME_PATTERN.exec(text);
  return match !== null && isCalendarDate(match[1] ?? '');
}

/** Endpoint 7 body. Required: file_content, file_name. */
export const bolBodySchema = z.object({
  file_content: z.string().min(1),
  // Cleaned rather than refused, as the rest of the name is (the service keeps its last part).
  file_name: z
    .string()
    .trim()
    .min(1)
    .max(ORDER_LIMITS.text)
    .transform((name) => name.replaceAll('\u0000', '')),
  bill_of_lading_number: optionalText(ORDER_LIMITS.code),
  pro_number: optionalText(ORDER_LIMITS.code),
  carrier: optionalText(ORDER_LIMITS.code),
  carrier_alpha_code: optionalText(ORDER_LIMITS.code),
  scheduled_delivery_date: z
    .string()
    .trim()
    .refine((value) => value === '' || isBolDateTime(value), {
      message: 'must be written YYYY-MM-DD HH:mm:ss',
    })
    .nullable()
    .transform(blankAsNull)
    .optional(),
  external_load_number: optionalText(ORDER_LIMITS.code),
});
export type BolBody = z.infer<typeof bolBodySchema>;

/** Largest bill-of-lading PDF, decoded (the base64 in `file_content` is 4/3 of it). */
export const BOL_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** One stored bill of lading (`GET /api/v1/orders/{order_id}/bol` lists them newest first). */
export const bolVersionSchema = z.object({
  version_id: z.uuid(),
  /** 1 for the first upload to the order, then 2, 3, ... */
  version: z.number().int().positive(),
  file_name: z.string(),
  size_bytes: z.number().int(),
  page_count: z.number().int(),
  sha256: z.string(),
  uploaded_at: z.string(),
  uploaded_by: z.string(),
  /** The uploader's current email; null once the user is gone. */
  uploaded_by_email: z.string().nullable(),
  bill_of_lading_number: z.string().nullable(),
  pro_number: z.string().nullable(),
  carrier: z.string().nullable(),
  carrier_alpha_code: z.string().nullable(),
  /** As uploaded, `YYYY-MM-DD HH:mm:ss`. */
  scheduled_delivery_date: z.string().nullable(),
  external_load_number: z.string().nullable(),
  /** Where the PDF downloads from (application/pdf). */
  file_url: z.string(),
});
export type BolVersion = z.infer<typeof bolVersionSchema>;
export const bolVersionListSchema = z.array(bolVersionSchema);
export const bolVersionParamsSchema = z.object({ order_id: uuidSchema, version_id: uuidSchema });

const timestamp = z.string().nullable();

export const cartonSkuSchema = z.object({
  sku: z.string(),
  upc: z.string().nullable(),
  serial_numbers: z.array(z.string()),
  quantity: z.number().int(),
});
export const cartonSchema = z.object({
  id: z.uuid(),
  sscc: z.string().nullable(),
  created_at: z.string(),
  packed_by: z.string().nullable(),
  packing_complete_at: timestamp,
  parcel_tracking_number: z.string().nullable(),
  dim_unit: z.string().nullable(),
  height: z.number().nullable(),
  width: z.number().nullable(),
  length: z.number().nullable(),
  weight_unit: z.string().nullable(),
  weight: z.number().nullable(),
  skus: z.array(cartonSkuSchema),
});
export const palletSchema = z.object({
  id: z.uuid(),
  created_at: z.string(),
  staged_by: z.string().nullable(),
  staged_at: timestamp,
  sscc: z.string().nullable(),
  status: z.string(),
  cartonQuantity: z.number().int(),
  dim_unit: z.string().nullable(),
  height: z.number().nullable(),
  width: z.number().nullable(),
  length: z.number().nullable(),
  weight_unit: z.string().nullable(),
  weight: z.number().nullable(),
  cartons: z.array(cartonSchema),
});
export type Pallet = z.infer<typeof palletSchema>;
export type Carton = z.infer<typeof cartonSchema>;

/** A stored order line as details show it. */
export const orderItemSchema = z.object({
  sku: z.string(),
  upc: z.string().nullable(),
  quantity: z.number().int(),
  case_pack_quantity: z.number().int().nullable(),
  case_barcode: z.string().nullable(),
  vendor_pn: z.string().nullable(),
  description: z.string().nullable(),
  trackers: z.array(trackerSchema).nullable(),
  pass_through: itemPassThroughSchema.nullable(),
});
export type OrderItem = z.infer<typeof orderItemSchema>;

/** The interface's timestamps of an order (its details, analytics v2 rows), in its order. */
export const ORDER_TIMESTAMP_FIELDS = [
  'created_at',
  'updated_at',
  'pickup_date',
  'requested_pickup_date',
  'stage_by',
  'earliest_ship_date',
  'latest_ship_date',
  'requested_ship_date',
  'cancel_by_date',
  'earliest_delivery_date',
  'latest_delivery_date',
  'requested_delivery_date',
  'scheduled_delivery_date',
  'delivery_appointment_date',
  'started_at',
  'packed_at',
  'staged_at',
  'loaded_at',
  'parcel_print_start_time',
  'parcel_print_end_time',
  'asn_sent_at',
  'invoice_sent_at',
  'po_acknowledgment_sent_at',
] as const;
export type OrderTimestampField = (typeof ORDER_TIMESTAMP_FIELDS)[number];

/**
 * `data` of endpoint 8: the interface's shape, plus (beyond the interface) names of the brand,
 * facility and retailer, the lines, the address contacts, the body's dates as written, and
 * `shipped_at` / `cancelled_at`.
 */
export const orderDetailsSchema = z.object({
  identifiers: z.object({
    id: z.uuid(),
    picksheet_code: z.string(),
    external_order_id: z.string().nullable(),
    po_number: z.string().nullable(),
    retailer_id: z.uuid(),
    brand: z.object({
      external_brand_code: z.string().nullable(),
      brand_id: z.uuid(),
      name: z.string(),
    }),
    facility: z.object({
      external_facility_code: z.string(),
      id: z.uuid(),
      name: z.string(),
    }),
    retailer: z.object({ retailer_id: z.uuid(), name: z.string() }),
    transportation_method: z.string().nullable(),
    bill_of_lading_number: z.string().nullable(),
    pro_number: z.string().nullable(),
    carrier: z.string().nullable(),
    service_method: z.string().nullable(),
    parcel_account_number: z.string().nullable(),
    parcel_billing_type: z.string().nullable(),
    carrier_alpha_code: z.string().nullable(),
    external_load_number: z.string().nullable(),
    dept_number: z.string().nullable(),
    purchase_order_type: z.string().nullable(),
  }),
  status: orderStatusSchema,
  ...(Object.fromEntries(ORDER_TIMESTAMP_FIELDS.map((field) => [field, timestamp])) as Record<
    (typeof ORDER_TIMESTAMP_FIELDS)[number],
    typeof timestamp
  >),
  shipped_at: timestamp,
  cancelled_at: timestamp,
  pallets: z.array(palletSchema),
  items: z.array(orderItemSchema),
  address_data: z.object({
    ship_to_contact: shipToContactSchema.nullable(),
    bill_to_contact: billToContactSchema.nullable(),
    mark_for_contact: markForContactSchema.nullable(),
  }),
  dates: z.object(
    Object.fromEntries(ORDER_DATE_FIELDS.map((field) => [field, z.string().nullable()])) as Record<
      OrderDateField,
      z.ZodNullable<z.ZodString>
    >,
  ),
});
export type OrderDetails = z.infer<typeof orderDetailsSchema>;

export const ORDER_SORT_FIELDS = [
  'created_at',
  'updated_at',
  'picksheet_code',
  'po_number',
  'status',
  'requested_ship_date',
  'cancel_by_date',
  /** The latest ship date, else the requested ship date (see `shipByDate`). */
  'ship_by',
] as const;

/**
 * `due` on the order list, for orders not yet shipped or cancelled: `late` (ship-by day passed),
 * `today` (ship-by day is today), `today_or_late` (both), by the service's local calendar day.
 */
export const DUE_FILTERS = ['late', 'today', 'today_or_late'] as const;
export type DueFilter = (typeof DUE_FILTERS)[number];

/** Comma-separated values of a query parameter. */
const commaList = <T extends z.ZodType>(item: T) =>
  z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part !== '')
        : value,
    z.array(item).max(100),
  );

/** Query of `GET /api/v1/orders` (beyond the interface). */
export const orderListQuerySchema = z
  .object({
    /** Case-insensitive part of the PO number, picksheet code or external order id. */
    search: z.string().trim().max(ORDER_LIMITS.code).optional(),
    /** Comma-separated statuses; any matches. */
    status: commaList(orderStatusSchema).optional(),
    facility_id: uuidSchema.optional(),
    retailer_id: uuidSchema.optional(),
    brand_id: uuidSchema.optional(),
    /** Inclusive bounds on the ship-by day (latest ship date, else requested ship date). */
    ship_by_from: calendarDateSchema
      .optional()
      .describe('YYYY-MM-DD: ship-by day (latest ship date, else requested ship date) on or after'),
    ship_by_to: calendarDateSchema.optional().describe('YYYY-MM-DD: ship-by day on or before'),
    due: z
      .enum(DUE_FILTERS)
      .optional()
      .describe(
        'Orders not shipped or cancelled whose ship-by day is before (late), on (today) or on or before (today_or_late) the local today',
      ),
    order_by: z.enum(ORDER_SORT_FIELDS).default('created_at'),
    order_direction: z.enum(['asc', 'desc']).default('desc'),
    page: z.coerce.number().int().min(1).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(50),
  })
  .refine(
    (query) => !query.ship_by_from || !query.ship_by_to || query.ship_by_from <= query.ship_by_to,
    { path: ['ship_by_from'], message: 'is after ship_by_to' },
  );
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

export const orderListItemSchema = z.object({
  id: z.uuid(),
  picksheet_code: z.string(),
  po_number: z.string().nullable(),
  external_order_id: z.string().nullable(),
  status: orderStatusSchema,
  brand: z.object({ brand_id: z.uuid(), name: z.string() }),
  retailer: z.object({ retailer_id: z.uuid(), name: z.string() }),
  facility: z.object({ id: z.uuid(), name: z.string(), external_facility_code: z.string() }),
  requested_ship_date: z.string().nullable(),
  /** The day the order must ship by: `latest_ship_date`, else `requested_ship_date`. */
  ship_by: z.string().nullable(),
  /** `late` once the ship-by day has passed, `due_today` on it; null when shipped or cancelled. */
  ship_by_status: z.enum(['late', 'due_today']).nullable(),
  cancel_by_date: z.string().nullable(),
  item_count: z.number().int(),
  total_units: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type OrderListItem = z.infer<typeof orderListItemSchema>;

export const orderListPageSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  orders: z.array(orderListItemSchema),
});
export type OrderListPage = z.infer<typeof orderListPageSchema>;
