import { z } from 'zod';
import {
  conflictListQuerySchema,
  recreateOrderBodySchema,
  resolveConflictBodySchema,
  SYNC_PROTOCOL_HEADER,
  syncConflictSchema,
  syncStatusSchema,
} from '../../shared/sync';
import { invalidRequest } from '../core/errors';
import {
  centralRuntime,
  leaseBodySchema,
  leaseSsccBlock,
  pullForDevice,
  PUSH_BODY_LIMIT,
  pushFromDevice,
  requireProtocol,
} from './central';
import { listConflicts, recreateRefusedOrder, resolveConflict, syncStatus } from './conflicts';
import { FILE_BODY_LIMIT, fileBodySchema, receiveFile, sendFile } from './files';
import { deviceOfToken, openDeviceSession } from './devices';
import { pullQuerySchema, pushBodySchema, sessionBodySchema } from './protocol';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, userOf, type RouteDef, type RouteRequest } from '../http/route-def';
import type { ServiceContext } from '../core/context';

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });
const protocolHeaders = z.object({ [SYNC_PROTOCOL_HEADER]: z.literal('1') });
/**
 * Device routes: protocol first (426), then the central role (404) and the device's token (401),
 * and only then the input. So their bodies and queries are `unparsed`: documented here, parsed
 * after those checks (by the handler or the sync domain), not by buildApp before them.
 */
const deviceErrors = {
  401: error('No device token, or a bad, expired or disabled one'),
  404: error('This service is not a central service'),
  426: error('Upgrade required: another sync protocol version'),
};

async function deviceOf(request: RouteRequest, ctx: ServiceContext) {
  requireProtocol(request.headers[SYNC_PROTOCOL_HEADER]);
  centralRuntime(ctx);
  return deviceOfToken(ctx, request.headers.authorization);
}

