import type { Page, Request } from '@playwright/test';
import type { SyncConflict, SyncStatus } from '../src/shared/sync';
import { expect, test, beginEachTest, signIn } from './support';
import { OFFLINE_WORKSTATION } from './fixtures/sync-status';

// The sync service may not run in the demo workspace: its three endpoints are answered here.
beginEachTest(async (page) => {
  await page.goto('/');
});

const ORDER_ID = '5a0c2f5e-8a1b-4c3d-9e7f-0123456789ab';

const OPEN_CONFLICT: SyncConflict = {
  id: 'b7d3c1a0-1111-4222-8333-444455556666',
  created_at: '2026-11-24T08:55:00Z',
  device_id: 'dock-2',
  seq: 14,
  mutation: 'ORDER_UPDATE',
  order_id: ORDER_ID,
  brand_id: null,
  picksheet_code: 'PS-1001',
  reason: 'The order shipped on the central service before this change arrived.',
  fields: [
    { table: 'orders', field: 'po_number', yours: 'PO-77', central: null },
    { table: 'orders', field: 'requested_ship_date', yours: '2026-11-30', central: '2026-11-28' },
  ],
  status: 'open',
  resolution: null,
  resolved_at: null,
  offers: ['keep_central', 'apply_mine'],
};

/** A fake sync service: open conflicts until one is resolved, then none. */
class FakeSync {
  status: SyncStatus;
  open: SyncConflict[] = [OPEN_CONFLICT];
  resolved: SyncConflict[] = [];
  /** Answers to the next resolve calls, in order (200 with the conflict once none is queued). */
  refusals: { status: number; message: string; code: string }[] = [];
  requests: Request[] = [];

  constructor(status: SyncStatus) {
    this.status = status;
  }

  async install(page: Page) {
    await page.route('**/api/sync/v1/**', async (route) => {
      const request = route.request();
      this.requests.push(request);
      const url = new URL(request.url());
      if (url.pathname === '/api/sync/v1/status' && request.method() === 'GET') {
        return route.fulfill({ json: { ...this.status, conflicts: this.open.length } });
      }
      if (url.pathname === '/api/sync/v1/conflicts' && request.method() === 'GET') {
        const items = url.searchParams.get('status') === 'resolved' ? this.resolved : this.open;
        return route.fulfill({
          json: {
            message: 'Conflicts retrieved successfully',
            data: { items, total_count: items.length, page: 1, page_size: 50 },
          },
        });
      }
      const recreate = /^\/api\/sync\/v1\/conflicts\/([^/]+)\/create-order$/.exec(url.pathname);
      if (recreate && request.method() === 'POST') {
        const refusal = this.refusals.shift();
        if (refusal) {
          return route.fulfill({
            status: refusal.status,
            json: { message: refusal.message, error: { code: refusal.code } },
          });
        }
        const conflict = this.open.find((item) => item.id === recreate[1])!;
        const done: SyncConflict = {
          ...conflict,
          status: 'resolved',
          resolution: 'created_new',
          resolved_at: '2026-11-24T09:20:00Z',
          offers: [],
        };
        this.open = this.open.filter((item) => item.id !== conflict.id);
        this.resolved = [done, ...this.resolved];
        return route.fulfill({
          status: 201,
          json: {
            message: 'Order created successfully',
            data: { order_id: 'c0ffee00-0000-4000-8000-000000000001', conflict: done },
          },
        });
      }
      const resolve = /^\/api\/sync\/v1\/conflicts\/([^/]+)\/resolve$/.exec(url.pathname);
      if (resolve && request.method() === 'POST') {
        const refusal = this.refusals.shift();
        if (refusal) {
          return route.fulfill({
            status: refusal.status,
            json: { message: refusal.message, error: { code: refusal.code } },
          });
        }
        const conflict = this.open.find((item) => item.id === resolve[1]);
        if (!conflict) {
          return route.fulfill({
            status: 404,
            json: { message: 'Conflict not found', error: { code: 'NOT_FOUND' } },
          });
        }
        const body = request.postDataJSON() as { action: 'keep_central' | 'apply_mine' };
        const done: SyncConflict = {
          ...conflict,
          status: 'resolved',
          resolution: body.action,
          resolved_at: '2026-11-24T09:20:00Z',
          offers: [],
        };
        this.open = this.open.filter((item) => item.id !== conflict.id);
        this.resolved = [done, ...this.resolved];
        return route.fulfill({ json: { message: 'Conflict resolved', data: done } });
      }
      return route.fallback();
    });
  }

  resolveCalls() {
    return this.requests.filter((request) => request.url().endsWith('/resolve'));
  }
}

