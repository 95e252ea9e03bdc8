/**
 * The tables sync replicates, with what it needs to know of each (docs/sync.md section 3).
 * Derived tables (billing totals, transaction counts, search) are left out: their triggers keep
 * them right when replicated rows are applied. Local-only tables (sign-in failures, the print
 * rate's admissions, idempotency answers, app settings, SSCC counters, sync bookkeeping) never
 * leave the machine.
 */
export interface ReplicatedTable {
  name: string;
  key: readonly string[];
  /** SQL giving the facility a row belongs to (`R` is the row); NULL reaches every device. */
  facility: string;
  /** SQL giving the order whose aggregate the row is part of, if any. */
  order?: string;
  /** A workstation writes it and pushes its changes; the others are written on the central only. */
  pushed: boolean;
  /**
   * Rows only ever inserted (an append never conflicts, also on a finished order): a device may
   * insert new keys only, never update or delete one (push-guards.ts).
   */
  appendOnly?: boolean;
  /** Columns where the later write wins when both sides changed them (else: a conflict). */
  laterWins?: readonly string[];
  /** Columns each replica keeps for itself: a pull never overwrites them on an existing row. */
  local?: readonly string[];
  /**
   * A workstation pushes a new row only where this holds (`R` is the row); other inserts stay on
   * the workstation, because the central refuses them (docs/sync.md, Trust model).
   */
  pushedWhere?: string;
}

/** What sending an order document records: written by its sender only (push-guards.ts). */
export const DOCUMENT_OUTCOME_COLUMNS = [
  'updated_at',
  'status',
  'error',
  'attempts',
  'next_attempt_at',
  'sent_at',
] as const;

const viaOrder = `(SELECT o.facility_id FROM orders o WHERE o.id = R.order_id)`;

