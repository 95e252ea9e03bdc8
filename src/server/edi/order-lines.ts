/**
 * An order's lines as the 855 and 810 name them: the PO's line id (PO101, kept in the line's
 * pass_through as `line_id` by an 850 ingest; else the line's position from 1) and its unit price
 * (pass_through `unit_price`, kept from PO104; null when the order carries none).
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
