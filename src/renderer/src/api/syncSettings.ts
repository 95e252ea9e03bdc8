import { useQuery } from '@tanstack/react-query';
import {
  syncSettingsViewSchema,
  type SyncSettingsBody,
  type SyncSettingsView,
} from '../../../shared/sync-settings';
import { useApi } from './ApiContext';
import type { ApiClient } from './client';

const SYNC_SETTINGS = '/api/sync/v1/settings';

export const syncSettingsKey = ['settings', 'sync'] as const;

function fetchSyncSettings(api: ApiClient, signal?: AbortSignal): Promise<SyncSettingsView> {
  return api.get(SYNC_SETTINGS, syncSettingsViewSchema, signal);
}

/** Saves the settings for the next start; the answer's message says to restart. */
export function saveSyncSettings(api: ApiClient, body: SyncSettingsBody) {
  return api.request(SYNC_SETTINGS, syncSettingsViewSchema, { method: 'PUT', body });
}

/** Removes the stored settings: standalone from the next start. */
export function clearSyncSettings(api: ApiClient) {
  return api.request(SYNC_SETTINGS, syncSettingsViewSchema, {
    method: 'PUT',
    body: { clear: true },
  });
}

/** Trusts a central whose identity changed: sync starts over with it (an install admin only). */
export function acceptNewCentral(api: ApiClient) {
  return api.request(`${SYNC_SETTINGS}/accept-central`, syncSettingsViewSchema, {
    method: 'POST',
  });
}

export function useSyncSettings() {
  const api = useApi();
  return useQuery({
    queryKey: syncSettingsKey,
    queryFn: ({ signal }) => fetchSyncSettings(api, signal),
    // A 403 (no admin grant) will not change by asking again.
    retry: false,
  });
}
