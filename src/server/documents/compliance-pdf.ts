import { PDFDocument, rgb } from 'pdf-lib';
import { FLOW_MARGIN, FLOW_WIDTH, PdfFlow, cartonRows } from './pdf-flow';
import { setDocumentInfo, standardFonts } from './pdf-kit';

/** What the compliance report shows (the domain evaluates the rules; the builder only draws). */
export interface ComplianceReportData {
  orderId: string;
  picksheetCode: string;
  poNumber: string | null;
  brandName: string;
  retailerName: string;
  facilityName: string;
  status: string;
  transportationMethod: string | null;
  carrier: string | null;
  /** Facts the verdicts rest on, label and value, printed as they are. */
  facts: [string, string | null][];
  /** The packed units, as proof for a chargeback dispute. */
  evidence: {
    pallets: { sequence: number; sscc: string | null; cartonCount: number; skus: SkuLine[] }[];
    cartons: { sequence: number; sscc: string | null; pallet: number | null; skus: SkuLine[] }[];
  };
  results: { title: string; verdict: 'pass' | 'fail' | 'not_applicable'; reason: string }[];
  overall: 'pass' | 'fail';
}

interface SkuLine {
  sku: string;
  quantity: number;
}

const PALLET_COLUMNS = [
  { title: 'Pallet', width: 46 },
  { title: 'SSCC', width: 130 },
  { title: 'Cartons', width: 50, align: 'right' as const },
  { title: 'SKUs (units)', width: 290 },
];
const CARTON_COLUMNS = [
  { title: 'Carton', width: 46 },
  { title: 'SSCC', width: 130 },
  { title: 'Pallet', width: 50 },
  { title: 'SKU', width: 230 },
  { title: 'Units', width: 60, align: 'right' as const },
];

const skuSummary = (skus: SkuLine[]) =>
  skus.length === 0 ? '(empty)' : skus.map((s) => `${s.sku} × ${s.quantity}`).join(', ');

const VERDICT_TEXT = { pass: 'PASS', fail: 'FAIL', not_applicable: 'N/A' } as const;
const VERDICT_COLOUR = {
  pass: rgb(0.1, 0.45, 0.15),
  fail: rgb(0.75, 0.1, 0.1),
  not_applicable: rgb(0.4, 0.4, 0.4),
} as const;

/** The compliance report as a Letter PDF; `at` is when it was generated, `generated` as printed. */
export async function buildCompliancePdf(
  data: ComplianceReportData,
  at: Date,
  generated: string,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts = await standardFonts(doc);
  const flow = new PdfFlow(doc, fonts, `Compliance report, PO ${data.poNumber ?? '-'}`);

  flow.text('COMPLIANCE REPORT', { size: 18, bold: true });
  flow.text(`Generated ${generated}`, { size: 8 });
  flow.gap(6);
  const header: [string, string | null][] = [
    ['PO number', data.poNumber],
    ['Picksheet', data.picksheetCode],
    ['Brand', data.brandName],
    ['Retailer', data.retailerName],
    ['Facility', data.facilityName],
    ['Status', data.status],
    [
      'Transportation',
      [data.transportationMethod, data.carrier].filter(Boolean).join(', ') || null,
    ],
  ];
  for (const [label, value] of header) flow.text(`${label}: ${value ?? '-'}`, { size: 9 });
  flow.gap(6);
  const failed = data.results.filter((r) => r.verdict === 'fail').length;
  flow.text(
    data.overall === 'pass'
      ? 'Verdict: COMPLIANT (no rule failed)'
      : `Verdict: NOT COMPLIANT (${failed} of ${data.results.length} rules failed)`,
    { size: 13, bold: true },
  );
  flow.rule();

  for (const item of data.results) {
    flow.need(40);
    flow.gap(4);
    const top = flow.y;
    flow.text(item.title, { size: 11, bold: true, width: FLOW_WIDTH - 60 });
    // The verdict, coloured, at the right of the title.
    flow.page.drawText(VERDICT_TEXT[item.verdict], {
      x: FLOW_MARGIN + FLOW_WIDTH - 40,
      y: top - 13,
      size: 11,
      font: fonts.bold,
      color: VERDICT_COLOUR[item.verdict],
    });
    flow.paragraph(item.reason, { size: 9, x: 12 });
  }
  flow.gap(6);
  flow.rule();
  flow.text('Facts', { size: 11, bold: true });
  for (const [label, value] of data.facts) flow.text(`${label}: ${value ?? '-'}`, { size: 9 });
  drawEvidence(flow, data.evidence);

  setDocumentInfo(doc, {
    title: `Compliance report, PO ${data.poNumber ?? '-'}`,
    subject: `${data.overall === 'pass' ? 'Compliant' : 'Not compliant'}: ${data.results
      .map((r) => `${r.title} ${VERDICT_TEXT[r.verdict]}`)
      .join('; ')}`,
    keywords: [data.orderId, data.picksheetCode, ...(data.poNumber ? [data.poNumber] : [])],
    at,
  });
  return doc.save();
}

/** Every pallet and carton with its SSCC and contents: what a dispute portal asks for. */
function drawEvidence(flow: PdfFlow, evidence: ComplianceReportData['evidence']) {
  flow.gap(6);
  flow.rule();
  flow.text(`Pallets (${evidence.pallets.length})`, { size: 11, bold: true });
  flow.gap(2);
  if (evidence.pallets.length === 0) flow.text('No pallets', { size: 9 });
  else
    flow.table(
      PALLET_COLUMNS,
      evidence.pallets.map((p) => [
        String(p.sequence),
        p.sscc ?? '-',
        String(p.cartonCount),
        skuSummary(p.skus),
      ]),
    );
  flow.gap(8);
  flow.text(`Cartons (${evidence.cartons.length})`, { size: 11, bold: true });
  flow.gap(2);
  if (evidence.cartons.length === 0) flow.text('No cartons', { size: 9 });
  else
    flow.table(
      CARTON_COLUMNS,
      evidence.cartons.flatMap((carton) =>
        cartonRows(
          [
            String(carton.sequence),
            carton.sscc ?? '-',
            carton.pallet === null ? 'none' : String(carton.pallet),
          ],
          carton.skus,
        ),
      ),
    );
}
