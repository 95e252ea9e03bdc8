/**
 * The dialect pieces the scope rules need: the central's pull (pull.ts on SQLite,
 * pull.postgres.ts on PostgreSQL) writes them in its own SQL, and the rules stay one text.
 */
export interface ScopeDialect {
  /** `IN …` / `= ANY(…)` against the device's facilities. */
  inScope: string;
  /** The first key column of the version entry `v`. */
  key0: string;
  /** The row of table `tbl` (as `x`) that the version entry `v` names. */
  row: (tbl: string) => string;
  /** The device's id. */
  device: string;
  /** Whether an inbound interchange made or changed an order at one of the device's facilities. */
  interchangeHere: (interchange: string) => string;
  yes: string;
  no: string;
}

/**
 * Rows without a facility reach a device only where they concern it (docs/sync.md, Trust model):
 * users with a grant at one of its facilities; the organisations, connections and brands of its
 * facilities; the prices, claims, brand-wide log rows and brand-wide snapshots (and their
 * deliveries, of its organisations' connections) of brands working at its facilities; conflicts
 * it caused; its own SSCC blocks; inbound interchanges (and the 997s of no order answering them)
 * that made or changed an order at one of its facilities. Retailers are a directory of trading partners every order and
 * connection names, with no tenant's data in them, so every device gets them all. A table not
 * named here sends nothing. Tombstones go to every device (a key, no data).
 */
export function scopeSql(dialect: ScopeDialect): string {
  const brandHere = (brand: string) =>
    `EXISTS (SELECT 1 FROM brand_facilities b WHERE b.brand_id = ${brand} AND b.facility_id ${dialect.inScope})`;
  return `(v.facility_id ${dialect.inScope} OR (v.facility_id IS NULL AND (v.deleted = 1 OR CASE v.tbl
  WHEN 'users' THEN
    EXISTS (SELECT 1 FROM user_facilities g WHERE g.user_id = ${dialect.key0} AND g.facility_id ${dialect.inScope})
    OR EXISTS (SELECT 1 FROM user_admin g WHERE g.user_id = ${dialect.key0} AND g.facility_id ${dialect.inScope})
  WHEN 'organizations' THEN
    EXISTS (SELECT 1 FROM facilities f WHERE f.organization_id = ${dialect.key0} AND f.id ${dialect.inScope})
  WHEN 'connections' THEN EXISTS (SELECT 1 FROM connections c
    JOIN facilities f ON f.organization_id = c.organization_id
    WHERE c.id = ${dialect.key0} AND f.id ${dialect.inScope})
  WHEN 'brands' THEN ${brandHere(dialect.key0)}
  WHEN 'retailers' THEN ${dialect.yes}
  WHEN 'billing_prices' THEN ${brandHere(dialect.key0)}
  WHEN 'billing_action_prices' THEN ${brandHere(dialect.key0)}
  WHEN 'chargebacks' THEN EXISTS (SELECT 1 FROM chargebacks x
    WHERE ${dialect.row('chargebacks')} AND ${brandHere('x.brand_id')})
  WHEN 'pos_rows' THEN EXISTS (SELECT 1 FROM pos_rows x
    WHERE ${dialect.row('pos_rows')} AND ${brandHere('x.brand_id')})
  WHEN 'transactions' THEN EXISTS (SELECT 1 FROM transactions x
    WHERE ${dialect.row('transactions')} AND x.facility_id IS NULL AND ${brandHere('x.brand_id')})
  WHEN 'advice_snapshots' THEN EXISTS (SELECT 1 FROM advice_snapshots x
    WHERE ${dialect.row('advice_snapshots')} AND x.facility_id IS NULL AND ${brandHere('x.brand_id')})
  WHEN 'advice_deliveries' THEN EXISTS (SELECT 1 FROM advice_deliveries x
    JOIN advice_snapshots s ON s.id = x.snapshot_id
    WHERE ${dialect.row('advice_deliveries')}
      AND (s.facility_id ${dialect.inScope} OR (s.facility_id IS NULL AND ${brandHere('s.brand_id')}))
      AND (x.organization_id IS NULL OR x.organization_id IN
        (SELECT f.organization_id FROM facilities f WHERE f.id ${dialect.inScope})))
  WHEN 'advice_documents' THEN EXISTS (SELECT 1 FROM advice_documents x
    JOIN advice_deliveries d ON d.id = x.delivery_id
    JOIN advice_snapshots s ON s.id = d.snapshot_id
    WHERE ${dialect.row('advice_documents')}
      AND (s.facility_id ${dialect.inScope} OR (s.facility_id IS NULL AND ${brandHere('s.brand_id')}))
      AND (d.organization_id IS NULL OR d.organization_id IN
        (SELECT f.organization_id FROM facilities f WHERE f.id ${dialect.inScope})))
  WHEN 'edi_interchanges' THEN EXISTS (SELECT 1 FROM edi_interchanges x
    WHERE ${dialect.row('edi_interchanges')} AND ${dialect.interchangeHere('x')})
  WHEN 'order_documents' THEN EXISTS (SELECT 1 FROM order_documents x
    JOIN edi_interchanges i ON i.id = x.interchange_id
    WHERE ${dialect.row('order_documents')} AND x.order_id IS NULL AND ${dialect.interchangeHere('i')})
  WHEN 'sync_conflicts' THEN EXISTS (SELECT 1 FROM sync_conflicts x
    WHERE ${dialect.row('sync_conflicts')} AND x.facility_id IS NULL AND x.client_id = ${dialect.device})
  WHEN 'sscc_serial_blocks' THEN EXISTS (SELECT 1 FROM sscc_serial_blocks x
    WHERE ${dialect.row('sscc_serial_blocks')} AND x.device_id = ${dialect.device})
  ELSE ${dialect.no} END)))`;
}
