import { describeError, isApiError } from '../../api/ApiError';
import type { FieldProblem, RowProblem } from '../../../../shared/inventory';
import {
  addCellProblem,
  addFieldProblems,
  addRowProblems,
  emptyCheck,
  type RowCheck,
} from './rowCheck';
import { ITEM_FIELDS, type ItemField } from './columns';

/** A failed Preview or Send: the message for the top of the screen and any row problems. */
export interface ServerIssues {
  message: string;
  check: RowCheck;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The 846 variant joins field problems into one string: `items.3.sku: text; items.4...`. */
function addDetailText(check: RowCheck, text: string) {
  for (const part of text.split('; ')) {
    const match = /^items\.(\d+)\.(\w+): (.*)$/s.exec(part.trim());
    const field = match?.[2];
    if (match && (ITEM_FIELDS as readonly string[]).includes(field ?? '')) {
      addCellProblem(check, Number(match[1]), field as ItemField, match[3]!);
    } else if (part.trim() !== '') {
      check.general.push(part.trim());
    }
  }
}

const isFieldProblem = (value: unknown): value is FieldProblem =>
  isRecord(value) && Array.isArray(value.loc) && typeof value.msg === 'string';

const isRowProblem = (value: unknown): value is RowProblem =>
  isRecord(value) &&
  typeof value.row_index === 'number' &&
  typeof value.field === 'string' &&
  typeof value.message === 'string';

/** What the service said when it refused a Preview or Send (400 problems go onto the cells). */
export function serverIssuesOf(error: unknown): ServerIssues {
  const check = emptyCheck();
  const message = describeError(error);
  if (!isApiError(error) || error.status !== 400 || !isRecord(error.body))
    return { message, check };
  const detail = error.body.error;
  if (!isRecord(detail)) return { message, check };
  if (Array.isArray(detail.details)) addFieldProblems(check, detail.details.filter(isFieldProblem));
  else if (typeof detail.details === 'string') addDetailText(check, detail.details);
  if (Array.isArray(detail.errors)) addRowProblems(check, detail.errors.filter(isRowProblem));
  return { message, check };
}
