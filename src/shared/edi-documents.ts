import { z } from 'zod';
import { uuidSchema } from './ids';
import {
  ACKNOWLEDGE_STATUSES,
  ORDER_DOCUMENT_STATUSES,
  ORDER_DOCUMENT_TYPES,
  orderDocumentSchema,
  type AcknowledgeBody,
} from './order-documents';

/**
 * The outbound documents screens (issue 16, item 9): every document of the orders a user sees,
 * the header's count, one document read or downloaded, an order's timeline (inbound 850/860,
 * outbound 855/856/810, the 997s answering them) and the Acknowledge panel's form.
 */

export const ediDocumentListQuerySchema = z.object({
  status: z.enum(ORDER_DOCUMENT_STATUSES).optional(),
  type: z.enum(ORDER_DOCUMENT_TYPES).optional(),
  retailer_id: uuidSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
export type EdiDocumentListQuery = z.infer<typeof ediDocumentListQuerySchema>;

export const ediDocumentListItemSchema = orderDocumentSchema.extend({
  order: z.object({
    id: z.string(),
    picksheet_code: z.string(),
    po_number: z.string().nullable(),
  }),
});
export type EdiDocumentListItem = z.infer<typeof ediDocumentListItemSchema>;

export const ediDocumentPageSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  documents: z.array(ediDocumentListItemSchema),
});
export type EdiDocumentPage = z.infer<typeof ediDocumentPageSchema>;

export const ediDocumentSummarySchema = z.object({
  counts: z.object(
    Object.fromEntries(ORDER_DOCUMENT_STATUSES.map((status) => [status, z.number().int()])) as {
      [K in (typeof ORDER_DOCUMENT_STATUSES)[number]]: z.ZodNumber;
    },
  ),
  /** What needs a clerk: overdue plus failed. */
  needs_attention: z.number().int(),
});
export type EdiDocumentSummary = z.infer<typeof ediDocumentSummarySchema>;

/** One document with its content made readable: X12 one segment per line, JSON indented. */
export const orderDocumentDetailSchema = orderDocumentSchema.extend({
  readable: z.string().nullable(),
});
export type OrderDocumentDetail = z.infer<typeof orderDocumentDetailSchema>;

/** A received 997 that answered one of our documents. */
export const documentAnswerSchema = z.object({
  interchange_id: z.string(),
  interchange_control_number: z.string(),
  received_at: z.string(),
  outcome: z.enum(['accepted', 'accepted_with_errors', 'rejected']),
});

export const timelineEntrySchema = z.object({
  direction: z.enum(['in', 'out']),
  /** 850 and 860 come in; 855, 856, 810 (and JSON confirmations) go out. */
  type: z.string(),
  /** In: accepted, rejected or duplicate (the set); out: the document's status. */
  status: z.string(),
  at: z.string(),
  /** The outbound document (order_documents.id); null for an inbound set. */
  document_id: z.string().nullable(),
  /** The inbound interchange (edi_interchanges.id); null for an outbound document. */
  interchange_id: z.string().nullable(),
  control_number: z.string().nullable(),
  errors: z.array(z.string()),
  answers: z.array(documentAnswerSchema),
  /** Whether POST …/retry would send it again: failed, with content (one not built has none). */
  retryable: z.boolean(),
});
export type TimelineEntry = z.infer<typeof timelineEntrySchema>;

export const acknowledgmentOptionsSchema = z.object({
  /** Whether POST …/acknowledge can send an 855 now; reason says why not. */
  available: z.boolean(),
  reason: z.string().nullable(),
  lines: z.array(
    z.object({
      line_id: z.string(),
      sku: z.string(),
      upc: z.string().nullable(),
      quantity: z.number(),
    }),
  ),
});
export type AcknowledgmentOptions = z.infer<typeof acknowledgmentOptionsSchema>;

/** Whether POST …/invoice would send an 810 now (prices are checked when it is pressed). */
export const invoiceOptionsSchema = z.object({
  available: z.boolean(),
  /** Why not, in clerk words; null when available. */
  reason: z.string().nullable(),
});
export type InvoiceOptions = z.infer<typeof invoiceOptionsSchema>;

export const orderTimelineSchema = z.object({
  order_id: z.string(),
  entries: z.array(timelineEntrySchema),
  acknowledgment: acknowledgmentOptionsSchema,
  invoice: invoiceOptionsSchema,
});
export type OrderTimeline = z.infer<typeof orderTimelineSchema>;

/** The Acknowledge panel's form: one choice per PO line; a quantity only for quantity_changed. */
export const acknowledgeFormSchema = z.object({
  lines: z.array(
    z
      .object({
        line_id: z.string(),
        status: z.enum(ACKNOWLEDGE_STATUSES),
        quantity: z.string().trim(),
      })
      .superRefine((line, ctx) => {
        if (line.status !== 'quantity_changed') return;
        if (!/^\d{1,9}$/.test(line.quantity)) {
          ctx.addIssue({
            code: 'custom',
            path: ['quantity'],
            message: 'Enter the quantity you will ship (a whole number)',
          });
        }
      }),
  ),
});
export type AcknowledgeForm = z.infer<typeof acknowledgeFormSchema>;

/** The body POST …/acknowledge takes: accepted lines are left out (they are the default). */
export function acknowledgeBodyOf(form: AcknowledgeForm): AcknowledgeBody {
  return {
    lines: form.lines
      .filter((line) => line.status !== 'accepted')
      .map((line) =>
        line.status === 'quantity_changed'
          ? { line_id: line.line_id, status: line.status, quantity: Number(line.quantity) }
          : { line_id: line.line_id, status: line.status },
      ),
  };
}
