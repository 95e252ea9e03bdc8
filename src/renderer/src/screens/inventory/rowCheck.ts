import {
  inventoryItemSchema,
  MAX_ITEMS,
  parseInventoryAdvice,
  rowProblems,
  type FieldProblem,
  type InventoryItem,
  type RowProblem,
} from '../../../../shared/inventory';
import { readQuantity, readStatus } from './cellRules';
import { columnName, rowNumberOf, sentence } from './clerkMessages';
import { ITEM_FIELDS, type ItemField } from './columns';
import type { ParsedSheet, RowInput } from './sheetRows';

/** Problems found in the rows: per cell (row index, field) and for the list as a whole. */
export interface RowCheck {
  cells: Map<number, Partial<Record<ItemField, string[]>>>;
  general: string[];
}

export const emptyCheck = (): RowCheck => ({ cells: new Map(), general: [] });

const isItemField = (value: unknown): value is ItemField =>
  (ITEM_FIELDS as readonly unknown[]).includes(value);

export function addCellProblem(check: RowCheck, row: number, field: ItemField, message: string) {
  const cells = check.cells.get(row) ?? {};
  const list = cells[field] ?? [];
  if (!list.includes(message)) list.push(message);
  cells[field] = list;
  check.cells.set(row, cells);
}

/** `error.details` entries (`loc` = items, row, field) onto cells; anything else is general. */
export function addFieldProblems(check: RowCheck, problems: readonly FieldProblem[]) {
  for (const { loc, msg } of problems) {
    const [root, row, field] = loc;
    if (root === 'items' && typeof row === 'number') {
      if (isItemField(field)) addCellProblem(check, row, field, msg);
      else check.general.push(`Row ${row + 1}: ${msg}`);
    } else {
      const where = loc.filter((part) => part !== 'body').join('.');
      check.general.push(where ? `${where}: ${msg}` : msg);
    }
  }
}

/** `error.errors` entries (row_index, field) onto cells. */
export function addRowProblems(check: RowCheck, problems: readonly RowProblem[]) {
  for (const { row_index, field, message } of problems) {
    if (isItemField(field)) addCellProblem(check, row_index, field, message);
    else check.general.push(`Row ${row_index + 1}: ${message}`);
  }
}

export interface CheckOptions {
  /** Today's local day, YYYY-MM-DD. */
  today: string;
  /**
   * Whether a 0 needs a status: true when an enabled direct feed is reached (the screen asks the
   * service for the connections). While that is unknown, false: the service judges it on Preview.
   */
  statusRequiredAtZero?: boolean;
}

/**
 * The rows judged as the service judges them: field problems from the shared schema, then the
 * row rules (`rowProblems`). Unlike the service, which stops after field problems, row rules are
 * applied to every row without field problems so everything shows at once. Problems already in
 * `start` (the screen's own rules) win: their cells get no second message and their rows no row rules.
 */
export function checkRows(
  items: readonly RowInput[],
  options: CheckOptions,
  start: RowCheck = emptyCheck(),
): RowCheck {
  const check = start;
  const preChecked = new Set(check.cells.keys());
  const parsed = parseInventoryAdvice({ items });
  let valid: { index: number; item: InventoryItem }[];
  if (parsed.ok) {
    valid = parsed.value.items.map((item, index) => ({ index, item }));
  } else {
    addFieldProblems(
      check,
      parsed.problems.filter(({ loc: [, row, field] }) => {
        if (typeof row !== 'number' || !isItemField(field)) return true;
        return !check.cells.get(row)?.[field];
      }),
    );
    valid = items.flatMap((raw, index) => {
      if (check.cells.has(index)) return [];
      const one = inventoryItemSchema.safeParse(raw);
      return one.success ? [{ index, item: one.data }] : [];
    });
  }
  valid = valid.filter(({ index }) => !preChecked.has(index));
  const problems = rowProblems(
    valid.map((entry) => entry.item),
    { statusRequiredAtZero: options.statusRequiredAtZero ?? false, today: options.today },
  );
  addRowProblems(
    check,
    problems.map((problem) => ({ ...problem, row_index: valid[problem.row_index]!.index })),
  );
  return check;
}

/**
 * A sheet judged by the screen's rules for quantity and status cells (`cellRules.ts`: no
 * rounding, `1,200`, status spellings), then by the service's rules on the items it would send.
 */
export function checkSheet(sheet: ParsedSheet, options: CheckOptions): RowCheck {
  const check = emptyCheck();
  sheet.cells.forEach((cells, index) => {
    const place = (field: ItemField) =>
      sentence(`${columnName(sheet, field)} in row ${rowNumberOf(sheet, index)}`);
    if (cells.available_quantity !== undefined) {
      const quantity = readQuantity(cells.available_quantity);
      if (!quantity.ok) {
        addCellProblem(
          check,
          index,
          'available_quantity',
          `${place('available_quantity')} ${quantity.problem}.`,
        );
      }
    }
    const status = readStatus(cells.status);
    if (!status.ok) addCellProblem(check, index, 'status', `${place('status')} ${status.problem}.`);
  });
  const checked = checkRows(sheet.items, options, check);
  checked.general = checked.general.map((message) => clerkGeneralMessage(message, sheet));
  return checked;
}

/** Problems of the list as a whole, in a clerk's words. */
function clerkGeneralMessage(message: string, sheet: ParsedSheet): string {
  if (/^items: List should have at most \d+ items$/.test(message)) {
    const limit = MAX_ITEMS.toLocaleString('en-US');
    return `These are ${sheet.cells.length.toLocaleString('en-US')} rows; at most ${limit} can be sent at once. Split the file into parts of up to ${limit} rows.`;
  }
  return message;
}

/** Both sets of problems together (e.g. the local check and the service's last 400). */
export function mergeChecks(a: RowCheck, b: RowCheck | null): RowCheck {
  if (!b) return a;
  const merged = emptyCheck();
  for (const source of [a, b]) {
    for (const [row, cells] of source.cells) {
      for (const field of ITEM_FIELDS) {
        for (const message of cells[field] ?? []) addCellProblem(merged, row, field, message);
      }
    }
    for (const message of source.general) {
      if (!merged.general.includes(message)) merged.general.push(message);
    }
  }
  return merged;
}
