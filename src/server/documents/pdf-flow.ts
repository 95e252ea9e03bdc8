import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';
import { drawLine, drawRule, fitText, LETTER_SIZE, type Fonts } from './pdf-kit';

/**
 * Top-to-bottom writing on Letter pages for the multi-page documents (packing slip, compliance
 * report): a cursor, page breaks, tables whose header repeats on a new page, wrapped paragraphs.
 */

const [PAGE_WIDTH, PAGE_HEIGHT] = LETTER_SIZE;
export const FLOW_MARGIN = 48;
export const FLOW_WIDTH = PAGE_WIDTH - 2 * FLOW_MARGIN;

export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}

export class PdfFlow {
  page!: PDFPage;
  y = 0;
  private pageCount = 0;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
    /** Written at the top of every page after the first, e.g. the PO and page number. */
    private readonly runningHead: string,
  ) {
    this.newPage();
  }

  newPage() {
    this.page = this.doc.addPage(LETTER_SIZE);
    this.pageCount++;
    this.y = PAGE_HEIGHT - FLOW_MARGIN;
    if (this.pageCount > 1) {
      this.text(`${this.runningHead} (page ${this.pageCount})`, { size: 8 });
      this.gap(6);
    }
  }

  /** Makes room for `height` points, starting a new page when the rest of this one is short. */
  need(height: number) {
    if (this.y - height < FLOW_MARGIN) this.newPage();
  }

  gap(height: number) {
    this.y -= height;
  }

  text(value: string, options: { size?: number; bold?: boolean; x?: number; width?: number } = {}) {
    const size = options.size ?? 10;
    this.need(size + 4);
    this.y -= size + 2;
    drawLine(this.page, value, FLOW_MARGIN + (options.x ?? 0), this.y, {
      font: options.bold ? this.fonts.bold : this.fonts.regular,
      size,
      maxWidth: options.width ?? FLOW_WIDTH - (options.x ?? 0),
    });
    this.y -= 2;
  }

  /** A paragraph wrapped at word boundaries to the page width (from `x`). */
  paragraph(value: string, options: { size?: number; bold?: boolean; x?: number } = {}) {
    const font = options.bold ? this.fonts.bold : this.fonts.regular;
    const size = options.size ?? 10;
    const width = FLOW_WIDTH - (options.x ?? 0);
    for (const line of wrap(font, value, size, width)) this.text(line, { ...options, width });
  }

  rule() {
    this.need(6);
    this.y -= 3;
    drawRule(this.page, FLOW_MARGIN, FLOW_MARGIN + FLOW_WIDTH, this.y, 0.5);
    this.y -= 3;
  }

  /** A table: the header is drawn again at the top of each new page. */
  table(columns: readonly Column[], rows: readonly string[][], size = 9) {
    const rowHeight = size + 5;
    const header = () => {
      this.drawRow(
        columns,
        columns.map((c) => c.title),
        size,
        true,
      );
      drawRule(this.page, FLOW_MARGIN, FLOW_MARGIN + FLOW_WIDTH, this.y + 1, 0.5);
    };
    this.need(rowHeight * 2);
    header();
    for (const row of rows) {
      if (this.y - rowHeight < FLOW_MARGIN) {
        this.newPage();
        header();
      }
      this.drawRow(columns, row, size, false);
    }
  }

  private drawRow(
    columns: readonly Column[],
    cells: readonly string[],
    size: number,
    bold: boolean,
  ) {
    this.y -= size + 5;
    let x = FLOW_MARGIN;
    columns.forEach((column, i) => {
      drawLine(this.page, cells[i] ?? '', x, this.y + 2, {
        font: bold ? this.fonts.bold : this.fonts.regular,
        size,
        maxWidth: column.width - 6,
        align: column.align === 'right' ? 'right' : 'left',
      });
      x += column.width;
    });
  }
}

/**
 * A carton's table rows, one per SKU line (an empty carton gets one "(empty)" line): its own
 * cells on the first line only, so a carton reads as one block.
 */
export function cartonRows(
  cartonCells: readonly string[],
  skus: readonly { sku: string; quantity: number }[],
): string[][] {
  const lines = skus.length > 0 ? skus : [{ sku: '(empty)', quantity: 0 }];
  return lines.map((line, i) => [
    ...(i === 0 ? cartonCells : cartonCells.map(() => '')),
    line.sku,
    String(line.quantity),
  ]);
}

/** Words of `value` in lines no wider than `width` (a longer word is cut by fitText). */
export function wrap(font: PDFFont, value: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of value.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(fitText(font, candidate, size, 1e6).text, size) > width) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}
