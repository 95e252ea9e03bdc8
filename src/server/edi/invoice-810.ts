/**
 * The 810 Invoice: BIG, REF*BM, N1*ST, one IT1 per shipped line (the quantity shipped, the PO's
 * unit price), TDS (the total in cents, implied two decimals), CTT. Pure; the segments between
 * ST and SE. The caller refuses an order whose shipped lines lack prices.
 */
import { productIds } from './ack-855';
import { type PoLine, x12Decimal } from './order-lines';
import { ccyymmdd, type Segment } from './x12/writer';

export interface InvoiceLine extends PoLine {
  unitPrice: number;
  shipped: number;
}

export interface InvoiceFacts {
  invoiceNumber: string;
  invoicedAt: Date;
  poNumber: string;
  poDate: Date;
  billOfLadingNumber: string | null;
  shipToName: string | null;
  shipToCode: string | null;
  lines: InvoiceLine[];
}

export function build810(facts: InvoiceFacts): Segment[] {
  const segments: Segment[] = [
    [
      'BIG',
      ccyymmdd(facts.invoicedAt),
      facts.invoiceNumber,
      ccyymmdd(facts.poDate),
      facts.poNumber,
    ],
  ];
  if (facts.billOfLadingNumber) segments.push(['REF', 'BM', facts.billOfLadingNumber]);
  if (facts.shipToName || facts.shipToCode) {
    segments.push(
      facts.shipToCode
        ? ['N1', 'ST', facts.shipToName ?? '', '92', facts.shipToCode]
        : ['N1', 'ST', facts.shipToName ?? ''],
    );
  }
  let totalCents = 0;
  for (const line of facts.lines) {
    totalCents += Math.round(line.shipped * line.unitPrice * 100);
    segments.push([
      'IT1',
      line.lineId,
      String(line.shipped),
      'EA',
      x12Decimal(line.unitPrice),
      '',
      ...productIds(line),
    ]);
  }
  segments.push(['TDS', String(totalCents)]);
  segments.push(['CTT', String(facts.lines.length)]);
  return segments;
}
