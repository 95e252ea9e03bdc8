/**
 * The first sheet of an .xlsx file as rows of cells (strings, numbers, booleans, dates, null).
 * The reader is loaded on first use, so it stays out of the main bundle.
 */
export async function readXlsxRows(file: Blob): Promise<unknown[][]> {
  const { default: readXlsxFile } = await import('read-excel-file/browser');
  const sheets = await readXlsxFile(file);
  const first = sheets[0];
  return first ? (first.data as unknown[][]) : [];
}
