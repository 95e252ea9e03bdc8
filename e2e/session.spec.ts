import type { Page } from '@playwright/test';
import { expect, test, beginEachTest, openInventory, openSignedIn, signIn } from './support';

// Reload, screen changes and sign-out keep (or knowingly drop) the clerk's session and work.

const RENO = '0f000000-0000-4000-8000-000000000001';
const SUMMIT = '0b000000-0000-4000-8000-000000000001';
const COLUMBUS = '0f000000-0000-4000-8000-000000000002';

beginEachTest(async (page) => {
  await openSignedIn(page);
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeVisible();
});

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const facility = (page: Page) => page.getByLabel('Facility', { exact: true });
const brand = (page: Page) => page.getByLabel('Brand', { exact: true });
const rowCount = (page: Page) => page.locator('.rows-count');

async function chooseRenoSummit(page: Page) {
  await facility(page).selectOption({ label: 'Reno DC' });
  await brand(page).selectOption({ label: 'Summit Outdoor' });
  await expect(page).toHaveURL(new RegExp(`#/inventory\\?.*facility=${RENO}`));
  await expect(page).toHaveURL(new RegExp(`brand=${SUMMIT}`));
}

async function pasteRows(page: Page, text: string) {
  await page.getByLabel('Paste rows').fill(text);
  await page.getByRole('button', { name: 'Use pasted rows' }).click();
}

test('a reload keeps the session, the screen and the chosen facility and brand', async ({
  page,
}) => {
  await openInventory(page);
  await chooseRenoSummit(page);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(facility(page)).toHaveValue(RENO);
  await expect(brand(page)).toHaveValue(SUMMIT);
  await expect(page.getByRole('heading', { name: 'Recent snapshots' })).toBeVisible();
});

test('moving to Facilities and back keeps the loaded rows and the choice', async ({ page }) => {
  await openInventory(page);
  await chooseRenoSummit(page);
  await pasteRows(page, 'sku,available_quantity\nNAV-1,4\nNAV-2,9\n');
  await expect(rowCount(page)).toHaveText('2 rows, 0 with problems');

  await nav(page).getByRole('link', { name: 'Facilities' }).click();
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeFocused();
  await expect(page.getByRole('table', { name: /facilit(y|ies) you can access/ })).toBeVisible();

  await openInventory(page);
  await expect(facility(page)).toHaveValue(RENO);
  await expect(brand(page)).toHaveValue(SUMMIT);
  await expect(rowCount(page)).toHaveText('2 rows, 0 with problems');
  await expect(page.getByRole('table', { name: /^Rows from / })).toContainText('NAV-2');

  // The browser's Back button goes to the previous screen, not through every pick in the lists.
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeVisible();
});

test('an address without a choice starts from the last one; one in the URL wins', async ({
  page,
}) => {
  await openInventory(page);
  await chooseRenoSummit(page);

  // A plain link to the screen (as after a restart) picks up the remembered choice.
  await page.goto('/#/facilities');
  await page.goto('/#/inventory');
  await expect(facility(page)).toHaveValue(RENO);
  await expect(brand(page)).toHaveValue(SUMMIT);
  await expect(page).toHaveURL(new RegExp(`facility=${RENO}`));

  // An address that names a facility is followed (bookmarks, links between screens).
  await page.goto(`/#/inventory?facility=${COLUMBUS}`);
  await expect(facility(page)).toHaveValue(COLUMBUS);
  // Its one brand is chosen by itself, and that choice is now the last one.
  await expect(brand(page)).not.toHaveValue('');
  await page.goto('/#/facilities');
  await page.goto('/#/inventory');
  await expect(facility(page)).toHaveValue(COLUMBUS);

  // Ids the user cannot see, or that are not ids at all, read as no choice.
  await page.goto('/#/inventory?facility=0f000000-0000-4000-8000-0000000000ff&brand=nonsense');
  await expect(facility(page)).toHaveValue('');
  await expect(page.getByRole('button', { name: /^Send/ })).toHaveAccessibleDescription(
    'Choose a facility and a brand first.',
  );
});

