import type { ColumnType, Generated } from 'kysely';

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
  /** Null for a document of no order (the 997 that answers an inbound group; migration 0015). */
  order_id: string | null;
  brand_id: string;
  facility_id: string | null;
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
  /** The inbound interchange a 997 answers (edi_interchanges.id); null otherwise. */
  interchange_id: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Where an interchange came in. */
export type InterchangeSource = 'http' | 'file' | 'sftp';

/**
 * accepted: every set taken in; partial: some sets rejected; rejected: none taken in; duplicate:
 * the same (sender, ISA13) was taken in before; refused: not answered at all (wrong addressee, no
 * group).
 */
export type InterchangeOutcome = 'accepted' | 'partial' | 'rejected' | 'duplicate' | 'refused';

/** Every inbound interchange, as received (migration 0015_edi_inbound). */
export interface EdiInterchangesTable {
  id: string;
  connection_id: string | null;
  organization_id: string | null;
  brand_id: string | null;
  retailer_id: string | null;
  /** ISA05/ISA06 and ISA08, trimmed; with ISA13 the duplicate key. */
  sender_qualifier: string;
  sender_id: string;
  receiver_id: string;
  control_number: string;
  source: InterchangeSource;
  file_name: string | null;
  /** Who posted it (HTTP); null for a polled file. */
  user_id: string | null;
  received_at: string;
  /** The text exactly as received. */
  raw: string;
  outcome: InterchangeOutcome;
  /** The interchange taken in first, for a duplicate. */
  duplicate_of: string | null;
  /** The answer's `data` (per set: status, PO, order, errors). */
  summary_json: string;
}

/** The PO's own lines of an order made from an 850: PO101 and the unit price, for the 855/810. */
export interface OrderPoLinesTable {
  order_id: string;
  line_id: string;
  sku: string;
  upc: string | null;
  quantity: number;
  unit_price: number | null;
  unit: string | null;
  /** The line's place in the 850 from 0, as stored (lines stored before 0016 have none). */
  position: number | null;
}

export interface EdiTables {
  order_documents: OrderDocumentsTable;
  edi_interchanges: EdiInterchangesTable;
  order_po_lines: OrderPoLinesTable;
}
