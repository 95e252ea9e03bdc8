/**
 * An order's lines as the 855 and 810 name them: the PO's line id (PO101) and unit price (PO104)
 * as an 850 ingest stored them in order_po_lines (withStoredPoLines); for an order made another
 * way, the line's pass_through `line_id` and `unit_price`, else its position from 1 and no price.
 */
export interface PoLine {
  lineId: string;
  sku: string;
  upc: string | null;
  quantity: number;
  unitPrice: number | null;
}

export function poLinesOf(
  items: {
    line_number: number;
    sku: string;
    upc: string | null;
    quantity: number;
    pass_through_json: string | null;
  }[],
): PoLine[] {
  return [...items]
    .sort((a, b) => a.line_number - b.line_number)
    .map((item) => {
      const passThrough = parsePassThrough(item.pass_through_json);
      return {
        lineId: textOf(passThrough['line_id']) ?? String(item.line_number + 1),
        sku: item.sku,
        upc: item.upc,
        quantity: item.quantity,
        unitPrice: priceOf(passThrough['unit_price']),
      };
    });
}

/** The ingested PO's ids and prices, matched line by line, or by SKU where the lines differ. */
export function withStoredPoLines(
  lines: PoLine[],
  stored: readonly { line_id: string; sku: string; unit_price: number | null }[],
): PoLine[] {
  if (stored.length === 0) return lines;
  const inOrder =
    stored.length === lines.length && stored.every((row, index) => row.sku === lines[index]!.sku);
  const unused = [...stored];
  return lines.map((line, index) => {
    const at = unused.findIndex((row) => row.sku === line.sku);
    const match = inOrder ? stored[index] : at >= 0 ? unused.splice(at, 1)[0] : undefined;
    return match ? { ...line, lineId: match.line_id, unitPrice: match.unit_price } : line;
  });
}

function parsePassThrough(json: string | null): Record<string, unknown> {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  return null;
}

function priceOf(value: unknown): number | null {
  const text = textOf(value);
  if (text === null || !/^\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

/** X12 decimal (R): no trailing zeros, no exponent, at most 4 decimals. */
export function x12Decimal(value: number): string {
  return String(Math.round(value * 10_000) / 10_000);
}
