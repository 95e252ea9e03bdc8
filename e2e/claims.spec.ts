import { readFile } from 'node:fs/promises';
import type { Locator } from '@playwright/test';
import { expect, test, beginEachTest, openScreen, openSignedIn } from './support';

beginEachTest(openSignedIn);

/** Chooses an option once it has loaded (the lists load after the screen). */
async function choose(scope: Locator, label: string, option: string) {
  const select = scope.getByLabel(label, { exact: true });
  await expect(select.locator('option', { hasText: option })).toBeAttached();
  await select.selectOption({ label: option });
}

function csvFile(name: string, text: string) {
  return { name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') };
}

test('chargebacks: filter, linked order, dispute packet, CSV import with a rejection report', async ({
  page,
}) => {
  await openScreen(page, 'Chargebacks', 'Chargebacks');
  const table = page.getByRole('table', { name: /chargebacks?$/ });
  await expect(table).toBeVisible();

  // One filter, kept in the address.
  await page.getByRole('checkbox', { name: 'Ready to Dispute' }).check();
  await expect(page).toHaveURL(/status=/);
  await expect(table.locator('caption')).toHaveText('1 chargeback');
  const row = table.getByRole('row', { name: /BBR-77121/ });
  await expect(row.getByText('Ready to Dispute')).toBeVisible();

  // The order with the chargeback's PO number is a link to its page.
  const order = row.getByRole('link', { name: 'PS-SUM-2611011' });
  await expect(order).toHaveAttribute('href', /#\/orders\/[0-9a-f-]{36}$/);

  // The dispute packet downloads as a zip.
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Dispute packet for BBR-77121' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('dispute-packet-BBR-77121.zip');
  const bytes = await readFile(await file.path());
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');

  // A file with a bad row is refused, with the row, column and reason.
  const number = `E2E-${Date.now()}`;
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const panel = page.getByRole('form', { name: 'Import chargebacks from CSV' });

  // Plain words for "the file says which retailer": no column names.
  await expect(panel.getByLabel('Retailer').locator('option').first()).toHaveText(
    'Named on each row of the file',
  );

  // A PDF dropped on the zone is refused there and then, by name and by content.
  for (const name of ['deduction.pdf', 'renamed.csv']) {
    const drop = await page.evaluateHandle((fileName) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['%PDF-1.7\n1 0 obj'], fileName, { type: '' }));
      return transfer;
    }, name);
    await page.getByTestId('chargebacks-drop-zone').dispatchEvent('drop', { dataTransfer: drop });
    await expect(panel.getByRole('alert')).toHaveText(
      `This is not a CSV file: ${name}. Choose the .csv export.`,
    );
  }

  await panel
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile(
        'bad.csv',
        `Chargeback #,PO,Amount,Issue Date\n${number}-A,BB4500527,12.50,2026-11-20\n${number}-B,BB4500527,lots,2026-11-20\n`,
      ),
    );
  await choose(panel, 'Brand', 'Summit Outdoor');
  await choose(panel, 'Retailer', 'Big Box Retail');
  await panel.getByRole('button', { name: 'Upload CSV' }).click();
  await expect(panel.getByRole('alert')).toContainText(
    'CSV file rejected: 1 row with problems; nothing was imported',
  );
  const report = panel.getByRole('table', { name: /Rejected rows/ });
  const problem = report.getByRole('row').nth(1);
  await expect(problem.getByRole('cell').nth(0)).toHaveText('3');
  await expect(problem.getByRole('cell').nth(1)).toHaveText('Amount');
  await expect(problem.getByRole('cell').nth(2)).not.toBeEmpty();

  // A good file is imported and listed.
  await panel
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile(
        'good.csv',
        `Chargeback #,PO,Amount,Issue Date,Dispute By\n${number}-A,BB4500527,12.50,2026-11-20,2026-12-20\n${number}-B,,"$1,200.00",2026-11-21,\n`,
      ),
    );
  await panel.getByRole('button', { name: 'Upload CSV' }).click();
  await expect(panel.getByRole('status')).toHaveText(
    'good.csv: 2 rows imported: 2 new, 0 updated.',
  );
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/status=/);
  const imported = table.getByRole('row', { name: new RegExp(`${number}-B`) });
  await expect(imported).toContainText('$1,200.00');
  await expect(imported.getByText('Pending Review')).toBeVisible();
  await expect(table.getByRole('row', { name: new RegExp(`${number}-A`) })).toContainText(
    'PS-SUM-2611011',
  );
});

test('POS: date filter, chart and table', async ({ page }) => {
  await openScreen(page, 'POS', 'POS reports');
  const table = page.getByRole('table', { name: /POS rows?$/ });
  await expect(table).toBeVisible();

  await page.getByLabel('Periods starting from').fill('2026-11-08');
  await expect(page).toHaveURL(/from=2026-11-08/);
  const chart = page.getByRole('figure', { name: 'Units and revenue over time' });
  await expect(chart).toContainText('in periods ending 2026-11-14 to 2026-11-21');
  await expect(chart.getByTestId('pos-chart').locator('svg').first()).toBeVisible();
  await expect(table.getByRole('row').nth(1)).toContainText('2026-11-21');
  await expect(table.getByRole('cell', { name: '2026-11-07', exact: true })).toHaveCount(0);

  // A start after the end is explained next to the dates and in place of the list.
  await page.getByLabel('Periods ending by').fill('2026-11-01');
  await expect(page.locator('#pos-range-error')).toHaveText('From is after To.');
  await expect(page.getByText('Change the dates: From is after To.')).toBeVisible();
});
