import { z } from 'zod';
import { uuidSchema } from './ids';

/**
 * Inventory advice request (interface: "Inventory item"). Field rules live here so the service and
 * the upload screen judge a row the same way; rules that need the brand's connections or today's
 * date are `rowProblems` below.
 */

export const STOCK_STATUSES = ['DISCONTINUED', 'TEMPORARILY_UNAVAILABLE'] as const;
export type StockStatusValue = (typeof STOCK_STATUSES)[number];
export const MAX_ITEMS = 1000;
export const MAX_QUANTITY = 999_999_999;
export const MAX_SKU_LENGTH = 48;

/** A custom issue carrying the interface's `type` for `error.details`. */
const fail = (ctx: z.RefinementCtx, message: string, type: string) => {
  ctx.addIssue({ code: 'custom', message, params: { type } });
  return z.NEVER;
};

/**
 * `120`, `"120"` and `120.0` are 120; `5.5` is rounded down to 5; `"5.5"`, `"abc"`, negatives,
 * booleans and null are rejected.
 */
export const availableQuantitySchema = z.unknown().transform((value, ctx): number => {
  if (value === undefined) return fail(ctx, 'Field required', 'missing');
  let quantity: number;
  if (typeof value === 'number' && Number.isFinite(value)) {
    quantity = Math.floor(value);
    if (value < 0)
      return fail(ctx, 'Input should be greater than or equal to 0', 'greater_than_equal');
  } else if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
    quantity = Number(value);
    if (quantity < 0)
      return fail(ctx, 'Input should be greater than or equal to 0', 'greater_than_equal');
  } else {
    return fail(
      ctx,
      'Input should be a whole number, or a string holding a whole number',
      'int_parsing',
    );
  }
  if (quantity > MAX_QUANTITY) {
    return fail(ctx, `Input should be less than or equal to ${MAX_QUANTITY}`, 'less_than_equal');
  }
  return quantity;
});

export const skuSchema = z.unknown().transform((value, ctx): string => {
  if (value === undefined) return fail(ctx, 'Field required', 'missing');
  if (typeof value !== 'string') return fail(ctx, 'Input should be a valid string', 'string_type');
  const sku = value.trim();
  if (sku.length === 0) return fail(ctx, 'SKU must not be empty', 'string_too_short');
  if (sku.length > MAX_SKU_LENGTH) {
    return fail(ctx, `SKU must be at most ${MAX_SKU_LENGTH} characters`, 'string_too_long');
  }
  // C0, DEL and C1 (U+0080-U+009F) controls.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(sku))
    return fail(ctx, 'SKU must not contain control characters', 'value_error');
  // X12 data is ASCII: anything else would reach the 846 changed, and the feeds would disagree.
  const other = /[^\u0020-\u007e]/u.exec(sku)?.[0];
  if (other !== undefined) {
    const codePoint = other.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    return fail(
      ctx,
      `SKU must use only ASCII letters, digits, spaces and punctuation; "${other}" (U+${codePoint}) is not allowed`,
      'value_error',
    );
  }
  return sku;
});

/** Case-insensitive; normalised to upper case; empty string and null mean "no status". */
export const stockStatusSchema = z.unknown().transform((value, ctx): StockStatusValue | null => {
  if (value === undefined || value === null || value === '') return null;
  const normalised = typeof value === 'string' ? value.trim().toUpperCase() : value;
  if ((STOCK_STATUSES as readonly unknown[]).includes(normalised))
    return normalised as StockStatusValue;
  return fail(ctx, `Input should be 'DISCONTINUED' or 'TEMPORARILY_UNAVAILABLE'`, 'enum');
});

/** A real calendar date written YYYY-MM-DD. */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

export const backInStockDateSchema = z.unknown().transform((value, ctx): string | null => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'string' && isCalendarDate(value.trim())) return value.trim();
  return fail(
    ctx,
    'Input should be a valid date in the format YYYY-MM-DD',
    'date_from_datetime_parsing',
  );
});

export const inventoryItemSchema = z.object(
  {
    sku: skuSchema,
    available_quantity: availableQuantitySchema,
    // Optional keys: absent means null, and the transform still normalises what is there.
    status: z.unknown().optional().pipe(stockStatusSchema),
    estimated_back_in_stock_date: z.unknown().optional().pipe(backInStockDateSchema),
  },
  { error: () => 'Input should be a valid object' },
);
export type InventoryItem = z.output<typeof inventoryItemSchema>;
export type InventoryItemInput = z.input<typeof inventoryItemSchema>;