export const REPLICATED_TABLES: readonly ReplicatedTable[] = [
  { name: 'organizations', key: ['id'], facility: 'NULL', pushed: false },
  { name: 'facilities', key: ['id'], facility: 'R.id', pushed: false },
  { name: 'brands', key: ['id'], facility: 'NULL', pushed: false },
  { name: 'retailers', key: ['id'], facility: 'NULL', pushed: false },
  {
    name: 'brand_facilities',
    key: ['brand_id', 'facility_id'],
    facility: 'R.facility_id',
    pushed: false,
  },
  // A local rehash of a password (auth.ts) is not pushed; the central's hash comes down.
  { name: 'users', key: ['id'], facility: 'NULL', pushed: false },
  {
    name: 'user_facilities',
    key: ['user_id', 'facility_id'],
    facility: 'R.facility_id',
    pushed: false,
  },
  {
    name: 'user_admin',
    key: ['user_id', 'brand_id', 'facility_id'],
    facility: 'R.facility_id',
    pushed: false,
  },
  {
    name: 'connections',
    key: ['id'],
    facility: 'NULL',
    pushed: false,
    // ISA13/GS06 belong to the replica that sends the connection's deliveries.
    local: ['interchange_counter', 'group_counter'],
  },
  {
    name: 'orders',
    key: ['id'],
    facility: 'R.facility_id',
    order: 'R.id',
    pushed: true,
    // The bill of lading's facts take the later write; other fields conflict (decisions.md, Sync).
    laterWins: [
      'updated_at',
      'bill_of_lading_number',
      'pro_number',
      'external_load_number',
      'carrier',
      'carrier_alpha_code',
    ],
  },
  { name: 'order_items', key: ['id'], facility: viaOrder, order: 'R.order_id', pushed: true },
  { name: 'pallets', key: ['id'], facility: viaOrder, order: 'R.order_id', pushed: true },
  { name: 'cartons', key: ['id'], facility: viaOrder, order: 'R.order_id', pushed: true },
  {
    name: 'carton_skus',
    key: ['id'],
    facility: `(SELECT o.facility_id FROM cartons c JOIN orders o ON o.id = c.order_id WHERE c.id = R.carton_id)`,
    order: `(SELECT c.order_id FROM cartons c WHERE c.id = R.carton_id)`,
    pushed: true,
  },
  {
    name: 'order_activity',
    key: ['id'],
    facility: viaOrder,
    order: 'R.order_id',
    pushed: true,
    appendOnly: true,
  },
  {
    name: 'order_bol_versions',
    key: ['id'],
    facility: viaOrder,
    order: 'R.order_id',
    pushed: true,
    appendOnly: true,
  },
  // Interchanges are taken in on the central only (edi/ingest.ts), so devices only read them;
  // one reaches the devices of the facilities of the orders it made or changed (pull.ts).
  { name: 'edi_interchanges', key: ['id'], facility: 'NULL', pushed: false },
  {
    name: 'order_po_lines',
    key: ['order_id', 'line_id'],
    facility: viaOrder,
    order: 'R.order_id',
    pushed: false,
  },
  {
    name: 'order_documents',
    key: ['id'],
    // The order's, never the row's own facility_id (a payload could claim any); a 997 of no
    // order has none and goes where its interchange goes (pull.ts).
    facility: viaOrder,
    order: 'R.order_id',
    pushed: true,
    // A document of no order is a 997 of an inbound interchange: the central's, never pushed.
    pushedWhere: 'R.order_id IS NOT NULL',
    // Only the document's sender writes these (push-guards.ts), and a sent or acknowledged
    // status is never taken back by a stale push (central-apply.ts).
    laterWins: DOCUMENT_OUTCOME_COLUMNS,
  },
  {
    name: 'advice_snapshots',
    key: ['id'],
    facility: 'R.facility_id',
    pushed: true,
    appendOnly: true,
  },
  {
    name: 'advice_deliveries',
    key: ['id'],
    facility: `(SELECT s.facility_id FROM advice_snapshots s WHERE s.id = R.snapshot_id)`,
    pushed: true,
    // Only the delivery's sender writes its outcome, so these never really race.
    laterWins: [
      'updated_at',
      'status',
      'error',
      'attempts',
      'next_attempt_at',
      'auto_retries',
      'given_up',
    ],
  },
  {
    // A delivery's document, written once by the delivery's sender (push-guards.ts).
    name: 'advice_documents',
    key: ['delivery_id'],
    facility: `(SELECT s.facility_id FROM advice_deliveries d
      JOIN advice_snapshots s ON s.id = d.snapshot_id WHERE d.id = R.delivery_id)`,
    pushed: true,
    appendOnly: true,
  },
  {
    name: 'transactions',
    key: ['transaction_id'],
    facility: 'R.facility_id',
    pushed: true,
    // A refused write that named no facility (a 400 before one was known) is the clerk's own
    // record: it belongs to no facility, so the central would refuse it and file a conflict.
    pushedWhere: 'R.facility_id IS NOT NULL',
    // Never updated: each delivery attempt is a row of its own (db/advice.ts insertAttempts).
    appendOnly: true,
  },
  { name: 'billing_prices', key: ['brand_id', 'metric'], facility: 'NULL', pushed: false },
  {
    name: 'billing_action_prices',
    key: ['brand_id', 'action_type', 'metric'],
    facility: 'NULL',
    pushed: false,
  },
  { name: 'chargebacks', key: ['id'], facility: 'NULL', pushed: false },
  { name: 'pos_rows', key: ['id'], facility: 'NULL', pushed: false },
  // Leased by the central; a device allocates only from its own (local counter in sscc_counters).
  {
    name: 'sscc_serial_blocks',
    key: ['company_prefix', 'first_serial'],
    facility: 'NULL',
    pushed: false,
  },
  {
    name: 'sync_conflicts',
    key: ['id'],
    facility: 'R.facility_id',
    pushed: true,
    laterWins: ['status', 'resolution', 'resolved_at', 'resolved_by', 'updated_at'],
  },
];

export const REPLICATED_BY_NAME = new Map(REPLICATED_TABLES.map((t) => [t.name, t]));

/** SQL of a row's key as stored in `sync_row_versions.row_key` (JSON array of the key columns). */
export function keySql(table: ReplicatedTable, row: string): string {
  return `json_array(${table.key.map((k) => `${row}.${k}`).join(', ')})`;
}

/** A scope expression written for `R`, rewritten for a trigger's NEW or OLD row. */
export function scopeSql(expression: string, row: 'NEW' | 'OLD'): string {
  return expression.replace(/\bR\./g, `${row}.`);
}

/**
 * PostgreSQL's `row_key` of a row: the same text as SQLite's json_array (no spaces, strings quoted
 * by to_json), so a central copied from SQLite keeps matching its rows (0017_sync_stamps.ts).
 */
export function postgresKeySql(table: ReplicatedTable, row: string): string {
  return `'[' || ${table.key.map((k) => `to_json(${row}.${k})::text`).join(` || ',' || `)} || ']'`;
}
