import type { FastifyReply } from 'fastify';
import type { ZodType, z } from 'zod';
import {
  brandIdParamsSchema,
  cartonParamsSchema,
  closeCartonBodySchema,
  completePackingBodySchema,
  createPalletBodySchema,
  fulfilmentViewSchema,
  gs1PrefixBodySchema,
  gs1PrefixDataSchema,
  gs1PrefixReadSchema,
  moveCartonBodySchema,
  openCartonBodySchema,
  packCartonBodySchema,
  palletParamsSchema,
  recordActionBodySchema,
  recordedActionSchema,
  scanUnitBodySchema,
  stepResultSchema,
} from '../../shared/fulfilment';
import { orderIdParamsSchema } from '../../shared/orders';
import type { AuthUser, ServiceContext } from '../core/context';
import { DomainError } from '../core/errors';
import { recordAction } from './actions';
import { gs1PrefixOf, setGs1Prefix } from './gs1-prefix';
import {
  FULFILMENT_ACTIONS,
  recordStepFailure,
  type FulfilmentAction,
  type StepTrail,
} from './log';
import {
  closeCarton,
  completePacking,
  openCarton,
  packCarton,
  reopenPacking,
  scanUnit,
  unpackCarton,
} from './packing';
import { createPallet, deletePallet, moveCarton } from './pallets';
import { cancelOrder, loadOrder, shipOrder, stageOrder, startPicking } from './progress';
import { fulfilmentView } from './read';
import type { StepAnswer } from './step';
import { envelopeOf, httpStatusOf } from '../http/errors';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { invalidInput } from '../http/parse';
import {
  defineRoute,
  invalidAs,
  userOf,
  type InvalidHook,
  type RouteDef,
  type RouteRequest,
} from '../http/route-def';

/*
 * Fulfilment on the floor (DESIGN.md, Fulfilment): the steps that take an order from Open to
 * Shipped, the packing screen's read, priced actions, and the brand's GS1 company prefix.
 * Each step is one domain command (domain/fulfilment); a refused step on a visible order writes
 * a FAILURE row to the transaction log, like the order writes do.
 */

const TAG = 'Fulfilment';
const INVALID_BODY = 'Invalid request body';
const INVALID_ORDER_ID = 'Invalid order ID format';
const INVALID_BRAND_ID = 'Invalid brand ID format';
const stepEnvelope = successEnvelope(stepResultSchema);

const errors = (conflictText: string) => ({
  400: {
    description: 'Invalid path or body (details say which field)',
    schema: errorEnvelopeSchema,
  },
  401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
  404: {
    description: "Order not found (also another tenant's order), or its carton/pallet not found",
    schema: errorEnvelopeSchema,
  },
  409: { description: conflictText, schema: errorEnvelopeSchema },
});

interface StepInput {
  user: AuthUser;
  orderId: string;
  trail: StepTrail;
}

/** Path parameters of every step route: the order, and a carton or pallet where the path has one. */
interface StepParams {
  order_id: string;
  carton_id?: string;
  pallet_id?: string;
}

/**
 * A step's refused input: a bad order id has its own message (checked before the carton's or
 * pallet's), then the carton or pallet id, then the body.
 */
const invalidStepInput: InvalidHook = ({ part, issues }) => {
  if (part !== 'params') return invalidInput(INVALID_BODY, issues);
  const orderIssues = issues.filter((issue) => issue.path[0] === 'order_id');
  return orderIssues.length > 0
    ? invalidInput(INVALID_ORDER_ID, orderIssues)
    : invalidInput('Invalid carton or pallet ID format', issues);
};

