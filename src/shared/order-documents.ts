import { z } from 'zod';
import { uuidSchema } from './ids';

/**
 * Order documents exchanged with retailers (DESIGN.md, "Order documents with retailers"): a
 * connection's `order_documents` settings in the seed bundle, and the documents list the service
 * answers for an order.
 */

/** Outbound X12 sets a connection may send. */
export const OUTBOUND_SET_TYPES = ['855', '856', '810'] as const;

/** Where a connection's inbound interchanges are picked up (polled). */
const inboundSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('file'), directory: z.string().min(1) }),
  z.strictObject({
    type: z.literal('sftp'),
    host: z.string().trim().min(1),
    port: z.number().int().min(1).max(65535).default(22),
    username: z.string().trim().min(1),
    password: z.string().optional(),
    privateKey: z.string().optional(),
    directory: z.string().min(1),
    host_key_sha256: z.string().trim().min(1),
  }),
]);

export const DEFAULT_ACK_HOURS = 24;

export const orderDocumentSettingsSchema = z.strictObject({
  /** The facility an inbound PO goes to when its N1*SF/WH names none. */
  facility_id: uuidSchema.nullish(),
  send: z.array(z.enum(OUTBOUND_SET_TYPES)).default([]),
  auto_acknowledge: z.boolean().default(false),
  auto_invoice: z.boolean().default(false),
  /** Hours to wait for a 997 before a sent document is overdue; fractions allowed. */
  ack_hours: z
    .number()
    .positive()
    .max(24 * 365)
    .default(DEFAULT_ACK_HOURS),
  inbound: inboundSchema.nullish(),
});
export type OrderDocumentSettings = z.infer<typeof orderDocumentSettingsSchema>;

export const ORDER_DOCUMENT_TYPES = [
  '856',
  '855',
  '810',
  '997',
  'SHIPMENT_CONFIRMATION',
  'TRACKING',
] as const;
export type OrderDocumentTypeValue = (typeof ORDER_DOCUMENT_TYPES)[number];

/** What the list shows: the stored status, or `overdue` for a sent document no 997 answered in time. */
export const ORDER_DOCUMENT_STATUSES = [
  'queued',
  'sent',
  'failed',
  'accepted',
  'accepted_with_errors',
  'rejected',
  'overdue',
] as const;
export type OrderDocumentStatusValue = (typeof ORDER_DOCUMENT_STATUSES)[number];

export const orderDocumentSchema = z.object({
  id: z.string(),
  type: z.enum(ORDER_DOCUMENT_TYPES),
  direction: z.enum(['out', 'in']),
  status: z.enum(ORDER_DOCUMENT_STATUSES),
  retailer_id: z.string().nullable(),
  retailer_name: z.string().nullable(),
  connection_id: z.string().nullable(),
  interchange_control_number: z.number().nullable(),
  group_control_number: z.number().nullable(),
  transaction_control_number: z.string().nullable(),
  content_type: z.string().nullable(),
  file_name: z.string().nullable(),
  attempts: z.number(),
  error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  sent_at: z.string().nullable(),
  acknowledged_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type OrderDocumentView = z.infer<typeof orderDocumentSchema>;

export const orderDocumentListSchema = z.array(orderDocumentSchema);