/** Sync (docs/sync.md): device session, push and pull on the central; status and conflicts anywhere. */
export const syncRoutes: RouteDef[] = [
  defineRoute({
    method: 'POST',
    url: '/api/sync/v1/session',
    summary: 'Device sign-in: a device secret for a one-hour sync token (central only)',
    tag: 'Sync',
    public: true,
    headers: protocolHeaders,
    unparsed: { body: sessionBodySchema },
    responses: {
      200: {
        description: "A token for push and pull, and the central's epoch (its identity)",
        schema: z.object({ token: z.string(), expires_in: z.number(), epoch: z.string() }),
      },
      400: error('Malformed body'),
      ...deviceErrors,
      429: error('Too many failed attempts'),
    },
    async handler({ request }, ctx) {
      requireProtocol(request.headers[SYNC_PROTOCOL_HEADER]);
      centralRuntime(ctx);
      const body = sessionBodySchema.safeParse(request.body);
      if (!body.success) throw invalidRequest('device_id and device_secret are required');
      return openDeviceSession(ctx, body.data.device_id, body.data.device_secret);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/sync/v1/push',
    summary: "Applies a device's mutations in seq order (central only)",
    tag: 'Sync',
    public: true,
    headers: protocolHeaders,
    unparsed: { body: pushBodySchema },
    bodyLimit: PUSH_BODY_LIMIT,
    responses: {
      200: {
        description: 'Applied up to last_seq (duplicates skipped, refusals recorded as conflicts)',
        schema: z.object({
          last_seq: z.number(),
          applied: z.number(),
          duplicates: z.number(),
          rejected: z.number(),
          conflicts: z.number(),
        }),
      },
      400: error('Malformed push'),
      ...deviceErrors,
      409: error('SYNC_GAP: error.expected_seq names the mutation that must come next'),
    },
    async handler({ request }, ctx) {
      const device = await deviceOf(request, ctx);
      return pushFromDevice(ctx, device, request.body);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/sync/v1/pull',
    summary: "Changes after the cursor in the device's facilities (central only)",
    tag: 'Sync',
    public: true,
    headers: protocolHeaders,
    unparsed: { query: pullQuerySchema },
    responses: {
      200: { description: 'One page; `more` says whether another follows' },
      400: error('Bad limit'),
      ...deviceErrors,
    },
    async handler({ request, reply }, ctx) {
      const device = await deviceOf(request, ctx);
      // Already JSON (pull-json.ts): sent as it is, as Fastify would send the page object.
      const page = await pullForDevice(ctx, device, request.query);
      return reply.type('application/json; charset=utf-8').send(page);
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/sync/v1/sscc-blocks',
    summary: 'Leases the next block of SSCC serials of a GS1 company prefix to the device',
    tag: 'Sync',
    public: true,
    headers: protocolHeaders,
    unparsed: { body: leaseBodySchema },
    responses: {
      200: {
        description: 'The block (it also comes down with the next pull)',
        schema: z.object({
          company_prefix: z.string(),
          first_serial: z.number(),
          last_serial: z.number(),
          device_id: z.string(),
          leased_at: z.string(),
        }),
      },
      400: error('company_prefix must be 7 to 10 digits'),
      ...deviceErrors,
      409: error('The serials of the prefix are used up'),
    },
    async handler({ request }, ctx) {
      const device = await deviceOf(request, ctx);
      return leaseSsccBlock(ctx, device, request.body);
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/sync/v1/files/:sha256',
    summary: 'Uploads a BOL file by its SHA-256, before the mutation naming it (central only)',
    tag: 'Sync',
    public: true,
    headers: protocolHeaders,
    params: z.object({ sha256: z.string() }),
    unparsed: { body: fileBodySchema },
    bodyLimit: FILE_BODY_LIMIT,
    responses: {
      200: {
        description: 'Stored (or already there)',
        schema: z.object({ sha256: z.string(), size: z.number() }),
      },
      400: error('Not a digest, not base64, not a PDF, or the content does not match the digest'),
      ...deviceErrors,
      404: error('Not a central service, or the order is at a facility this device does not serve'),
      413: error('Larger than the BOL limit (10 MB)'),
      429: error("Over the device's quota of files no BOL refers to (100 MB in 24 hours)"),
    },
    async handler({ params, request }, ctx) {
      const device = await deviceOf(request, ctx);
      return receiveFile(ctx, device, params.sha256, request.body);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/sync/v1/files/:sha256',
    summary: "Downloads a BOL file of an order in the device's facilities (central only)",
    tag: 'Sync',
    public: true,
    headers: protocolHeaders,
    params: z.object({ sha256: z.string() }),
    responses: {
      200: { description: 'The file', schema: fileBodySchema },
      400: error('Not a digest'),
      ...deviceErrors,
    },
    async handler({ params, request }, ctx) {
      const device = await deviceOf(request, ctx);
      return sendFile(ctx, device, params.sha256);
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/sync/v1/status',
    summary: 'Online or offline, changes waiting, last sync times and open conflicts',
    tag: 'Sync',
    responses: {
      200: { description: 'The status', schema: syncStatusSchema },
      401: error('Authentication failed'),
    },
    async handler({ request }, ctx) {
      return syncStatus(ctx, userOf(request));
    },
  }),
  defineRoute({
    method: 'GET',
    url: '/api/sync/v1/conflicts',
    summary: "Conflicts of the user's facilities, newest first",
    tag: 'Sync',
    // Parsed by listConflicts (the domain), which the Sync screen's reads share.
    unparsed: { query: conflictListQuerySchema },
    responses: {
      200: {
        description: 'Conflicts retrieved successfully',
        schema: successEnvelope(
          z.object({
            items: z.array(syncConflictSchema),
            total_count: z.number(),
            page: z.number(),
            page_size: z.number(),
          }),
        ),
      },
      400: error('Invalid query parameters'),
      401: error('Authentication failed'),
    },
    async handler({ request }, ctx) {
      return {
        message: 'Conflicts retrieved successfully',
        data: await listConflicts(ctx, userOf(request), request.query),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/sync/v1/conflicts/:id/resolve',
    summary: "Keep central's values, or apply mine again as a new edit",
    tag: 'Sync',
    params: z.object({ id: z.string() }),
    body: resolveConflictBodySchema,
    // Only the body can be refused (the id is any text); the interface's message has no details.
    invalid: () => invalidRequest('action must be keep_central or apply_mine'),
    responses: {
      200: { description: 'Conflict resolved', schema: successEnvelope(syncConflictSchema) },
      400: error('action must be keep_central or apply_mine'),
      401: error('Authentication failed'),
      403: error("Apply mine needs an admin grant for the conflict's brand at its facility"),
      404: error('Conflict not found'),
      409: error(
        'Conflict already resolved, or apply mine refused: the order is Shipped or Cancelled (Shipped wins) or not on this service',
      ),
    },
    async handler({ params: { id }, body, request }, ctx) {
      return {
        message: 'Conflict resolved',
        data: await resolveConflict(ctx, userOf(request), id, body.action),
      };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/sync/v1/conflicts/:id/create-order',
    summary:
      'Creates a refused new order again under a new picksheet code, and resolves its conflict',
    tag: 'Sync',
    params: z.object({ id: z.string() }),
    // Parsed by recreateRefusedOrder (the domain), with the create's own messages.
    unparsed: { body: recreateOrderBodySchema },
    responses: {
      201: {
        description: 'Order created; the conflict is resolved',
        schema: successEnvelope(z.object({ order_id: z.string(), conflict: syncConflictSchema })),
      },
      400: error('picksheet_code is missing or too long, or the order is refused as any create'),
      401: error('Authentication failed'),
      404: error('Conflict not found'),
      409: error(
        'Conflict already resolved, not a refused new order, or the picksheet code is taken',
      ),
    },
    async handler({ params: { id }, request, reply }, ctx) {
      const data = await recreateRefusedOrder(ctx, userOf(request), id, request.body);
      return reply.status(201).send({ message: 'Order created successfully', data });
    },
  }),
];

export { syncSettingsRoutes } from './settings-routes';
export { syncHealthRoutes } from './health-routes';
