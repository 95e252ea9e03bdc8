import type { Generated } from 'kysely';

/** Tables of EDI order documents (./migrations 0014_order_documents). Times are ISO 8601 UTC. */
export type OrderDocumentType =
  '856' | '855' | '810' | '997' | 'SHIPMENT_CONFIRMATION' | 'TRACKING';

/**
 * queued until the transport took it (a crash leaves queued rows, sent on start), sent once it
 * did, failed when the last try failed; accepted, accepted_with_errors or rejected once a 997
 * answered it.
 */
export type OrderDocumentStatus =
  'queued' | 'sent' | 'failed' | 'accepted' | 'accepted_with_errors' | 'rejected';

export interface OrderDocumentsTable {
  id: string;
  order_id: string;
  brand_id: string;
  facility_id: string;
  connection_id: string | null;
  organization_id: string | null;
  retailer_id: string | null;
  type: OrderDocumentType;
  direction: 'out' | 'in';
  status: OrderDocumentStatus;
  interchange_control_number: number | null;
  group_control_number: number | null;
  transaction_control_number: string | null;
  /** The exact bytes sent (or received). */
  document: string | null;
  content_type: string | null;
  file_name: string | null;
  error: string | null;
  /** Sends tried so far. */
  attempts: Generated<number>;
  /** When the drainer sends it next; null when nothing is planned. */
  next_attempt_at: string | null;
  /** The one replica that sends it: a device id, `central`, or null (standalone). */
  sender_id: string | null;
  sent_at: string | null;
  /** When a 997 answered it. */
  acknowledged_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface EdiTables {
  order_documents: OrderDocumentsTable;
}
