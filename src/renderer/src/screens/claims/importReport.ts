import { z } from 'zod';
import { CLAIM_LIMITS, importProblemSchema } from '../../../../shared/claims';
import { describeError, isApiError } from '../../api/ApiError';

/** One line of the rejection report as the panel shows it. */
export interface ReportLine {
  key: string;
  /** The row as the spreadsheet numbers it (the header is row 1). */
  row: number;
  /** The column as the file names it, or a note that the whole row is meant. */
  column: string;
  reason: string;
}

/** Why an import did not happen: the service's message and, for a refused file, its rows. */
export interface ImportRefusal {
  message: string;
  lines: ReportLine[];
  /** The service listed only the first problems. */
  truncated: boolean;
}

const WHOLE_ROW = '(whole row)';

const refusalBodySchema = z.object({
  error: z.object({
    errors: z.array(importProblemSchema),
    truncated: z.boolean().optional(),
  }),
});

/** `must not be negative` reads `Must not be negative`. */
function sentence(reason: string): string {
  const text = reason.trim();
  return text === '' ? 'Not accepted' : text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What to show for a failed import: a refused file (400 with `error.errors`) becomes the report's
 * lines in row order; anything else (no rights, unknown brand, a network failure) just its message.
 */
export function importRefusalOf(error: unknown): ImportRefusal {
  const message = describeError(error);
  if (!isApiError(error) || error.status !== 400) return { message, lines: [], truncated: false };
  const parsed = refusalBodySchema.safeParse(error.body);
  if (!parsed.success) return { message, lines: [], truncated: false };
  const lines = parsed.data.error.errors
    .map((problem, index) => ({
      key: `${problem.row}-${index}`,
      row: problem.row,
      column: problem.column.trim() === '' ? WHOLE_ROW : problem.column,
      reason: sentence(problem.reason),
      index,
    }))
    .sort((a, b) => a.row - b.row || a.index - b.index)
    .map(({ index: _index, ...line }) => line);
  return { message, lines, truncated: parsed.data.error.truncated === true };
}

/** The summary after a successful import, e.g. `12 rows imported: 10 new, 2 updated.` */
export function importSummaryOf(result: {
  rows: number;
  created: number;
  updated: number;
}): string {
  const rows = `${result.rows} ${result.rows === 1 ? 'row' : 'rows'} imported`;
  return `${rows}: ${result.created} new, ${result.updated} updated.`;
}

export type CsvFileCheck = { ok: true } | { ok: false; reason: string };

/** Largest CSV the panel sends (the service's request limit, less room for the JSON around it). */
export const MAX_CSV_BYTES = CLAIM_LIMITS.importBodyBytes - 64 * 1024;

/** What the zone says about a file that is not a CSV (a PDF, a spreadsheet, an image). */
export function notCsvReason(name: string): string {
  return `This is not a CSV file: ${name}. Choose the .csv export.`;
}

/** Bytes of a file's start that `looksBinary` reads. */
export const SNIFF_BYTES = 4096;

/**
 * Whether a file's first bytes show it is not text: a PDF (`%PDF`), a zip such as an .xlsx
 * (`PK`), or any NUL byte. A PDF renamed `.csv` is caught here, before a 10 MB upload.
 */
export function looksBinary(head: Uint8Array): boolean {
  const starts = (text: string) => [...text].every((c, i) => head[i] === c.charCodeAt(0));
  return starts('%PDF') || starts('PK\u0003\u0004') || head.includes(0);
}

/** Whether a chosen file may be sent as a CSV import: a `.csv` or text file, not empty, not too big. */
export function checkCsvFile(file: { name: string; size: number; type: string }): CsvFileCheck {
  const name = file.name.toLowerCase();
  const looksCsv =
    name.endsWith('.csv') ||
    name.endsWith('.txt') ||
    name.endsWith('.tsv') ||
    file.type === 'text/csv' ||
    file.type === 'text/plain';
  if (!looksCsv) return { ok: false, reason: notCsvReason(file.name) };
  if (file.size === 0) return { ok: false, reason: `${file.name} is empty.` };
  if (file.size > MAX_CSV_BYTES) {
    return { ok: false, reason: `${file.name} is larger than 10 MB. Split it into smaller files.` };
  }
  return { ok: true };
}

/** A header cell as the service matches it: case, spaces and punctuation do not matter. */
function headerKey(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

/** Whether the file's first row has a column named `column` (e.g. `retailer_id`). */
export function csvHasColumn(csv: string, column: string): boolean {
  const firstLine = csv.split(/\r?\n/, 1)[0] ?? '';
  const wanted = headerKey(column);
  return firstLine.split(/[,\t;|]/).some((cell) => headerKey(cell.replace(/"/g, '')) === wanted);
}
