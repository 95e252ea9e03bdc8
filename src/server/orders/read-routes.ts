import {
  orderDetailsSchema,
  orderIdParamsSchema,
  orderListPageSchema,
  orderListQuerySchema,
} from '../../shared/orders';
import { orderDetailsJson } from './details';
import { orderList } from './list';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, userOf, type RouteDef } from '../http/route-def';

export const orderReadRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders',
    summary:
      'List the orders the user sees: search (PO, picksheet code, external id), filters (ship-by day, due today or late), sort, pages',
    tag: 'Orders',
    query: orderListQuerySchema,
    internalErrorMessage: 'Order list retrieval failed',
    responses: {
      200: {
        description: 'Orders retrieved successfully',
        schema: successEnvelope(orderListPageSchema),
      },
      400: { description: 'Invalid query parameters', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
    },
    async handler({ query, request }, ctx) {
      const data = await orderList(ctx, userOf(request), query);
      return { message: 'Orders retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id',
    summary: 'Get order details: identifiers, status, timestamps, pallets, cartons and SKUs',
    tag: 'Orders',
    params: orderIdParamsSchema,
    internalErrorMessage: 'Order details retrieval failed',
    responses: {
      200: {
        description: 'Order details retrieved successfully',
        schema: successEnvelope(orderDetailsSchema),
      },
      400: { description: 'Invalid order ID format', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      404: {
        description: "Order not found (also another tenant's order)",
        schema: errorEnvelopeSchema,
      },
    },
    invalid: invalidAs({ params: 'Invalid order ID format' }),
    async handler({ params: { order_id }, request, reply }, ctx) {
      // The details come serialized (and usually cached): sent as they are, not parsed again.
      const data = await orderDetailsJson(ctx, userOf(request), order_id);
      return reply
        .type('application/json; charset=utf-8')
        .send(`{"message":"Order details retrieved successfully","data":${data}}`);
    },
  }),
];
