import { expect, test, type Page } from '@playwright/test';
import { beginEachTest, openSignedIn } from './support';

beginEachTest(openSignedIn);

async function openTransactions(page: Page) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Transactions' })
    .click();
  await expect(page.getByRole('heading', { name: 'Transaction log', level: 1 })).toBeVisible();
}

test('the demo log lists transactions; a status filter narrows it and a row opens its details', async ({
  page,
}) => {
  await openTransactions(page);
  const table = page.getByRole('table');
  // Other specs write to the log before this one runs, so the first page's rows vary.
  await expect(table.getByRole('row')).not.toHaveCount(1);

  await page.getByLabel('Status', { exact: true }).selectOption('FAILURE');
  await expect(page).toHaveURL(/status=FAILURE/);
  await expect(table).toContainText('504: Gateway Timeout');
  for (const status of await table.locator('.tx-status').allTextContents()) {
    expect(status).toBe('FAILURE');
  }

  const row = table.getByRole('row').filter({ hasText: '504: Gateway Timeout' });
  await row.getByRole('button', { name: /^Details of Send ASN/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Transaction details' });
  await expect(drawer).toBeVisible();
  await expect(drawer.getByLabel('Request payload')).toContainText('BB4500527');
  await expect(drawer.getByLabel('Response body')).toContainText('upstream timed out');
  await expect(drawer).toContainText('HTTP 504');
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // A search shorter than three characters is explained, not sent.
  await page.getByLabel('Search', { exact: true }).fill('ab');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.locator('#transactions-q-error')).toHaveText('Type at least 3 characters.');
});
