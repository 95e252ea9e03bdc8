import { z } from 'zod';
import { INBOUND_MAX_BYTES, interchangeSummarySchema } from '../../shared/edi-inbound';
import { hasAdminGrantInOrganization } from '../access';
import { DomainError } from '../core/errors';
import { unsupportedMediaTypeMessage } from '../http/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, userOf, type RouteDef } from '../http/route-def';
import { ingestInterchange } from './ingest';

const EDI_X12 = 'application/edi-x12';

export const INBOUND_URL = '/api/v1/edi/inbound';

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });

/** Inbound X12 interchanges (850, 860, 997) posted by a partner or a clerk. */
export const ediInboundRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: INBOUND_URL,
    summary:
      'Take in one X12 interchange (raw body, Content-Type application/edi-x12): 850s make orders, 860s change them, 997s mark our documents; every inbound group is answered with a 997 sent through the connection. The ISA sender and receiver pick the connection; the caller must be an admin of its brand in its organisation',
    tag: 'Order documents',
    unparsed: { body: z.string().describe('The interchange, as text (application/edi-x12)') },
    bodyContentType: EDI_X12,
    bodyLimit: INBOUND_MAX_BYTES,
    internalErrorMessage: 'Interchange ingest failed',
    responses: {
      200: {
        description:
          'Taken in (each set accepted, rejected or duplicate, with its errors); a repeated (sender, ISA13) is a duplicate and creates nothing',
        schema: successEnvelope(interchangeSummarySchema),
      },
      400: error(
        'Empty, not X12, or refused (no functional group, another addressee): nothing was taken in',
      ),
      401: error('Authentication failed'),
      404: error(
        'No connection of yours takes interchanges from this sender to this receiver (also another organisation’s connection)',
      ),
      413: error('The interchange is over 16 MB'),
      415: error('The Content-Type is not application/edi-x12'),
    },
    async handler({ request }, ctx) {
      const user = userOf(request);
      // A JSON (or other parsed) body is not an interchange, whatever it holds.
      if (typeof request.body !== 'string') {
        throw new DomainError(
          'unsupported_media_type',
          'INVALID_REQUEST',
          unsupportedMediaTypeMessage(EDI_X12),
        );
      }
      return ingestInterchange(
        ctx,
        {
          text: request.body,
          source: 'http',
          fileName: null,
          userId: user.id,
          requestUrl: INBOUND_URL,
        },
        (connection) =>
          hasAdminGrantInOrganization(
            ctx.db,
            user,
            connection.brand_id,
            connection.organization_id,
          ),
      );
    },
  }),
];
