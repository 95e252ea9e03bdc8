import { defineConfig } from '@playwright/test';

// No shared web server: each spec file starts its own demo service on a free port and a fresh
// data dir under E2E_DATA_ROOT (e2e/service.ts), so files run in any order and in parallel.
// `npm run test:e2e` builds the UI into out/renderer before this runs; the services serve it.
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  // Files spread over the workers; the tests of one file still run in order, on its service.
  // Two on two cores: Chromium and the services compete, and still the run is shorter than one
  // worker on one shared service was (docs/decisions, "Each e2e spec file gets its own demo service").
  fullyParallel: false,
  workers: 2,
  reporter: 'list',
  forbidOnly: !!process.env.CI,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
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
});
