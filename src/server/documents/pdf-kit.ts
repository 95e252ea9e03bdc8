import {
  PDFDocument,
  StandardFonts,
  fill,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingGrayscaleColor,
  type PDFFont,
  type PDFPage,
} from 'pdf-lib';

/** Drawing helpers shared by the document builders (labels, packing slip, compliance report). */

export const POINTS_PER_INCH = 72;
/** 4 x 6 inch thermal label, portrait. */
export const LABEL_SIZE: [number, number] = [4 * POINTS_PER_INCH, 6 * POINTS_PER_INCH];
/** US Letter, portrait. */
export const LETTER_SIZE: [number, number] = [612, 792];

export const BLACK = rgb(0, 0, 0);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** The standard fonts need no embedding (small files, fast), at the price of WinAnsi text only. */
export async function standardFonts(doc: PDFDocument): Promise<Fonts> {
  const [regular, bold] = await Promise.all([
    doc.embedFont(StandardFonts.Helvetica),
    doc.embedFont(StandardFonts.HelveticaBold),
  ]);
  return { regular, bold };
}

/** WinAnsi's characters beyond Latin-1 (0x80-0x9F in the encoding). */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

const encodable = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return (
    (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(char)
  );
};

/** Letters with a stroke rather than an accent: NFKD leaves them whole. */
const BASE_LETTERS: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
};

/**
 * Text the standard fonts can show: accents kept where WinAnsi has the letter, else dropped
 * (`ő` → `o`), anything else (CJK, emoji, controls) becomes `?`. Addresses come from retailers'
 * orders and may hold any script; a label must still print.
 */
export function winAnsi(text: string): string {
  let out = '';
  for (const char of text.replace(/[\r\n\t]+/g, ' ')) {
    if (encodable(char)) {
      out += char;
      continue;
    }
    const base = (BASE_LETTERS[char] ?? char).normalize('NFKD').replace(/\p{M}/gu, '');
    out += base !== '' && [...base].every(encodable) ? base : '?';
  }
  return out;
}

/**
 * `text` at `size`, shrunk down to `minSize` to fit `maxWidth`, then cut with an ellipsis.
 * Returns what to draw and at which size.
 */
export function fitText(
  font: PDFFont,
  raw: string,
  size: number,
  maxWidth: number,
  minSize = size,
): { text: string; size: number } {
  const text = winAnsi(raw);
  let current = size;
  while (current > minSize && font.widthOfTextAtSize(text, current) > maxWidth) current -= 0.5;
  if (font.widthOfTextAtSize(text, current) <= maxWidth) return { text, size: current };
  let cut = text;
  while (cut.length > 0 && font.widthOfTextAtSize(`${cut}…`, current) > maxWidth) {
    cut = cut.slice(0, -1);
  }
  return { text: `${cut}…`, size: current };
}

export interface TextOptions {
  font: PDFFont;
  size: number;
  maxWidth: number;
  minSize?: number;
  align?: 'left' | 'center' | 'right';
}

/** Draws one line with its baseline at `y`, fitted to `maxWidth` from `x` (or centred on it). */
export function drawLine(page: PDFPage, raw: string, x: number, y: number, options: TextOptions) {
  const { text, size } = fitText(
    options.font,
    raw,
    options.size,
    options.maxWidth,
    options.minSize,
  );
  const width = options.font.widthOfTextAtSize(text, size);
  const left =
    options.align === 'center'
      ? x + (options.maxWidth - width) / 2
      : options.align === 'right'
        ? x + options.maxWidth - width
        : x;
  page.drawText(text, { x: left, y, size, font: options.font, color: BLACK });
}

/** A thin rule from (x1, y) to (x2, y). */
export function drawRule(page: PDFPage, x1: number, x2: number, y: number, thickness = 1) {
  page.drawLine({ start: { x: x1, y }, end: { x: x2, y }, thickness, color: BLACK });
}

/** Filled black rectangles (barcode bars and modules) as one path, one fill. */
export function drawFilledRects(
  page: PDFPage,
  rects: readonly (readonly [number, number, number, number])[],
) {
  if (rects.length === 0) return;
  page.pushOperators(
    pushGraphicsState(),
    setFillingGrayscaleColor(0),
    ...rects.map(([x, y, w, h]) => rectangle(x, y, w, h)),
    fill(),
    popGraphicsState(),
  );
}

export interface DocumentInfo {
  title: string;
  subject: string;
  keywords: string[];
  /** Creation and modification date: the builders are pure, so the caller gives the time. */
  at: Date;
}

export function setDocumentInfo(doc: PDFDocument, info: DocumentInfo) {
  doc.setTitle(winAnsi(info.title));
  doc.setSubject(info.subject);
  doc.setKeywords(info.keywords);
  doc.setProducer('Fulfillment Integration');
  doc.setCreator('Fulfillment Integration');
  doc.setCreationDate(info.at);
  doc.setModificationDate(info.at);
}

/** Lines of an address, blank parts left out. */
export function addressLines(parts: {
  name?: string | null;
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  region?: string | null;
  zip?: string | null;
  country?: string | null;
}): string[] {
  const cityLine = [parts.city, [parts.region, parts.zip].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  return [parts.name, parts.line1, parts.line2, cityLine, parts.country].filter(
    (line): line is string => typeof line === 'string' && line.trim() !== '',
  );
}
