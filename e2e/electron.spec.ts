/**
 * The desktop window, driven through Playwright's Electron support: the app starts its service,
 * shows the sign-in screen from it, exposes only the narrow `window.desktop` bridge, and keeps
 * the page away from Node and from other origins. Skipped where Electron's binary cannot be had
 * (it is downloaded at install time, which fails offline).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  _electron as electron,
  expect,
  test,
  type ElectronApplication,
  type Page,
} from '@playwright/test';
import { findElectron } from '../scripts/electron-binary.mjs';

const root = resolve(import.meta.dirname, '..');

const available = findElectron() !== null;
const hasDisplay =
  process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
// The list reporter shows only a count of skipped tests, so say why in the run's output too.
if (!available) {
  console.log(
    'electron e2e: skipped, the Electron binary is not available on this machine (it cannot be downloaded offline)',
  );
} else if (!hasDisplay) {
  console.log('electron e2e: skipped, no display (run under xvfb-run to include it)');
}

test.describe('desktop app (Electron)', () => {
  test.skip(
    !available,
    'Electron binary not available on this machine (cannot be downloaded offline); skipping the desktop e2e',
  );
  test.skip(
    !hasDisplay,
    'no display (DISPLAY/WAYLAND_DISPLAY unset); run under xvfb-run for the desktop e2e',
  );

  let app: ElectronApplication;
  let page: Page;
  let userDataDir: string;

  test.beforeAll(async () => {
    test.setTimeout(15 * 60_000); // may build the app and better-sqlite3 for Electron first
    // Builds out/ and the Electron-ABI better-sqlite3, printing the binding's path.
    const prepare = spawnSync(
      process.execPath,
      [join(root, 'scripts', 'start.mjs'), '--prepare-only'],
      {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const binding = prepare.stdout.trim().split('\n').pop() ?? '';
    expect(prepare.status, 'scripts/start.mjs --prepare-only failed (see its output)').toBe(0);
    expect(existsSync(binding), `missing Electron build of better-sqlite3: ${binding}`).toBe(true);

    userDataDir = mkdtempSync(join(tmpdir(), 'fulfillment-electron-e2e-'));
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries(process.env)) {
      if (value !== undefined && key !== 'ELECTRON_RUN_AS_NODE') env[key] = value;
    }
    env.BETTER_SQLITE3_BINDING = binding;
    app = await electron.launch({
      // The project dir (package.json main: out/main/index.js), a private profile, and a fresh
      // data dir, which the app seeds with the demo workspace.
      args: [root, `--user-data-dir=${userDataDir}`, '--data-dir', join(userDataDir, 'data')],
      cwd: root,
      env,
      timeout: 120_000,
    });
    page = await app.firstWindow();
  });

  test.afterAll(async () => {
    await app?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  test('shows the sign-in screen served by the local service', async () => {
    await expect(page.getByLabel('Email')).toBeVisible({ timeout: 60_000 });
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
    expect(new URL(page.url()).protocol).toBe('http:');
  });

  test('exposes only the typed desktop bridge', async () => {
    const info = await page.evaluate(() => window.desktop?.getAppInfo());
    expect(info).toEqual({ version: expect.any(String), platform: process.platform });
    expect(await page.evaluate(() => Object.keys(window.desktop ?? {}))).toEqual(['getAppInfo']);
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe(
      'undefined',
    );
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe(
      'undefined',
    );
  });

  test('puts a Content-Security-Policy on the service responses', async () => {
    const csp = await page.evaluate(() =>
      fetch('/').then((response) => response.headers.get('content-security-policy')),
    );
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
  });

  test('keeps the secrets key encrypted by the OS keychain where there is one', async () => {
    const keychain = await app.evaluate(
      ({ safeStorage }) =>
        safeStorage.isEncryptionAvailable() &&
        (process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'),
    );
    const keyFile = join(userDataDir, 'data', 'secrets-key.enc');
    // Without a keychain (a bare Linux session) the headless rules apply: no key, 0600 files.
    expect(existsSync(keyFile)).toBe(keychain);
    if (keychain) {
      const stored = readFileSync(keyFile);
      expect(stored.toString('latin1')).not.toMatch(/^[A-Za-z0-9+/]{43}=$/);
      const key = await app.evaluate(({ safeStorage }, data) => {
        return safeStorage.decryptString(Buffer.from(data, 'base64'));
      }, stored.toString('base64'));
      expect(Buffer.from(key, 'base64')).toHaveLength(32);
    }
  });

  test('keeps the window on the service origin', async () => {
    const before = page.url();
    await page.evaluate(() => {
      window.location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(new URL(page.url()).origin).toBe(new URL(before).origin);
    expect(await page.evaluate(() => window.open('https://example.com/'))).toBeNull();
  });
});
