import { z } from 'zod';
import { uuidSchema } from './ids';
import { isCalendarDate } from './inventory';

/** Chargeback `dispute_status` values (interface, States). */
export const DISPUTE_STATUSES = [
  'Won',
  'Lost',
  'Pending Review',
  'Not Disputed',
  'Ready to Dispute',
  'Generating Proposal',
  'Submitting',
  'Submission Failed',
  'Expired',
] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];
export const disputeStatusSchema = z.enum(DISPUTE_STATUSES);

/**
 * Statuses after which nothing more happens: the chargeback is settled (closed) whatever its deadline.
 * Not Disputed is not one: it is the first state of every new deduction, before anyone acted on it.
 */
export const SETTLED_STATUSES = [
  'Won',
  'Lost',
  'Expired',
] as const satisfies readonly DisputeStatus[];

/** A dispute status in any letter case (`pending review`), as its canonical spelling; undefined if none. */
export function canonicalDisputeStatus(text: string): DisputeStatus | undefined {
  const wanted = text.trim().replace(/\s+/g, ' ').toLowerCase();
  return DISPUTE_STATUSES.find((status) => status.toLowerCase() === wanted);
}

export const CLAIM_LIMITS = {
  text: 200,
  description: 2000,
  /** Rows per CSV file. */
  csvRows: 20_000,
  /** Bytes of an import request (the CSV text inside JSON). */
  importBodyBytes: 10 * 1024 * 1024,
  /** Rejected rows listed in an import's report; the message counts them all. */
  reportedProblems: 1000,
} as const;

export const CHARGEBACK_MESSAGES = {
  retrieved: 'Chargebacks retrieved successfully',
  failed: 'Error fetching chargebacks',
  unauthorized: 'Unauthorized',
  retailerNotFound: 'Retailer not found',
  notFound: 'Chargeback not found',
  imported: 'Chargebacks imported successfully',
  importFailed: 'Error importing chargebacks',
  packetFailed: 'Error building the dispute packet',
  invalidDate: (name: string) => `Invalid date for ${name}. Expected YYYY-MM-DD`,
  invalidPage: 'Invalid page. Expected an integer >= 1',
  invalidPageSize: 'Invalid page_size. Expected an integer from 1 to 100',
  invalidRetailer: 'Invalid retailer_id. Expected a UUID',
  invalidSettled: 'Invalid settled. Expected true or false',
  invalidText: (name: string) =>
    `Invalid ${name}. Expected at most ${CLAIM_LIMITS.text} characters`,
  invalidStatus: (value: string) =>
    `Invalid dispute_status: '${value}'. Allowed values: ${DISPUTE_STATUSES.join(', ')}`,
} as const;

export const POS_MESSAGES = {
  retrieved: 'POS data retrieved successfully',
  failed: 'Error fetching POS data',
  unauthorized: 'User is not authorized to access this resource',
  retailerNotFound: 'Retailer not found',
  imported: 'POS data imported successfully',
  importFailed: 'Error importing POS data',
  invalidDate: (name: string) => `Invalid date format: ${name} must be YYYY-MM-DD`,
  invalidPage: 'Invalid query parameter: page must be an integer >= 1',
  invalidPageSize: 'Invalid query parameter: page_size must be an integer >= 1',
  invalidRetailer: 'Invalid query parameter: retailer_id must be a UUID',
} as const;

/** A blank query value counts as not given (a form's empty field). */
const blankAsAbsent = (value: unknown) => (value === '' ? undefined : value);

const dateParam = (message: string) =>
  z.preprocess(
    blankAsAbsent,
    z
      .string({ error: message })
      .trim()
      .refine(isCalendarDate, { message })
      .optional()
      .describe('YYYY-MM-DD, inclusive'),
  );

/** A whole number from `min` (to `max`, or capped at `cap`), written in decimal digits. */
const intParam = (message: string, min: number, fallback: number, max?: number, cap?: number) =>
  z.preprocess(
    blankAsAbsent,
    z
      .string({ error: message })
      .trim()
      .regex(/^\d{1,9}$/, { message })
      .transform(Number)
      .refine((n) => n >= min && (max === undefined || n <= max), { message })
      .transform((n) => (cap === undefined ? n : Math.min(n, cap)))
      .optional()
      .transform((n) => n ?? fallback),
  );

const uuidParam = (message: string) =>
  z.preprocess(
    blankAsAbsent,
    z
      .string({ error: message })
      .trim()
      .pipe(z.uuid({ error: message }).transform((value) => value.toLowerCase()))
      .optional(),
  );

const textParam = (name: string) =>
  z.preprocess(
    blankAsAbsent,
    z
      .string({ error: CHARGEBACK_MESSAGES.invalidText(name) })
      .trim()
      .max(CLAIM_LIMITS.text, { message: CHARGEBACK_MESSAGES.invalidText(name) })
      .optional(),
  );

/** Comma-separated dispute statuses, any letter case; any matches. */
const statusListParam = z.preprocess(
  blankAsAbsent,
  z
    .string({ error: CHARGEBACK_MESSAGES.invalidStatus('') })
    .transform((text, ctx): DisputeStatus[] => {
      const statuses: DisputeStatus[] = [];
      for (const part of text.split(',')) {
        if (part.trim() === '') continue;
        const status = canonicalDisputeStatus(part);
        if (!status) {
          ctx.addIssue({ code: 'custom', message: CHARGEBACK_MESSAGES.invalidStatus(part.trim()) });
          return z.NEVER;
        }
        if (!statuses.includes(status)) statuses.push(status);
      }
      return statuses;
    })
    .optional()
    .describe(`Comma-separated; any of ${DISPUTE_STATUSES.join(', ')}`),
);

