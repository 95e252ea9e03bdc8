import { z } from 'zod';
import {
  clearSyncSettingsBodySchema,
  syncSettingsBodySchema,
  syncSettingsViewSchema,
} from '../../shared/sync-settings';
import {
  acceptNewCentral,
  clearSyncSettings,
  saveSyncSettings,
  syncSettingsView,
} from './settings';
import { errorEnvelopeSchema, successEnvelope } from '../http/openapi-schemas';
import { defineRoute, invalidAs, parsePart, userOf, type RouteDef } from '../http/route-def';

const error = (description: string) => ({ description, schema: errorEnvelopeSchema });

function isClearRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'clear' in body;
}

const invalidSettings = invalidAs({ body: 'Invalid sync settings' });

/** The sync settings kept in the data dir and edited in the Settings screen (docs/sync.md). */
export const syncSettingsRoutes: RouteDef[] = [
  defineRoute({
    method: 'GET',
    url: '/api/sync/v1/settings',
    summary: 'Sync settings of this install (never the secret); users with an admin grant only',
    tag: 'Sync',
    responses: {
      200: {
        description: 'Sync settings retrieved successfully',
        schema: successEnvelope(syncSettingsViewSchema),
      },
      401: error('Authentication failed'),
      403: error('Unauthorized: the user has no admin grant'),
    },
    async handler({ request }, ctx) {
      const data = await syncSettingsView(ctx, userOf(request));
      return { message: 'Sync settings retrieved successfully', data };
    },
  }),
  defineRoute({
    method: 'PUT',
    url: '/api/sync/v1/settings',
    summary:
      'Save the sync settings for the next start ({clear: true} removes them); users with an admin grant only',
    tag: 'Sync',
    // The body's shape picks its schema (a `clear` key means the clear request), which a union
    // cannot say: the handler parses it, with the route's messages.
    unparsed: { body: z.union([syncSettingsBodySchema, clearSyncSettingsBodySchema]) },
    responses: {
      200: {
        description: 'Saved (or removed); they apply when the app restarts',
        schema: successEnvelope(syncSettingsViewSchema),
      },
      400: error('Invalid sync settings: error.details names the field'),
      401: error('Authentication failed'),
      403: error('Unauthorized: the user is not an admin of every facility on this install'),
      409: error('Sync is set by start-up flags, or the service has no data dir'),
    },
    async handler({ request }, ctx) {
      const user = userOf(request);
      if (isClearRequest(request.body)) {
        parsePart(clearSyncSettingsBodySchema, 'body', request.body, invalidSettings);
        const data = await clearSyncSettings(ctx, user);
        return { message: 'Sync settings removed; restart the app to apply them', data };
      }
      const body = parsePart(syncSettingsBodySchema, 'body', request.body, invalidSettings);
      const data = await saveSyncSettings(ctx, user, body);
      return { message: 'Sync settings saved; restart the app to apply them', data };
    },
  }),
  defineRoute({
    method: 'POST',
    url: '/api/sync/v1/settings/accept-central',
    summary:
      "Trust a central whose identity changed: this workstation's changes go to it, then its data replaces the local copy; install admins only",
    tag: 'Sync',
    responses: {
      200: {
        description: 'Accepted; the next sync round starts over with the new central',
        schema: successEnvelope(syncSettingsViewSchema),
      },
      401: error('Authentication failed'),
      403: error('Unauthorized: the user is not an admin of every facility on this install'),
      409: error('This app does not sync as a workstation'),
    },
    async handler({ request }, ctx) {
      const data = await acceptNewCentral(ctx, userOf(request));
      return { message: 'The new central service is accepted; syncing starts over with it', data };
    },
  }),
];