test('the badge leads to the Sync screen, where a conflict is resolved', async ({ page }) => {
  const sync = new FakeSync(OFFLINE_WORKSTATION);
  sync.refusals.push({ status: 409, message: 'Conflict already resolved', code: 'CONFLICT' });
  await sync.install(page);
  await signIn(page);

  const badge = page.getByRole('banner').getByRole('link', { name: /waiting/ });
  await expect(badge).toHaveText('Offline · 2 waiting · 1 conflict');
  await badge.click();
  await expect(page).toHaveURL(/#\/sync$/);
  await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeFocused();

  const summary = page.getByRole('region', { name: 'Status' });
  await expect(summary).toContainText('Workstation');
  await expect(summary).toContainText('Offline');
  await expect(summary).toContainText('Changes waiting to send2');
  await expect(summary).toContainText('Last pushNever');
  await expect(summary).toContainText('Last sync failedThe central service could not be reached');
  await expect(page.getByLabel('Show')).toHaveValue('open');

  const table = page.getByRole('table', { name: '1 open conflict' });
  const headers = table.getByRole('columnheader');
  await expect(headers).toHaveText([
    'When',
    'What',
    'Order',
    'Field',
    'Yours',
    "Central's",
    'Reason',
    'Resolve',
  ]);
  const row = table.getByRole('row', { name: /PS-1001/ });
  const cells = row.getByRole('cell');
  await expect(cells.nth(1)).toHaveText('Order update');
  await expect(cells.nth(2).getByRole('link', { name: 'PS-1001' })).toHaveAttribute(
    'href',
    `/#/orders/${ORDER_ID}`,
  );
  await expect(cells.nth(3).getByRole('listitem')).toHaveText(['po_number', 'requested_ship_date']);
  await expect(cells.nth(4).getByRole('listitem')).toHaveText(['PO-77', '2026-11-30']);
  await expect(cells.nth(5).getByRole('listitem')).toHaveText(['(empty)', '2026-11-28']);
  await expect(cells.nth(6)).toHaveText(OPEN_CONFLICT.reason);

  // A refusal shows the service's message next to the row, which stays.
  await row.getByRole('button', { name: "Keep central's for PS-1001" }).click();
  await expect(row.getByRole('alert')).toHaveText('Conflict already resolved');
  expect(sync.resolveCalls()[0]?.postDataJSON()).toEqual({ action: 'keep_central' });

  const posted = page.waitForRequest(
    (request) => request.method() === 'POST' && request.url().endsWith('/resolve'),
  );
  await row.getByRole('button', { name: 'Apply mine for PS-1001' }).click();
  const request = await posted;
  expect(new URL(request.url()).pathname).toBe(
    `/api/sync/v1/conflicts/${OPEN_CONFLICT.id}/resolve`,
  );
  expect(request.postDataJSON()).toEqual({ action: 'apply_mine' });
  expect(request.headers().authorization).toMatch(/^Bearer \S+/);

  await expect(
    page.getByText(
      'No conflicts. Changes made offline that the central service refuses show up here.',
    ),
  ).toBeVisible();
  await expect(
    page.getByText(/^PS-1001: your values are applied again as a new change/),
  ).toBeFocused();
  await expect(badge).toHaveText('Offline · 2 waiting');

  // The resolved list keeps it, with its outcome, and the choice lives in the URL.
  await page.getByLabel('Show').selectOption('resolved');
  await expect(page).toHaveURL(/#\/sync\?status=resolved$/);
  const resolvedRow = page
    .getByRole('table', { name: '1 resolved conflict' })
    .getByRole('row', { name: /PS-1001/ });
  await expect(resolvedRow).toContainText('Applied mine');
  await expect(resolvedRow.getByRole('button')).toHaveCount(0);
});

test('a standalone install shows no badge and says how to connect', async ({ page }) => {
  const sync = new FakeSync({ ...OFFLINE_WORKSTATION, role: 'standalone', pending_mutations: 0 });
  sync.open = [];
  await sync.install(page);
  const statusAnswered = page.waitForResponse((response) =>
    response.url().endsWith('/api/sync/v1/status'),
  );
  await signIn(page);
  await statusAnswered;

  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // No sync badge (the header may still link to overdue or failed retailer documents).
  await expect(
    page
      .getByRole('banner')
      .getByRole('link')
      .filter({ hasNotText: /^\d+ (overdue|failed)$/ }),
  ).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Sync', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Sync', level: 1 })).toBeFocused();
  await expect(
    page.getByText(
      'This installation is not connected to a central service. To sync, set it up in Settings → Sync with a central service.',
    ),
  ).toBeVisible();
  await expect(page.getByText(/--central URL/)).toBeHidden();
  await page.getByText('Details', { exact: true }).click();
  await expect(page.getByText('--central URL --device-id ID --device-secret SECRET')).toBeVisible();
  await expect(
    page
      .getByRole('banner')
      .getByRole('link')
      .filter({ hasNotText: /^\d+ (overdue|failed)$/ }),
  ).toHaveCount(0);
  expect(sync.requests.filter((request) => request.url().includes('/conflicts'))).toEqual([]);

  await page.getByRole('link', { name: 'Settings → Sync with a central service' }).click();
  await expect(page).toHaveURL(/#\/settings/);
  await expect(page.getByRole('heading', { name: 'Sync with a central service' })).toBeVisible();
});

