/**
 * Issue 19: the facilities screen's rows lead to their orders and stock, a screen's announcement
 * does not linger on the next screen, and the header says when the disk holding the data is full.
 */
import type { Page } from '@playwright/test';
import { expect, test, beginEachTest, openSignedIn } from './support';

beginEachTest(openSignedIn);

const RENO = '0f000000-0000-4000-8000-000000000001';

/** The app's one polite live region (StatusContext), not a screen's own loading message. */
const liveRegion = (page: Page) => page.locator('.visually-hidden[role="status"]');

async function openFacilities(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Facilities' })
    .click();
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeVisible();
}

test('"Loaded 3 facilities." is cleared from the status region on the next screen', async ({
  page,
}) => {
  await openFacilities(page);
  await expect(liveRegion(page)).toHaveText(/Loaded \d+ facilities\./);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Orders' })
    .click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await expect(liveRegion(page)).not.toContainText('facilities');
});

test('a facility row opens its orders and its stock, by keyboard too', async ({ page }) => {
  await openFacilities(page);
  const reno = page.getByRole('row').filter({ hasText: 'Reno DC' });

  await reno.getByRole('link', { name: 'Orders at Reno DC' }).click();
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/orders\\?facility=${RENO}`));
  await expect(page.getByLabel('Facility', { exact: true })).toHaveValue(RENO);
  const table = page.getByRole('table');
  await expect(table.getByRole('row').filter({ hasText: 'Reno DC' }).first()).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: /Columbus DC|Savannah Port/ })).toHaveCount(
    0,
  );

  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeVisible();
  const stock = page
    .getByRole('row')
    .filter({ hasText: 'Reno DC' })
    .getByRole('link', { name: 'Stock at Reno DC' });
  await stock.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`#/inventory\\?facility=${RENO}`));
  await expect(page.getByLabel('Facility', { exact: true })).toHaveValue(RENO);
});

test('the header says when the disk holding the data is full, and stops after the next save succeeds', async ({
  page,
}) => {
  // The service's health answer while a write has failed for lack of space (test/api/disk-full).
  let full = true;
  await page.route('**/api/health', async (route) => {
    if (!full) return route.continue();
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        status: 'disk_full',
        version: '1.0.0',
        message: 'The disk holding the data is full: writes are refused until space is freed',
      }),
    });
  });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  // Health is asked again when the window comes back into view (and every 10 s).
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  const banner = page.getByRole('banner').getByRole('alert');
  // One sentence, said once.
  await expect(banner).toHaveText(
    'The disk holding the data is full: writes are refused until space is freed; everything can still be viewed.',
    { timeout: 15_000 },
  );

  // Space is freed and a save succeeds: the banner goes at once, not at the next 10 s poll.
  full = false;
  const printer = page.getByRole('region', { name: 'Label printer' });
  await printer.getByLabel('Printer host').fill('192.0.2.10');
  await printer.getByLabel('Port').fill('9100');
  await printer.getByRole('button', { name: 'Save printer' }).click();
  await expect(printer.getByRole('status')).toHaveText('Label printer saved: 192.0.2.10:9100.');
  await expect(banner).toHaveCount(0, { timeout: 3_000 });
});
