import type { SyncSettingsView } from '../../../../shared/sync-settings';

/** One line on what the service does now, and what a restart will change. */
export function syncStateLine(view: SyncSettingsView): string {
  const now =
    view.active_role === 'workstation'
      ? 'This app syncs with a central service as a workstation.'
      : view.active_role === 'central'
        ? 'This app is the central service that workstations sync with.'
        : 'This app works on its own (no sync).';
  if (view.source === 'flags') {
    return `${now} Set by start-up flags; change them where the app is started.`;
  }
  if (view.source === 'stored' && view.active_role === 'standalone') {
    return `${now} The saved settings apply when the app restarts.`;
  }
  if (view.source === 'none' && view.active_role === 'workstation') {
    return `${now} Sync stops when the app restarts.`;
  }
  return now;
}
