import Papa from 'papaparse';

/** Characters per parse step; between steps the page gets to paint and handle input. */
const CHUNK_SIZE = 32 * 1024;

/** Papa's delimiter guess, made without empty lines (they would spoil it). */
function delimiterOf(text: string): string {
  return Papa.parse<string[]>(text, { preview: 20, skipEmptyLines: 'greedy' }).meta.delimiter;
}

/**
 * CSV or TSV text (delimiter detected) to rows of strings. Parsed in chunks that yield to the
 * event loop, so a large file does not freeze the page. (Papa's `worker: true` needs a blob:
 * worker, which the page's Content-Security-Policy does not allow.) Malformed quoting does not
 * stop the parse: the rows come through and the table shows what went wrong in them.
 */
export function readCsvText(text: string): Promise<string[][]> {
  return new Promise((resolve) => {
    const rows: string[][] = [];
    const body = text.replace(/^\uFEFF/, '');
    Papa.parse<string[]>(body, {
      delimiter: delimiterOf(body),
      chunkSize: CHUNK_SIZE,
      // Empty lines are kept (and skipped later) so every row keeps its spreadsheet number.
      skipEmptyLines: false,
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        for (const row of results.data) rows.push(row);
        parser.pause();
        setTimeout(() => parser.resume(), 0);
      },
      complete: () => {
        // The empty row after a final line break is not a row of the sheet.
        while (rows.length > 0 && rows[rows.length - 1]!.every((cell) => cell.trim() === '')) {
          rows.pop();
        }
        resolve(rows);
      },
    });
  });
}
