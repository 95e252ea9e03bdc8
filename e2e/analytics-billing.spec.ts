// These tests read the demo workspace's figures as they are after the import (9 orders at Reno,
// a $147.36 invoice: fulfilled work only): this file has a demo service of its own.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test, beginEachTest, openScreen, openSignedIn } from './support';

beginEachTest(openSignedIn);

async function downloadText(page: Page, button: string) {
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const file = await download;
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

test('analytics: pick a facility, filter by order number, open its items, hide a column', async ({
  page,
}) => {
  await openScreen(page, 'Analytics');
  // It opens on the user's first facility (A to Z), not on an empty screen.
  await expect(page.getByLabel('Facility', { exact: true })).toHaveValue(
    '0f000000-0000-4000-8000-000000000002',
  );
  await expect(
    page.getByRole('table', { name: 'Orders at Columbus DC, newest first' }),
  ).toBeVisible();

  await page.getByLabel('Facility', { exact: true }).selectOption({ label: 'Reno DC' });
  await expect(page).toHaveURL(/facility=0f000000-0000-4000-8000-000000000001/);
  const table = page.getByRole('table', { name: 'Orders at Reno DC, newest first' });
  // The demo's Reno DC has 9 orders: one page, so no pager.
  await expect(table.getByRole('row')).toHaveCount(10);
  await expect(page.getByRole('navigation', { name: 'Pages of analytics' })).toHaveCount(0);

  // Sorting the loaded page by units, most first.
  await table.getByRole('button', { name: /^Units/ }).click();
  await table.getByRole('button', { name: /^Units/ }).click();
  await expect(table.getByRole('columnheader', { name: /^Units/ })).toHaveAttribute(
    'aria-sort',
    /ascending|descending/,
  );

  await page.getByLabel('Order number, PO number or order ID').fill('PS-SUM-2611004');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/order=PS-SUM-2611004/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'PS-SUM-2611004' })).toBeVisible();

  // The PO number finds the same order.
  await page.getByLabel('Order number, PO number or order ID').fill('bb4500268');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page).toHaveURL(/order=bb4500268/);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('link', { name: 'PS-SUM-2611004' })).toBeVisible();

  const toggle = table.getByRole('button', { name: 'Items of PS-SUM-2611004' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const items = page.getByRole('table', { name: 'Items of PS-SUM-2611004' });
  await expect(items.getByRole('columnheader', { name: 'SKU' })).toBeVisible();
  await expect(items.getByRole('row').nth(1)).toBeVisible();

  await page.getByText('Columns', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Brand' }).uncheck();
  await expect(table.getByRole('columnheader', { name: 'Brand' })).toHaveCount(0);
  await expect(table.getByRole('columnheader', { name: /^Retailer/ })).toBeVisible();

  await page.getByLabel('Order number, PO number or order ID').fill('NOPE-404');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(page.getByText(/No order with the number or PO NOPE-404 at Reno DC/)).toBeVisible();
  await page.getByRole('button', { name: 'Show all orders' }).click();
  await expect(table.getByRole('row')).toHaveCount(10);

  // The page lives in the address; past the last one the screen says so and leads back.
  await page.goto('/#/analytics?facility=0f000000-0000-4000-8000-000000000001&page=2');
  await expect(page.getByText('No more orders after page 1.')).toBeVisible();
  await page.getByRole('button', { name: 'Previous page' }).click();
  await expect(page).not.toHaveURL(/page=/);
  await expect(table.getByRole('row')).toHaveCount(10);
});

test('billing: filter, export both CSVs, change a price and see the summary change', async ({
  page,
}) => {
  await openScreen(page, 'Billing');
  const total = page.getByText('Total for all brands:');
  await expect(total).toContainText('$147.36');
  // Fulfilled work only: Summit's 5 packed or shipped orders (not its Open and Picking ones).
  await expect(page.getByText(/^Billed work: orders packed or shipped/)).toBeVisible();
  const summit = page.getByRole('region', { name: 'Summit Outdoor' });
  await expect(summit.getByRole('row', { name: /^Orders/ })).toContainText('$6.25');

  await page.getByLabel('Transportation method').selectOption('PARCEL');
  await expect(page).toHaveURL(/method=PARCEL/);
  await expect(total).not.toContainText('$147.36');
  const parcelTotal = (await total.locator('strong').textContent()) ?? '';

  const summary = await downloadText(page, 'Export summary CSV');
  expect(summary.name).toBe('billing-summary-parcel.csv');
  // The first line states which orders the bill counts, as the screen does.
  expect(summary.text.startsWith('\uFEFF"Billed work: orders packed or shipped')).toBe(true);
  expect(summary.text.split('\r\n')[1]).toMatch(/^Brand,Line,Action type,Metric,Count,/);
  expect(summary.text).toContain(`All brands,Total,,,,,${parcelTotal.replace(/[$,]/g, '')}\r\n`);

  const caption = await page
    .getByRole('table', { name: /orders, newest first/ })
    .locator('caption')
    .textContent();
  const orderCount = Number(/^(\d+)/.exec(caption ?? '')?.[1]);
  const details = await downloadText(page, 'Export order details CSV');
  expect(details.name).toBe('billing-orders-parcel.csv');
  const lines = details.text.trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^\uFEFF"Billed work: /);
  expect(lines[1]).toMatch(/^Order ID,Picksheet code,Brand,Retailer,Pallets,/);
  expect(lines).toHaveLength(orderCount + 2);

  // A range the wrong way round is named under its To date, announced, and marks both dates.
  await page.getByLabel('Packed from').fill('2026-11-02');
  await page.getByLabel('Packed to').fill('2026-11-01');
  await expect(page.getByRole('alert').filter({ hasText: 'From is after To.' })).toHaveAttribute(
    'id',
    'billing-packed-to-error',
  );
  for (const end of ['Packed from', 'Packed to']) {
    await expect(page.getByLabel(end)).toHaveAttribute('aria-invalid', 'true');
  }
  await page.getByLabel('Packed from').fill('');
  await page.getByLabel('Packed to').fill('');
  await expect(page.locator('#billing-packed-to-error')).toHaveCount(0);

  await page
    .getByRole('navigation', { name: 'Billing' })
    .getByRole('link', { name: 'Prices' })
    .click();
  await page.getByLabel('Brand').selectOption({ label: 'Summit Outdoor' });
  const ordersPrice = page.getByLabel('Orders', { exact: true });
  await expect(ordersPrice).toHaveValue('1.25');

  // A bad price is refused next to its field, before anything is sent.
  await ordersPrice.fill('1.255');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await expect(page.getByText('Must be whole cents (at most two decimals)')).toBeVisible();
  await expect(ordersPrice).toBeFocused();

  // Enter in the last action row adds a row; Remove takes it out again.
  await page.getByLabel('Price, action 3').press('Enter');
  await expect(page.getByLabel('Type, action 4')).toBeFocused();
  await page.getByRole('button', { name: 'Remove action 4' }).click();
  await expect(page.getByLabel('Type, action 4')).toHaveCount(0);

  await ordersPrice.fill('2.00');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await expect(page.getByText(/^Saved\./)).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Billing' })
    .getByRole('link', { name: 'Summary' })
    .click();
  // 5 orders at $2.00.
  await expect(summit.getByRole('row', { name: /^Orders/ })).toContainText('$10.00');
  await expect(total).toContainText('$151.11');
});

test('prices: a refused save (403) says who may change prices', async ({ page }) => {
  await page.route('**/api/v1/billing/prices/*', (route) =>
    route.request().method() === 'PUT'
      ? route.fulfill({
          status: 403,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } }),
        })
      : route.fallback(),
  );
  await openScreen(page, 'Billing');
  await page
    .getByRole('navigation', { name: 'Billing' })
    .getByRole('link', { name: 'Prices' })
    .click();
  await page.getByLabel('Brand').selectOption({ label: 'Lumen Home' });
  await page.getByLabel('Units', { exact: true }).fill('0.02');
  await page.getByRole('button', { name: 'Save prices' }).click();
  await expect(page.getByRole('alert')).toContainText(
    'You may not change the prices of Lumen Home: that needs an admin grant for Lumen Home',
  );
  // Still signed in, the change still on screen.
  await expect(page.getByLabel('Units', { exact: true })).toHaveValue('0.02');
});
