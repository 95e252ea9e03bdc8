import type { ColumnType, Generated } from 'kysely';

/** Tables of inventory: Kysely row types (timestamps are ISO 8601 UTC strings; JSON columns are TEXT). */
export interface ConnectionsTable {
  id: string;
  organization_id: string;
  brand_id: string;
  retailer_id: string;
  kind: 'EDI_846' | 'DIRECT_API';
  enabled: number;
  transport_json: string;
  edi_json: string | null;
  /** Last ISA13 / GS06 used; incremented in the same transaction that stores the interchange. */
  interchange_counter: Generated<number>;
  group_counter: Generated<number>;
  /** Who sends this connection's deliveries on a synced install: `central` or `workstation`. */
  sender: Generated<'central' | 'workstation'>;
  /** JSON of the `order_documents` settings (src/shared/order-documents.ts); null: none. */
  order_documents_json: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface AdviceSnapshotsTable {
  id: string;
  brand_id: string;
  facility_id: string | null;
  user_id: string;
  items_json: string;
  item_count: number;
  created_at: string;
}

/** PENDING until the transport confirms; a crash leaves PENDING rows to resume. */
export type DeliveryStatus = 'PENDING' | 'SUCCESS' | 'FAILURE';

export interface AdviceDeliveriesTable {
  id: string;
  snapshot_id: string;
  connection_id: string | null;
  organization_id: string | null;
  retailer_id: string | null;
  kind: 'EDI_846' | 'DIRECT_API' | null;
  status: DeliveryStatus;
  /** Before migration 0016 the document; since then always NULL (see AdviceDocumentsTable). */
  document: string | null;
  content_type: string | null;
  file_name: string | null;
  interchange_control_number: number | null;
  error: string | null;
  attempts: Generated<number>;
  created_at: string;
  updated_at: string;
  /** When the background drainer sends it next; null when nothing is planned. */
  next_attempt_at: string | null;
  /** Background re-deliveries so far (the backoff grows with them). */
  auto_retries: Generated<number>;
  /** 1 once the drainer stopped: too many re-deliveries, or a newer snapshot replaces it. */
  given_up: Generated<number>;
  /** The one replica that sends this delivery: a device id, `central`, or null (standalone). */
  sender_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * A delivery's exact document (the bytes sent, every time), written once in the outbox commit
 * and never updated, so that recording an outcome rewrites only the small delivery row.
 */
export interface AdviceDocumentsTable {
  delivery_id: string;
  /** The whole document when `tail` is null; else the part before the snapshot's items. */
  body: string;
  /**
   * null: `body` is the document. Else the document is body + the snapshot's `items_json` + tail:
   * a direct feed's items are the snapshot's items verbatim, so they are stored once, there.
   */
  tail: string | null;
}

export interface InventoryTables {
  connections: ConnectionsTable;
  advice_snapshots: AdviceSnapshotsTable;
  advice_deliveries: AdviceDeliveriesTable;
  advice_documents: AdviceDocumentsTable;
}
