import { z } from 'zod';
import { isCalendarDate } from './inventory';
import { UUID_TEXT } from './ids';

/**
 * The transaction log (interface endpoint 11): query, row and page shapes, shared by the service
 * (validation, OpenAPI) and the UI (filters, table).
 */

export const EXECUTION_STATUSES = ['SUCCESS', 'FAILURE', 'RETRY', 'PENDING', 'SKIP'] as const;

/**
 * Action codes the filter takes, with the sentence-case phrase responses show. The interface
 * lists the first fourteen; SEND_INVENTORY_ADVICE is the code of the advice engine's delivery
 * attempts (this service's own rows), so it can be filtered too.
 */
export const ACTION_TYPE_LABELS = {
  POST_ORDER_TO: 'Post order to retailer',
  CREATE_ORDERS_FROM: 'Create order',
  INGEST_PURCHASE_ORDER: 'Ingest purchase order',
  INGEST_PURCHASE_ORDER_CHANGE: 'Change order facility',
  FETCH_ORDER_UPDATES: 'Fetch order updates',
  SEND_SHIPMENT_CONFIRMATION: 'Send shipment confirmation',
  SEND_TRACKING: 'Send tracking',
  SEND_PO_ACK: 'Send PO acknowledgment',
  SEND_ASN: 'Send ASN',
  SEND_INVOICE: 'Send invoice',
  PO_ACK_STATUS_CHECK: 'PO acknowledgment status check',
  ASN_STATUS_CHECK: 'ASN status check',
  INVOICE_STATUS_CHECK: 'Invoice status check',
  INGEST_ORDER_PUT: 'Update order',
  SEND_INVENTORY_ADVICE: 'Send inventory advice',
} as const;
export type ActionType = keyof typeof ACTION_TYPE_LABELS;
export const ACTION_TYPES = Object.keys(ACTION_TYPE_LABELS) as [ActionType, ...ActionType[]];

export const TRANSACTION_SORT_FIELDS = [
  'created_at',
  'updated_at',
  'execution_status',
  'action_type',
] as const;
export type TransactionSortField = (typeof TRANSACTION_SORT_FIELDS)[number];

export const TRANSACTION_LIMITS = {
  pageSizeDefault: 50,
  /** A larger page_size is clamped to this. */
  pageSizeMax: 100,
  /** Trigram search needs three characters; shorter terms are refused rather than scanned for. */
  searchMin: 3,
  searchMax: 200,
  /** Ids per comma-separated filter. */
  idsMax: 100,
} as const;

const DATE_TIME_PATTERN =
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;

/** A query value given once (a repeated parameter arrives as an array). */
const once = (field: string) => z.string({ error: `${field} must be given once` });

const uuidParam = (field: string) =>
  once(field)
    .regex(UUID_TEXT, `${field} must be a UUID`)
    .transform((value) => value.toLowerCase());

/** Comma-separated UUIDs, any of which matches; an empty value is no filter. */
const uuidListParam = (field: string) =>
  once(field)
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .refine((ids) => ids.every((part) => UUID_TEXT.test(part)), {
      message: `${field} must be comma-separated UUIDs`,
    })
    .refine((ids) => ids.length <= TRANSACTION_LIMITS.idsMax, {
      message: `${field} may list at most ${TRANSACTION_LIMITS.idsMax} UUIDs`,
    })
    .transform((ids) => [...new Set(ids.map((part) => part.toLowerCase()))]);

/** YYYY-MM-DD of a real calendar day (the inventory check, under the name the UI imports). */
export const isCalendarDay = isCalendarDate;

