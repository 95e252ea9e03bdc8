import type { FastifyReply } from 'fastify';
import {
  changeFacilityBodySchema,
  createOrderBodySchema,
  orderIdDataSchema,
  updateOrderBodySchema,
} from '../../../shared/orders';
import { changeOrderFacility } from '../../domain/orders/change-facility';
import { createOrder, type OrderWriteAnswer } from '../../domain/orders/create';
import { updateOrder } from '../../domain/orders/update';
import {
  INVALID_BODY,
  parseChangeFacilityBody,
  parseCreateBody,
  parseIdempotencyKey,
  parseUpdateBody,
  PICKSHEET_REQUIRED,
} from '../../domain/orders/validation';
import { errorEnvelopeSchema, successEnvelope } from '../openapi-schemas';
import { userOf, type RouteDef } from '../route-def';

/** Bodies of up to 1000 lines with trackers need more than the default limit. */
const ORDER_BODY_LIMIT = 4 * 1024 * 1024;

function send(reply: FastifyReply, answer: OrderWriteAnswer) {
  if (answer.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.status(answer.status).send(answer.body);
}

const orderIdEnvelope = successEnvelope(orderIdDataSchema);
const changeErrors = {
  400: {
    description: 'Invalid request body (details: a string), or several orders match',
    schema: errorEnvelopeSchema,
  },
  401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
  404: { description: "Order not found (in the user's scope)", schema: errorEnvelopeSchema },
  409: {
    description: 'The order is in a status that refuses this change',
    schema: errorEnvelopeSchema,
  },
};

export const orderWriteRoutes: RouteDef[] = [
  {
    method: 'POST',
    url: '/api/v1/orders/create',
    summary:
      'Create an order (status Open). An Idempotency-Key header makes a retry return the first answer',
    tag: 'Orders',
    body: createOrderBodySchema,
    bodyLimit: ORDER_BODY_LIMIT,
    emptyBodyMessage: PICKSHEET_REQUIRED,
    internalErrorMessage: 'Failed to create order',
    responses: {
      201: { description: 'Order created successfully', schema: orderIdEnvelope },
      400: {
        description:
          'Failed to create order: picksheet_code is required, or Failed to create order: <problem>',
        schema: errorEnvelopeSchema,
      },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      409: {
        description:
          'The picksheet code exists at the facility, or the Idempotency-Key was used with another body',
        schema: errorEnvelopeSchema,
      },
    },
    async handler(request, reply, ctx) {
      const body = parseCreateBody(request.body);
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      return send(reply, await createOrder(ctx, userOf(request), body, key));
    },
  },
  {
    method: 'PUT',
    url: '/api/v1/orders',
    summary:
      'Update an order found by picksheet_code (narrowed by brand_id, retailer_id, facility_id); items only before packing',
    tag: 'Orders',
    body: updateOrderBodySchema,
    bodyLimit: ORDER_BODY_LIMIT,
    emptyBodyMessage: INVALID_BODY,
    internalErrorMessage: 'Failed to update order',
    responses: {
      200: { description: 'Order updated successfully', schema: orderIdEnvelope },
      ...changeErrors,
    },
    async handler(request, reply, ctx) {
      const body = parseUpdateBody(request.body);
      return send(reply, await updateOrder(ctx, userOf(request), body));
    },
  },
  {
    method: 'PUT',
    url: '/api/v1/orders/change-facility',
    summary:
      'Move an order (found by picksheet_code, narrowed by brand_id, retailer_id) to the facility_id given; only before packing',
    tag: 'Orders',
    body: changeFacilityBodySchema,
    bodyLimit: ORDER_BODY_LIMIT,
    emptyBodyMessage: INVALID_BODY,
    internalErrorMessage: 'Failed to change facility',
    responses: {
      200: { description: 'Facility changed successfully', schema: orderIdEnvelope },
      ...changeErrors,
    },
    async handler(request, reply, ctx) {
      const body = parseChangeFacilityBody(request.body);
      return send(reply, await changeOrderFacility(ctx, userOf(request), body));
    },
  },
];
