import { expect, test, beginEachTest, openScreen, openSignedIn } from './support';

beginEachTest(openSignedIn);

test('the demo log lists transactions; a status filter narrows it and a row opens its details', async ({
  page,
}) => {
  await openScreen(page, 'Transactions', 'Transaction log');
  const table = page.getByRole('table');
  // The demo workspace comes with a log.
  await expect(table.getByRole('row')).not.toHaveCount(1);

  await page.getByLabel('Status', { exact: true }).selectOption('FAILURE');
  await expect(page).toHaveURL(/status=FAILURE/);
  await expect(table).toContainText('504: Gateway Timeout');
  // Statuses in words; the code stays in the title.
  for (const status of await table.locator('.tx-status').all()) {
    await expect(status).toHaveText('Failed');
    await expect(status).toHaveAttribute('title', 'FAILURE');
  }

  const row = table.getByRole('row').filter({ hasText: '504: Gateway Timeout' });
  const opener = row.getByRole('button', { name: /^Details of Send ASN/ });
  await opener.click();
  const drawer = page.getByRole('dialog', { name: 'Transaction details' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByLabel('Request payload')).toContainText('BB4500527');
  await expect(drawer.getByLabel('Response body')).toContainText('upstream timed out');
  await expect(drawer).toContainText('HTTP 504');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
  // Focus goes back to the row that opened the details, not to the page.
  await expect(opener).toBeFocused();
  // So does Escape, keyboard only.
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(opener).toBeFocused();

  // A search shorter than three characters is explained, not sent.
  await page.getByLabel('Search', { exact: true }).fill('ab');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.locator('#transactions-q-error')).toHaveText('Type at least 3 characters.');
});

test('search finds a row by its order picksheet code and PO; the order links to its page', async ({
  page,
}) => {
  await openScreen(page, 'Transactions', 'Transaction log');
  const table = page.getByRole('table');
  await expect(table.getByRole('row')).not.toHaveCount(1);
  // A demo order whose creation the demo log records (the newest rows are advices, so the order's
  // rows are not on the first page: only the search brings them).
  const picksheet = 'PS-SUM-2611011';
  const po = 'BB4500527';

  for (const term of [picksheet.toLowerCase(), po]) {
    await page.getByLabel('Search', { exact: true }).fill(term);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`q=${term}`));
    // Retrying assertions over the body rows: the previous page's rows may still be on screen
    // for a moment, so a one-time snapshot of them would race the new answer.
    const rows = table.getByRole('row').filter({ has: page.getByRole('cell') });
    await expect(rows.first()).toBeVisible();
    await expect(rows.filter({ hasNotText: picksheet })).toHaveCount(0);
    await expect(rows.filter({ hasNotText: po })).toHaveCount(0);
  }

  await table.getByRole('link', { name: picksheet }).first().click();
  await expect(page).toHaveURL(/#\/orders\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText(picksheet);
});

test('a "from" date after the "to" date is explained next to the dates, nothing listed', async ({
  page,
}) => {
  await openScreen(page, 'Transactions', 'Transaction log');
  await page.getByLabel('Created from').fill('2026-11-20');
  await page.getByLabel('Created to').fill('2026-11-10');
  await expect(page.locator('#transactions-range-error')).toHaveText('From is after To.');
  await expect(page.getByLabel('Created to')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('table')).toHaveCount(0);
});
