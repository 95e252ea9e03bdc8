import { defineConfig } from '@playwright/test';

// E2E_PORT lets two runs share a machine.
const PORT = Number(process.env.E2E_PORT ?? 4317);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Every run starts the service on a fresh data dir: old runs are wiped first (with node, so
// the command also works where there is no `rm`), then the new run gets its own folder.
// `npm run test:e2e` builds the UI into out/renderer before this runs.
// E2E_DATA_ROOT keeps two runs on one machine from wiping each other's data.
const DATA_ROOT = process.env.E2E_DATA_ROOT ?? '.tmp/e2e-data';
const dataDir = `${DATA_ROOT}/run-${Date.now()}`;
const wipeDataRoot = `node -e "require('node:fs').rmSync('${DATA_ROOT}', { recursive: true, force: true })"`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  reporter: 'list',
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `${wipeDataRoot} && npx tsx src/server/http/cli.ts --seed demo --port ${PORT} --data-dir ${dataDir}`,
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