test('sign-out with unsent rows asks first, and Cancel keeps them', async ({ page }) => {
  await openInventory(page);
  await chooseRenoSummit(page);
  await pasteRows(page, 'sku,available_quantity\nOUT-1,1\nOUT-2,2\nOUT-3,3\n');
  await expect(rowCount(page)).toHaveText('3 rows, 0 with problems');

  const questions: string[] = [];
  page.once('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect
    .poll(() => questions)
    .toEqual(['3 loaded rows have not been sent. Sign out and discard them?']);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(rowCount(page)).toHaveText('3 rows, 0 with problems');

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  // The next session starts without the discarded rows.
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Inventory', level: 1 })).toBeVisible();
  await expect(rowCount(page)).toHaveCount(0);
});

test('sign-out without loaded rows does not ask', async ({ page }) => {
  let asked = false;
  page.on('dialog', (dialog) => {
    asked = true;
    void dialog.dismiss();
  });
  await openInventory(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(asked).toBe(false);
});

test('closing or reloading the window with unsent rows asks first', async ({ page }) => {
  await openInventory(page);
  await chooseRenoSummit(page);
  await pasteRows(page, 'sku,available_quantity\nLEAVE-1,1\n');
  await expect(rowCount(page)).toHaveText('1 row, 0 with problems');

  const dialog = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const question = await dialog;
  expect(question.type()).toBe('beforeunload');
  await question.dismiss();
  expect(page.isClosed()).toBe(false);
  await expect(rowCount(page)).toHaveText('1 row, 0 with problems');
});

test('the page of Recent snapshots is in the URL: a reload keeps it', async ({ page }) => {
  const total = 12;
  await page.route('**/api/v1/inventory/snapshots?*', (route) => {
    const query = new URL(route.request().url()).searchParams;
    const pageNo = Number(query.get('page'));
    const size = Number(query.get('page_size'));
    const items = [];
    for (let n = (pageNo - 1) * size; n < Math.min(pageNo * size, total); n += 1) {
      items.push({
        snapshot_id: `5a000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        brand_id: SUMMIT,
        facility_id: RENO,
        // Newest first: snapshot n was sent n minutes before the newest.
        created_at: new Date(Date.UTC(2026, 10, 20, 12, 0 - n, n)).toISOString(),
        item_count: 100 + n,
        summary: { total: 0, succeeded: 0, failed: 0, pending: 0 },
        deliveries: [],
      });
    }
    return route.fulfill({
      json: {
        message: 'Snapshots retrieved successfully',
        data: { items, total_count: total, page: pageNo, page_size: size },
      },
    });
  });
  await openInventory(page);
  await chooseRenoSummit(page);
  const snapshots = page.getByRole('region', { name: 'Recent snapshots' });
  await expect(snapshots).toContainText('Showing 1–5 of 12, newest first.');
  await expect(snapshots.getByRole('button', { name: 'Newer' })).toBeDisabled();

  await snapshots.getByRole('button', { name: 'Older' }).click();
  await expect(snapshots).toContainText('Showing 6–10 of 12, newest first.');
  await expect(snapshots).toContainText('105 SKUs');
  await expect(page).toHaveURL(/history=2/);

  await page.reload();
  await expect(snapshots).toContainText('Showing 6–10 of 12, newest first.');
  await snapshots.getByRole('button', { name: 'Older' }).click();
  await expect(snapshots).toContainText('Showing 11–12 of 12, newest first.');
  await expect(snapshots.getByRole('button', { name: 'Older' })).toBeDisabled();

  // Another facility or brand starts again at the newest.
  await facility(page).selectOption({ label: 'Columbus DC' });
  await expect(page).not.toHaveURL(/history=/);
});
