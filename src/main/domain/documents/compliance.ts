import type { ComplianceReport } from '../../../shared/documents';
import { bolDocumentSummary } from '../../db/documents';
import { buildCompliancePdf } from '../../documents/compliance-pdf';
import type { AuthUser, ServiceContext } from '../context';
import { notFound } from '../errors';
import { shipByDate } from '../../../shared/ship-by';
import { isoUtc } from '../orders/details';
import { evaluateCompliance, overallVerdict, type ComplianceFacts } from './compliance-rules';
import { loadDocumentOrder, type DocumentOrder } from './load-order';

export const COMPLIANCE_NOT_FOUND = 'Compliance report not found for this order';

const dateOf = (value: string | null) => (value ? value.slice(0, 10) : null);

function complianceFacts(
  order: DocumentOrder,
  bol: Awaited<ReturnType<typeof bolDocumentSummary>>,
): ComplianceFacts {
  const { order: row, times, items } = order.document;
  return {
    transportationMethod: row.transportation_method,
    shippedAt: isoUtc(times.shipped_at),
    asnSentAt: isoUtc(times.asn_sent_at),
    scheduledDeliveryAt: isoUtc(times.scheduled_delivery_date),
    earliestShipDate: dateOf(times.earliest_ship_date),
    latestShipDate: shipByDate(times),
    requestedDeliveryDate: dateOf(times.requested_delivery_date),
    items: items.map(({ sku, quantity }) => ({ sku, quantity })),
    pallets: order.pallets.map(({ id, sscc }) => ({ id, sscc })),
    cartons: order.cartons.map(({ id, sscc, palletId, skus }) => ({ id, sscc, palletId, skus })),
    bol: {
      documents: bol.count,
      number: bol.latest?.bill_of_lading_number ?? row.bill_of_lading_number,
    },
  };
}

/**
 * The compliance report of a visible, packed order as a PDF: each rule's verdict and reason, and
 * the facts they rest on. Unknown orders, other tenants' orders and orders never packed answer
 * 404 `Compliance report not found for this order`. Also used to build chargeback dispute packets.
 */
export async function complianceReportPdf(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<{ filename: string; bytes: Uint8Array }> {
  const order = await loadDocumentOrder(ctx, user, orderId, COMPLIANCE_NOT_FOUND);
  const { order: row, times } = order.document;
  if (!times.packed_at) throw notFound(COMPLIANCE_NOT_FOUND);
  const bol = await bolDocumentSummary(ctx.db, row.id);
  const facts = complianceFacts(order, bol);
  const now = ctx.clock.now();
  const results = evaluateCompliance(facts, now);
  const bytes = await buildCompliancePdf(
    {
      orderId: row.id,
      picksheetCode: row.picksheet_code,
      poNumber: row.po_number,
      brandName: row.brand_name,
      retailerName: row.retailer_name,
      facilityName: `${row.facility_name} (${row.external_facility_code})`,
      status: row.status,
      transportationMethod: row.transportation_method,
      carrier: row.carrier,
      facts: [
        ['Earliest ship date', facts.earliestShipDate],
        ['Latest ship date', facts.latestShipDate],
        ['Packed at', isoUtc(times.packed_at)],
        ['Shipped at', facts.shippedAt],
        ['ASN sent at', facts.asnSentAt],
        ['Scheduled delivery', facts.scheduledDeliveryAt],
        ['Requested delivery date', facts.requestedDeliveryDate],
        ['Cartons', String(facts.cartons.length)],
        ['Pallets', String(facts.pallets.length)],
        ['Bill of lading number', facts.bol.number],
        ['BOL documents uploaded', String(facts.bol.documents)],
      ],
      results,
      overall: overallVerdict(results),
    },
    now,
  );
  return { filename: `compliance_report_${row.id}.pdf`, bytes };
}

/** Endpoint 16's answer: the PDF in base64, no envelope. */
export async function complianceReport(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
): Promise<ComplianceReport> {
  const { filename, bytes } = await complianceReportPdf(ctx, user, orderId);
  return {
    filename,
    mime_type: 'application/pdf',
    pdf_content: Buffer.from(bytes).toString('base64'),
  };
}
