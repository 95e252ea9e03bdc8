import Papa from 'papaparse';
import { CLAIM_LIMITS, type ImportProblem } from '../../shared/claims';
import type { CellResult } from './csv-values';

/** A header as matched against aliases: lower case, `#` as number, `%` as percent, words joined by `_`. */
export function normaliseHeader(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/#/g, ' number ')
    .replace(/%/g, ' percent ')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The fields of a file kind, each with the header names (normalised) it is read from. */
export type ColumnAliases<F extends string> = Record<F, readonly string[]>;

export interface CsvRecord<F extends string> {
  /** The row number a spreadsheet shows (the header is row 1). */
  row: number;
  /** Trimmed cells of the columns the file has; fields without a column are absent. */
  cells: Partial<Record<F, string>>;
}

export interface CsvTable<F extends string> {
  /** The fields the file has a column for, with that column's header as the file writes it. */
  present: ReadonlyMap<F, string>;
  records: CsvRecord<F>[];
  problems: ImportProblem[];
  /** The file as a whole is unusable (header, no rows, too many rows): rows are not worth checking. */
  unusable: boolean;
}

/**
 * Reads a CSV file (comma, tab, semicolon or pipe separated; quoted cells may hold line breaks):
 * the first row names the columns, matched to fields through their aliases; unknown columns are
 * ignored; blank rows are skipped. Problems are reported by spreadsheet row number.
 */
export function readCsv<F extends string>(
  text: string,
  aliases: ColumnAliases<F>,
  required: readonly F[],
): CsvTable<F> {
  const problems: ImportProblem[] = [];
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    header: false,
    skipEmptyLines: false,
    delimitersToGuess: [',', '\t', ';', '|'],
  });
  for (const error of parsed.errors) {
    if (error.type === 'Delimiter') continue;
    problems.push({ row: (error.row ?? 0) + 1, column: '', reason: error.message });
  }
  const [header = [], ...rows] = parsed.data;
  const byAlias = new Map<string, F>();
  for (const [field, names] of Object.entries(aliases) as [F, readonly string[]][]) {
    for (const name of [field, ...names]) byAlias.set(normaliseHeader(name), field);
  }
  const fieldAt: (F | undefined)[] = [];
  const seenAt = new Map<F, string>();
  for (const cell of header) {
    const field = byAlias.get(normaliseHeader(cell));
    fieldAt.push(field);
    if (!field) continue;
    const first = seenAt.get(field);
    if (first !== undefined) {
      problems.push({
        row: 1,
        column: cell.trim(),
        reason: `gives ${field} like column '${first}'; keep one of them`,
      });
    }
    seenAt.set(field, cell.trim());
  }
  for (const field of required) {
    if (!seenAt.has(field)) {
      problems.push({
        row: 1,
        column: field,
        reason: `missing column; name it ${[field, ...aliases[field]].map((n) => `'${n}'`).join(' or ')}`,
      });
    }
  }
  const headerProblems = problems.length;
  const records: CsvRecord<F>[] = [];
  rows.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    const record: CsvRecord<F> = { row: index + 2, cells: {} };
    cells.forEach((cell, column) => {
      const field = fieldAt[column];
      if (field) record.cells[field] = cell.trim();
    });
    for (const field of seenAt.keys()) record.cells[field] ??= '';
    records.push(record);
  });
  if (header.length === 0 || header.every((cell) => cell.trim() === '')) {
    problems.push({ row: 1, column: '', reason: 'the file has no header row' });
  } else if (records.length === 0) {
    problems.push({ row: 2, column: '', reason: 'the file has no data rows' });
  } else if (records.length > CLAIM_LIMITS.csvRows) {
    problems.push({
      row: records[CLAIM_LIMITS.csvRows]!.row,
      column: '',
      reason: `a file holds at most ${CLAIM_LIMITS.csvRows} data rows; split it`,
    });
  }
  const unusable =
    problems.length > headerProblems || problems.some((problem) => problem.row === 1);
  return { present: seenAt, records, problems, unusable };
}

/**
 * Reads cells of one record: a blank or absent cell is undefined (a problem when required), a
 * refused one is a problem naming the file's column. Problems go to `problems`.
 */
export function cellReader<F extends string>(
  table: Pick<CsvTable<F>, 'present'>,
  record: CsvRecord<F>,
  problems: ImportProblem[],
) {
  return <T>(field: F, parse: (text: string) => CellResult<T>, required = false): T | undefined => {
    const column = table.present.get(field) ?? field;
    const text = record.cells[field];
    if (text === undefined || text === '') {
      if (required) problems.push({ row: record.row, column, reason: 'is required' });
      return undefined;
    }
    const result = parse(text);
    if (!result.ok) {
      problems.push({ row: record.row, column, reason: result.reason });
      return undefined;
    }
    return result.value;
  };
}
