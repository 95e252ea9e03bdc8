import { describe, expect, it } from 'vitest';
import {
  storedSyncSettingsSchema,
  syncSettingsBodySchema,
  type SyncSettingsView,
} from '../../src/shared/sync-settings';
import { syncStateLine } from '../../src/renderer/src/screens/settings/syncSettingsState';

const ID = 'd1000000-0000-4000-8000-000000000001';
const view = (over: Partial<SyncSettingsView>): SyncSettingsView => ({
  central_url: null,
  device_id: null,
  has_secret: false,
  source: 'none',
  active_role: 'standalone',
  problem: null,
  can_change: true,
  central_changed: false,
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
    // A central chosen without flags (none stored): nothing changes at a restart, so nothing more.
    expect(syncStateLine(view({ active_role: 'central' }))).toBe(
      'This app is the central service that workstations sync with.',
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

  it('says what is wrong with each field', () => {
    const messages = (body: Record<string, unknown>) =>
      syncSettingsBodySchema
        .safeParse(body)
        .error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages({ central_url: 'central', device_id: 'reno-1' })).toEqual([
      'central_url: must be a URL, like https://central.example.com',
      'device_id: must be the device ID the central service gave this workstation, written like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
    ]);
    expect(messages({ central_url: '  ', device_id: '' })).toEqual([
      'central_url: is required',
      'device_id: is required',
    ]);
    expect(messages({ central_url: 'http://central.lan', device_id: ID })).toEqual([
      'central_url: must be an https:// URL (http:// only on this machine: localhost, 127.0.0.1)',
    ]);
  });

  it('the stored file needs a secret; the form does not', () => {
    const body = { central_url: 'https://central.lan', device_id: ID };
    expect(syncSettingsBodySchema.parse(body).device_secret).toBe('');
    expect(storedSyncSettingsSchema.safeParse({ ...body, device_secret: '' }).success).toBe(false);
  });
});
