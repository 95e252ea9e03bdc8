import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { SeedDevice } from '../src/shared/sync-seed';
import {
  startServiceProcess,
  stopAllServiceProcesses,
  type ServiceProcess,
} from '../test/sync/helpers/service-process';
import { startTcpProxy, type TcpProxy } from '../test/sync/helpers/tcp-proxy';
import { DEMO, signIn, watchPageProblems } from './support';

// Real processes: a central with the demo workspace and two Reno workstations, each reaching the
// central through its own TCP proxy so one can be cut off. Each serves the built UI (cli.ts serves
// out/renderer, which `npx electron-vite build` writes before the run).

/** PS-SUM-2611001: Reno, Open, so both Reno workstations hold it and it can be edited. */
const ORDER = { id: '0d000000-0000-4000-8000-000000000001', picksheet: 'PS-SUM-2611001' };
const NO_CONFLICTS =
  'No conflicts. Changes made offline that the central service refuses show up here.';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * The sync tests' devices (test/sync/helpers/cluster.ts), read through tsx: that module pulls in
 * the service, whose JSON imports Playwright's loader cannot run.
 */
function syncTestDevices(): Record<'w1' | 'w2', SeedDevice> {
  const script =
    "import('./test/sync/helpers/cluster.ts').then((m) => process.stdout.write(JSON.stringify(m.DEVICES)))";
  return JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  ) as Record<'w1' | 'w2', SeedDevice>;
}

interface Workstation {
  service: ServiceProcess;
  proxy: TcpProxy;
}

let root: string;
let central: ServiceProcess;
let w1: Workstation;
let w2: Workstation;

async function startWorkstation(name: string, device: SeedDevice) {
  const proxy = await startTcpProxy({ targetPort: central.port });
  const service = await startServiceProcess({
    name,
    dataDir: join(root, name),
    args: ['--central', proxy.url, '--device-id', device.id, '--device-secret', device.secret],
    env: { SYNC_INTERVAL_MS: '200' },
  });
  return { service, proxy };
}

/** Resolves once the workstation pulled the demo clerk and the order (its first pull is done). */
async function waitForFirstPull(service: ServiceProcess) {
  await expect
    .poll(
      async () => {
        const signedIn = await fetch(`${service.url}/api/auth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: DEMO.email, password: DEMO.password }),
        });
        if (signedIn.status !== 200) return `sign-in ${signedIn.status}`;
        const body = (await signedIn.json()) as {
          data?: { access_token: string };
          access_token?: string;
        };
        const token = body.data?.access_token ?? body.access_token;
        const order = await fetch(`${service.url}/api/v1/orders/${ORDER.id}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        return `order ${order.status}`;
      },
      { timeout: 30_000, intervals: [250], message: `${service.name} pulls the demo workspace` },
    )
    .toBe('order 200');
}

/** A new browser window signed in as the demo clerk on `baseUrl`; its page problems are kept. */
async function signedInPage(browser: Browser, baseUrl: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = watchPageProblems(page);
  await page.goto(`${baseUrl}/`);
  await signIn(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  return { page, problems };
}

const badgeOf = (page: Page) => page.getByRole('banner').getByRole('link', { name: /waiting/ });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  root = mkdtempSync(join(tmpdir(), 'e2e-sync-'));
  const devices = syncTestDevices();
  const demo = JSON.parse(
    readFileSync(join(ROOT, 'resources/demo-workspace.json'), 'utf8'),
  ) as Record<string, unknown>;
  const bundle = join(root, 'central-bundle.json');
  writeFileSync(bundle, JSON.stringify({ ...demo, devices: [devices.w1, devices.w2] }));
  central = await startServiceProcess({
    name: 'central',
    dataDir: join(root, 'central'),
    args: ['--role', 'central', '--seed', bundle],
  });
  [w1, w2] = await Promise.all([
    startWorkstation('w1', devices.w1),
    startWorkstation('w2', devices.w2),
  ]);
  await Promise.all([waitForFirstPull(w1.service), waitForFirstPull(w2.service)]);
});

test.afterAll(async () => {
  await stopAllServiceProcesses();
  await Promise.all([w1?.proxy.close(), w2?.proxy.close()]);
  if (root) rmSync(root, { recursive: true, force: true });
});

test('an edit made offline waits, drains once the network is back and reaches the other workstation', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const poNumber = `PO-OFFLINE-${Date.now()}`;
  const first = await signedInPage(browser, w1.service.url);
  const page = first.page;
  const badge = badgeOf(page);
  await expect(badge).toHaveText(/^Online · 0 waiting/, { timeout: 15_000 });

  // Cut w1 off the central, then edit the order through its UI: the write stays local.
  w1.proxy.setMode('drop');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Orders' })
    .click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeFocused();
  await page.getByLabel('PO number or picksheet code').fill(ORDER.picksheet);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: ORDER.picksheet, exact: true }).click();
  await expect(
    page.getByRole('heading', { name: `Order ${ORDER.picksheet}`, level: 1 }),
  ).toBeVisible();
  await page.getByRole('link', { name: 'Edit order' }).click();
  await expect(page.getByRole('heading', { name: `Edit order ${ORDER.picksheet}` })).toBeFocused();
  await page.getByLabel('PO number').fill(poNumber);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(
    page.getByRole('heading', { name: `Order ${ORDER.picksheet}`, level: 1 }),
  ).toBeVisible();
  const identifiers = page.getByRole('region', { name: 'Identifiers' });
  await expect(identifiers.getByText(poNumber)).toBeVisible();
  // The badge asks every 5 s and the loop needs a failed round to know it is offline.
  await expect(badge).toHaveText('Offline · 1 waiting', { timeout: 15_000 });

  // Heal: the waiting change is pushed and the count drains.
  w1.proxy.setMode('pass');
  await expect(badge).toHaveText(/^Online · 0 waiting/, { timeout: 15_000 });

  // The other Reno workstation pulls it from the central.
  const second = await signedInPage(browser, w2.service.url);
  await second.page.goto(`${w2.service.url}/#/orders/${ORDER.id}`);
  await expect(
    second.page.getByRole('heading', { name: `Order ${ORDER.picksheet}`, level: 1 }),
  ).toBeVisible();
  await expect(async () => {
    await second.page.reload();
    await expect(
      second.page.getByRole('region', { name: 'Identifiers' }).getByText(poNumber),
    ).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });

  // Nothing was refused: the Sync screen on w1 has no conflicts to settle.
  await badge.click();
  await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeFocused();
  await expect(page.getByText(NO_CONFLICTS)).toBeVisible();

  expect(first.problems).toEqual([]);
  expect(second.problems).toEqual([]);
  await second.page.context().close();
  await page.context().close();
});
