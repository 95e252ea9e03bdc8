import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { readStoredSyncSettings, syncSettingsPath } from '../../src/server/sync/stored-settings';
import { baseBundle, installAdmin } from '../helpers/fixtures';
import { signedInService } from '../helpers/signed-in';

const URL = '/api/sync/v1/settings';
const ID = 'd1000000-0000-4000-8000-000000000001';
const OTHER_ID = 'd1000000-0000-4000-8000-000000000002';
const USERS = [
  'admin@a.test',
  'brand1@a.test',
  'brand2@b.test',
  'viewer@a.test',
  'install@a.test',
] as const;
type User = (typeof USERS)[number];

const dataDir = mkdtempSync(join(tmpdir(), 'sync-settings-routes-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const session = signedInService(USERS, () => {
  const bundle = baseBundle();
  // install@a.test: an admin at every facility of the install, the only one who may change sync.
  bundle.users.push(installAdmin(bundle));
  return { seed: bundle, dataDir };
});
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
  can_change: true,
  central_changed: false,
};

describe('GET and PUT /api/sync/v1/settings', () => {
  it('none at first; a save stores them (0600) and answers without the secret', async () => {
    const first = await session.get('install@a.test', URL);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'Sync settings retrieved successfully', data: NONE });

    const saved = await put('install@a.test', VALID);
    expect(saved.statusCode, saved.body).toBe(200);
    const data = {
      central_url: 'https://central.example.com',
      device_id: ID,
      has_secret: true,
      source: 'stored',
      active_role: 'standalone', // applies at the next start
      problem: null,
      can_change: true,
      central_changed: false,
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
    const again = await session.get('install@a.test', URL);
    expect(again.json().data).toEqual(data);
    expect(again.body).not.toContain('w1-secret');
  });

  it('an empty secret keeps the stored one for the same URL and device id only', async () => {
    await put('install@a.test', VALID);
    const same = await put('install@a.test', {
      central_url: 'https://central.example.com',
      device_id: ID,
      device_secret: '',
    });
    expect(same.statusCode, same.body).toBe(200);
    expect(readStoredSyncSettings(dataDir)?.device_secret).toBe('w1-secret-w1-secret');
    // Another central URL: the secret must be typed again, so it never goes to a server the
    // person who typed it did not choose.
    const moved = await put('install@a.test', {
      central_url: 'https://central2.example.com',
      device_id: ID,
      device_secret: '',
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json()).toEqual({
      message: 'Invalid sync settings',
      error: {
        code: 'INVALID_REQUEST',
        details: 'device_secret: is required for a new central URL',
      },
    });
    expect(readStoredSyncSettings(dataDir)?.central_url).toBe('https://central.example.com');
    const retyped = await put('install@a.test', {
      central_url: 'https://central2.example.com',
      device_id: ID,
      device_secret: 'w1-secret-again',
    });
    expect(retyped.statusCode, retyped.body).toBe(200);
    expect(readStoredSyncSettings(dataDir)).toEqual({
      central_url: 'https://central2.example.com',
      device_id: ID,
      device_secret: 'w1-secret-again',
    });
    const other = await put('install@a.test', {
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
    const response = await put('install@a.test', { ...VALID, device_secret: '' });
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
      const response = await put('install@a.test', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toEqual({
        message: 'Invalid sync settings',
        error: { code: 'INVALID_REQUEST', details },
      });
    }
    expect(readStoredSyncSettings(dataDir)).toBeNull();
  });

  it('http:// is accepted on loopback', async () => {
    const response = await put('install@a.test', {
      ...VALID,
      central_url: 'http://localhost:8787',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.central_url).toBe('http://localhost:8787');
  });

  it('{clear: true} removes them', async () => {
    await put('install@a.test', VALID);
    const cleared = await put('install@a.test', { clear: true });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toEqual({
      message: 'Sync settings removed; restart the app to apply them',
      data: NONE,
    });
    expect(readStoredSyncSettings(dataDir)).toBeNull();
    const twice = await put('install@a.test', { clear: true });
    expect(twice.statusCode).toBe(200);
  });

  it('a bad stored file reads as none, with the problem named', async () => {
    writeFileSync(syncSettingsPath(dataDir), '{not json');
    const response = await session.get('install@a.test', URL);
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
    const clear = await put('viewer@a.test', { clear: true });
    expect(clear.statusCode).toBe(403);
    expect(readStoredSyncSettings(dataDir)).toBeNull();
  });

  it('only an install admin changes them; other admins see them read-only', async () => {
    await put('install@a.test', VALID);
    // admin@a.test: an admin at one facility of its organisation's two; brand1@a.test: the
    // brand's admin at a facility of each organisation, not at every facility; brand2@b.test:
    // another organisation only.
    for (const user of ['admin@a.test', 'brand1@a.test', 'brand2@b.test'] as const) {
      const read = await session.get(user, URL);
      expect(read.statusCode, user).toBe(200);
      expect(read.json().data).toMatchObject({ source: 'stored', can_change: false });
      for (const body of [
        { ...VALID, central_url: 'https://elsewhere.example.com' },
        { clear: true },
      ]) {
        const write = await put(user, body);
        expect(write.statusCode, user).toBe(403);
        expect(write.json()).toEqual({
          message: 'Unauthorized',
          error: {
            code: 'UNAUTHORIZED',
            details: 'Only an admin of every facility on this install may change this setting',
          },
        });
      }
      const accept = await session.svc.app.inject({
        method: 'POST',
        url: `${URL}/accept-central`,
        headers: session.headers(user),
      });
      expect(accept.statusCode, user).toBe(403);
    }
    expect(readStoredSyncSettings(dataDir)?.central_url).toBe('https://central.example.com');
  });

  it('accepting a new central needs a workstation', async () => {
    const accept = await session.svc.app.inject({
      method: 'POST',
      url: `${URL}/accept-central`,
      headers: session.headers('install@a.test'),
    });
    expect(accept.statusCode).toBe(409);
    expect(accept.json().message).toBe('This app does not sync as a workstation');
  });

  it('without a token: 401', async () => {
    expect((await session.get(null, URL)).statusCode).toBe(401);
    expect((await put(null, VALID)).statusCode).toBe(401);
  });

  it('parallel saves leave one whole file', async () => {
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        put('install@a.test', { ...VALID, device_secret: `secret-${i}` }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(responses.map(() => 200));
    expect(readStoredSyncSettings(dataDir)?.device_secret).toMatch(/^secret-\d+$/);
  });
});
