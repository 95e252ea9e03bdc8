import type { Page } from '@playwright/test';
import { expect, test, beginEachTest, openInventory, openSignedIn } from './support';

// Send results and Recent snapshots show the same deliveries: a retry in either refreshes both.
// The service's answers are scripted so the deliveries fail (the demo's connections cannot).

const ORG = '0a000000-0000-4000-8000-000000000001';
const RENO = '0f000000-0000-4000-8000-000000000001';
const SUMMIT = '0b000000-0000-4000-8000-000000000001';
const SNAPSHOT = '5a000000-0000-4000-8000-0000000000c1';
const BIG_BOX = { id: '5d000000-0000-4000-8000-0000000000c1', name: 'Big Box Retail' };
const PEAK = { id: '5d000000-0000-4000-8000-0000000000c2', name: 'Peak Sports' };
const CREATED_AT = '2026-11-20T10:00:07.000Z';

interface DeliveryFields {
  status: 'PENDING' | 'SUCCESS' | 'FAILURE';
  error: string | null;
  attempts: number;
  next_attempt_at: string | null;
  given_up: boolean;
}

/** The scripted service: deliveries' state changes only when a retry is posted. */
function scriptedOutbox() {
  const nextTry = new Date(Date.now() + 5 * 60_000).toISOString();
  const state: Record<string, DeliveryFields> = {
    [BIG_BOX.id]: {
      status: 'FAILURE',
      error: '503: Service Unavailable',
      attempts: 2,
      next_attempt_at: nextTry,
      given_up: false,
    },
    [PEAK.id]: {
      status: 'FAILURE',
      error: '500: Internal Server Error',
      attempts: 4,
      next_attempt_at: null,
      given_up: true,
    },
  };
  const retried: string[] = [];
  const delivery = (retailer: { id: string; name: string }, kind: string, index: number) => ({
    delivery_id: retailer.id,
    connection_id: `0c000000-0000-4000-8000-00000000000${index}`,
    organization_id: ORG,
    retailer_id: `0e000000-0000-4000-8000-00000000000${index}`,
    retailer_name: retailer.name,
    kind,
    ...state[retailer.id]!,
    file_name: kind === 'EDI_846' ? '846_000000009.x12' : `${retailer.id}.json`,
    content_type: kind === 'EDI_846' ? 'application/edi-x12' : 'application/json',
    interchange_control_number: kind === 'EDI_846' ? 9 : null,
    updated_at: CREATED_AT,
  });
  const snapshot = () => {
    // Peak Sports first: the screen orders by retailer name, whatever order the service uses.
    const deliveries = [delivery(PEAK, 'DIRECT_API', 4), delivery(BIG_BOX, 'EDI_846', 1)];
    const succeeded = deliveries.filter((d) => d.status === 'SUCCESS').length;
    return {
      snapshot_id: SNAPSHOT,
      brand_id: SUMMIT,
      facility_id: RENO,
      item_count: 2,
      created_at: CREATED_AT,
      summary: { total: 2, succeeded, failed: 2 - succeeded, pending: 0 },
      deliveries,
    };
  };
  const result = (retailer: { id: string; name: string }) => ({
    organization_id: ORG,
    retailer_id: '0e000000-0000-4000-8000-000000000001',
    retailer_name: retailer.name,
    brand_name: 'Summit Outdoor',
    organization_name: 'Acme Logistics',
    success: false,
    error: state[retailer.id]!.error,
    failed_skus: null,
    delivery_id: retailer.id,
  });
  const connection = (retailer: string, index: number, kind: string) => ({
    connection_id: `0c000000-0000-4000-8000-00000000000${index}`,
    kind,
    organization_id: ORG,
    organization_name: 'Acme Logistics',
    retailer_id: `0e000000-0000-4000-8000-00000000000${index}`,
    retailer_name: retailer,
    document: null,
    error: null,
    baseline: null,
    changes: { dropped_skus: [], new_zero_skus: [], big_swings: [], added_skus: [] },
  });

  async function install(page: Page) {
    await page.route('**/api/v1/inventory/brand/*/facility/*/preview', (route) =>
      route.fulfill({
        json: {
          message: 'Preview ready',
          data: {
            item_count: 2,
            connections: [
              connection('Big Box Retail', 1, 'EDI_846'),
              connection('Peak Sports', 4, 'DIRECT_API'),
            ],
          },
        },
      }),
    );
    await page.route('**/api/v1/inventory/brand/*/facility/*', (route) =>
      route.fulfill({
        status: 502,
        json: {
          message: 'Inventory advice failed for all connections',
          data: {
            snapshot_id: SNAPSHOT,
            results: [result(PEAK), result(BIG_BOX)],
            summary: { total: 2, succeeded: 0, failed: 2 },
          },
          error: { code: 'DELIVERY_FAILED' },
        },
      }),
    );
    await page.route('**/api/v1/inventory/snapshots?*', (route) =>
      route.fulfill({
        json: {
          message: 'Snapshots retrieved successfully',
          data: { items: [snapshot()], total_count: 1, page: 1, page_size: 5 },
        },
      }),
    );
    await page.route(`**/api/v1/inventory/snapshots/${SNAPSHOT}`, (route) =>
      route.fulfill({
        json: { message: 'Snapshot retrieved successfully', data: { ...snapshot(), items: [] } },
      }),
    );
    await page.route('**/api/v1/inventory/deliveries/*/retry', (route) => {
      const id = route.request().url().split('/').at(-2)!;
      retried.push(id);
      state[id] = { ...state[id]!, status: 'SUCCESS', error: null, next_attempt_at: null };
      return route.fulfill({
        json: {
          message: 'Delivery sent successfully',
          data: { delivery_id: id, success: true, error: null },
        },
      });
    });
  }
  return { install, retried };
}

