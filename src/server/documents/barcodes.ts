import bwipjs from 'bwip-js/node';
import type { PDFPage } from 'pdf-lib';
import { drawFilledRects } from './pdf-kit';

/**
 * Barcodes encoded by bwip-js (`raw`: bar widths or the module matrix) and drawn into the PDF as
 * vector rectangles: sharp at any printer resolution, and no PNG to decode and embed per label.
 */

/** A linear symbol: bars as [start, width] in modules, and its width in modules. */
export interface LinearSymbol {
  modules: number;
  bars: [number, number][];
}

/** A 2D symbol: dark modules as horizontal runs [row, column, length]. */
export interface MatrixSymbol {
  columns: number;
  rows: number;
  runs: [number, number, number][];
}

/** GS1 logistics labels: at least 10 modules of quiet zone each side of a GS1-128 symbol. */
export const GS1_128_QUIET_MODULES = 10;

/** The GS1-128 symbol of an element string such as `(00)006141410000000012`. */
export function gs1128Symbol(elementString: string): LinearSymbol {
  const [symbol] = bwipjs.raw({ bcid: 'gs1-128', text: elementString });
  if (!symbol || !('sbs' in symbol)) throw new Error('bwip-js gave no linear symbol');
  const bars: [number, number][] = [];
  let at = 0;
  symbol.sbs.forEach((width, index) => {
    // Even entries are bars, odd ones spaces.
    if (index % 2 === 0) bars.push([at, width]);
    at += width;
  });
  return { modules: at, bars };
}

/** A QR code of plain text, such as a GS1 Digital Link URI. */
export function qrSymbol(text: string): MatrixSymbol {
  // BWIPP's default error correction for QR is M (15 %).
  const [symbol] = bwipjs.raw({ bcid: 'qrcode', text });
  if (!symbol || !('pixs' in symbol)) throw new Error('bwip-js gave no matrix symbol');
  const { pixs, pixx: columns, pixy: rows } = symbol;
  const runs: [number, number, number][] = [];
  for (let row = 0; row < rows; row++) {
    let column = 0;
    while (column < columns) {
      if (pixs[row * columns + column] !== 1) {
        column++;
        continue;
      }
      const start = column;
      while (column < columns && pixs[row * columns + column] === 1) column++;
      runs.push([row, start, column - start]);
    }
  }
  return { columns, rows, runs };
}

/** Draws a linear symbol with its bottom-left at (x, y), `moduleWidth` points per module. */
export function drawLinear(
  page: PDFPage,
  symbol: LinearSymbol,
  x: number,
  y: number,
  moduleWidth: number,
  height: number,
) {
  drawFilledRects(
    page,
    symbol.bars.map(([start, width]) => [x + start * moduleWidth, y, width * moduleWidth, height]),
  );
}

/** Draws a matrix symbol with its top-left at (x, top), `moduleSize` points per module. */
export function drawMatrix(
  page: PDFPage,
  symbol: MatrixSymbol,
  x: number,
  top: number,
  moduleSize: number,
) {
  drawFilledRects(
    page,
    symbol.runs.map(([row, column, length]) => [
      x + column * moduleSize,
      top - (row + 1) * moduleSize,
      length * moduleSize,
      moduleSize,
    ]),
  );
}
