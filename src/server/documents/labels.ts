import type { LabelFormat, LabelKind, LabelUnits } from '../../shared/documents';
import { buildLabelsPdf } from './label-pdf';
import { buildLabelsZpl } from './label-zpl';
import { kindFitsUnit, type LabelRequest, type LabelUnit } from './label-model';
import { ssccProblem } from './sscc-check';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, invalidRequest, notFound } from '../core/errors';
import { labelShipment, loadDocumentOrder, skuTotals, type DocumentOrder } from './load-order';
import { recordLabelPrints } from './print-records';

export const LABEL_MESSAGES = {
  cartonNotFound: 'Carton not found',
  palletNotFound: 'Pallet not found',
  placardForPallets: 'Placards are printed for pallets only',
  nothingToLabel: 'The order has no cartons or pallets to label',
  noValidSscc: 'Labels need a valid SSCC on every carton and pallet',
} as const;

/** Which units of the order to label: a kind, and either a group or named ids. */
export interface UnitSelection {
  kind: LabelKind;
  units: LabelUnits | 'all';
  cartonIds?: readonly string[] | undefined;
  palletIds?: readonly string[] | undefined;
}

/** Statuses where the order's cartons and pallets are final, so labels can say "x OF y". */
const PACKING_COMPLETE_STATUSES: readonly string[] = ['Packed', 'Staged', 'Loaded', 'Shipped'];

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Every carton and pallet of the order as label units (SSCCs not yet checked). */
function allUnits(order: DocumentOrder): (Omit<LabelUnit, 'sscc'> & { sscc: string | null })[] {
  // While packing goes on, more cartons may follow: a total printed now would be wrong.
  const packingComplete = PACKING_COMPLETE_STATUSES.includes(order.document.order.status);
  const cartons = order.cartons.map((carton, i) => ({
    unit: 'carton' as const,
    id: carton.id,
    sscc: carton.sscc,
    sequence: i + 1,
    total: packingComplete ? order.cartons.length : null,
    contents: carton.skus.map(({ sku, quantity }) => ({ sku, quantity })),
    cartonCount: null,
    units: sum(carton.skus.map((s) => s.quantity)),
  }));
  const pallets = order.pallets.map((pallet, i) => {
    const onPallet = order.cartons.filter((c) => c.palletId === pallet.id);
    const contents = skuTotals(onPallet);
    return {
      unit: 'pallet' as const,
      id: pallet.id,
      sscc: pallet.sscc,
      sequence: i + 1,
      total: packingComplete ? order.pallets.length : null,
      contents,
      cartonCount: onPallet.length,
      units: sum(contents.map((line) => line.quantity)),
    };
  });
  return [...cartons, ...pallets];
}

/**
 * The chosen units, in order (cartons, then pallets). A named id that is not the order's is 404
 * (like an unknown one); a placard for a carton is 400; a unit without a valid SSCC is 409,
 * since a label without one would be refused at the dock.
 */
export function selectLabelUnits(order: DocumentOrder, selection: UnitSelection): LabelUnit[] {
  const every = allUnits(order);
  const named = selection.cartonIds !== undefined || selection.palletIds !== undefined;
  let chosen: typeof every;
  if (named) {
    const pick = (unit: 'carton' | 'pallet', ids: readonly string[] | undefined) =>
      [...new Set(ids ?? [])].map((id) => {
        const found = every.find((u) => u.unit === unit && u.id === id);
        if (!found) {
          throw notFound(
            unit === 'carton' ? LABEL_MESSAGES.cartonNotFound : LABEL_MESSAGES.palletNotFound,
          );
        }
        return found;
      });
    chosen = [...pick('carton', selection.cartonIds), ...pick('pallet', selection.palletIds)];
  } else {
    const wanted =
      selection.units === 'all'
        ? selection.kind === 'placard'
          ? ['pallet']
          : ['carton', 'pallet']
        : [selection.units === 'cartons' ? 'carton' : 'pallet'];
    chosen = every.filter((u) => wanted.includes(u.unit));
  }
  if (chosen.some((u) => !kindFitsUnit(selection.kind, u.unit))) {
    throw invalidRequest(LABEL_MESSAGES.placardForPallets);
  }
  if (chosen.length === 0) throw conflict(LABEL_MESSAGES.nothingToLabel);
  const problems = chosen.flatMap((u) => {
    const problem = ssccProblem(u.sscc);
    return problem ? [`${u.unit} ${u.sequence} (${u.id}): ${problem}`] : [];
  });
  if (problems.length > 0)
    throw conflict(LABEL_MESSAGES.noValidSscc, { details: problems.join('; ') });
  return chosen as LabelUnit[];
}

export interface RenderedLabels {
  body: Uint8Array | string;
  contentType: string;
  fileName: string;
  units: LabelUnit[];
}

export async function renderLabels(
  ctx: ServiceContext,
  request: LabelRequest,
  format: LabelFormat,
  baseName: string,
): Promise<RenderedLabels> {
  if (format === 'zpl') {
    return {
      body: buildLabelsZpl(request),
      contentType: 'text/plain; charset=utf-8',
      fileName: `${baseName}.zpl`,
      units: request.units,
    };
  }
  return {
    body: await buildLabelsPdf(request, ctx.clock.now()),
    contentType: 'application/pdf',
    fileName: `${baseName}.pdf`,
    units: request.units,
  };
}

export interface LabelDownload {
  kind: LabelKind;
  format: LabelFormat;
  /** The download is a print: recorded once the document is built. */
  record: boolean;
}

/** Labels of a visible order's chosen units, as PDF or ZPL; recorded when `record` is set. */
export async function orderLabels(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  selection: UnitSelection,
  download: LabelDownload,
): Promise<RenderedLabels> {
  const order = await loadDocumentOrder(ctx, user, orderId);
  const units = selectLabelUnits(order, selection);
  const single = units.length === 1 ? `-${units[0]!.sscc}` : '';
  const rendered = await renderLabels(
    ctx,
    { kind: download.kind, shipment: labelShipment(order.document), units },
    download.format,
    `labels-${download.kind}-${order.document.order.picksheet_code.replace(/[^A-Za-z0-9._-]/g, '_')}${single}`,
  );
  if (download.record)
    await recordLabelPrints(ctx, user, order.document.order.id, download.kind, units);
  return rendered;
}