beginEachTest(async (page) => {
  await openSignedIn(page);
  await openInventory(page);
});

test('a retry in Send results or Recent snapshots refreshes both', async ({ page }) => {
  const outbox = scriptedOutbox();
  await outbox.install(page);
  await page.getByLabel('Facility', { exact: true }).selectOption({ label: 'Reno DC' });
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Summit Outdoor' });
  await page.getByLabel('Paste rows').fill('sku,available_quantity\nRETRY-1,4\nRETRY-2,9\n');
  await page.getByRole('button', { name: 'Use pasted rows' }).click();
  await page.getByRole('button', { name: /^Send to 2 retailers/ }).click();

  const results = page.getByRole('region', { name: 'Send results' });
  const snapshots = page.getByRole('region', { name: 'Recent snapshots' });
  await expect(results.getByRole('alert')).toContainText('(0 of 2 delivered)');
  const resultRows = results.locator('tbody tr');
  const row = (name: string) =>
    resultRows.filter({ has: page.getByRole('rowheader', { name, exact: true }) });

  // Stable order by retailer; the outbox's plan for each delivery, in words.
  await expect(resultRows.getByRole('rowheader')).toHaveText([BIG_BOX.name, PEAK.name]);
  await expect(row(BIG_BOX.name)).toContainText(/attempt 2 failed, next try at \d{1,2}:\d\d:\d\d/);
  await expect(row(PEAK.name)).toContainText('gave up after 4 attempts');
  // Errors in a clerk's words in both places, the service's own behind Details.
  await expect(row(BIG_BOX.name)).toContainText('busy or down (HTTP 503).');
  await expect(row(BIG_BOX.name).locator('details')).toContainText('503: Service Unavailable');
  await expect(snapshots).toContainText('busy or down (HTTP 500).');
  await expect(snapshots.locator('details').first()).not.toHaveAttribute('open');
  await expect(snapshots).toContainText(/Big Box Retail \(EDI 846\): failure.*attempt 2 failed/);
  await expect(snapshots).toContainText('gave up after 4 attempts');
  // Seconds are shown (any time zone keeps the :07).
  await expect(snapshots.locator('.snapshot strong')).toContainText(':07');
  const deliveryNames = snapshots.locator('.snapshot ul > li');
  await expect(deliveryNames.first()).toContainText(BIG_BOX.name);

  // Retry in Send results: the row, the summary and Recent snapshots all follow.
  await row(BIG_BOX.name)
    .getByRole('button', { name: `Retry delivery to ${BIG_BOX.name}` })
    .click();
  await expect(row(BIG_BOX.name).getByRole('cell').nth(1)).toHaveText('✓ Sent');
  await expect(row(BIG_BOX.name).getByRole('button', { name: /^Retry/ })).toHaveCount(0);
  await expect(results).toContainText('Now 1 of 2 delivered.');
  await expect(snapshots).toContainText('1 of 2 delivered');
  await expect(snapshots).toContainText('Big Box Retail (EDI 846): success');

  // Retry in Recent snapshots: Send results follow too.
  await snapshots.getByRole('button', { name: /^Retry delivery to Peak Sports/ }).click();
  await expect(row(PEAK.name).getByRole('cell').nth(1)).toHaveText('✓ Sent');
  await expect(results).toContainText('Now 2 of 2 delivered.');
  await expect(snapshots).toContainText('2 of 2 delivered');
  await expect(snapshots.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
  expect(outbox.retried).toEqual([BIG_BOX.id, PEAK.id]);
});
