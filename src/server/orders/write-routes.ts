import type { FastifyReply } from 'fastify';
import {
  changeFacilityBodySchema,
  createOrderBodySchema,
  createOrderHeadersSchema,
  orderIdDataSchema,
  updateOrderBodySchema,
} from '../../shared/orders';
import { changeOrderFacility } from './change-facility';
import { createOrder, type OrderWriteAnswer } from './create';
import { updateOrder } from './update';
import {
  changeBodyInvalid,
  createBodyInvalid,
  INVALID_BODY,
  parseIdempotencyKey,
  PICKSHEET_REQUIRED,
} from './validation';
import type { ServiceContext } from '../core/context';
import { isDiskFull } from '../db/storage-status';
import { diskFull, DomainError } from '../core/errors';
import { recordOrderFailure, type OrderAction, type OrderTrail } from './log';
import { envelopeOf, httpStatusOf } from '../http/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, userOf, type RouteDef, type RouteRequest } from '../http/route-def';

/** Bodies of up to 1000 lines with trackers need more than the default limit. */
const ORDER_BODY_LIMIT = 4 * 1024 * 1024;

function send(reply: FastifyReply, answer: OrderWriteAnswer) {
  if (answer.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.status(answer.status).send(answer.body);
}

const INTERNAL_MESSAGES: Record<OrderAction, string> = {
  create: 'Failed to create order',
  update: 'Failed to update order',
  move: 'Failed to change facility',
};

/** Writes a refused order write's FAILURE row (with the ids it had verified) to the transaction log. */
async function recordFailure(
  ctx: ServiceContext,
  request: RouteRequest,
  action: OrderAction,
  trail: OrderTrail,
  startedAt: number,
  error: unknown,
) {
  const failure =
    error instanceof DomainError
      ? error
      : isDiskFull(error)
        ? diskFull(ctx.dataDir)
        : new DomainError('internal', 'INTERNAL_SERVER_ERROR', INTERNAL_MESSAGES[action]);
  const details = failure.extra['details'];
  const key = request.headers['idempotency-key'];
  await recordOrderFailure(ctx, {
    action,
    trail,
    startedAt,
    correlationId: action === 'create' && typeof key === 'string' ? key.slice(0, 255) : null,
    payload: request.body,
    responseStatus: httpStatusOf(failure),
    responseBody: envelopeOf(failure),
    errorMessage:
      typeof details === 'string' && !failure.message.includes(details)
        ? `${failure.message}: ${details}`
        : failure.message,
  });
}

/** Runs an order write; when it is refused, logs the failure before the error answer goes out. */
async function logFailure(
  ctx: ServiceContext,
  request: RouteRequest,
  action: OrderAction,
  write: (trail: OrderTrail) => Promise<unknown>,
) {
  const startedAt = performance.now();
  const trail: OrderTrail = {};
  try {
    return await write(trail);
  } catch (error) {
    await recordFailure(ctx, request, action, trail, startedAt, error);
    throw error;
  }
}

/** A refused body is a refused write too: it gets its FAILURE row (no ids verified yet). */
const logRefusedBody =
  (action: OrderAction) => (error: unknown, request: RouteRequest, ctx: ServiceContext) =>
    recordFailure(ctx, request, action, {}, performance.now(), error);

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
  defineRoute({
    method: 'POST',
    url: '/api/v1/orders/create',
    summary:
      'Create an order (status Open). An Idempotency-Key header makes a retry return the first answer',
    tag: 'Orders',
    body: createOrderBodySchema,
    headers: createOrderHeadersSchema,
    bodyLimit: ORDER_BODY_LIMIT,
    emptyBodyMessage: PICKSHEET_REQUIRED,
    internalErrorMessage: INTERNAL_MESSAGES.create,
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
    invalid: createBodyInvalid,
    onInvalid: logRefusedBody('create'),
    handler: ({ body, request, reply }, ctx) =>
      logFailure(ctx, request, 'create', async (trail) => {
        // buildApp does not parse headers: the key is read here, after the body, as before.
        const key = parseIdempotencyKey(request.headers['idempotency-key']);
        return send(reply, await createOrder(ctx, userOf(request), body, key, trail));
      }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/v1/orders',
    summary:
      'Update an order found by picksheet_code (narrowed by brand_id, retailer_id, facility_id); items only before packing',
    tag: 'Orders',
    body: updateOrderBodySchema,
    bodyLimit: ORDER_BODY_LIMIT,
    emptyBodyMessage: INVALID_BODY,
    internalErrorMessage: INTERNAL_MESSAGES.update,
    responses: {
      200: { description: 'Order updated successfully', schema: orderIdEnvelope },
      ...changeErrors,
    },
    invalid: changeBodyInvalid,
    onInvalid: logRefusedBody('update'),
    handler: ({ body, request, reply }, ctx) =>
      logFailure(ctx, request, 'update', async (trail) => {
        return send(reply, await updateOrder(ctx, userOf(request), body, trail));
      }),
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/v1/orders/change-facility',
    summary:
      'Move an order (found by picksheet_code, narrowed by brand_id, retailer_id) to the facility_id given; only before packing',
    tag: 'Orders',
    body: changeFacilityBodySchema,
    bodyLimit: ORDER_BODY_LIMIT,
    emptyBodyMessage: INVALID_BODY,
    internalErrorMessage: INTERNAL_MESSAGES.move,
    responses: {
      200: { description: 'Facility changed successfully', schema: orderIdEnvelope },
      ...changeErrors,
    },
    invalid: changeBodyInvalid,
    onInvalid: logRefusedBody('move'),
    handler: ({ body, request, reply }, ctx) =>
      logFailure(ctx, request, 'move', async (trail) => {
        return send(reply, await changeOrderFacility(ctx, userOf(request), body, trail));
      }),
  }),
];
