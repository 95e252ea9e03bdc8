import { scopeSql } from './pull-scope-sql';
import { REPLICATED_BY_NAME } from './synced-tables';

/*
 * The scope rules (pull-scope-sql.ts) and the xid window in PostgreSQL's SQL, for the version
 * entry `v`: $1 is the device's facilities, $2 the device; entries whose writing transaction is
 * in the window ($3 ≤ xid < $4) and whose version is after $5.
 */
const IN_SCOPE = `= ANY($1::text[])`;

/** The row of table `tbl` (as `x`) that the version entry `v` names (pull.ts: `x.rowid = v.src_rowid`). */
export const postgresRow = (tbl: string) =>
  REPLICATED_BY_NAME.get(tbl)!
    .key.map((k, i) => `x.${k}::text = (v.row_key::jsonb->>${i})`)
    .join(' AND ');

const INTERCHANGE_HERE = (interchange: string) =>
  `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE
      WHEN jsonb_typeof(${interchange}.summary_json::jsonb->'transaction_sets') = 'array'
      THEN ${interchange}.summary_json::jsonb->'transaction_sets' ELSE '[]'::jsonb END) s(value)
    JOIN orders o ON o.id = s.value->>'order_id' WHERE o.facility_id ${IN_SCOPE})`;

export const postgresScope = scopeSql({
  inScope: IN_SCOPE,
  key0: `(v.row_key::jsonb->>0)`,
  row: postgresRow,
  device: '$2',
  interchangeHere: INTERCHANGE_HERE,
  yes: 'true',
  no: 'false',
});

export const postgresInWindow = `v.xid >= $3::text::xid8 AND v.xid < $4::text::xid8 AND v.version > $5`;
