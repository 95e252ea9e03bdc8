import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  clearStoredSyncSettings,
  readStoredSyncSettings,
  syncSettingsPath,
  writeStoredSyncSettings,
} from '../../src/server/sync/stored-settings';

const ID = 'd1000000-0000-4000-8000-000000000001';
const SETTINGS = {
  central_url: 'https://central.example.com',
  device_id: ID,
  device_secret: 'w1-secret-w1-secret',
};

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sync-settings-store-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Reads with a collecting log; returns the settings and the lines logged. */
function read(dir: string) {
  const lines: string[] = [];
  const settings = readStoredSyncSettings(dir, (line) => lines.push(line));
  return { settings, lines };
}

describe('stored sync settings', () => {
  it('none stored reads as null without a log line', () => {
    expect(read(tempDir())).toEqual({ settings: null, lines: [] });
    expect(read(':memory:')).toEqual({ settings: null, lines: [] });
  });

  it('round trip: written 0600 as JSON, read back the same; clear removes it', () => {
    const dir = tempDir();
    writeStoredSyncSettings(dir, SETTINGS);
    expect(statSync(syncSettingsPath(dir)).mode & 0o777).toBe(0o600);
    expect(read(dir)).toEqual({ settings: SETTINGS, lines: [] });
    expect(readdirSync(dir)).toEqual(['sync-settings.json']); // no temp file left behind
    clearStoredSyncSettings(dir);
    expect(read(dir).settings).toBeNull();
    clearStoredSyncSettings(dir); // none stored is fine
  });

  it('creates a missing data dir', () => {
    const dir = join(tempDir(), 'nested', 'data');
    writeStoredSyncSettings(dir, SETTINGS);
    expect(read(dir).settings).toEqual(SETTINGS);
  });

  it('a save replaces the file whole, even under many parallel saves', async () => {
    const dir = tempDir();
    const secrets = Array.from({ length: 60 }, (_, i) => `secret-${i}`);
    await Promise.all(
      secrets.map(async (device_secret) => {
        await Promise.resolve();
        writeStoredSyncSettings(dir, { ...SETTINGS, device_secret });
      }),
    );
    const { settings } = read(dir);
    expect(secrets).toContain(settings?.device_secret);
    expect(readdirSync(dir)).toEqual(['sync-settings.json']);
  });

  it('a bad file is ignored with one line naming the problem', () => {
    const dir = tempDir();
    const file = syncSettingsPath(dir);
    writeFileSync(file, '{not json');
    expect(read(dir)).toEqual({ settings: null, lines: [`ignoring ${file}: not JSON`] });

    writeFileSync(
      file,
      JSON.stringify({ central_url: 'http://central.example.com', device_id: 'dock-2' }),
    );
    expect(read(dir)).toEqual({
      settings: null,
      lines: [
        `ignoring ${file}: central_url must be an https:// URL (http:// only on this machine: localhost, 127.0.0.1); ` +
          'device_id must be the device ID the central service gave this workstation, written like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b; device_secret is required',
      ],
    });
  });

  it('uses the --central rules: loopback may use http://, ids are lower-cased, slashes dropped', () => {
    const dir = tempDir();
    writeFileSync(
      syncSettingsPath(dir),
      JSON.stringify({
        central_url: 'http://127.0.0.1:9000/',
        device_id: ID.toUpperCase(),
        device_secret: 'x',
      }),
    );
    expect(read(dir).settings).toEqual({
      central_url: 'http://127.0.0.1:9000',
      device_id: ID,
      device_secret: 'x',
    });
  });
});