/** Runs a step; a refusal after the order was found also gets its FAILURE log row. */
async function withFailureLog<T>(
  ctx: ServiceContext,
  request: RouteRequest,
  reply: FastifyReply,
  action: FulfilmentAction,
  params: StepParams,
  run: (input: StepInput) => Promise<StepAnswer<T>>,
) {
  const startedAt = performance.now();
  const trail: StepTrail = {};
  try {
    const answer = await run({ user: userOf(request), orderId: params.order_id, trail });
    return reply.status(answer.status).send(answer.body);
  } catch (error) {
    if (trail.orderId && error instanceof DomainError) {
      await recordStepFailure(ctx, {
        action,
        orderId: trail.orderId,
        trail,
        ids: { cartonId: params.carton_id, palletId: params.pallet_id },
        startedAt,
        payload: request.body,
        responseStatus: httpStatusOf(error),
        responseBody: envelopeOf(error),
        errorMessage: error.message,
      });
    }
    throw error;
  }
}

/** What a step's command gets: the caller, the order, the path's carton or pallet, the parsed body. */
interface StepCall<B> extends StepInput {
  ctx: ServiceContext;
  params: StepParams;
  input: B;
}

interface StepRouteSpec<S extends ZodType> {
  action: FulfilmentAction;
  summary: string;
  params?: ZodType<StepParams>;
  /** The body schema; parsed (absent body as {}) before the command runs. */
  body?: S;
  dataSchema?: ZodType;
  conflicts: string;
  run(step: StepCall<z.output<S>>): Promise<StepAnswer<unknown>>;
}

function stepRoute<S extends ZodType>(spec: StepRouteSpec<S>): RouteDef {
  const action = FULFILMENT_ACTIONS[spec.action];
  return defineRoute<ZodType<StepParams>, undefined, S | undefined>({
    method: action.method,
    url: `/api/v1/orders/:order_id/${action.path}`,
    summary: spec.summary,
    tag: TAG,
    params: spec.params ?? orderIdParamsSchema,
    ...(spec.body ? { body: spec.body, optionalBody: true } : {}),
    invalid: invalidStepInput,
    internalErrorMessage: `Failed to ${action.label.toLowerCase()}`,
    responses: {
      [action.status]: {
        description: action.message,
        schema: spec.dataSchema ? successEnvelope(spec.dataSchema) : stepEnvelope,
      },
      ...errors(spec.conflicts),
    },
    handler: ({ params, body, request, reply }, ctx) =>
      withFailureLog(ctx, request, reply, spec.action, params, (input) =>
        // A step without a body schema gets no input; its command takes none.
        spec.run({ ...input, ctx, params, input: body as z.output<S> }),
      ),
  });
}

const STATUS_CONFLICT = 'The order is in a status this step does not take (the message names it)';