export const inventoryAdviceRequestSchema = z.object({
  items: z
    .array(inventoryItemSchema, {
      error: (issue) =>
        issue.input === undefined ? 'Field required' : 'Input should be a valid list',
    })
    .min(1, 'List should have at least 1 item')
    .max(MAX_ITEMS, `List should have at most ${MAX_ITEMS} items`),
});
export type InventoryAdviceRequest = z.output<typeof inventoryAdviceRequestSchema>;

/** One field problem of `error.details` (the "Validation failed" 400). */
export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** One row problem of `error.errors` (the "Inventory advice validation failed" 400). */
export interface RowProblem {
  row_index: number;
  field: string;
  message: string;
}

const typeOfIssue = (issue: z.core.$ZodIssue): string => {
  if (issue.code === 'custom') return String(issue.params?.type ?? 'value_error');
  if (issue.code === 'invalid_type')
    return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
  if (issue.code === 'too_small') return 'too_short';
  if (issue.code === 'too_big') return 'too_long';
  return issue.code;
};

export type ParsedAdvice =
  { ok: true; value: InventoryAdviceRequest } | { ok: false; problems: FieldProblem[] };

/** Parses an advice body; on failure returns the interface's `{loc, msg, type}` list. */
export function parseInventoryAdvice(body: unknown): ParsedAdvice {
  const items = plainlyValidItems(body);
  return items ? { ok: true, value: { items } } : parseInventoryAdviceWithSchema(body);
}

/**
 * The rows of a body that is valid throughout, checked by hand with the rules of
 * `inventoryItemSchema` (same values out); null as soon as anything is not plainly valid, and the
 * schema then says exactly what is wrong. zod's per-row parse of 1000 rows allocated ~2 MB per
 * advice; this pass allocates the output rows only.
 */
function plainlyValidItems(body: unknown): InventoryItem[] | null {
  if (!isPlainObject(body)) return null;
  const rows = (body as { items?: unknown }).items;
  if (!Array.isArray(rows) || rows.length < 1 || rows.length > MAX_ITEMS) return null;
  const items: InventoryItem[] = new Array<InventoryItem>(rows.length);
  const skus = new Set<string>();
  for (let index = 0; index < rows.length; index++) {
    const row: unknown = rows[index];
    if (!isPlainObject(row)) return null;
    const { sku: rawSku, available_quantity, status: rawStatus } = row as Record<string, unknown>;
    const rawDate = (row as Record<string, unknown>).estimated_back_in_stock_date;
    if (typeof rawSku !== 'string') return null;
    const sku = rawSku.trim();
    if (sku.length === 0 || sku.length > MAX_SKU_LENGTH || !PRINTABLE_ASCII.test(sku)) return null;
    if (skus.has(sku)) return null;
    skus.add(sku);
    const quantity = plainQuantity(available_quantity);
    if (quantity === null) return null;
    let status: StockStatusValue | null = null;
    if (rawStatus !== undefined && rawStatus !== null && rawStatus !== '') {
      if (typeof rawStatus !== 'string') return null;
      const normalised = rawStatus.trim().toUpperCase();
      if (normalised !== STOCK_STATUSES[0] && normalised !== STOCK_STATUSES[1]) return null;
      status = normalised;
    }
    let date: string | null = null;
    if (rawDate !== undefined && rawDate !== null && rawDate !== '') {
      if (typeof rawDate !== 'string' || !isCalendarDate(rawDate.trim())) return null;
      date = rawDate.trim();
    }
    items[index] = {
      sku,
      available_quantity: quantity,
      status,
      estimated_back_in_stock_date: date,
    };
  }
  return items;
}

const PRINTABLE_ASCII = /^[\u0020-\u007e]*$/;

const isPlainObject = (value: unknown): value is object => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};

/** `availableQuantitySchema`'s value of a valid quantity; null for anything it refuses. */
function plainQuantity(value: unknown): number | null {
  let quantity: number;
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (value < 0) return null;
    quantity = Math.floor(value);
  } else if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) {
    quantity = Number(value);
    if (quantity < 0) return null;
  } else return null;
  return quantity > MAX_QUANTITY ? null : quantity;
}

