import { PDFDocument, type PDFPage } from 'pdf-lib';
import { ssccHumanReadable } from './sscc-check';
import { drawLinear, drawMatrix, gs1128Symbol, GS1_128_QUIET_MODULES, qrSymbol } from './barcodes';
import {
  cartonsText,
  shipToLinesOf,
  shipToZipOf,
  ssccDigitalLink,
  ssccElementString,
  type LabelRequest,
  type LabelShipment,
  type LabelUnit,
  unitTitle,
} from './label-model';
import {
  drawLine,
  drawRule,
  LABEL_SIZE,
  setDocumentInfo,
  standardFonts,
  type Fonts,
} from './pdf-kit';

/**
 * 4 x 6 inch labels, one page per carton or pallet, in the zones of the GS1 logistic label:
 * from / to, carrier and postal code, purchase order, contents, and the SSCC barcode at the
 * bottom (GS1-128, at least 90 pt high, 10-module quiet zones).
 */

const [WIDTH, HEIGHT] = LABEL_SIZE;
const MARGIN = 8;
const INNER = WIDTH - 2 * MARGIN;
const MAX_MODULE_WIDTH = 2.6;

interface Pen {
  page: PDFPage;
  fonts: Fonts;
}

const caption = ({ page, fonts }: Pen, text: string, x: number, y: number, maxWidth: number) =>
  drawLine(page, text, x, y, { font: fonts.bold, size: 6, maxWidth });

function contentsLines(unit: LabelUnit, max: number): string[] {
  const lines: string[] = [];
  if (unit.unit === 'pallet')
    lines.push(`${cartonsText(unit.cartonCount ?? 0)} · ${unit.units} units`);
  const room = max - lines.length;
  const shown = unit.contents.length > room ? room - 1 : room;
  for (const line of unit.contents.slice(0, shown)) lines.push(`${line.sku}  × ${line.quantity}`);
  if (unit.contents.length > shown) lines.push(`+ ${unit.contents.length - shown} more SKUs`);
  if (unit.contents.length === 0 && unit.unit === 'carton') lines.push('(empty)');
  return lines;
}

/** FROM (left) and TO (right), from the top down to y = 342. */
function drawAddresses(pen: Pen, shipment: LabelShipment) {
  const { page, fonts } = pen;
  caption(pen, 'SHIP FROM', MARGIN, HEIGHT - 14, 124);
  shipment.shipFrom.slice(0, 5).forEach((line, i) => {
    drawLine(page, line, MARGIN, HEIGHT - 26 - i * 10, {
      font: fonts.regular,
      size: 8,
      maxWidth: 124,
      minSize: 6,
    });
  });
  page.drawLine({ start: { x: 140, y: HEIGHT }, end: { x: 140, y: 342 }, thickness: 1 });
  caption(pen, 'SHIP TO', 146, HEIGHT - 14, 134);
  const to = shipToLinesOf(shipment);
  to.slice(0, 6).forEach((line, i) => {
    drawLine(page, line, 146, HEIGHT - 27 - i * 11, {
      font: i === 0 ? fonts.bold : fonts.regular,
      size: 9,
      maxWidth: 134,
      minSize: 6,
    });
  });
  drawRule(page, 0, WIDTH, 342);
}

/** The SSCC zone: GS1-128 barcode of (00) and its human-readable line, inside [bottom, top]. */
function drawSsccBarcode(pen: Pen, sscc: string, bottom: number, barHeight: number) {
  const symbol = gs1128Symbol(ssccElementString(sscc));
  const moduleWidth = Math.min(
    INNER / (symbol.modules + 2 * GS1_128_QUIET_MODULES),
    MAX_MODULE_WIDTH,
  );
  const x = (WIDTH - symbol.modules * moduleWidth) / 2;
  drawLinear(pen.page, symbol, x, bottom + 18, moduleWidth, barHeight);
  drawLine(pen.page, ssccHumanReadable(sscc), MARGIN, bottom + 4, {
    font: pen.fonts.bold,
    size: 12,
    maxWidth: INNER,
    align: 'center',
  });
}

function drawGs1Label(pen: Pen, shipment: LabelShipment, unit: LabelUnit) {
  const { page, fonts } = pen;
  drawAddresses(pen, shipment);
  // Carrier zone: ship-to postal code (left), carrier, PRO and BOL (right).
  caption(pen, 'SHIP TO POSTAL CODE', MARGIN, 332, 124);
  drawLine(page, shipToZipOf(shipment), MARGIN, 308, {
    font: fonts.bold,
    size: 16,
    maxWidth: 124,
    minSize: 9,
  });
  page.drawLine({ start: { x: 140, y: 342 }, end: { x: 140, y: 282 }, thickness: 1 });
  caption(pen, 'CARRIER', 146, 332, 134);
  drawLine(page, shipment.carrier ?? '-', 146, 318, {
    font: fonts.bold,
    size: 10,
    maxWidth: 134,
    minSize: 7,
  });
  drawLine(page, `PRO: ${shipment.proNumber ?? '-'}`, 146, 303, {
    font: fonts.regular,
    size: 8,
    maxWidth: 134,
  });
  drawLine(page, `BOL: ${shipment.bolNumber ?? '-'}`, 146, 292, {
    font: fonts.regular,
    size: 8,
    maxWidth: 134,
  });
  drawRule(page, 0, WIDTH, 282);
  // Purchase order zone.
  caption(pen, 'PO NUMBER', MARGIN, 272, 124);
  drawLine(page, shipment.poNumber ?? '-', MARGIN, 250, {
    font: fonts.bold,
    size: 18,
    maxWidth: 124,
    minSize: 9,
  });
  drawLine(page, `Picksheet ${shipment.picksheetCode}`, MARGIN, 238, {
    font: fonts.regular,
    size: 7,
    maxWidth: 124,
  });
  drawLine(page, unitTitle(unit), 146, 264, { font: fonts.bold, size: 11, maxWidth: 134 });
  const dept = [
    shipment.deptNumber && `DEPT ${shipment.deptNumber}`,
    shipment.dcNumber && `DC ${shipment.dcNumber}`,
  ]
    .filter(Boolean)
    .join('   ');
  if (dept) drawLine(page, dept, 146, 248, { font: fonts.regular, size: 9, maxWidth: 134 });
  drawRule(page, 0, WIDTH, 232);
  // Contents zone.
  caption(pen, 'CONTENTS', MARGIN, 222, INNER);
  contentsLines(unit, 5).forEach((line, i) => {
    drawLine(page, line, MARGIN, 210 - i * 10, {
      font: fonts.regular,
      size: 8,
      maxWidth: INNER,
      minSize: 6,
    });
  });
  drawRule(page, 0, WIDTH, 158);
  // SSCC zone.
  caption(pen, 'SSCC', MARGIN, 148, INNER);
  drawSsccBarcode(pen, unit.sscc, 8, 112);
}

