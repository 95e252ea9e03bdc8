import { z } from 'zod';
import { inboundSetSchema } from './edi-inbound';
import { uuidSchema } from './ids';

/**
 * The EDI inbox (issue 16, item 9): the inbound interchanges a clerk may see, each with its sets
 * and, when refused or rejected, the reason in clerk words; the readable text; a reprocess.
 */

export const INTERCHANGE_OUTCOMES = [
  'accepted',
  'partial',
  'rejected',
  'duplicate',
  'refused',
] as const;
export type InterchangeOutcomeValue = (typeof INTERCHANGE_OUTCOMES)[number];

export const INTERCHANGE_SOURCES = ['http', 'file', 'sftp'] as const;

export const interchangeListQuerySchema = z.object({
  outcome: z.enum(INTERCHANGE_OUTCOMES).optional(),
  connection_id: uuidSchema.optional(),
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
export type InterchangeListQuery = z.infer<typeof interchangeListQuerySchema>;

export const interchangeIdParamsSchema = z.object({ interchange_id: uuidSchema });

export const interchangeItemSchema = z.object({
  id: z.string(),
  received_at: z.string(),
  source: z.enum(INTERCHANGE_SOURCES),
  /** The polled file's name; null for one posted over HTTP. */
  file_name: z.string().nullable(),
  connection_id: z.string().nullable(),
  /** The connection is the brand's with the retailer: both names say which. */
  retailer_name: z.string().nullable(),
  brand_name: z.string().nullable(),
  /** ISA06 as sent ('' when the file is no X12 interchange). */
  sender: z.string(),
  /** ISA13 ('' when the file is no X12 interchange). */
  control_number: z.string(),
  outcome: z.enum(INTERCHANGE_OUTCOMES),
  sets: z.array(inboundSetSchema),
  /** Why it was refused or rejected, in clerk words; null otherwise. */
  reason: z.string().nullable(),
  /** When it was last reprocessed; null when never. */
  reprocessed_at: z.string().nullable(),
  /**
   * False for a file refused as too large: nothing of it was kept, so it has no text to show or
   * download and nothing to reprocess.
   */
  content_kept: z.boolean(),
});
export type InterchangeItem = z.infer<typeof interchangeItemSchema>;

export const interchangePageSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total_count: z.number().int(),
  interchanges: z.array(interchangeItemSchema),
});
export type InterchangePage = z.infer<typeof interchangePageSchema>;

export const interchangeDetailSchema = interchangeItemSchema.extend({
  /** The text as received, one segment per line (none when content_kept is false). */
  segments: z.array(z.string()),
  /** The orders its sets made, changed or cancelled. */
  orders: z.array(
    z.object({ id: z.string(), po_number: z.string().nullable(), status: z.string() }),
  ),
});
export type InterchangeDetail = z.infer<typeof interchangeDetailSchema>;