/** The schema's parse of an advice body, with every problem in the interface's shape. */
export function parseInventoryAdviceWithSchema(body: unknown): ParsedAdvice {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      ok: false,
      problems: [{ loc: ['body'], msg: 'Input should be a valid object', type: 'model_type' }],
    };
  }
  const result = inventoryAdviceRequestSchema.safeParse(body, { reportInput: true });
  const problems: FieldProblem[] = result.success
    ? []
    : result.error.issues.map((issue) => ({
        loc: issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
        msg:
          issue.code === 'invalid_type' && issue.input === undefined
            ? 'Field required'
            : issue.message,
        type: typeOfIssue(issue),
      }));
  problems.push(...duplicateSkuProblems((body as { items?: unknown }).items));
  return result.success && problems.length === 0
    ? { ok: true, value: result.data }
    : { ok: false, problems };
}

/** Checked on the raw rows so duplicates show up together with every other field problem. */
function duplicateSkuProblems(items: unknown): FieldProblem[] {
  if (!Array.isArray(items)) return [];
  const firstRow = new Map<string, number>();
  const problems: FieldProblem[] = [];
  items.forEach((item: unknown, index) => {
    const raw = (item as { sku?: unknown } | null)?.sku;
    if (typeof raw !== 'string' || raw.trim() === '') return;
    const sku = raw.trim();
    const first = firstRow.get(sku);
    if (first === undefined) firstRow.set(sku, index);
    else {
      problems.push({
        loc: ['items', index, 'sku'],
        msg: `Duplicate SKU '${sku}' (first at row ${first})`,
        type: 'value_error',
      });
    }
  });
  return problems;
}

export interface RowRules {
  /** The brand has a direct-feed connection where the advice goes: a 0 needs a status. */
  statusRequiredAtZero: boolean;
  /** Today's calendar date, YYYY-MM-DD (the workstation's local day, see docs/decisions.md). */
  today: string;
}

/** Rules between fields of a row, and those that depend on the brand's connections and today. */
export function rowProblems(items: InventoryItem[], rules: RowRules): RowProblem[] {
  const problems: RowProblem[] = [];
  let row_index = 0;
  const add = (field: string, message: string) => problems.push({ row_index, field, message });
  // A plain loop and one `add`: a closure per row was most of this function's allocation.
  for (; row_index < items.length; row_index++) {
    const item = items[row_index]!;
    const inStock = item.available_quantity > 0;
    if (inStock && item.status !== null) {
      add('status', 'status must be empty when available_quantity is greater than 0');
    }
    if (inStock && item.estimated_back_in_stock_date !== null) {
      add(
        'estimated_back_in_stock_date',
        'estimated_back_in_stock_date must be empty when available_quantity is greater than 0',
      );
    }
    if (!inStock && item.status === null && rules.statusRequiredAtZero) {
      add(
        'status',
        'status is required when available_quantity is 0 because the brand has a direct API connection',
      );
    }
    if (item.status === 'TEMPORARILY_UNAVAILABLE' && item.estimated_back_in_stock_date === null) {
      add(
        'estimated_back_in_stock_date',
        'estimated_back_in_stock_date is required when status is TEMPORARILY_UNAVAILABLE',
      );
    }
    if (
      item.estimated_back_in_stock_date !== null &&
      item.estimated_back_in_stock_date < rules.today
    ) {
      add('estimated_back_in_stock_date', 'estimated_back_in_stock_date must not be in the past');
    }
  }
  return problems;
}

