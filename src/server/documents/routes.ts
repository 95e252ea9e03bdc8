import type { FastifyReply } from 'fastify';
import {
  complianceFailureSchema,
  complianceReportSchema,
  labelPrinterBodySchema,
  labelPrinterSettingSchema,
  labelQuerySchema,
  orderDocumentParamsSchema,
  orderLabelsQuerySchema,
  packingSlipQuerySchema,
  printLabelsBodySchema,
  printLabelsResultSchema,
  unitLabelParamsSchema,
} from '../../shared/documents';
import { contentDisposition } from '../core/file-name';
import { COMPLIANCE_NOT_FOUND, complianceReport } from './compliance';
import { orderLabels, type RenderedLabels } from './labels';
import { packingSlip } from './packing-slip';
import { PRINT_MESSAGES, printLabels, PrinterUnavailable } from './print-labels';
import { labelPrinterSetting, removeLabelPrinter, setLabelPrinter } from './printer-settings';
import { DomainError, notFound } from '../core/errors';
import { envelopeOf } from '../http/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';

/** Labels, packing slips, compliance report (16), label printer (issue 8). */

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });
const INVALID_ORDER_ID = 'Invalid order ID format';
/** A bad order id has its own message; a bad query the default one. */
const invalidOrderId = invalidAs({ params: INVALID_ORDER_ID });

const sendDocument = (
  reply: FastifyReply,
  document: { body: Uint8Array | string; contentType: string; fileName: string },
) =>
  reply
    .type(document.contentType)
    .header('Content-Disposition', contentDisposition(document.fileName, 'inline'))
    .header('Cache-Control', 'private, no-store')
    .send(typeof document.body === 'string' ? document.body : Buffer.from(document.body));

const labelResponses = {
  200: { description: 'The labels: application/pdf (a 4 x 6 in page each) or ZPL text' },
  400: error(
    'Invalid order or unit id, or query (kind gs1|qr|placard, format pdf|zpl, record true|false); a placard for a carton',
  ),
  401: error('Authentication failed'),
  404: error('Order not found (also another tenant’s), or Carton / Pallet not found in it'),
  409: error(
    'A chosen carton or pallet has no valid SSCC (error.details lists them), or nothing to label',
  ),
};

