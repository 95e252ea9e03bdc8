import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { upsertPosRowsByKey } from './queries';
import type { PosRowsTable } from './tables';
import {
  CLAIM_LIMITS,
  type ClaimsImportBody,
  type ImportProblem,
  type ImportResult,
} from '../../shared/claims';
import type { AuthUser, ServiceContext } from '../core/context';
import { cellReader, readCsv, type ColumnAliases } from './csv';
import { addDays, dateCell, moneyCell, percentCell, textCell, unitsCell } from './csv-values';
import { recordScopes, requestScope } from './import-scope';
import { flagDuplicates, refuseFile } from './import-report';
import { posMetricColumns } from './pos-values';
import { requireCentralWrite } from '../sync/role';

type Field =
  | 'sku'
  | 'location'
  | 'start_date'
  | 'end_date'
  | 'units_sold'
  | 'revenue'
  | 'cogs'
  | 'returns'
  | 'net_units'
  | 'gross_margin'
  | 'margin_percent'
  | 'inventory_units'
  | 'inventory_cost'
  | 'damaged_inventory_units'
  | 'damaged_inventory_cost'
  | 'on_order_units'
  | 'on_order_cost'
  | 'brand_id'
  | 'retailer_id';

/** Header names retailers' POS exports use for each field (matched after normaliseHeader). */
export const POS_COLUMNS: ColumnAliases<Field> = {
  sku: [
    'item',
    'item number',
    'item #',
    'item id',
    'vendor sku',
    'product sku',
    'vendor stock number',
  ],
  location: ['store', 'store number', 'store #', 'store name', 'store id', 'location id', 'door'],
  start_date: [
    'week start',
    'week start date',
    'period start',
    'begin date',
    'from',
    'week beginning',
  ],
  end_date: ['week end', 'week ending', 'week end date', 'week ending date', 'period end', 'to'],
  units_sold: ['units', 'sales units', 'pos units', 'qty sold', 'quantity sold', 'unit sales'],
  revenue: [
    'sales',
    'sales $',
    'sales dollars',
    'pos sales',
    'net sales',
    'sales amount',
    'retail sales',
  ],
  cogs: ['cost', 'cost of goods sold', 'sales cost', 'cost of sales'],
  returns: ['return units', 'returned units', 'units returned'],
  net_units: ['net units sold', 'net sales units'],
  gross_margin: ['margin', 'margin $', 'gross margin $', 'gross profit'],
  margin_percent: ['margin %', 'gross margin %', 'gm %', 'margin pct'],
  inventory_units: [
    'on hand',
    'on hand units',
    'oh units',
    'store on hand',
    'inventory',
    'inventory on hand',
  ],
  inventory_cost: ['on hand cost', 'oh cost', 'inventory cost $'],
  damaged_inventory_units: ['damaged units', 'damaged', 'damaged on hand'],
  damaged_inventory_cost: ['damaged cost'],
  on_order_units: ['on order', 'oo units', 'on order qty'],
  on_order_cost: ['oo cost', 'on order $'],
  brand_id: [],
  retailer_id: [],
};
const REQUIRED: Field[] = ['sku', 'end_date', 'units_sold', 'revenue'];

/** Days a report without start dates covers: a retail week ending on the row's end date. */
const WEEK_DAYS = 7;

/**
 * Imports a retailer's POS export: every row checked first (nothing is written when any row is
 * refused), then one transaction inserting new rows and updating the figures of rows with the
 * same brand, retailer, SKU, location, start and end date, so importing a file again adds nothing.
 * A file without start dates is weekly: each row covers the 7 days ending on its end date.
 */
export async function importPosCsv(
  ctx: ServiceContext,
  user: AuthUser,
  body: ClaimsImportBody,
): Promise<ImportResult> {
  requireCentralWrite(ctx);
  const scope = await requestScope(ctx, user, body);
  const table = readCsv(body.csv, POS_COLUMNS, REQUIRED);
  if (table.unusable) refuseFile(table.problems);
  const problems: ImportProblem[] = [...table.problems];
  const scopes = await recordScopes(ctx, user, scope, table, problems);
  const now = ctx.clock.now().toISOString();
  const importId = randomUUID();
  const weekly = !table.present.has('start_date');

  const writes: { row: number; key: string; write: Insertable<PosRowsTable> }[] = [];
  table.records.forEach((record, index) => {
    const before = problems.length;
    const cell = cellReader(table, record, problems);
    const sku = cell('sku', (v) => textCell(v, CLAIM_LIMITS.text), true);
    const location = cell('location', (v) => textCell(v, CLAIM_LIMITS.text)) ?? '';
    const endDate = cell('end_date', dateCell, true);
    const startDate = weekly
      ? endDate && addDays(endDate, 1 - WEEK_DAYS)
      : cell('start_date', dateCell, true);
    const figures = {
      units_sold: cell('units_sold', unitsCell, true) ?? 0,
      revenue: cell('revenue', moneyCell, true) ?? 0,
      cogs: cell('cogs', moneyCell) ?? 0,
      returns: cell('returns', unitsCell) ?? 0,
      net_units: cell('net_units', unitsCell),
      gross_margin: cell('gross_margin', moneyCell),
      margin_percent: cell('margin_percent', percentCell),
      inventory_units: cell('inventory_units', unitsCell) ?? 0,
      inventory_cost: cell('inventory_cost', moneyCell) ?? 0,
      damaged_inventory_units: cell('damaged_inventory_units', unitsCell) ?? 0,
      damaged_inventory_cost: cell('damaged_inventory_cost', moneyCell) ?? 0,
      on_order_units: cell('on_order_units', unitsCell) ?? 0,
      on_order_cost: cell('on_order_cost', moneyCell) ?? 0,
    };
    if (startDate && endDate && startDate > endDate) {
      problems.push({
        row: record.row,
        column: table.present.get('start_date') ?? 'start_date',
        reason: 'is after the end date',
      });
    }
    const recordScope = scopes[index];
    if (problems.length > before || !recordScope || !sku || !startDate || !endDate) return;
    writes.push({
      row: record.row,
      key: JSON.stringify([
        recordScope.brandId,
        recordScope.retailerId,
        sku,
        location,
        startDate,
        endDate,
      ]),
      write: {
        id: randomUUID(),
        brand_id: recordScope.brandId,
        retailer_id: recordScope.retailerId,
        sku,
        location,
        start_date: startDate,
        end_date: endDate,
        ...posMetricColumns(figures),
        import_id: importId,
        uploaded_at: now,
        updated_at: now,
      },
    });
  });
  flagDuplicates(writes, 'SKU, location and dates', problems);
  if (problems.length > 0) refuseFile(problems);

  const created = await ctx.db.transaction().execute((trx) =>
    upsertPosRowsByKey(
      trx,
      writes.map(({ write }) => write),
    ),
  );
  return { import_id: importId, rows: writes.length, created, updated: writes.length - created };
}
