import type { z } from 'zod';
import {
  complianceReportSchema,
  labelPrinterSettingSchema,
  printLabelsResultSchema,
  type ComplianceReport,
  type LabelKind,
  type LabelPrinterBody,
  type LabelPrinterSetting,
  type LabelUnits,
  type PrintLabelsBody,
  type PrintLabelsResult,
} from '../../../shared/documents';
import {
  fulfilmentViewSchema,
  gs1PrefixDataSchema,
  gs1PrefixReadSchema,
  stepResultSchema,
  type CreatePalletBody,
  type FulfilmentView,
  type ScanUnitBody,
  type StepResult,
} from '../../../shared/fulfilment';
import { ApiError } from './ApiError';
import type { ApiClient } from './client';
import type { FileTransfer } from './transfer';

/** Calls of the packing screen and the Settings screen (fulfilment steps, documents, settings). */

const orderPath = (orderId: string) => `/api/v1/orders/${encodeURIComponent(orderId)}`;
const id = encodeURIComponent;

/** The packing screen's read. */
export function fetchFulfilment(
  api: ApiClient,
  orderId: string,
  signal?: AbortSignal,
): Promise<FulfilmentView> {
  return api.get(`${orderPath(orderId)}/fulfilment`, fulfilmentViewSchema, signal);
}

async function step(
  api: ApiClient,
  path: string,
  method: 'POST' | 'PUT' | 'DELETE',
  body: unknown = {},
): Promise<StepResult> {
  return (await api.request(path, stepResultSchema, { method, body })).data;
}

/** One scanned unit (SKU or UPC) or case (case barcode) into the open carton. */
export const scanCode = (api: ApiClient, orderId: string, code: string) => {
  const body: Pick<ScanUnitBody, 'code'> = { code };
  return step(api, `${orderPath(orderId)}/scan`, 'POST', body);
};

export const closeCarton = (api: ApiClient, orderId: string, cartonId: string) =>
  step(api, `${orderPath(orderId)}/cartons/${id(cartonId)}/close`, 'POST');

export const unpackCarton = (api: ApiClient, orderId: string, cartonId: string) =>
  step(api, `${orderPath(orderId)}/cartons/${id(cartonId)}`, 'DELETE');

/** Onto a pallet, or off any pallet with null. */
export const moveCarton = (
  api: ApiClient,
  orderId: string,
  cartonId: string,
  palletId: string | null,
) =>
  step(api, `${orderPath(orderId)}/cartons/${id(cartonId)}/pallet`, 'PUT', {
    pallet_id: palletId,
  });

export const createPallet = (
  api: ApiClient,
  orderId: string,
  body: Pick<CreatePalletBody, 'carton_ids'>,
) => step(api, `${orderPath(orderId)}/pallets`, 'POST', body);

export const deletePallet = (api: ApiClient, orderId: string, palletId: string) =>
  step(api, `${orderPath(orderId)}/pallets/${id(palletId)}`, 'DELETE');

/** The steps that move the order on, by path segment. */
export type OrderStepPath =
  'start-picking' | 'complete-packing' | 'reopen-packing' | 'stage' | 'load' | 'ship' | 'cancel';

export const takeStep = (
  api: ApiClient,
  orderId: string,
  path: OrderStepPath,
  body: Record<string, unknown> = {},
) => step(api, `${orderPath(orderId)}/${path}`, 'POST', body);

/** Ship; its message says what became of the ASN (sent, queued, failed, none set up). */
export async function shipOrder(api: ApiClient, orderId: string): Promise<string> {
  const envelope = await api.request(`${orderPath(orderId)}/ship`, stepResultSchema, {
    method: 'POST',
    body: {},
  });
  return envelope.message;
}

/** Labels of one carton or pallet as a PDF; `record` makes the download count as a print. */
export function fetchUnitLabel(
  transfer: FileTransfer,
  orderId: string,
  units: LabelUnits,
  unitId: string,
  kind: LabelKind,
  signal?: AbortSignal,
): Promise<Blob> {
  const query = new URLSearchParams({ kind, format: 'pdf', record: 'true' });
  return transfer.getBlob(`${orderPath(orderId)}/labels/${units}/${id(unitId)}?${query}`, signal);
}

/** Every label of the order (cartons, pallets or both) as one PDF, recorded as printed. */
export function fetchOrderLabels(
  transfer: FileTransfer,
  orderId: string,
  units: LabelUnits | 'all',
  kind: LabelKind,
  signal?: AbortSignal,
): Promise<Blob> {
  const query = new URLSearchParams({ kind, units, format: 'pdf', record: 'true' });
  return transfer.getBlob(`${orderPath(orderId)}/labels?${query}`, signal);
}

export function fetchPackingSlip(
  transfer: FileTransfer,
  orderId: string,
  signal?: AbortSignal,
): Promise<Blob> {
  return transfer.getBlob(`${orderPath(orderId)}/packing-slip?record=true`, signal);
}

/** Labels to the label printer as ZPL. */
export async function printLabels(
  api: ApiClient,
  orderId: string,
  body: Partial<PrintLabelsBody>,
): Promise<PrintLabelsResult> {
  const answer = await api.request(`${orderPath(orderId)}/labels/print`, printLabelsResultSchema, {
    method: 'POST',
    body,
  });
  return answer.data;
}

/**
 * Endpoint 16 answers without the envelope, so it is read as text and checked here; errors still
 * come as the envelope (or `{error}`), which the text call turns into an ApiError.
 */
export async function fetchComplianceReport(
  api: ApiClient,
  orderId: string,
  signal?: AbortSignal,
): Promise<ComplianceReport> {
  const document = await api.getText(`/api/orders/compliance_report/binary/${id(orderId)}`, signal);
  let body: unknown;
  try {
    body = JSON.parse(document.text);
  } catch {
    body = null;
  }
  const parsed = complianceReportSchema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError(200, 'BAD_RESPONSE', 'The service sent an unexpected response.', body);
  }
  return parsed.data;
}

const SETTINGS_PRINTER = '/api/v1/settings/label-printer';

export function fetchLabelPrinter(
  api: ApiClient,
  signal?: AbortSignal,
): Promise<LabelPrinterSetting> {
  return api.get(SETTINGS_PRINTER, labelPrinterSettingSchema, signal);
}

export async function saveLabelPrinter(
  api: ApiClient,
  body: LabelPrinterBody,
): Promise<LabelPrinterSetting> {
  const answer = await api.request(SETTINGS_PRINTER, labelPrinterSettingSchema, {
    method: 'PUT',
    body,
  });
  return answer.data;
}

/** Removes the label printer: the packing screen then saves labels as PDFs. */
export async function removeLabelPrinter(api: ApiClient): Promise<LabelPrinterSetting> {
  const answer = await api.request(SETTINGS_PRINTER, labelPrinterSettingSchema, {
    method: 'DELETE',
  });
  return answer.data;
}

export async function saveGs1Prefix(
  api: ApiClient,
  brandId: string,
  prefix: string,
): Promise<z.infer<typeof gs1PrefixDataSchema>> {
  const answer = await api.request(
    `/api/v1/brands/${id(brandId)}/gs1-prefix`,
    gs1PrefixDataSchema,
    {
      method: 'PUT',
      body: { gs1_company_prefix: prefix },
    },
  );
  return answer.data;
}

/** A brand's current GS1 company prefix (null when none is set). */
export async function fetchGs1Prefix(
  api: ApiClient,
  brandId: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const data = await api.get(
    `/api/v1/brands/${id(brandId)}/gs1-prefix`,
    gs1PrefixReadSchema,
    signal,
  );
  return data.gs1_company_prefix;
}
