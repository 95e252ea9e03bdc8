import { describe, expect, it } from 'vitest';
import { syncSettingsBodySchema, type SyncSettingsView } from '../../src/shared/sync-settings';
import { syncStateLine } from '../../src/renderer/src/screens/settings/syncSettingsState';

const ID = 'd1000000-0000-4000-8000-000000000001';
const view = (over: Partial<SyncSettingsView>): SyncSettingsView => ({
  central_url: null,
  device_id: null,
  has_secret: false,
  source: 'none',
  active_role: 'standalone',
  problem: null,
  ...over,
});

describe('sync settings state line', () => {
  it('says what runs now and what a restart changes', () => {
    expect(syncStateLine(view({}))).toBe('This app works on its own (no sync).');
    expect(syncStateLine(view({ source: 'stored' }))).toBe(
      'This app works on its own (no sync). The saved settings apply when the app restarts.',
    );
    expect(syncStateLine(view({ source: 'stored', active_role: 'workstation' }))).toBe(
      'This app syncs with a central service as a workstation.',
    );
    expect(syncStateLine(view({ active_role: 'workstation' }))).toBe(
      'This app syncs with a central service as a workstation. Sync stops when the app restarts.',
    );
    expect(syncStateLine(view({ source: 'flags', active_role: 'central' }))).toBe(
      'This app is the central service that workstations sync with. Set by start-up flags; change them where the app is started.',
    );
  });
});

describe('sync settings form schema', () => {
  it('trims, lower-cases the id, drops trailing slashes; an empty secret is allowed', () => {
    expect(
      syncSettingsBodySchema.parse({
        central_url: ' https://central.example.com/sync/ ',
        device_id: ` ${ID.toUpperCase()} `,
        device_secret: '',
      }),
    ).toEqual({
      central_url: 'https://central.example.com/sync',
      device_id: ID,
      device_secret: '',
    });
  });

  it('http:// only on loopback names', () => {
    const ok = (url: string) =>
      syncSettingsBodySchema.safeParse({ central_url: url, device_id: ID }).success;
    expect(ok('http://localhost:8787')).toBe(true);
    expect(ok('http://127.0.0.2:8787')).toBe(true);
    expect(ok('http://[::1]:8787')).toBe(true);
    expect(ok('http://central.lan')).toBe(false);
    expect(ok('ftp://localhost')).toBe(false);
    expect(ok('https://central.lan')).toBe(true);
  });
});
