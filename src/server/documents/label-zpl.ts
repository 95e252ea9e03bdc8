import { ssccHumanReadable } from './sscc-check';
import {
  cartonsText,
  shipToLinesOf,
  shipToZipOf,
  ssccDigitalLink,
  type LabelRequest,
  type LabelShipment,
  type LabelUnit,
  unitTitle,
} from './label-model';

/**
 * The same labels in ZPL II for 203 dpi thermal printers (4 x 6 in = 812 x 1218 dots), one
 * ^XA … ^XZ format per carton or pallet. Field data is UTF-8 (^CI28) written through ^FH hex
 * escapes, so an address holding `^` or `~` cannot end a field or start a command.
 */

const WIDTH = 812;
const HEIGHT = 1218;
const MARGIN = 24;
const INNER = WIDTH - 2 * MARGIN;

/** `_`, `^`, `~`, `\` and everything outside printable ASCII as `_XX` (UTF-8 bytes). */
export function zplFieldData(text: string): string {
  let out = '';
  for (const char of text.replace(/[\r\n\t]+/g, ' ')) {
    if (/^[\x20-\x7e]$/.test(char) && !'_^~\\'.includes(char)) {
      out += char;
      continue;
    }
    for (const byte of Buffer.from(char, 'utf8')) {
      out += `_${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
  }
  return out;
}

/** One line of text in a single-line field block (the printer cuts what does not fit). */
function text(
  x: number,
  y: number,
  width: number,
  height: number,
  value: string,
  align: 'L' | 'C' | 'R' = 'L',
) {
  return `^FO${x},${y}^A0N,${height},${height}^FB${width},1,0,${align}^FH^FD${zplFieldData(value)}^FS`;
}

const rule = (x: number, y: number, width: number, thickness = 3) =>
  `^FO${x},${y}^GB${width},${thickness},${thickness}^FS`;
const vrule = (x: number, y: number, height: number) => `^FO${x},${y}^GB3,${height},3^FS`;

/**
 * GS1-128 of (00) SSCC: start code C (`>;`), FNC1 (`>8`), then AI 00 and the 18 digits; the
 * human-readable line is printed separately, in the GS1 form.
 */
function ssccBarcode(sscc: string, y: number, height: number) {
  // 156 modules at 3 dots: 468 dots, centred.
  const x = Math.round((WIDTH - 156 * 3) / 2);
  return [
    `^BY3,3,${height}^FO${x},${y}^BCN,${height},N,N,N^FD>;>800${sscc}^FS`,
    text(MARGIN, y + height + 14, INNER, 36, ssccHumanReadable(sscc), 'C'),
  ];
}

function contentsLines(unit: LabelUnit, max: number): string[] {
  const lines: string[] = [];
  if (unit.unit === 'pallet')
    lines.push(`${cartonsText(unit.cartonCount ?? 0)}, ${unit.units} units`);
  const room = max - lines.length;
  const shown = unit.contents.length > room ? room - 1 : room;
  for (const line of unit.contents.slice(0, shown)) lines.push(`${line.sku}  x ${line.quantity}`);
  if (unit.contents.length > shown) lines.push(`+ ${unit.contents.length - shown} more SKUs`);
  return lines;
}

function addresses(shipment: LabelShipment): string[] {
  const to = shipToLinesOf(shipment);
  return [
    text(MARGIN, 20, 360, 18, 'SHIP FROM'),
    ...shipment.shipFrom.slice(0, 5).map((line, i) => text(MARGIN, 48 + i * 30, 360, 24, line)),
    vrule(400, 0, 270),
    text(416, 20, 372, 18, 'SHIP TO'),
    ...to.slice(0, 6).map((line, i) => text(416, 48 + i * 34, 372, i === 0 ? 30 : 26, line)),
    rule(0, 270, WIDTH),
  ];
}

function gs1Label(shipment: LabelShipment, unit: LabelUnit): string[] {
  const dept = [
    shipment.deptNumber && `DEPT ${shipment.deptNumber}`,
    shipment.dcNumber && `DC ${shipment.dcNumber}`,
  ]
    .filter(Boolean)
    .join('   ');
  return [
    ...addresses(shipment),
    text(MARGIN, 284, 360, 18, 'SHIP TO POSTAL CODE'),
    text(MARGIN, 316, 360, 48, shipToZipOf(shipment)),
    vrule(400, 270, 170),
    text(416, 284, 372, 18, 'CARRIER'),
    text(416, 312, 372, 30, shipment.carrier ?? '-'),
    text(416, 352, 372, 24, `PRO: ${shipment.proNumber ?? '-'}`),
    text(416, 384, 372, 24, `BOL: ${shipment.bolNumber ?? '-'}`),
    rule(0, 440, WIDTH),
    text(MARGIN, 454, 360, 18, 'PO NUMBER'),
    text(MARGIN, 482, 360, 52, shipment.poNumber ?? '-'),
    text(MARGIN, 546, 360, 20, `Picksheet ${shipment.picksheetCode}`),
    text(416, 470, 372, 34, unitTitle(unit)),
    ...(dept ? [text(416, 520, 372, 26, dept)] : []),
    rule(0, 580, WIDTH),
    text(MARGIN, 594, INNER, 18, 'CONTENTS'),
    ...contentsLines(unit, 5).map((line, i) => text(MARGIN, 622 + i * 30, INNER, 24, line)),
    rule(0, 780, WIDTH),
    text(MARGIN, 794, INNER, 18, 'SSCC'),
    ...ssccBarcode(unit.sscc, 840, 300),
  ];
}

function qrLabel(shipment: LabelShipment, unit: LabelUnit): string[] {
  return [
    ...addresses(shipment),
    // Model 2, 12 dots per module: about 350 dots for the URI, centred.
    `^FO${Math.round((WIDTH - 360) / 2)},300^BQN,2,12^FH^FDMA,${zplFieldData(ssccDigitalLink(unit.sscc))}^FS`,
    text(MARGIN, 700, INNER, 36, ssccHumanReadable(unit.sscc), 'C'),
    text(MARGIN, 744, INNER, 20, ssccDigitalLink(unit.sscc), 'C'),
    rule(0, 780, WIDTH),
    text(MARGIN, 800, 480, 44, `PO ${shipment.poNumber ?? '-'}`),
    text(512, 808, 276, 30, unitTitle(unit), 'R'),
    ...contentsLines(unit, 5).map((line, i) => text(MARGIN, 870 + i * 30, INNER, 24, line)),
    text(MARGIN, 1170, INNER, 22, `Carrier ${shipment.carrier ?? '-'}`),
  ];
}

function placard(shipment: LabelShipment, unit: LabelUnit): string[] {
  const [name, ...rest] = shipToLinesOf(shipment);
  return [
    text(MARGIN, 20, INNER, 18, 'PO NUMBER'),
    text(MARGIN, 50, INNER, 110, shipment.poNumber ?? '-', 'C'),
    rule(0, 176, WIDTH, 6),
    text(MARGIN, 196, INNER, 18, 'SHIP TO'),
    text(MARGIN, 226, INNER, 50, name ?? '', 'C'),
    ...rest.slice(0, 3).map((line, i) => text(MARGIN, 286 + i * 40, INNER, 34, line, 'C')),
    text(
      MARGIN,
      420,
      INNER,
      72,
      shipment.dcNumber ? `DC ${shipment.dcNumber}` : shipment.retailerName,
      'C',
    ),
    rule(0, 510, WIDTH, 6),
    text(MARGIN, 540, INNER, 80, unitTitle(unit), 'C'),
    text(
      MARGIN,
      640,
      INNER,
      40,
      `${cartonsText(unit.cartonCount ?? 0).toUpperCase()}, ${unit.units} UNITS`,
      'C',
    ),
    text(
      MARGIN,
      700,
      INNER,
      26,
      `Carrier ${shipment.carrier ?? '-'}   Picksheet ${shipment.picksheetCode}`,
      'C',
    ),
    rule(0, 750, WIDTH),
    ...ssccBarcode(unit.sscc, 800, 300),
  ];
}

const FIELDS = { gs1: gs1Label, qr: qrLabel, placard } as const;

/** The labels as ZPL, one format per unit. */
export function buildLabelsZpl(request: LabelRequest): string {
  return request.units
    .map((unit) =>
      [
        '^XA',
        '^CI28',
        `^PW${WIDTH}`,
        `^LL${HEIGHT}`,
        '^LH0,0',
        ...FIELDS[request.kind](request.shipment, unit),
        '^PQ1',
        '^XZ',
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}
