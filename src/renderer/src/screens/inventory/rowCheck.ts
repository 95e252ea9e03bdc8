import {
  inventoryItemSchema,
  parseInventoryAdvice,
  rowProblems,
  type FieldProblem,
  type InventoryItem,
  type RowProblem,
} from '../../../../shared/inventory';
import { ITEM_FIELDS, type ItemField } from './columns';
import type { RowInput } from './sheetRows';

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
   * Whether a 0 needs a status. The UI does not know the brand's connections, so it passes false
   * and leaves that rule to the service's answer to Preview or Send.
   */
  statusRequiredAtZero?: boolean;
}

/**
 * The rows judged as the service judges them: field problems from the shared schema, then the
 * row rules (`rowProblems`). Unlike the service, which stops after field problems, row rules are
 * applied to every row without field problems so everything shows at once.
 */
export function checkRows(items: readonly RowInput[], options: CheckOptions): RowCheck {
  const check = emptyCheck();
  const parsed = parseInventoryAdvice({ items });
  let valid: { index: number; item: InventoryItem }[];
  if (parsed.ok) {
    valid = parsed.value.items.map((item, index) => ({ index, item }));
  } else {
    addFieldProblems(check, parsed.problems);
    valid = items.flatMap((raw, index) => {
      if (check.cells.has(index)) return [];
      const one = inventoryItemSchema.safeParse(raw);
      return one.success ? [{ index, item: one.data }] : [];
    });
  }
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