export const fulfilmentRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/v1/orders/:order_id/fulfilment',
    summary:
      'The packing screen: lines (ordered vs packed), the open carton, cartons, pallets, the next step and what it misses, recorded activity',
    tag: TAG,
    params: orderIdParamsSchema,
    internalErrorMessage: 'Fulfilment retrieval failed',
    responses: {
      200: {
        description: 'Fulfilment retrieved successfully',
        schema: successEnvelope(fulfilmentViewSchema),
      },
      400: { description: 'Invalid order ID format', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      404: {
        description: "Order not found (also another tenant's order)",
        schema: errorEnvelopeSchema,
      },
    },
    invalid: invalidAs({ params: INVALID_ORDER_ID }),
    async handler({ params: { order_id }, request }, ctx) {
      const data = await fulfilmentView(ctx, userOf(request), order_id);
      return { message: 'Fulfilment retrieved successfully', data };
    },
  }),
  stepRoute({
    action: 'startPicking',
    summary: 'Start picking: Open → Picking (started_at)',
    conflicts: STATUS_CONFLICT,
    run: (s) => startPicking(s.ctx, s.user, s.orderId, s.trail),
  }),
  stepRoute({
    action: 'packCarton',
    summary:
      'Pack a whole carton (SKUs, quantities, serials, measures): a fresh SSCC, closed at once; records a Carton Workflow / Pack action. An Open order starts picking',
    body: packCartonBodySchema,
    conflicts:
      'Wrong status (a Packed order: "Packing is complete for this order"); more than ordered without allow_over_ship; the brand has no GS1 company prefix; the pallet is not Open',
    run: (s) => packCarton(s.ctx, s.user, s.orderId, s.input, s.trail),
  }),
  stepRoute({
    action: 'openCarton',
    summary: 'Open an empty carton (fresh SSCC) that scans fill; one open carton per order',
    body: openCartonBodySchema,
    conflicts:
      'Wrong status (a Packed order: "Packing is complete for this order"); a carton is already open; the brand has no GS1 company prefix',
    run: (s) => openCarton(s.ctx, s.user, s.orderId, s.input, s.trail),
  }),
  stepRoute({
    action: 'scanUnit',
    summary:
      'Pack one scanned unit (SKU or UPC; a case barcode packs a case) into the open carton, opening one if none is',
    body: scanUnitBodySchema,
    conflicts:
      'Wrong status (a Packed order: "Packing is complete for this order"); more than ordered without allow_over_ship; serial already in the carton',
    run: (s) => scanUnit(s.ctx, s.user, s.orderId, s.input, s.trail),
  }),
  stepRoute({
    action: 'closeCarton',
    summary:
      'Close the open carton (packing_complete_at; measures may be given); records a Pack action',
    params: cartonParamsSchema,
    body: closeCartonBodySchema,
    conflicts: 'Wrong status; the carton is already closed or empty',
    run: (s) => closeCarton(s.ctx, s.user, s.orderId, s.params['carton_id']!, s.input, s.trail),
  }),
  stepRoute({
    action: 'unpackCarton',
    summary: 'Unpack a carton (it and its Pack action are removed); before staging only',
    params: cartonParamsSchema,
    conflicts: STATUS_CONFLICT,
    run: (s) => unpackCarton(s.ctx, s.user, s.orderId, s.params['carton_id']!, s.trail),
  }),
  stepRoute({
    action: 'moveCarton',
    summary:
      'Put a closed carton on an Open pallet of the order, move it to another, or take it off (pallet_id null)',
    params: cartonParamsSchema,
    body: moveCartonBodySchema,
    conflicts: 'Wrong status; the carton is open; the pallet is not Open',
    run: (s) => moveCarton(s.ctx, s.user, s.orderId, s.params['carton_id']!, s.input, s.trail),
  }),
  stepRoute({
    action: 'completePacking',
    summary:
      'Complete packing: Picking → Packed (packed_at). Refused while nothing is packed or a carton is open, and when units are short unless allow_short',
    body: completePackingBodySchema,
    conflicts: 'Wrong status, or what is missing (the message lists it)',
    run: (s) => completePacking(s.ctx, s.user, s.orderId, s.input, s.trail),
  }),
  stepRoute({
    action: 'reopenPacking',
    summary:
      'Reopen packing: Packed → Picking (packed_at cleared), so more can be packed; complete packing again after',
    conflicts: STATUS_CONFLICT,
    run: (s) => reopenPacking(s.ctx, s.user, s.orderId, s.trail),
  }),
  stepRoute({
    action: 'createPallet',
    summary:
      'Create a pallet (fresh SSCC, status Open, optional measures), optionally with closed cartons on it',
    body: createPalletBodySchema,
    conflicts: 'Wrong status; a carton is open; the brand has no GS1 company prefix',
    run: (s) => createPallet(s.ctx, s.user, s.orderId, s.input, s.trail),
  }),
  stepRoute({
    action: 'deletePallet',
    summary: 'Delete a pallet before staging; its cartons stay packed, off any pallet',
    params: palletParamsSchema,
    conflicts: STATUS_CONFLICT,
    run: (s) => deletePallet(s.ctx, s.user, s.orderId, s.params['pallet_id']!, s.trail),
  }),
  stepRoute({
    action: 'stage',
    summary:
      'Stage: Packed → Staged (staged_at); pallets → Staged (staged_at, staged_by). Pallet (non-PARCEL) orders need every carton on a pallet',
    conflicts: 'Wrong status, or what is missing, e.g. "2 cartons not on a pallet"',
    run: (s) => stageOrder(s.ctx, s.user, s.orderId, s.trail),
  }),
  stepRoute({
    action: 'load',
    summary: 'Load: Staged → Loaded (loaded_at); pallets → Loaded',
    conflicts: STATUS_CONFLICT,
    run: (s) => loadOrder(s.ctx, s.user, s.orderId, s.trail),
  }),
  stepRoute({
    action: 'ship',
    summary:
      'Ship: Loaded → Shipped (shipped_at). The ASN of each connection that sends 856s is queued and sent (asn_sent_at once a transport took it; its send writes the SEND_ASN row, the step a SHIP_ORDER row; with no ASN set up the step writes SEND_ASN); the message says sent, queued, failed or none. Pallet (non-PARCEL) orders need a bill of lading',
    conflicts: 'Wrong status, or "no bill of lading"',
    run: (s) => shipOrder(s.ctx, s.user, s.orderId, s.trail),
  }),
  stepRoute({
    action: 'cancel',
    summary: 'Cancel an order that has not shipped (cancelled_at)',
    conflicts: 'The order is Shipped or already Cancelled',
    run: (s) => cancelOrder(s.ctx, s.user, s.orderId, s.trail),
  }),
  stepRoute({
    action: 'recordAction',
    summary:
      'Record a value-added service or carton/pallet work with a count (kind ACTION); billing prices them',
    body: recordActionBodySchema,
    dataSchema: recordedActionSchema,
    conflicts: 'Not used',
    run: (s) => recordAction(s.ctx, s.user, s.orderId, s.input, s.trail),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/v1/brands/:brand_id/gs1-prefix',
    summary: "A brand's current GS1 company prefix (null when none is set)",
    tag: TAG,
    params: brandIdParamsSchema,
    internalErrorMessage: 'Failed to read the GS1 company prefix',
    responses: {
      200: {
        description: 'GS1 company prefix retrieved',
        schema: successEnvelope(gs1PrefixReadSchema),
      },
      400: { description: 'Invalid brand ID format', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      404: {
        description: 'Brand not found (also a brand the user does not see)',
        schema: errorEnvelopeSchema,
      },
    },
    invalid: invalidAs({ params: INVALID_BRAND_ID }),
    async handler({ params: { brand_id }, request }, ctx) {
      const data = await gs1PrefixOf(ctx, userOf(request), brand_id);
      return { message: 'GS1 company prefix retrieved', data };
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/v1/brands/:brand_id/gs1-prefix',
    summary:
      "Set a brand's GS1 company prefix (7-10 digits), used in the SSCCs of its cartons and pallets; needs an admin grant for the brand",
    tag: TAG,
    params: brandIdParamsSchema,
    body: gs1PrefixBodySchema,
    internalErrorMessage: 'Failed to save the GS1 company prefix',
    responses: {
      200: {
        description: 'GS1 company prefix saved',
        schema: successEnvelope(gs1PrefixDataSchema),
      },
      400: { description: 'Invalid brand ID or prefix', schema: errorEnvelopeSchema },
      401: { description: 'Authentication failed', schema: errorEnvelopeSchema },
      403: {
        description: 'Unauthorized (no admin grant for the brand)',
        schema: errorEnvelopeSchema,
      },
      404: {
        description: 'Brand not found (also a brand the user does not see)',
        schema: errorEnvelopeSchema,
      },
    },
    optionalBody: true,
    invalid: invalidAs({ params: INVALID_BRAND_ID, body: INVALID_BODY }),
    async handler({ params: { brand_id }, body, request }, ctx) {
      const data = await setGs1Prefix(ctx, userOf(request), brand_id, body);
      return { message: 'GS1 company prefix saved', data };
    },
  }),
];