function drawQrLabel(pen: Pen, shipment: LabelShipment, unit: LabelUnit) {
  const { page, fonts } = pen;
  drawAddresses(pen, shipment);
  const symbol = qrSymbol(ssccDigitalLink(unit.sscc));
  // Four modules of quiet zone each side.
  const size = 190;
  const moduleSize = size / (symbol.columns + 8);
  const x = (WIDTH - symbol.columns * moduleSize) / 2;
  drawMatrix(page, symbol, x, 334 - 4 * moduleSize, moduleSize);
  drawLine(page, ssccHumanReadable(unit.sscc), MARGIN, 128, {
    font: fonts.bold,
    size: 12,
    maxWidth: INNER,
    align: 'center',
  });
  drawLine(page, ssccDigitalLink(unit.sscc), MARGIN, 116, {
    font: fonts.regular,
    size: 7,
    maxWidth: INNER,
    align: 'center',
  });
  drawRule(page, 0, WIDTH, 106);
  drawLine(page, `PO ${shipment.poNumber ?? '-'}`, MARGIN, 88, {
    font: fonts.bold,
    size: 14,
    maxWidth: 160,
    minSize: 8,
  });
  drawLine(page, unitTitle(unit), 170, 88, {
    font: fonts.bold,
    size: 10,
    maxWidth: 110,
    align: 'right',
  });
  contentsLines(unit, 4).forEach((line, i) => {
    drawLine(page, line, MARGIN, 70 - i * 10, {
      font: fonts.regular,
      size: 8,
      maxWidth: INNER,
      minSize: 6,
    });
  });
  drawLine(page, `Carrier ${shipment.carrier ?? '-'}`, MARGIN, 12, {
    font: fonts.regular,
    size: 7,
    maxWidth: INNER,
  });
}

function drawPlacard(pen: Pen, shipment: LabelShipment, unit: LabelUnit) {
  const { page, fonts } = pen;
  const centred = (text: string, y: number, size: number, bold = true, minSize = 8) =>
    drawLine(page, text, MARGIN, y, {
      font: bold ? fonts.bold : fonts.regular,
      size,
      maxWidth: INNER,
      minSize,
      align: 'center',
    });
  caption(pen, 'PO NUMBER', MARGIN, HEIGHT - 16, INNER);
  centred(shipment.poNumber ?? '-', HEIGHT - 58, 40, true, 16);
  drawRule(page, 0, WIDTH, HEIGHT - 72, 2);
  caption(pen, 'SHIP TO', MARGIN, HEIGHT - 86, INNER);
  const [name, ...rest] = shipToLinesOf(shipment);
  centred(name ?? '', HEIGHT - 108, 18, true, 9);
  rest.slice(0, 3).forEach((line, i) => centred(line, HEIGHT - 126 - i * 14, 12, false));
  centred(shipment.dcNumber ? `DC ${shipment.dcNumber}` : shipment.retailerName, 222, 26, true, 10);
  drawRule(page, 0, WIDTH, 210, 2);
  centred(unitTitle(unit), 178, 28, true, 14);
  centred(`${cartonsText(unit.cartonCount ?? 0).toUpperCase()} · ${unit.units} UNITS`, 154, 14);
  centred(
    `Carrier ${shipment.carrier ?? '-'}   Picksheet ${shipment.picksheetCode}`,
    138,
    9,
    false,
  );
  drawRule(page, 0, WIDTH, 128);
  drawSsccBarcode(pen, unit.sscc, 8, 90);
}

const DRAW = { gs1: drawGs1Label, qr: drawQrLabel, placard: drawPlacard } as const;

/** The labels as one PDF, a 4 x 6 inch page each; `at` is the document's date. */
export async function buildLabelsPdf(request: LabelRequest, at: Date): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await standardFonts(doc);
  for (const unit of request.units) {
    const page = doc.addPage(LABEL_SIZE);
    DRAW[request.kind]({ page, fonts }, request.shipment, unit);
  }
  const ssccs = request.units.map((unit) => unit.sscc);
  setDocumentInfo(doc, {
    title: `${request.kind.toUpperCase()} labels, PO ${request.shipment.poNumber ?? '-'}`,
    // The human-readable SSCCs, so a reader (or a test) finds them without parsing the drawing.
    subject: ssccs.map(ssccHumanReadable).join(', '),
    keywords: ssccs,
    at,
  });
  return doc.save();
}