const booleanParam = z.preprocess(
  blankAsAbsent,
  z
    .string({ error: CHARGEBACK_MESSAGES.invalidSettled })
    .trim()
    .toLowerCase()
    .refine((text) => text === 'true' || text === 'false', {
      message: CHARGEBACK_MESSAGES.invalidSettled,
    })
    .transform((text) => text === 'true')
    .optional()
    .describe('true: settled (closed) only; false: still open only'),
);

/** Query of endpoint 14 (names from DESIGN.md). Every issue's message is the answer's message. */
export const chargebackListQuerySchema = z.object({
  retailer_id: uuidParam(CHARGEBACK_MESSAGES.invalidRetailer),
  po_number: textParam('po_number'),
  chargeback_id: textParam('chargeback_id'),
  dispute_status: statusListParam,
  settled: booleanParam,
  start_date: dateParam(CHARGEBACK_MESSAGES.invalidDate('start_date')),
  end_date: dateParam(CHARGEBACK_MESSAGES.invalidDate('end_date')),
  page: intParam(CHARGEBACK_MESSAGES.invalidPage, 1, 1),
  page_size: intParam(CHARGEBACK_MESSAGES.invalidPageSize, 1, 50, 100),
});
export type ChargebackListQuery = z.infer<typeof chargebackListQuerySchema>;

/** Query of endpoint 15: page_size above 100 is capped, not refused. */
export const posListQuerySchema = z.object({
  retailer_id: uuidParam(POS_MESSAGES.invalidRetailer),
  start_date: dateParam(POS_MESSAGES.invalidDate('start_date')),
  end_date: dateParam(POS_MESSAGES.invalidDate('end_date')),
  page: intParam(POS_MESSAGES.invalidPage, 1, 1),
  page_size: intParam(POS_MESSAGES.invalidPageSize, 1, 50, undefined, 100),
});
export type PosListQuery = z.infer<typeof posListQuerySchema>;

export const matchedOrderSchema = z.object({ order_id: z.uuid(), picksheet_code: z.string() });

/** Chargeback (interface, element of `data.items`), plus `brand_id`. */
export const chargebackSchema = z.object({
  id: z.uuid(),
  brand_id: z.uuid(),
  chargeback_id: z.string(),
  po_number: z.string(),
  matched_orders: z.array(matchedOrderSchema),
  retailer_id: z.uuid(),
  retailer: z.string(),
  amount: z.number(),
  amount_won_back: z.number(),
  retailer_chargeback_code: z.string(),
  category: z.string(),
  description: z.string(),
  chargeback_date: z.string(),
  uploaded_at: z.string(),
  dispute_deadline: z.string().nullable(),
  dispute_status: disputeStatusSchema,
  is_expired: z.boolean(),
  closed: z.boolean(),
});
export type Chargeback = z.infer<typeof chargebackSchema>;

export const chargebackPageSchema = z.object({
  items: z.array(chargebackSchema),
  total_count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type ChargebackPage = z.infer<typeof chargebackPageSchema>;

/** The numbers of a POS row; `*_cost`, `revenue`, `cogs` and `gross_margin` are dollars. */
export const POS_UNIT_FIELDS = [
  'units_sold',
  'returns',
  'net_units',
  'inventory_units',
  'damaged_inventory_units',
  'on_order_units',
] as const;
export const POS_MONEY_FIELDS = [
  'revenue',
  'cogs',
  'gross_margin',
  'inventory_cost',
  'damaged_inventory_cost',
  'on_order_cost',
] as const;
export type PosUnitField = (typeof POS_UNIT_FIELDS)[number];
export type PosMoneyField = (typeof POS_MONEY_FIELDS)[number];

/** POS report row (interface, element of `data.items`), plus `id`, `brand_id` and `retailer_id`. */
export const posRowSchema = z.object({
  id: z.uuid(),
  brand_id: z.uuid(),
  retailer_id: z.uuid(),
  sku: z.string(),
  retailer: z.string(),
  location: z.string(),
  start_date: z.string(),
  end_date: z.string(),
  units_sold: z.number(),
  revenue: z.number(),
  cogs: z.number(),
  returns: z.number(),
  net_units: z.number(),
  gross_margin: z.number(),
  margin_percent: z.number(),
  inventory_units: z.number(),
  inventory_cost: z.number(),
  damaged_inventory_units: z.number(),
  damaged_inventory_cost: z.number(),
  on_order_units: z.number(),
  on_order_cost: z.number(),
});
export type PosRow = z.infer<typeof posRowSchema>;

export const posPageSchema = z.object({
  items: z.array(posRowSchema),
  total_count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type PosPage = z.infer<typeof posPageSchema>;

/** Body of the CSV imports: the file's text, and the brand and retailer where rows do not name them. */
export const claimsImportBodySchema = z.strictObject({
  csv: z.string().min(1).describe('The CSV file as text, header row first (UTF-8)'),
  brand_id: uuidSchema
    .optional()
    .describe('The brand of every row; defaults to the credentials’ brand, or a brand_id column'),
  retailer_id: uuidSchema
    .optional()
    .describe('The retailer of every row, unless the file has a retailer_id column'),
});
export type ClaimsImportBody = z.infer<typeof claimsImportBodySchema>;

/** One rejected CSV row: its number as a spreadsheet shows it (the header is row 1). */
export const importProblemSchema = z.object({
  row: z.number().int(),
  column: z.string(),
  reason: z.string(),
});
export type ImportProblem = z.infer<typeof importProblemSchema>;

export const importResultSchema = z.object({
  import_id: z.uuid(),
  rows: z.number().int().describe('Data rows in the file'),
  created: z.number().int(),
  updated: z.number().int().describe('Rows already stored under the same natural key'),
});
export type ImportResult = z.infer<typeof importResultSchema>;
