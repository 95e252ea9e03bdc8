import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readStoredSyncSettings, syncSettingsPath } from '../../src/main/sync/stored-settings';
import { baseBundle } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';

const URL = '/api/sync/v1/settings';
const ID = 'd1000000-0000-4000-8000-000000000001';
const OTHER_ID = 'd1000000-0000-4000-8000-000000000002';
const USERS = ['admin@a.test', 'brand2@b.test', 'viewer@a.test'] as const;
type User = (typeof USERS)[number];

const dataDir = mkdtempSync(join(tmpdir(), 'sync-settings-routes-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const session = signedInService(USERS, () => ({ seed: baseBundle(), dataDir }));
beforeEach(() => rmSync(syncSettingsPath(dataDir), { force: true }));

const put = (user: User | null, body: object) =>
  session.svc.app.inject({
    method: 'PUT',
    url: URL,
    headers: session.headers(user),
    payload: body,
  });
const VALID = {
  central_url: 'https://central.example.com/',
  device_id: ID.toUpperCase(),
  device_secret: 'w1-secret-w1-secret',
};
const NONE = {
  central_url: null,
  device_id: null,
  has_secret: false,
  source: 'none',
  active_role: 'standalone',
  problem: null,
};

describe('GET and PUT /api/sync/v1/settings', () => {
  it('none at first; a save stores them (0600) and answers without the secret', async () => {
    const first = await session.get('admin@a.test', URL);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'Sync settings retrieved successfully', data: NONE });

    const saved = await put('admin@a.test', VALID);
    expect(saved.statusCode, saved.body).toBe(200);
    const data = {
      central_url: 'https://central.example.com',
      device_id: ID,
      has_secret: true,
      source: 'stored',
      active_role: 'standalone', // applies at the next start
      problem: null,
    };
    expect(saved.json()).toEqual({
      message: 'Sync settings saved; restart the app to apply them',
      data,
    });
    expect(saved.body).not.toContain('w1-secret');
    expect(statSync(syncSettingsPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(readStoredSyncSettings(dataDir)).toEqual({
      central_url: 'https://central.example.com',
      device_id: ID,
      device_secret: 'w1-secret-w1-secret',
    });
    const again = await session.get('admin@a.test', URL);
    expect(again.json().data).toEqual(data);
    expect(again.body).not.toContain('w1-secret');
  });

  it('an empty secret keeps the stored one for the same device id, not for another', async () => {
    await put('admin@a.test', VALID);
    const moved = await put('admin@a.test', {
      central_url: 'https://central2.example.com',
      device_id: ID,
      device_secret: '',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(readStoredSyncSettings(dataDir)).toEqual({
      central_url: 'https://central2.example.com',
      device_id: ID,
      device_secret: 'w1-secret-w1-secret',
    });
    const other = await put('admin@a.test', {
      central_url: 'https://central2.example.com',
      device_id: OTHER_ID,
    });
    expect(other.statusCode).toBe(400);
    expect(other.json()).toEqual({
      message: 'Invalid sync settings',
      error: { code: 'INVALID_REQUEST', details: 'device_secret: is required for a new device id' },
    });
  });

  it('an empty secret with none stored is a field error', async () => {
    const response = await put('admin@a.test', { ...VALID, device_secret: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'Invalid sync settings',
      error: { code: 'INVALID_REQUEST', details: 'device_secret: is required' },
    });
    expect(readStoredSyncSettings(dataDir)).toBeNull();
  });

  it('invalid values are 400 with details naming each field; nothing is stored', async () => {
    const cases: [object, string][] = [
      [
        { ...VALID, central_url: 'http://central.example.com' },
        'central_url: must be an https:// URL (http:// only on this machine: localhost, 127.0.0.1)',
      ],
      [
        { ...VALID, central_url: 'central' },
        'central_url: must be a URL, like https://central.example.com',
      ],
      [
        { ...VALID, device_id: 'dock-2' },
        'device_id: must be the device ID the central service gave this workstation, written like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
      ],
      [{ device_secret: 'x' }, 'central_url: is required; device_id: is required'],
      [{ clear: false }, 'clear: Invalid input: expected true'],
    ];
    for (const [body, details] of cases) {
      const response = await put('admin@a.test', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({
        message: 'Invalid sync settings',
        error: { code: 'INVALID_REQUEST', details },
      });
    }
    expect(readStoredSyncSettings(dataDir)).toBeNull();
  });

  it('http:// is accepted on loopback', async () => {
    const response = await put('admin@a.test', { ...VALID, central_url: 'http://localhost:8787' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.central_url).toBe('http://localhost:8787');
  });

  it('{clear: true} removes them', async () => {
    await put('admin@a.test', VALID);
    const cleared = await put('admin@a.test', { clear: true });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toEqual({
      message: 'Sync settings removed; restart the app to apply them',
      data: NONE,
    });
    expect(readStoredSyncSettings(dataDir)).toBeNull();
    const twice = await put('admin@a.test', { clear: true });
    expect(twice.statusCode).toBe(200);
  });

  it('a bad stored file reads as none, with the problem named', async () => {
    writeFileSync(syncSettingsPath(dataDir), '{not json');
    const response = await session.get('admin@a.test', URL);
    expect(response.json().data).toEqual({
      ...NONE,
      problem: `Ignoring ${syncSettingsPath(dataDir)}: not JSON`,
    });
  });

  it('a user without an admin grant gets 403 for both; nothing is stored', async () => {
    const read = await session.get('viewer@a.test', URL);
    expect(read.statusCode).toBe(403);
    expect(read.json()).toEqual({ message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } });
    const write = await put('viewer@a.test', VALID);
    expect(write.statusCode).toBe(403);
    expect(write.json()).toEqual({ message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } });
    const clear = await put('viewer@a.test', { clear: true });
    expect(clear.statusCode).toBe(403);
    expect(readStoredSyncSettings(dataDir)).toBeNull();
  });

  it('an admin grant for any brand at any facility is enough (a per-install setting)', async () => {
    // brand2@b.test administers brand 2 at Charlie DC only (another organisation).
    const write = await put('brand2@b.test', VALID);
    expect(write.statusCode, write.body).toBe(200);
    const read = await session.get('brand2@b.test', URL);
    expect(read.json().data.source).toBe('stored');
  });

  it('without a token: 401', async () => {
    expect((await session.get(null, URL)).statusCode).toBe(401);
    expect((await put(null, VALID)).statusCode).toBe(401);
  });

  it('parallel saves leave one whole file', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        put('admin@a.test', { ...VALID, device_secret: `secret-${i}` }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 200));
    expect(readStoredSyncSettings(dataDir)?.device_secret).toMatch(/^secret-\d+$/);
  });
});
