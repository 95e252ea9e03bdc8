import { readCsvText } from './readCsv';
import { readXlsxRows } from './readXlsx';
import { sheetFromTable, type SheetResult } from './sheetRows';

export const PASTED_SOURCE = 'the pasted text';

export const ACCEPTED_FILES =
  '.csv,.tsv,.txt,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const isXlsx = (file: File) =>
  /\.xlsx$/i.test(file.name) ||
  file.type === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const isText = (file: File) => /\.(csv|tsv|txt)$/i.test(file.name) || file.type.startsWith('text/');

/** A dropped or chosen file (.csv, .tsv or .xlsx) to request items, or a message saying why not. */
export async function readInventoryFile(file: File): Promise<SheetResult> {
  try {
    if (isXlsx(file)) return sheetFromTable(await readXlsxRows(file), file.name);
    if (isText(file)) return sheetFromTable(await readCsvText(await file.text()), file.name);
  } catch (error) {
    const detail = error instanceof Error && error.message ? ` (${error.message})` : '';
    return {
      ok: false,
      message: `The file could not be read${detail}. Is it a valid CSV or XLSX file?`,
    };
  }
  return {
    ok: false,
    message: 'This is not a CSV or XLSX file. Save the sheet as .csv or .xlsx and try again.',
  };
}

/** Rows pasted as CSV or TSV text (e.g. copied from a spreadsheet). */
export async function readPastedRows(text: string): Promise<SheetResult> {
  if (text.trim() === '')
    return { ok: false, message: 'Paste some rows first, with a header row.' };
  return sheetFromTable(await readCsvText(text), PASTED_SOURCE);
}
