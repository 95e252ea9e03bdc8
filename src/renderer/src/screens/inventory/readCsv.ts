import Papa from 'papaparse';

/** Characters per parse step; between steps the page gets to paint and handle input. */
const CHUNK_SIZE = 32 * 1024;

/**
 * CSV or TSV text (delimiter detected) to rows of strings. Parsed in chunks that yield to the
 * event loop, so a large file does not freeze the page. (Papa's `worker: true` needs a blob:
 * worker, which the page's Content-Security-Policy does not allow.) Malformed quoting does not
 * stop the parse: the rows come through and the table shows what went wrong in them.
 */
export function readCsvText(text: string): Promise<string[][]> {
  return new Promise((resolve) => {
    const rows: string[][] = [];
    Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
      chunkSize: CHUNK_SIZE,
      skipEmptyLines: 'greedy',
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        for (const row of results.data) rows.push(row);
        parser.pause();
        setTimeout(() => parser.resume(), 0);
      },
      complete: () => resolve(rows),
    });
  });
}