/** The local calendar day of `now`, YYYY-MM-DD. */
export function localDay(now: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** How the request looks on the wire, for the OpenAPI document (the parser above is more lenient). */
export const inventoryAdviceRequestDocSchema = z.object({
  items: z
    .array(
      z.object({
        sku: z.string().min(1).max(MAX_SKU_LENGTH),
        available_quantity: z
          .union([z.number().min(0), z.string().regex(/^\d+$/)])
          .describe('Whole number >= 0; "120" and 120.0 accepted; 5.5 rounded down'),
        status: z
          .enum(STOCK_STATUSES)
          .nullable()
          .optional()
          .describe('Case-insensitive; only at quantity 0'),
        estimated_back_in_stock_date: z.iso
          .date()
          .nullable()
          .optional()
          .describe('YYYY-MM-DD, not in the past; only at quantity 0'),
      }),
    )
    .min(1)
    .max(MAX_ITEMS),
});

export const adviceResultSchema = z.looseObject({
  organization_id: z.uuid().nullable().optional(),
  edi_config_id: z.uuid().nullable().optional(),
  retailer_id: z.uuid().nullable(),
  retailer_name: z.string().nullable(),
  brand_name: z.string().nullable(),
  organization_name: z.string().nullable(),
  success: z.boolean(),
  edi_transaction_id: z.uuid().nullable().optional(),
  error: z.string().nullable(),
  failed_skus: z.array(z.unknown()).nullable(),
  delivery_id: z.uuid(),
});

export const adviceSummarySchema = z.object({
  total: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
});

export const adviceResponseDataSchema = z.object({
  snapshot_id: z.uuid(),
  results: z.array(adviceResultSchema),
  summary: adviceSummarySchema,
});

/** Preview (dry run): per enabled connection, the document it would get and what changes. */
export const previewConnectionSchema = z.object({
  connection_id: z.uuid(),
  kind: z.enum(['EDI_846', 'DIRECT_API']),
  organization_id: z.uuid(),
  organization_name: z.string(),
  retailer_id: z.uuid(),
  retailer_name: z.string(),
  document: z
    .object({ content_type: z.string(), file_name: z.string(), body: z.string() })
    .nullable(),
  error: z.string().nullable(),
  baseline: z.object({ snapshot_id: z.uuid(), created_at: z.string() }).nullable(),
  changes: z.object({
    dropped_skus: z.array(z.string()),
    new_zero_skus: z.array(z.string()),
    big_swings: z.array(z.object({ sku: z.string(), previous: z.number(), next: z.number() })),
    added_skus: z.array(z.string()),
  }),
});
export const advicePreviewSchema = z.object({
  item_count: z.number().int(),
  connections: z.array(previewConnectionSchema),
});

/** Snapshot history: one past snapshot with the state of each of its deliveries. */
export const snapshotDeliverySchema = z.object({
  delivery_id: z.uuid(),
  connection_id: z.uuid().nullable(),
  organization_id: z.uuid().nullable(),
  retailer_id: z.uuid().nullable(),
  retailer_name: z.string().nullable(),
  kind: z.enum(['EDI_846', 'DIRECT_API']).nullable(),
  status: z.enum(['PENDING', 'SUCCESS', 'FAILURE']),
  error: z.string().nullable(),
  attempts: z.number().int(),
  /** When the service sends it again by itself (ISO 8601), or null when nothing is planned. */
  next_attempt_at: z.string().nullable(),
  /** The service stopped re-sending it (too many tries, or a newer snapshot replaces it). */
  given_up: z.boolean(),
  file_name: z.string().nullable(),
  content_type: z.string().nullable(),
  interchange_control_number: z.number().int().nullable(),
  updated_at: z.string(),
});
export const snapshotSummarySchema = z.object({
  snapshot_id: z.uuid(),
  brand_id: z.uuid(),
  facility_id: z.uuid().nullable(),
  item_count: z.number().int(),
  created_at: z.string(),
  summary: adviceSummarySchema.extend({ pending: z.number().int() }),
  deliveries: z.array(snapshotDeliverySchema),
});
export const snapshotPageSchema = z.object({
  items: z.array(snapshotSummarySchema),
  total_count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export const snapshotDetailSchema = snapshotSummarySchema.extend({
  items: z.array(
    z.object({
      sku: z.string(),
      available_quantity: z.number().int(),
      status: z.enum(STOCK_STATUSES).nullable(),
      estimated_back_in_stock_date: z.string().nullable(),
    }),
  ),
});

/** The answer of a retry: whether the resend reached the partner. */
export const retryResultSchema = z.object({
  delivery_id: z.uuid(),
  success: z.boolean(),
  error: z.string().nullable(),
});

export const adviceScopeParamsSchema = z.object({ brand_id: uuidSchema, facility_id: uuidSchema });
export const snapshotListQuerySchema = z.object({
  brand_id: uuidSchema.optional(),
  facility_id: uuidSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export const snapshotIdParamsSchema = z.object({ snapshot_id: uuidSchema });
export const deliveryIdParamsSchema = z.object({ delivery_id: uuidSchema });

/** The connections an advice for one brand at one facility would reach (enabled or not). */
export const connectionListQuerySchema = adviceScopeParamsSchema;
export const adviceConnectionSchema = z.object({
  connection_id: z.uuid(),
  retailer_id: z.uuid(),
  retailer_name: z.string(),
  kind: z.enum(['EDI_846', 'DIRECT_API']),
  enabled: z.boolean(),
});
export const adviceConnectionListSchema = z.array(adviceConnectionSchema);