/** The UTC calendar day of a date or date-time (a time without an offset is read as UTC). */
export function utcCalendarDay(text: string): string | null {
  const value = text.trim();
  if (isCalendarDay(value)) return value;
  if (!DATE_TIME_PATTERN.test(value) || !isCalendarDay(value.slice(0, 10))) return null;
  const normalised = value.replace(' ', 'T');
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(normalised) ? normalised : `${normalised}Z`;
  const time = new Date(withZone).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

const dayParam = (field: string) =>
  once(field).transform((value, ctx) => {
    const day = utcCalendarDay(value);
    if (day === null) {
      ctx.addIssue({
        code: 'custom',
        message: `${field} must be a date (YYYY-MM-DD) or an ISO 8601 date-time`,
      });
      return z.NEVER;
    }
    return day;
  });

const positiveIntParam = (field: string) =>
  z
    .union([z.string(), z.number()], { error: `${field} must be given once` })
    .transform((value, ctx) => {
      const text = String(value).trim();
      const number = /^\d+$/.test(text) ? Number(text) : NaN;
      if (!Number.isSafeInteger(number) || number < 1) {
        ctx.addIssue({ code: 'custom', message: `${field} must be a positive integer` });
        return z.NEVER;
      }
      return number;
    });

/** An unknown (or repeated) value silently means the default, as the interface says. */
const fallbackParam = <T extends string>(values: readonly [T, ...T[]], fallback: T) =>
  z.enum(values).default(fallback).catch(fallback);

/** Query of `GET /api/transactions`. Messages are the text after `Invalid query parameter: `. */
// eslint-disable-next-line no-control-regex -- the point is to find control characters
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export const transactionListQuerySchema = z.object({
  page: positiveIntParam('page').default(1),
  /** Default 50; a value above 100 is clamped to 100. */
  page_size: positiveIntParam('page_size')
    .transform((size) => Math.min(size, TRANSACTION_LIMITS.pageSizeMax))
    .default(TRANSACTION_LIMITS.pageSizeDefault),
  transaction_id: uuidParam('transaction_id').optional(),
  order_id: uuidParam('order_id').optional(),
  /** The PO number of the transaction's order, exactly. */
  po_number: once('po_number')
    .trim()
    .max(100, 'po_number must be at most 100 characters')
    // PostgreSQL refuses NUL in a text parameter, and no PO number holds control characters.
    .refine((text) => !CONTROL_CHARACTERS.test(text), {
      message: 'po_number must not contain control characters',
    })
    .optional(),
  execution_status: z
    .enum(EXECUTION_STATUSES, {
      error: `execution_status must be one of ${EXECUTION_STATUSES.join(', ')}`,
    })
    .optional(),
  action_type: z
    .enum(ACTION_TYPES, { error: `action_type must be one of ${ACTION_TYPES.join(', ')}` })
    .optional(),
  retailer_ids: uuidListParam('retailer_ids').optional(),
  brand_ids: uuidListParam('brand_ids').optional(),
  facility_ids: uuidListParam('facility_ids').optional(),
  /** `true`: rows with an error message; `false`: rows without. Case-insensitive. */
  has_error: once('has_error')
    .transform((value, ctx) => {
      const text = value.trim().toLowerCase();
      if (text !== 'true' && text !== 'false') {
        ctx.addIssue({ code: 'custom', message: 'has_error must be true or false' });
        return z.NEVER;
      }
      return text === 'true';
    })
    .optional(),
  /** On or after this UTC calendar day (a date-time counts as its day). */
  created_from: dayParam('created_from').optional(),
  /** On or before this UTC calendar day, the whole day included. */
  created_to: dayParam('created_to').optional(),
  /**
   * Case-insensitive part of the transaction id, order id, correlation id, error message or
   * request URL; at least 3 characters (blank is no search).
   */
  search: once('search')
    .trim()
    .refine((text) => text === '' || text.length >= TRANSACTION_LIMITS.searchMin, {
      message: `search must be at least ${TRANSACTION_LIMITS.searchMin} characters`,
    })
    .refine((text) => text.length <= TRANSACTION_LIMITS.searchMax, {
      message: `search must be at most ${TRANSACTION_LIMITS.searchMax} characters`,
    })
    // The full-text index refuses NUL with an error, and no logged text holds control characters.
    .refine((text) => !CONTROL_CHARACTERS.test(text), {
      message: 'search must not contain control characters',
    })
    .optional(),
  order_by: fallbackParam(TRANSACTION_SORT_FIELDS, 'created_at'),
  order_direction: fallbackParam(['asc', 'desc'] as const, 'desc'),
});
export type TransactionListQuery = z.infer<typeof transactionListQuerySchema>;
/** The query as the UI writes it into a URL (every value a string). */
export type TransactionListParams = Partial<Record<keyof TransactionListQuery, string>>;

export const transactionSchema = z.object({
  transaction_id: z.uuid(),
  /** The sentence-case phrase (e.g. `Create order`), as the interface shows in responses. */
  action_type: z.string(),
  /** The upper-case code the `action_type` filter takes (e.g. `CREATE_ORDERS_FROM`). */
  action_type_label: z.string(),
  brand_id: z.string().nullable(),
  retailer_id: z.string().nullable(),
  facility_id: z.string().nullable(),
  order_id: z.string().nullable(),
  /** The order's picksheet code and PO number (extra fields; null without an order). */
  picksheet_code: z.string().nullable(),
  po_number: z.string().nullable(),
  carton_id: z.string().nullable(),
  load_id: z.string().nullable(),
  correlation_id: z.string().nullable(),
  duration_ms: z.number().int(),
  error_message: z.string().nullable(),
  execution_status: z.enum(EXECUTION_STATUSES),
  request_method: z.string(),
  request_url: z.string(),
  request_payload: z.unknown().nullable(),
  /** `{}` when nothing was answered (a file or SFTP delivery, a refused write before a reply). */
  response_body: z.unknown(),
  /** Null when the action got no HTTP status (file and SFTP deliveries). */
  response_status: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const transactionPageSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  transactions: z.array(transactionSchema),
});
export type TransactionPage = z.infer<typeof transactionPageSchema>;