export const documentRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/labels',
    summary:
      'All labels of an order, one per carton and pallet (units=cartons|pallets|all), as PDF or ZPL; record=true counts it as printed',
    tag: 'Documents',
    params: orderDocumentParamsSchema,
    query: orderLabelsQuerySchema,
    responses: labelResponses,
    invalid: invalidOrderId,
    async handler({ params: { order_id }, query, request, reply }, ctx) {
      const labels: RenderedLabels = await orderLabels(
        ctx,
        userOf(request),
        order_id,
        { kind: query.kind, units: query.units },
        query,
      );
      return sendDocument(reply, labels);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/labels/:units/:unit_id',
    summary:
      'One label of a carton or pallet (units=cartons|pallets) as PDF or ZPL; record=true counts it as printed',
    tag: 'Documents',
    params: unitLabelParamsSchema,
    query: labelQuerySchema,
    responses: labelResponses,
    invalid: invalidAs({ params: 'Invalid order or unit ID' }),
    async handler({ params, query, request, reply }, ctx) {
      const ids = [params.unit_id];
      const labels = await orderLabels(
        ctx,
        userOf(request),
        params.order_id,
        params.units === 'cartons'
          ? { kind: query.kind, units: 'cartons', cartonIds: ids }
          : { kind: query.kind, units: 'pallets', palletIds: ids },
        query,
      );
      return sendDocument(reply, labels);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/v1/orders/:order_id/labels/print',
    summary:
      'Send labels of an order as ZPL to the label printer (raw TCP); recorded as printed once the printer took them',
    tag: 'Documents',
    params: orderDocumentParamsSchema,
    body: printLabelsBodySchema,
    responses: {
      200: {
        description: PRINT_MESSAGES.printed,
        schema: successEnvelope(printLabelsResultSchema),
      },
      400: error('Invalid order id or body; a placard for a carton'),
      401: error('Authentication failed'),
      404: error('Order not found (also another tenant’s), or a named carton / pallet not in it'),
      409: error(
        `${PRINT_MESSAGES.noPrinter}; the printer's address is not allowed (its name resolves to loopback, link-local or this machine); or a chosen unit has no valid SSCC`,
      ),
      429: error('More than 30 prints by this user in the last minute'),
      502: error(
        'The labels did not reach the printer, whatever the cause (one message for all); nothing recorded',
      ),
    },
    optionalBody: true,
    invalid: invalidAs({ params: INVALID_ORDER_ID, body: 'Invalid print request' }),
    async handler({ params: { order_id }, body, request, reply }, ctx) {
      try {
        const data = await printLabels(ctx, userOf(request), order_id, body);
        return { message: PRINT_MESSAGES.printed, data };
      } catch (failure) {
        // The printer is another machine: its failure is a bad gateway, not our 500.
        if (failure instanceof PrinterUnavailable)
          return reply.status(502).send(envelopeOf(failure));
        throw failure;
      }
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/packing-slip',
    summary:
      'The packing slip of an order (PDF): lines ordered and packed, cartons and their SKUs; record=true counts it',
    tag: 'Documents',
    params: orderDocumentParamsSchema,
    query: packingSlipQuerySchema,
    responses: {
      200: { description: 'The packing slip, application/pdf' },
      400: error('Invalid order id or query'),
      401: error('Authentication failed'),
      404: error('Order not found (also another tenant’s)'),
    },
    invalid: invalidOrderId,
    async handler({ params: { order_id }, query: { record }, request, reply }, ctx) {
      const slip = await packingSlip(ctx, userOf(request), order_id, record);
      return sendDocument(reply, {
        body: slip.bytes,
        contentType: 'application/pdf',
        fileName: slip.fileName,
      });
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/settings/label-printer',
    summary: 'The workstation’s label printer (host null until set); any signed-in user',
    tag: 'Documents',
    responses: {
      200: {
        description: 'Label printer retrieved successfully',
        schema: successEnvelope(labelPrinterSettingSchema),
      },
      401: error('Authentication failed'),
    },
    async handler(_input, ctx) {
      const data = await labelPrinterSetting(ctx);
      return { message: 'Label printer retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/v1/settings/label-printer',
    summary:
      'Set the label printer (host, a printer port: 9100-9102, 6101 or 515; default 9100); install admins only',
    tag: 'Documents',
    body: labelPrinterBodySchema,
    responses: {
      200: {
        description: 'Label printer saved',
        schema: successEnvelope(labelPrinterSettingSchema),
      },
      400: error('Invalid label printer: error.details names the field'),
      401: error('Authentication failed'),
      403: error('Unauthorized: the user is not an admin of every facility on this install'),
    },
    invalid: invalidAs({ body: 'Invalid label printer' }),
    async handler({ body, request }, ctx) {
      const data = await setLabelPrinter(ctx, userOf(request), body);
      return { message: 'Label printer saved', data };
    },
  }),
  defineRoute({
    method: 'DELETE',
    url: '/api/v1/settings/label-printer',
    summary: 'Remove the label printer (labels are then saved as PDFs); install admins only',
    tag: 'Documents',
    responses: {
      200: {
        description: 'Label printer removed',
        schema: successEnvelope(labelPrinterSettingSchema),
      },
      401: error('Authentication failed'),
      403: error('Unauthorized: the user is not an admin of every facility on this install'),
    },
    async handler({ request }, ctx) {
      const data = await removeLabelPrinter(ctx, userOf(request));
      return { message: 'Label printer removed; labels are saved as PDFs', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/orders/compliance_report/binary/:order_id',
    summary:
      'Compliance report of a packed order: a PDF of rule verdicts, base64, without the message/data envelope',
    tag: 'Documents',
    params: orderDocumentParamsSchema,
    responses: {
      200: { description: 'The report', schema: complianceReportSchema },
      401: error('Authentication failed'),
      404: error(
        `${COMPLIANCE_NOT_FOUND}: unknown or malformed id, another tenant’s order, or never packed`,
      ),
      500: { description: 'Unhandled failure: {error, order_id}', schema: complianceFailureSchema },
    },
    // The interface lists no 400 here: an id that cannot be an order's is not found.
    invalid: () => notFound(COMPLIANCE_NOT_FOUND),
    async handler({ params: { order_id: orderId }, request, reply }, ctx) {
      try {
        return await complianceReport(ctx, userOf(request), orderId);
      } catch (failure) {
        if (failure instanceof DomainError) throw failure;
        request.log.error({ err: failure }, 'compliance report failed');
        const message = failure instanceof Error ? failure.message : String(failure);
        return reply
          .status(500)
          .send({ error: `Failed to generate compliance report: ${message}`, order_id: orderId });
      }
    },
  }),
];
