import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startService, type RunningService, type StartOptions } from '../../src/server/http/server';
import { syncSettingsPath, writeStoredSyncSettings } from '../../src/server/sync/stored-settings';
import { TEST_PASSWORD_COST } from '../helpers/service';

const ID = 'd1000000-0000-4000-8000-000000000001';
const FLAG_ID = 'd1000000-0000-4000-8000-000000000002';
// Nothing listens on the discard port: the sync client just stays offline.
const STORED = {
  central_url: 'http://127.0.0.1:9',
  device_id: ID,
  device_secret: 'w1-secret-w1-secret',
};

const dirs: string[] = [];
const running: RunningService[] = [];
afterEach(async () => {
  for (const service of running.splice(0)) await service.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sync-settings-start-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir: string, extra: Partial<StartOptions> = {}) {
  const service = await startService(
    { host: '127.0.0.1', port: 0, dataDir, seed: null, uiDir: null, outboxDrain: false, ...extra },
    { passwordCost: TEST_PASSWORD_COST },
  );
  running.push(service);
  return service;
}

/** The settings view as the demo admin sees it. */
async function view(service: RunningService) {
  const token = await fetch(`${service.url}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
  }).then((r) => r.json() as Promise<{ data: { access_token: string } }>);
  const headers = { authorization: `Bearer ${token.data.access_token}` };
  const get = await fetch(`${service.url}/api/sync/v1/settings`, { headers });
  return { headers, data: ((await get.json()) as { data: Record<string, unknown> }).data };
}

describe('start-up: stored sync settings and flags', () => {
  it('without flags, stored settings start a workstation', async () => {
    const dir = tempDir();
    writeStoredSyncSettings(dir, STORED);
    const service = await start(dir);
    expect(service.context.sync?.role).toBe('workstation');
    expect(service.context.sync?.deviceId).toBe(ID);
    expect(service.context.sync?.client).not.toBeNull();
  });

  it('without flags or stored settings: standalone', async () => {
    const service = await start(tempDir());
    expect(service.context.sync?.role).toBe('standalone');
  });

  it('workstation flags win over stored settings', async () => {
    const dir = tempDir();
    writeStoredSyncSettings(dir, STORED);
    const service = await start(dir, {
      sync: {
        role: 'workstation',
        centralUrl: 'http://127.0.0.1:9',
        deviceId: FLAG_ID,
        deviceSecret: 'w2-secret-w2-secret',
      },
    });
    expect(service.context.sync?.role).toBe('workstation');
    expect(service.context.sync?.deviceId).toBe(FLAG_ID);
  });

  it('--role standalone wins over stored settings too', async () => {
    const dir = tempDir();
    writeStoredSyncSettings(dir, STORED);
    const service = await start(dir, {
      sync: { role: 'standalone', explicit: true },
      seed: 'demo',
    });
    expect(service.context.sync?.role).toBe('standalone');
    expect((await view(service)).data).toMatchObject({
      source: 'flags',
      active_role: 'standalone',
    });
  });

  it('--role central wins; the settings show the flags and cannot be saved', async () => {
    const dir = tempDir();
    writeStoredSyncSettings(dir, STORED);
    const service = await start(dir, { sync: { role: 'central' }, seed: 'demo' });
    expect(service.context.sync?.role).toBe('central');
    const { headers, data } = await view(service);
    expect(data).toEqual({
      central_url: null,
      device_id: null,
      has_secret: false,
      source: 'flags',
      active_role: 'central',
      problem: null,
      can_change: true,
      central_changed: false,
    });
    const put = await fetch(`${service.url}/api/sync/v1/settings`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ clear: true }),
    });
    expect(put.status).toBe(409);
    expect(await put.json()).toEqual({
      message: 'Sync is set by start-up flags; change them where the app is started',
      error: { code: 'INVALID_REQUEST' },
    });
  });

  it('stored settings on a data dir with data never synced: standalone, the problem shown', async () => {
    const dir = tempDir();
    await (await start(dir, { seed: 'demo' })).close();
    running.pop();
    writeStoredSyncSettings(dir, STORED);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const service = await start(dir);
    expect(service.context.sync?.role).toBe('standalone');
    const problem =
      'This data dir holds local data that was never synced; start the workstation with an empty --data-dir';
    expect(errors).toHaveBeenCalledWith(`not syncing with ${syncSettingsPath(dir)}: ${problem}`);
    expect((await view(service)).data).toEqual({
      central_url: 'http://127.0.0.1:9',
      device_id: ID,
      has_secret: true,
      source: 'stored',
      active_role: 'standalone',
      problem,
      can_change: true,
      central_changed: false,
    });
  });

  it('stored settings are not applied when a seed is imported at start', async () => {
    const dir = tempDir();
    writeStoredSyncSettings(dir, STORED);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const service = await start(dir, { seed: 'demo' });
    expect(service.context.sync?.role).toBe('standalone');
    expect((await view(service)).data).toMatchObject({
      source: 'stored',
      active_role: 'standalone',
      problem:
        'A seed was imported at this start (--seed); a workstation gets its data from the central',
    });
  });
});
