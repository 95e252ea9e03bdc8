import { randomUUID } from 'node:crypto';
import { upsertChargebackByKey, type ChargebackWrite } from './queries';
import type { ChargebacksTable } from './tables';
import {
  canonicalDisputeStatus,
  CLAIM_LIMITS,
  type ClaimsImportBody,
  type DisputeStatus,
  type ImportProblem,
  type ImportResult,
} from '../../shared/claims';
import type { AuthUser, ServiceContext } from '../core/context';
import { cellReader, readCsv, type ColumnAliases } from './csv';
import { dateCell, moneyCell, textCell, type CellResult } from './csv-values';
import { recordScopes, requestScope } from './import-scope';
import { flagDuplicates, refuseFile } from './import-report';
import { centsOf } from './money';
import { requireCentralWrite } from '../sync/role';

type Field =
  | 'chargeback_id'
  | 'po_number'
  | 'amount'
  | 'amount_won_back'
  | 'retailer_chargeback_code'
  | 'category'
  | 'description'
  | 'chargeback_date'
  | 'dispute_deadline'
  | 'dispute_status'
  | 'brand_id'
  | 'retailer_id';

/** Header names retailers' exports use for each field (matched after normaliseHeader). */
export const CHARGEBACK_COLUMNS: ColumnAliases<Field> = {
  chargeback_id: [
    'chargeback number',
    'chargeback #',
    'chargeback no',
    'chargeback',
    'deduction number',
    'deduction #',
    'claim number',
    'claim #',
    'case number',
  ],
  po_number: ['po', 'po #', 'po no', 'purchase order', 'purchase order number', 'purchase order #'],
  amount: ['chargeback amount', 'deduction amount', 'amount ($)', 'amount usd', 'total amount'],
  amount_won_back: ['won back', 'amount recovered', 'recovered amount', 'recovered'],
  retailer_chargeback_code: ['chargeback code', 'reason code', 'code', 'violation code'],
  category: ['chargeback category', 'chargeback type', 'type', 'violation type'],
  description: ['reason', 'reason description', 'details', 'memo', 'comments'],
  chargeback_date: [
    'date',
    'issue date',
    'issued date',
    'issued on',
    'deduction date',
    'created date',
    'invoice date',
  ],
  dispute_deadline: ['deadline', 'dispute by', 'dispute by date', 'dispute due date', 'due date'],
  dispute_status: ['status'],
  brand_id: [],
  retailer_id: [],
};
const REQUIRED: Field[] = ['chargeback_id', 'amount', 'chargeback_date'];

/** A status a new chargeback gets when the file gives none: the brand has yet to look at it. */
const NEW_STATUS: DisputeStatus = 'Pending Review';

const statusCell = (text: string): CellResult<DisputeStatus> => {
  const status = canonicalDisputeStatus(text);
  return status
    ? { ok: true, value: status }
    : { ok: false, reason: `must be one of the dispute statuses (e.g. Pending Review, Won, Lost)` };
};
const text = (max: number) => (value: string) => textCell(value, max);

/** The stored columns a re-import must not overwrite, given the file's columns and this row's cells. */
function keptColumns(
  present: ReadonlyMap<Field, string>,
  cells: Partial<Record<Field, string>>,
): (keyof ChargebacksTable)[] {
  const keep: (keyof ChargebacksTable)[] = [];
  const optional: [Field, keyof ChargebacksTable][] = [
    ['po_number', 'po_number'],
    ['retailer_chargeback_code', 'retailer_chargeback_code'],
    ['category', 'category'],
    ['description', 'description'],
    ['dispute_deadline', 'dispute_deadline'],
  ];
  for (const [field, column] of optional) if (!present.has(field)) keep.push(column);
  // The dispute's own progress is the brand's: a blank cell keeps it.
  if (!cells.dispute_status) keep.push('dispute_status');
  if (!cells.amount_won_back) keep.push('amount_won_back_cents');
  return keep;
}

/**
 * Imports a retailer's chargeback export: every row checked first (nothing is written when any
 * row is refused), then one transaction inserting new chargebacks and updating those with the
 * same brand, retailer, chargeback number and PO number, so importing a file again adds nothing.
 */
export async function importChargebacksCsv(
  ctx: ServiceContext,
  user: AuthUser,
  body: ClaimsImportBody,
): Promise<ImportResult> {
  requireCentralWrite(ctx);
  const scope = await requestScope(ctx, user, body);
  const table = readCsv(body.csv, CHARGEBACK_COLUMNS, REQUIRED);
  if (table.unusable) refuseFile(table.problems);
  const problems: ImportProblem[] = [...table.problems];
  const scopes = await recordScopes(ctx, user, scope, table, problems);
  const now = ctx.clock.now().toISOString();
  const importId = randomUUID();

  const writes: {
    row: number;
    key: string;
    write: ChargebackWrite;
    keep: (keyof ChargebacksTable)[];
  }[] = [];
  table.records.forEach((record, index) => {
    const before = problems.length;
    const cell = cellReader(table, record, problems);
    const chargebackId = cell('chargeback_id', text(CLAIM_LIMITS.text), true);
    const poNumber = cell('po_number', text(CLAIM_LIMITS.text)) ?? '';
    // Deductions are often exported as negative amounts: the chargeback is their size.
    const amount = cell('amount', moneyCell, true);
    const wonBack = cell('amount_won_back', moneyCell);
    const chargebackDate = cell('chargeback_date', dateCell, true);
    const deadline = cell('dispute_deadline', dateCell) ?? null;
    const status = cell('dispute_status', statusCell);
    const code = cell('retailer_chargeback_code', text(CLAIM_LIMITS.text)) ?? '';
    const category = cell('category', text(CLAIM_LIMITS.text)) ?? '';
    const description = cell('description', text(CLAIM_LIMITS.description)) ?? '';
    const column = (field: Field) => table.present.get(field) ?? field;
    if (wonBack !== undefined && wonBack < 0) {
      problems.push({
        row: record.row,
        column: column('amount_won_back'),
        reason: 'must not be negative',
      });
    } else if (wonBack !== undefined && amount !== undefined && wonBack > Math.abs(amount)) {
      problems.push({
        row: record.row,
        column: column('amount_won_back'),
        reason: 'must not exceed the amount',
      });
    }
    const recordScope = scopes[index];
    if (problems.length > before || !recordScope || !chargebackId || amount === undefined) return;
    writes.push({
      row: record.row,
      key: JSON.stringify([recordScope.brandId, recordScope.retailerId, chargebackId, poNumber]),
      keep: keptColumns(table.present, record.cells),
      write: {
        id: randomUUID(),
        brand_id: recordScope.brandId,
        retailer_id: recordScope.retailerId,
        chargeback_id: chargebackId,
        po_number: poNumber,
        amount_cents: centsOf(Math.abs(amount)),
        amount_won_back_cents: centsOf(wonBack ?? 0),
        retailer_chargeback_code: code,
        category,
        description,
        chargeback_date: chargebackDate!,
        uploaded_at: now,
        dispute_deadline: deadline,
        dispute_status: status ?? NEW_STATUS,
        import_id: importId,
        updated_at: now,
      },
    });
  });
  flagDuplicates(writes, 'chargeback number and PO number', problems);
  if (problems.length > 0) refuseFile(problems);

  const created = await ctx.db.transaction().execute(async (trx) => {
    let count = 0;
    for (const { write, keep } of writes) {
      if (await upsertChargebackByKey(trx, write, keep)) count++;
    }
    return count;
  });
  return { import_id: importId, rows: writes.length, created, updated: writes.length - created };
}
