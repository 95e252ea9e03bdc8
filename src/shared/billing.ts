import { z } from 'zod';
import { ACTION_TYPES, LABEL_PRINT_METRICS } from './fulfilment-activity';

/**
 * Billing (interface endpoints 12 and 13) and the billing prices per brand behind them: the price
 * settings body, the invoice and invoice order detail shapes. Shared by the service and the UI.
 * Prices are dollars at the edge and integer cents inside (`dollarsToCents`).
 */

/** Line metrics of an invoice, in the interface's order. */
export const INVOICE_LINE_METRICS = [
  'Orders',
  'Pallets',
  'Cartons',
  'Units',
  'SKUs',
  'Labels Generated',
  ...LABEL_PRINT_METRICS,
  'VAS Actions',
  'Packing Slips',
] as const;
export type InvoiceLineMetric = (typeof INVOICE_LINE_METRICS)[number];

/** The highest unit price accepted, in dollars. */
export const MAX_PRICE_DOLLARS = 100_000;

/** Whole cents of a dollar amount that has at most two decimals; undefined otherwise. */
export function dollarsToCents(dollars: number): number | undefined {
  const cents = Math.round(dollars * 100);
  return Math.abs(cents - dollars * 100) < 1e-6 ? cents : undefined;
}
export const centsToDollars = (cents: number) => cents / 100;

export const priceDollarsSchema = z
  .number({ message: 'must be a number of dollars' })
  .nonnegative({ message: 'must not be negative' })
  .max(MAX_PRICE_DOLLARS, { message: `must be at most ${MAX_PRICE_DOLLARS}` })
  .refine((value) => dollarsToCents(value) !== undefined, {
    message: 'must be whole cents (at most two decimals)',
  });

export const actionPriceSchema = z.strictObject({
  type: z.enum(ACTION_TYPES),
  /** The action's name, e.g. `Pack`. */
  metric: z.string().trim().min(1).max(100),
  price_dollars: priceDollarsSchema,
});

/** A brand's billing prices: unit prices of line metrics, and of actions. */
export const billingPricesBodySchema = z.strictObject({
  prices: z.partialRecord(z.enum(INVOICE_LINE_METRICS), priceDollarsSchema).default({}),
  actions: z
    .array(actionPriceSchema)
    .max(500)
    .default([])
    .superRefine((actions, ctx) => {
      const seen = new Map<string, number>();
      actions.forEach((action, index) => {
        const key = `${action.type}|${action.metric.toLowerCase()}`;
        const first = seen.get(key);
        if (first !== undefined) {
          ctx.addIssue({
            code: 'custom',
            path: [index, 'metric'],
            message: `duplicate action '${action.type} / ${action.metric}' (also actions[${first}])`,
          });
        }
        seen.set(key, index);
      });
    }),
});
export type BillingPricesBody = z.infer<typeof billingPricesBodySchema>;

export const billingPricesSchema = z.object({
  brand_id: z.string(),
  brand_name: z.string(),
  prices: z.partialRecord(z.enum(INVOICE_LINE_METRICS), z.number()),
  actions: z.array(z.object({ type: z.string(), metric: z.string(), price_dollars: z.number() })),
});
export type BillingPrices = z.infer<typeof billingPricesSchema>;

export const brandIdParamsSchema = z.object({ brand_id: z.string() });

export const TRANSPORTATION_METHODS = ['FREIGHT', 'PARCEL'] as const;

/**
 * Query of invoices (12): every filter optional and independent, date bounds inclusive whole
 * days. Values arrive as text and are checked by the domain, which words the interface's errors.
 */