const REFUSED_CREATE: SyncConflict = {
  ...OPEN_CONFLICT,
  id: 'c1d3c1a0-1111-4222-8333-444455556666',
  seq: 15,
  mutation: 'CREATE_ORDERS_FROM',
  order_id: 'd00d0000-0000-4000-8000-000000000001',
  brand_id: '0b000000-0000-4000-8000-000000000001',
  picksheet_code: 'PS-OFFLINE-1',
  reason: 'The picksheet code is already used at this facility on the central service',
  fields: [
    { table: 'orders', field: 'picksheet_code', yours: 'PS-OFFLINE-1', central: null },
    { table: 'orders', field: 'po_number', yours: 'PO-FROM-W1', central: null },
    { table: 'order_items', field: 'sku', yours: 'SKU-W1', central: null },
  ],
  offers: ['keep_central', 'create_with_new_picksheet'],
};

const SHIPPED_WINS: SyncConflict = {
  ...OPEN_CONFLICT,
  id: 'e1d3c1a0-1111-4222-8333-444455556666',
  seq: 16,
  picksheet_code: 'PS-1002',
  reason: 'Order PS-1002 was already Shipped on the central service',
  fields: [{ table: 'orders', field: 'status', yours: 'Packed', central: 'Shipped' }],
  offers: ['keep_central'],
};

test('a refused new order keeps its values and is created again under a new picksheet code; Shipped wins offers no Apply mine', async ({
  page,
}) => {
  const sync = new FakeSync({ ...OFFLINE_WORKSTATION, online: true, last_error: null });
  sync.open = [REFUSED_CREATE, SHIPPED_WINS];
  sync.refusals.push({
    status: 409,
    message: 'Failed to create order: picksheet_code PS-OFFLINE-1 already exists at this facility',
    code: 'INVALID_REQUEST',
  });
  await sync.install(page);
  await signIn(page);
  await page.goto('/#/sync');

  const table = page.getByRole('table', { name: '2 open conflicts' });
  const shipped = table.getByRole('row', { name: /PS-1002/ });
  await expect(shipped.getByRole('button', { name: "Keep central's for PS-1002" })).toBeVisible();
  await expect(shipped.getByRole('button', { name: /Apply mine/ })).toHaveCount(0);

  const row = table.getByRole('row', { name: /PS-OFFLINE-1/ });
  const cells = row.getByRole('cell');
  // The refused order exists nowhere: its code, no link; what it held, field by field.
  await expect(cells.nth(2)).toHaveText('PS-OFFLINE-1');
  await expect(cells.nth(2).getByRole('link')).toHaveCount(0);
  await expect(cells.nth(4).getByRole('listitem')).toHaveText([
    'PS-OFFLINE-1',
    'PO-FROM-W1',
    'SKU-W1',
  ]);
  await expect(row.getByRole('button', { name: /Apply mine/ })).toHaveCount(0);

  const field = row.getByLabel('New picksheet code for PS-OFFLINE-1');
  const create = row.getByRole('button', { name: 'Create with a new picksheet code' });
  await create.click();
  await expect(row.getByRole('alert')).toHaveText('Enter a new picksheet code');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  expect(sync.requests.filter((r) => r.url().endsWith('/create-order'))).toHaveLength(0);

  // The service's refusal (the code is taken) shows under the field; the row stays.
  await field.fill('PS-OFFLINE-1');
  await field.press('Enter');
  await expect(row.getByRole('alert')).toHaveText(
    'Failed to create order: picksheet_code PS-OFFLINE-1 already exists at this facility',
  );

  await field.fill('PS-OFFLINE-1B');
  const posted = page.waitForRequest((r) => r.url().endsWith('/create-order'));
  await create.click();
  const request = await posted;
  expect(new URL(request.url()).pathname).toBe(
    `/api/sync/v1/conflicts/${REFUSED_CREATE.id}/create-order`,
  );
  expect(request.postDataJSON()).toEqual({ picksheet_code: 'PS-OFFLINE-1B' });
  await expect(
    page.getByText(
      'PS-OFFLINE-1: created again as PS-OFFLINE-1B, with the values it held. The central service checks the new code when it gets it.',
    ),
  ).toBeFocused();
  await expect(page.getByRole('table', { name: '1 open conflict' })).toBeVisible();

  await page.getByLabel('Show').selectOption('resolved');
  await expect(
    page
      .getByRole('table', { name: '1 resolved conflict' })
      .getByRole('row', { name: /PS-OFFLINE-1/ }),
  ).toContainText('Created with a new picksheet code');
});
