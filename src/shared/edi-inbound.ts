import { z } from 'zod';

/** What `POST /api/v1/edi/inbound` answers for an interchange (DESIGN.md, "Order documents with retailers"). */
export const inboundSetSchema = z.object({
  /** ST01 (850, 860, 997) and ST02. */
  type: z.string(),
  control_number: z.string(),
  status: z.enum(['accepted', 'rejected', 'duplicate']),
  po_number: z.string().nullable(),
  /** The order made, cancelled or changed (for a 997: the first document's order). */
  order_id: z.string().nullable(),
  /** What is wrong, in clerk words. */
  errors: z.array(z.string()),
});

export const interchangeSummarySchema = z.object({
  interchange_id: z.string(),
  interchange_control_number: z.string(),
  duplicate: z.boolean(),
  outcome: z.enum(['accepted', 'partial', 'rejected', 'duplicate', 'refused']),
  transaction_sets: z.array(inboundSetSchema),
});
export type InterchangeSummaryView = z.infer<typeof interchangeSummarySchema>;

/** The largest interchange the route takes (about 50,000 PO lines). */
export const INBOUND_MAX_BYTES = 16 * 1024 * 1024;