export const invoiceQuerySchema = z.object({
  brand_id: z.string().optional().describe('UUID of one brand'),
  retailer_id: z.string().optional().describe('UUID of one retailer'),
  transportation_method: z.string().optional().describe('FREIGHT or PARCEL'),
  asn_sent_from: z.string().optional().describe('YYYY-MM-DD; ASN sent on or after (UTC day)'),
  asn_sent_to: z.string().optional().describe('YYYY-MM-DD; ASN sent on or before (UTC day)'),
  packed_from: z.string().optional().describe('YYYY-MM-DD; packed on or after (UTC day)'),
  packed_to: z.string().optional().describe('YYYY-MM-DD; packed on or before (UTC day)'),
});
export type InvoiceQuery = z.infer<typeof invoiceQuerySchema>;

export const INVOICE_DETAILS_PAGE_SIZE = { default: 50, max: 100 } as const;

export const invoiceDetailsQuerySchema = invoiceQuerySchema.extend({
  order_id: z.string().optional().describe('UUID of one order'),
  picksheet_code: z.string().optional().describe('one picksheet code (exact)'),
  page: z.string().optional().describe('from 1; default 1'),
  page_size: z.string().optional().describe('default 50; above 100 is capped at 100'),
});
export type InvoiceDetailsQuery = z.infer<typeof invoiceDetailsQuerySchema>;

const money = z.number();
const count = z.number().int().nonnegative();

export const invoiceLineItemSchema = z.object({
  metric: z.enum(INVOICE_LINE_METRICS),
  count,
  /** The line's amount: count x unit price. */
  price_dollars: money,
  unit_price_dollars: money,
});
export const invoiceActionItemSchema = z.object({
  type: z.string(),
  metric: z.string(),
  count,
  price_dollars: money,
  unit_price_dollars: money,
});
export const invoiceBrandSchema = z.object({
  brand_id: z.string(),
  brand_name: z.string(),
  line_items: z.array(invoiceLineItemSchema),
  action_items: z.array(invoiceActionItemSchema),
  total_price_dollars: money,
});
export const invoiceSchema = z.object({
  brands: z.array(invoiceBrandSchema),
  total_price_dollars: money,
});
export type Invoice = z.infer<typeof invoiceSchema>;
export type InvoiceBrand = z.infer<typeof invoiceBrandSchema>;

export const CORE_COUNT_KEYS = [
  'pallets',
  'cartons',
  'units',
  'skus',
  'labels_generated',
  'pallet_label_qr_printed',
  'pallet_label_gs1_printed',
  'pallet_label_placard_printed',
  'carton_label_gs1_printed',
  'carton_label_qr_printed',
  'carton_label_parcel_printed',
  'vas_actions',
  'packing_slips',
] as const;
export type CoreCountKey = (typeof CORE_COUNT_KEYS)[number];

/** The `core` key of each label metric. */
export const LABEL_CORE_KEYS: Record<(typeof LABEL_PRINT_METRICS)[number], CoreCountKey> = {
  'Pallet Label Printed - QR Code': 'pallet_label_qr_printed',
  'Pallet Label Printed - GS1 Label': 'pallet_label_gs1_printed',
  'Pallet Label Printed - Placard': 'pallet_label_placard_printed',
  'Carton Label Printed - GS1 Label': 'carton_label_gs1_printed',
  'Carton Label Printed - QR Code': 'carton_label_qr_printed',
  'Carton Label Printed - Parcel Label': 'carton_label_parcel_printed',
};

const actionCounts = z.record(z.string(), count);
export const invoiceOrderDetailSchema = z.object({
  order_id: z.string(),
  picksheet_code: z.string(),
  retailer: z.string(),
  brand: z.string(),
  core: z.object(
    Object.fromEntries(CORE_COUNT_KEYS.map((key) => [key, count])) as Record<
      CoreCountKey,
      typeof count
    >,
  ),
  carton_actions: actionCounts,
  pallet_actions: actionCounts,
  vas_actions: actionCounts,
});
export type InvoiceOrderDetail = z.infer<typeof invoiceOrderDetailSchema>;

export const invoiceDetailsPageSchema = z.object({
  items: z.array(invoiceOrderDetailSchema),
  total_count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type InvoiceDetailsPage = z.infer<typeof invoiceDetailsPageSchema>;
