import { z } from 'zod';
import { uuidSchema } from './ids';
import { hostKeySha256Schema } from './sftp-host-key';

/**
 * Order documents exchanged with retailers (DESIGN.md, "Order documents with retailers"): a
 * connection's `order_documents` settings in the seed bundle, and the documents list the service
 * answers for an order.
 */

/** Outbound X12 sets a connection may send. */
export const OUTBOUND_SET_TYPES = ['855', '856', '810'] as const;

const SFTP_CREDENTIAL_MESSAGE = 'an sftp inbound directory needs a password or a privateKey';

/**
 * An SFTP directory polled for inbound interchanges, on the partner's server or a VAN mailbox.
 * The server's host key is required (nothing is sent to an unverified server); exactly one
 * credential; the password or key is sealed at rest (server/core/sealed-order-documents.ts).
 */
export const inboundSftpSchema = z
  .strictObject({
    type: z.literal('sftp'),
    host: z.string().trim().min(1, 'must name the SFTP server').max(255),
    port: z.number().int().min(1).max(65535).default(22),
    username: z.string().trim().min(1, 'must name the SFTP user').max(200),
    password: z.string().min(1, 'must not be empty (leave it out for a privateKey)').optional(),
    privateKey: z.string().min(1, 'must not be empty (leave it out for a password)').optional(),
    /** The remote directory (absolute, or relative to the login directory). */
    directory: z.string().trim().min(1, 'must name the remote directory').max(1000),
    host_key_sha256: hostKeySha256Schema,
  })
  .refine((s) => s.password !== undefined || s.privateKey !== undefined, {
    message: SFTP_CREDENTIAL_MESSAGE,
    path: ['password'],
  })
  .refine((s) => s.password === undefined || s.privateKey === undefined, {
    message: 'an sftp inbound directory takes a password or a privateKey, not both',
    path: ['privateKey'],
  });
export type InboundSftpSettings = z.infer<typeof inboundSftpSchema>;

/** Where a connection's inbound interchanges are picked up (polled). */
const inboundSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('file'), directory: z.string().min(1) }),
  inboundSftpSchema,
]);
export type InboundSettings = z.infer<typeof inboundSchema>;

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

/**
 * Whether POST …/retry would send a document again: a failed one with content. One that could
 * not be built has none (the retry refuses it), so no Retry is offered for it.
 */
export function isRetryable(document: { status: string; content_type: string | null }): boolean {
  return document.status === 'failed' && document.content_type !== null;
}

/** POST …/acknowledge: per PO line (PO101) a choice; lines not named are accepted. */
export const ACKNOWLEDGE_STATUSES = [
  'accepted',
  'rejected',
  'backordered',
  'quantity_changed',
] as const;
export const acknowledgeLineSchema = z
  .strictObject({
    line_id: z.string().trim().min(1).max(20),
    status: z.enum(ACKNOWLEDGE_STATUSES),
    quantity: z.number().int().min(0).max(1_000_000_000).optional(),
  })
  .refine((line) => line.status !== 'quantity_changed' || line.quantity !== undefined, {
    message: 'quantity_changed needs a quantity',
    path: ['quantity'],
  });
export type AcknowledgeLine = z.infer<typeof acknowledgeLineSchema>;
export const acknowledgeBodySchema = z.strictObject({
  lines: z.array(acknowledgeLineSchema).max(10_000).default([]),
});
export type AcknowledgeBody = z.infer<typeof acknowledgeBodySchema>;

/** What acknowledge and invoice answer: the documents they made. */
export const madeDocumentsSchema = z.object({
  order_id: z.string(),
  documents: orderDocumentListSchema,
});
