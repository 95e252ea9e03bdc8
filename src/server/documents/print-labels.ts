import {
  NO_LABEL_PRINTER,
  type PrintLabelsBody,
  type PrintLabelsResult,
} from '../../shared/documents';
import { buildLabelsZpl } from './label-zpl';
import {
  PrinterAddressRefused,
  PrinterSendError,
  sendToPrinter,
  type PrinterAddress,
} from './label-printer';
import type { AuthUser, ServiceContext } from '../core/context';
import { conflict, DomainError } from '../core/errors';
import { admitPrint } from './print-rate';
import { selectLabelUnits } from './labels';
import { labelShipment, loadDocumentOrder } from './load-order';
import { recordLabelPrints } from './print-records';
import { labelPrinterSetting } from './printer-settings';

export const PRINT_MESSAGES = {
  printed: 'Labels sent to the printer',
  noPrinter: NO_LABEL_PRINTER,
} as const;

/** The printer did not take the labels (HTTP 502, one message for every cause); nothing recorded. */
export class PrinterUnavailable extends DomainError {
  constructor(readonly failure: PrinterSendError) {
    super('internal', 'INTERNAL_SERVER_ERROR', failure.message);
  }
}

/**
 * Sends the chosen labels of a visible order to the label printer as ZPL, then records them as
 * printed. The send happens outside any transaction; the record is written only once the printer
 * took every byte, so a failed send is never counted (billing charges for prints).
 */
export async function printLabels(
  ctx: ServiceContext,
  user: AuthUser,
  orderId: string,
  body: PrintLabelsBody,
): Promise<PrintLabelsResult> {
  const order = await loadDocumentOrder(ctx, user, orderId);
  const units = selectLabelUnits(order, {
    kind: body.kind,
    units: body.units,
    cartonIds: body.carton_ids,
    palletIds: body.pallet_ids,
  });
  const setting = await labelPrinterSetting(ctx);
  if (setting.host === null) throw conflict(PRINT_MESSAGES.noPrinter);
  await admitPrint(ctx, user);
  const printer: PrinterAddress = { host: setting.host, port: setting.port };
  const zpl = buildLabelsZpl({ kind: body.kind, shipment: labelShipment(order.document), units });
  const bytes = Buffer.from(zpl, 'utf8');
  try {
    await sendToPrinter(printer, bytes, {
      network: ctx.labelPrinterNetwork,
      servicePorts: ctx.servicePorts,
    });
  } catch (error) {
    if (error instanceof PrinterSendError) throw new PrinterUnavailable(error);
    if (error instanceof PrinterAddressRefused) throw conflict(error.message);
    throw error;
  }
  await recordLabelPrints(ctx, user, order.document.order.id, body.kind, units);
  return { labels: units.length, bytes: bytes.length, printer };
}
