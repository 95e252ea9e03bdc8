import type { ComplianceReport } from '../../shared/documents';
import { bolDocumentSummary } from './queries';
import { buildCompliancePdf, type ComplianceReportData } from './compliance-pdf';
import { documentDate, documentTime } from './document-time';
import type { AuthUser, ServiceContext } from '../core/context';
import { notFound } from '../core/errors';
import { shipByDate } from '../../shared/ship-by';
import { isoUtc } from '../orders';
import { evaluateCompliance, overallVerdict, type ComplianceFacts } from './compliance-rules';
import { loadDocumentOrder, skuTotals, type DocumentOrder } from './load-order';

export const COMPLIANCE_NOT_FOUND = 'Compliance report not found for this order';

const dateOf = (value: string | null) => (value ? value.slice(0, 10) : null);

function complianceFacts(
  order: DocumentOrder,
  bol: Awaited<ReturnType<typeof bolDocumentSummary>>,
): ComplianceFacts {
  const { order: row, times, items } = order.document;
  return {
    transportationMethod: row.transportation_method,
    shipTo: order.document.address.ship_to_contact ?? null,
    shippedAt: isoUtc(times.shipped_at),
    asnSentAt: isoUtc(times.asn_sent_at),
    scheduledDeliveryAt: isoUtc(times.scheduled_delivery_date),
    earliestShipDate: dateOf(times.earliest_ship_date),
    shipByDate: shipByDate(times),
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

/** Named after the picksheet code clerks know the order by (characters unsafe in a name become `_`). */
export const complianceFileName = (picksheetCode: string) =>
  `compliance_report_${picksheetCode.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;

/** Pallets and cartons numbered as on their labels, with their SSCCs and contents. */
function complianceEvidence(order: DocumentOrder): ComplianceReportData['evidence'] {
  const palletNumber = new Map(order.pallets.map((p, i) => [p.id, i + 1]));
  return {
    pallets: order.pallets.map((pallet, i) => {
      const onPallet = order.cartons.filter((c) => c.palletId === pallet.id);
      return {
        sequence: i + 1,
        sscc: pallet.sscc,
        cartonCount: onPallet.length,
        skus: skuTotals(onPallet),
      };
    }),
    cartons: order.cartons.map((carton, i) => ({
      sequence: i + 1,
      sscc: carton.sscc,
      pallet: carton.palletId ? (palletNumber.get(carton.palletId) ?? null) : null,
      skus: carton.skus.map(({ sku, quantity }) => ({ sku, quantity })),
    })),
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
        ['Earliest ship date', documentDate(facts.earliestShipDate)],
        ['Ship by (latest ship date, else requested ship date)', documentDate(facts.shipByDate)],
        ['Packed at', documentTime(times.packed_at)],
        ['Shipped at', documentTime(facts.shippedAt)],
        ['ASN sent at', documentTime(facts.asnSentAt)],
        ['Scheduled delivery', documentTime(facts.scheduledDeliveryAt)],
        ['Requested delivery date', documentDate(facts.requestedDeliveryDate)],
        ['Cartons', String(facts.cartons.length)],
        ['Pallets', String(facts.pallets.length)],
        ['Bill of lading number', facts.bol.number],
        ['BOL documents uploaded', String(facts.bol.documents)],
      ],
      evidence: complianceEvidence(order),
      results,
      overall: overallVerdict(results),
    },
    now,
    documentTime(now.toISOString())!,
  );
  return { filename: complianceFileName(row.picksheet_code), bytes };
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
