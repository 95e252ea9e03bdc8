/**
 * The 855 Purchase Order Acknowledgment: BAK, then per PO line PO1 and ACK, then CTT. Pure; the
 * segments between ST and SE. Lines not named are accepted; BAK02 follows from the lines: AD
 * when every line is accepted as ordered, RJ when every line is rejected, AC otherwise.
 */
import type { AcknowledgeLine } from '../../shared/order-documents';
import { type PoLine, x12Decimal } from './order-lines';
import { ccyymmdd, type Segment } from './x12/writer';

const ACK_CODES: Record<AcknowledgeLine['status'], string> = {
  accepted: 'IA',
  rejected: 'IR',
  backordered: 'IB',
  quantity_changed: 'IQ',
};

export interface AckFacts {
  poNumber: string;
  poDate: Date;
  acknowledgedAt: Date;
  lines: PoLine[];
  /** The clerk's choices by PO line id; a line not named is accepted. */
  choices: Map<string, AcknowledgeLine>;
}

export function build855(facts: AckFacts): Segment[] {
  const statuses = facts.lines.map((line) => facts.choices.get(line.lineId)?.status ?? 'accepted');
  const type = statuses.every((s) => s === 'accepted')
    ? 'AD'
    : statuses.every((s) => s === 'rejected')
      ? 'RJ'
      : 'AC';
  const segments: Segment[] = [
    [
      'BAK',
      '00',
      type,
      facts.poNumber,
      ccyymmdd(facts.poDate),
      '',
      '',
      '',
      '',
      ccyymmdd(facts.acknowledgedAt),
    ],
  ];
  for (const line of facts.lines) {
    const choice = facts.choices.get(line.lineId);
    const status = choice?.status ?? 'accepted';
    const quantity = choice?.quantity ?? line.quantity;
    segments.push([
      'PO1',
      line.lineId,
      String(line.quantity),
      'EA',
      line.unitPrice === null ? '' : x12Decimal(line.unitPrice),
      '',
      ...productIds(line),
    ]);
    segments.push(['ACK', ACK_CODES[status], String(quantity), 'EA']);
  }
  segments.push(['CTT', String(facts.lines.length)]);
  return segments;
}

export function productIds(line: PoLine): string[] {
  return line.upc ? ['UP', line.upc, 'VN', line.sku] : ['VN', line.sku];
}
