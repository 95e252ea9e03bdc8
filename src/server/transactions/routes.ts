import { transactionListQuerySchema, transactionPageSchema } from '../../shared/transactions';
import { transactionPageBody } from './page-cache';
import { parseTransactionListQuery } from './query';
import { errorEnvelopeSchema } from '../http/openapi-schemas';
import { defineRoute, userOf, type RouteDef } from '../http/route-def';
import { z } from 'zod';

/** Transaction log (11). */
export const transactionRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/transactions',
    summary:
      'List the transaction log the user sees: filters, search (3+ characters), sort and pages',
    tag: 'Transactions',
    // Parsed by the handler, not buildApp: pages are cached by the raw query string, and the
    // query is parsed only on a cache miss (most requests are hits).
    unparsed: { query: transactionListQuerySchema },
    internalErrorMessage: 'Error fetching transactions',
    unauthenticatedMessage: 'User is not authorized to access this resource',
    responses: {
      // The interface's success body for this endpoint has `data` only.
      200: {
        description: 'A page of transactions',
        schema: z.object({ data: transactionPageSchema }),
      },
      400: { description: 'Invalid query parameter', schema: errorEnvelopeSchema },
      401: {
        description: 'User is not authorized to access this resource',
        schema: errorEnvelopeSchema,
      },
    },
    async handler({ request, reply }, ctx) {
      const queryStart = request.url.indexOf('?');
      const rawQuery = queryStart < 0 ? '' : request.url.slice(queryStart + 1);
      // The answer comes serialized (and usually cached): sent as it is, not parsed again.
      const body = await transactionPageBody(ctx, userOf(request), rawQuery, () =>
        parseTransactionListQuery(request.query),
      );
      return reply.type('application/json; charset=utf-8').send(body);
    },
  }),
];
