import { z } from 'zod';
import { CLAIM_LIMITS, disputeStatusSchema } from './claims';
import { uuidSchema } from './ids';
import { isCalendarDate } from './inventory';

/** Whole cents: a dollar amount with at most two decimals. */
export const isWholeCents = (dollars: number) =>
  Number.isFinite(dollars) && Math.abs(dollars * 100 - Math.round(dollars * 100)) < 1e-6;

const dollars = z
  .number()
  .refine(isWholeCents, { message: 'must be dollars with at most 2 decimals' });
const units = z.number().int();
const date = z
  .string()
  .refine(isCalendarDate, { message: 'must be a real date written YYYY-MM-DD' });
const text = (max: number = CLAIM_LIMITS.text) => z.string().trim().max(max);

/**
 * An entry of chargebacks (seed bundle 'chargebacks'): the interface's chargeback plus brand_id.
 * Its derived fields (retailer, matched_orders, is_expired, closed) may be present and are ignored.
 */
export const seedChargebackSchema = z
  .strictObject({
    id: uuidSchema,
    brand_id: uuidSchema,
    retailer_id: uuidSchema,
    chargeback_id: text().min(1),
    po_number: text().default(''),
    amount: dollars.min(0),
    amount_won_back: dollars.min(0).default(0),
    retailer_chargeback_code: text().default(''),
    category: text().default(''),
    description: text(CLAIM_LIMITS.description).default(''),
    chargeback_date: date,
    /** When absent, the time of the first import (kept by later imports). */
    uploaded_at: z.iso.datetime({ offset: true }).optional(),
    dispute_deadline: date.nullable().optional(),
    dispute_status: disputeStatusSchema,
    retailer: z.string().optional(),
    matched_orders: z.array(z.unknown()).optional(),
    is_expired: z.boolean().optional(),
    closed: z.boolean().optional(),
  })
  .refine((entry) => entry.amount_won_back <= entry.amount, {
    message: 'must not exceed amount',
    path: ['amount_won_back'],
  });
export type SeedChargeback = z.infer<typeof seedChargebackSchema>;

/**
 * An entry of POS rows (seed bundle 'pos_reports'): the interface's POS row plus brand_id and
 * retailer_id. `id` is optional (rows are keyed by brand, retailer, sku, location and dates);
 * net_units, gross_margin and margin_percent are derived when absent; `retailer` is ignored.
 */
export const seedPosRowSchema = z
  .strictObject({
    id: uuidSchema.optional(),
    brand_id: uuidSchema,
    retailer_id: uuidSchema,
    retailer: z.string().optional(),
    sku: text().min(1),
    location: text().default(''),
    start_date: date,
    end_date: date,
    units_sold: units,
    revenue: dollars,
    cogs: dollars.default(0),
    returns: units.default(0),
    net_units: units.optional(),
    gross_margin: dollars.optional(),
    margin_percent: z.number().optional(),
    inventory_units: units.default(0),
    inventory_cost: dollars.default(0),
    damaged_inventory_units: units.default(0),
    damaged_inventory_cost: dollars.default(0),
    on_order_units: units.default(0),
    on_order_cost: dollars.default(0),
  })
  .refine((entry) => entry.start_date <= entry.end_date, {
    message: 'must not be after end_date',
    path: ['start_date'],
  });
export type SeedPosRow = z.infer<typeof seedPosRowSchema>;
