import type { Download, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, beginEachTest, openInventory, openSignedIn } from './support';

/**
 * The inventory screen for clerks (issue 6): the send guard, cells fixed in place, the error
 * report, "next problem" with the sticky action bar, the template, readable documents, stable
 * columns. These tests use scopes the other inventory tests do not send to.
 */
const BAD_CSV = fileURLToPath(new URL('./fixtures/inventory-bad.csv', import.meta.url));

beginEachTest(async (page) => {
  await openSignedIn(page);
  await openInventory(page);
});

async function choose(page: Page, facility: string, brand: string, retailers: number) {
  await page.getByLabel('Facility', { exact: true }).selectOption({ label: facility });
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: brand });
  await expect(
    page.getByRole('button', {
      name: `Send to ${retailers} retailer${retailers === 1 ? '' : 's'}`,
    }),
  ).toBeVisible();
}

async function paste(page: Page, text: string) {
  await page.getByLabel('Paste rows').fill(text);
  await page.getByRole('button', { name: 'Use pasted rows' }).click();
}

const rowsTable = (page: Page) => page.getByRole('table', { name: /^Rows from / });
const rowCount = (page: Page) => page.locator('.rows-count');
const question = (page: Page) => page.getByRole('dialog', { name: 'Check before sending' });
const results = (page: Page) => page.getByRole('region', { name: 'Send results' });
const readDownload = async (download: Download) =>
  readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');

test('Send previews first and asks before SKUs vanish, go to 0, or the same rows go again', async ({
  page,
}) => {
  const sends: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/facility\/[^/]+$/.test(request.url())) {
      sends.push(request.url());
    }
  });
  await choose(page, 'Savannah Port', 'Lumen Home', 1);
  const send = page.getByRole('button', { name: 'Send to 1 retailer' });

  // First snapshot: nothing to confirm; the automatic preview shows what was checked.
  await paste(page, 'sku,qty\nLUM-1,5\nLUM-2,3\n');
  await send.click();
  await expect(results(page)).toContainText('Inventory advice sent successfully');
  await expect(question(page)).toHaveCount(0);
  expect(sends).toHaveLength(1);

  // LUM-2 left out: it would vanish at Harbor Goods. Cancel sends nothing and gives focus back.
  await paste(page, 'sku,qty\nLUM-1,5\n');
  await send.click();
  await expect(question(page)).toBeVisible();
  await expect(question(page)).toContainText(
    'Harbor Goods:1 SKU will vanish (not in this file): LUM-2',
  );
  await expect(question(page).getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(page.getByRole('region', { name: 'Preview' })).toContainText(
    'Warning: 1 SKU missing from this file will vanish at Harbor Goods: LUM-2',
  );
  await question(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(question(page)).toHaveCount(0);
  await expect(send).toBeFocused();
  expect(sends).toHaveLength(1);

  // Asked again, and this time the clerk means it.
  await send.click();
  await question(page).getByRole('button', { name: 'Send anyway to 1 retailer' }).click();
  await expect(results(page)).toContainText('Inventory advice sent successfully');
  expect(sends).toHaveLength(2);

  // The very same rows again (written differently): a warning, not a silent resend.
  await paste(page, 'SKU,Quantity\nLUM-1 ,5\n');
  await send.click();
  await expect(question(page)).toContainText(
    'This file is the same as the snapshot already delivered',
  );
  await question(page).getByRole('button', { name: 'Cancel' }).click();
  expect(sends).toHaveLength(2);

  // Going to 0 is asked about too.
  await paste(page, 'sku,qty,status\nLUM-1,0,Discontinued\n');
  await send.click();
  await expect(question(page)).toContainText('Harbor Goods:1 SKU will go to 0: LUM-1');
  await page.keyboard.press('Escape');
  await expect(question(page)).toHaveCount(0);
  expect(sends).toHaveLength(2);
});

test('a problem cell is fixed in place and checked again', async ({ page }) => {
  await choose(page, 'Savannah Port', 'Lumen Home', 1);
  // Harbor Goods is a direct feed: said before any preview, and checked on the rows at once.
  await expect(page.getByRole('note')).toContainText(
    'Harbor Goods gets a direct feed: every row with quantity 0 needs a status',
  );
  await paste(page, 'sku,qty,status\nFIX-1,7.5,\nFIX-2,"1,200",\nFIX-3,0,\n');
  await expect(rowCount(page)).toHaveText('3 rows, 2 with problems');
  const send = page.getByRole('button', { name: 'Send to 1 retailer' });
  await expect(send).toHaveAccessibleDescription('Fix the 2 rows with problems first.');
  // "1,200" was read as 1200, and says so.
  await expect(rowsTable(page).locator('tbody tr').nth(1)).toContainText('1,200read as 1200');

  const quantity = rowsTable(page).getByRole('textbox', { name: 'qty in row 2' });
  await expect(quantity).toHaveValue('7.5');
  await quantity.fill('8');
  await quantity.press('Enter');
  await expect(rowCount(page)).toHaveText('3 rows, 1 with problems');
  // Enter went on to the next problem.
  const status = rowsTable(page).getByRole('textbox', { name: 'status in row 4' });
  await expect(status).toBeFocused();
  await expect(status).toHaveAccessibleDescription(
    /^Status in row 4 is needed: the quantity is 0 and Harbor Goods gets a direct feed/,
  );
  await status.fill('temp unavailable');
  await status.press('Tab');
  // Temporarily unavailable needs a date: the re-check says so in the next column.
  const date = rowsTable(page).getByRole('textbox', { name: 'Back in stock in row 4' });
  await expect(date).toHaveAccessibleDescription(/needed for a temporarily unavailable item/);
  await date.fill('2099-01-31');
  await date.press('Enter');
  await expect(rowCount(page)).toHaveText('3 rows, 0 with problems');
  await expect(rowsTable(page).locator('tbody tr').first().getByRole('cell')).toHaveText([
    '2',
    'FIX-1',
    '8',
    '',
    '',
  ]);
  await expect(send).not.toHaveAttribute('aria-disabled', 'true');

  // What is previewed is the edited rows, read by the same rules.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText('3 SKUs would go to 1 connection');
  await preview.getByText(/Show document for Harbor Goods/).click();
  const body = preview.getByLabel('Document for Harbor Goods');
  await expect(body).toContainText('"available_quantity": 1200');
  await expect(body).toContainText('"status": "TEMPORARILY_UNAVAILABLE"');
});

test('the error report downloads as CSV with row, column, value and problem', async ({ page }) => {
  await choose(page, 'Reno DC', 'Bramble & Co', 1);
  await page.getByLabel('Inventory file').setInputFiles(BAD_CSV);
  await expect(rowCount(page)).toHaveText('4 rows, 3 with problems');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download error report (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('inventory-bad-problems.csv');
  expect((await readDownload(download)).split('\r\n')).toEqual([
    'row,column,value,problem',
    '3,Qty,5.5,"Qty in row 3 must be a whole number such as 7 or 1,200; “5.5” has a decimal point, and quantities are never rounded."',
    '4,Qty,abc,"Qty in row 4 must be a whole number such as 7 or 1,200; “abc” is not."',
    '5,Status,discontinued,"Status in row 5 must be empty: the quantity is above 0, so the item is in stock."',
    '',
  ]);
});

for (const width of [1366, 1024]) {
  test(`at ${width} px, Next problem walks 1000 rows while Preview and Send stay in view`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 768 });
    await choose(page, 'Reno DC', 'Bramble & Co', 1);
    const lines = Array.from({ length: 1000 }, (_, i) =>
      i === 40
        ? 'BULK-0040,4.5'
        : i === 640
          ? 'BULK-0640,-2'
          : `BULK-${String(i).padStart(4, '0')},${i + 1}`,
    );
    await page.getByLabel('Inventory file').setInputFiles({
      name: 'bulk.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`sku,qty\n${lines.join('\n')}\n`),
    });
    await expect(rowCount(page)).toHaveText('1000 rows, 2 with problems');

    const bar = page.getByRole('region', { name: 'Actions' });
    await expect(bar).toContainText('2 rows with problems');
    const next = bar.getByRole('button', { name: 'Next problem' });
    await next.click();
    const first = rowsTable(page).getByRole('textbox', { name: 'qty in row 42' });
    await expect(first).toBeFocused();
    await expect(page.getByText('Page 1 of 10')).toBeVisible();
    await expect(bar).toBeInViewport();
    await expect(bar.getByRole('button', { name: 'Preview' })).toBeInViewport();

    // The second problem is on page 7: the table turns to it.
    await next.click();
    const second = rowsTable(page).getByRole('textbox', { name: 'qty in row 642' });
    await expect(second).toBeFocused();
    await expect(page.getByText('Page 7 of 10')).toBeVisible();
    await expect(second).toBeInViewport();
    await expect(bar.getByRole('button', { name: /^Send to 1 retailer/ })).toBeInViewport();

    // And round again to the first.
    await next.click();
    await expect(first).toBeFocused();
    await expect(page.getByText('Page 1 of 10')).toBeVisible();

    // Scrolled to the middle of the page of rows, the bar is still there.
    await rowsTable(page).locator('tbody tr').nth(60).scrollIntoViewIfNeeded();
    await expect(bar).toBeInViewport();
    await expect(bar).toContainText('2 rows with problems');
  });

  test(`at ${width} px, a message in a cell keeps the columns and SKUs as they are`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 768 });
    await choose(page, 'Reno DC', 'Summit Outdoor', 2);
    const clean = 'sku,qty,status,back in stock\nSUM-LANTERN-0001,5,,\nSUM-LANTERN-0002,6,,\n';
    await paste(page, clean);
    await expect(rowCount(page)).toHaveText('2 rows, 0 with problems');
    const widths = () =>
      rowsTable(page)
        .locator('thead th')
        .evaluateAll((cells) =>
          cells.map((cell) => Math.round(cell.getBoundingClientRect().width)),
        );
    const before = await widths();

    // The longest messages: a past back-in-stock date, and a status where none may be.
    await paste(
      page,
      'sku,qty,status,back in stock\nSUM-LANTERN-0001,0,temporarily unavailable,2001-01-01\nSUM-LANTERN-0002,6,discontinued,2099-01-01\n',
    );
    await expect(rowCount(page)).toHaveText('2 rows, 2 with problems');
    expect(await widths()).toEqual(before);

    // Nothing is clipped: the table fits its box, and every message is inside its cell.
    const scroller = page.locator('.table-scroll').filter({ has: rowsTable(page) });
    const fits = await scroller.evaluate((box) => box.scrollWidth <= box.clientWidth);
    expect(fits).toBe(true);
    const overflowing = await rowsTable(page)
      .locator('.cell-error')
      .evaluateAll(
        (errors) =>
          errors.filter((error) => {
            const cell = error.closest('td')!.getBoundingClientRect();
            const box = error.getBoundingClientRect();
            return box.right > cell.right + 1 || box.left < cell.left - 1;
          }).length,
      );
    expect(overflowing).toBe(0);
    const clippedHeaders = await rowsTable(page)
      .locator('thead th')
      .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).length);
    expect(clippedHeaders).toBe(0);
    await expect(
      rowsTable(page).getByRole('textbox', { name: 'back in stock in row 2' }),
    ).toHaveAccessibleDescription(/^Back in stock in row 2 \(2001-01-01\) is in the past/);
    // SKUs keep to one line.
    const skuInput = rowsTable(page).getByRole('textbox', { name: 'SKU in row 2' });
    await expect(skuInput).toHaveValue('SUM-LANTERN-0001');
    const skuFits = await skuInput.evaluate(
      (input: HTMLInputElement) => input.scrollWidth <= input.clientWidth,
    );
    expect(skuFits).toBe(true);
    await page.screenshot({ path: `/tmp/inventory-errors-${width}.png`, fullPage: true });
  });
}

test('the template downloads, and the screen lists the columns, status words and limit', async ({
  page,
}) => {
  await expect(page.getByText('up to 1,000 rows per file')).toBeVisible();
  await page.getByText('Columns and words this screen understands').click();
  const help = page.locator('.file-help');
  await expect(help).toContainText('Item number');
  await expect(help).toContainText('Qty on hand');
  await expect(help).toContainText('Temp unavailable');
  await expect(help).toContainText('7.5 or 3.0 is refused, never rounded');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download template (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('inventory-template.csv');
  const template = await readDownload(download);
  expect(template.split('\r\n')[0]).toBe(
    'sku,available_quantity,status,estimated_back_in_stock_date',
  );

  // The template, filled in as it is, reads clean.
  await choose(page, 'Reno DC', 'Summit Outdoor', 2);
  await page.getByLabel('Inventory file').setInputFiles({
    name: 'inventory-template.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(template),
  });
  await expect(rowCount(page)).toHaveText('3 rows, 0 with problems');
});

test('a sent X12 document shows one segment per line and downloads as sent', async ({ page }) => {
  await choose(page, 'Reno DC', 'Bramble & Co', 1);
  await paste(page, 'sku,qty\nBRM-1,4\nBRM-2,9\n');
  await page.getByRole('button', { name: 'Send to 1 retailer' }).click();
  const confirm = question(page);
  await expect(confirm.or(results(page))).toBeVisible();
  if (await confirm.isVisible())
    await confirm.getByRole('button', { name: /^Send anyway/ }).click();
  await expect(results(page)).toContainText('846 inventory advice sent successfully');

  await results(page).getByRole('button', { name: 'View document for Northwind Market' }).click();
  const dialog = page.getByRole('dialog', { name: 'Document sent to Northwind Market' });
  const text = dialog.getByLabel('Document text');
  await expect(text).toHaveText(/^ISA\*/);
  const lines = (await text.innerText()).split('\n');
  expect(lines.map((line) => line.slice(0, 3).replace(/\*.*/, ''))).toEqual(
    expect.arrayContaining(['ISA', 'GS', 'ST', 'BIA', 'LIN', 'QTY', 'CTT', 'SE', 'GE', 'IEA']),
  );
  for (const line of lines) expect(line).toMatch(/^[A-Z0-9]{2,3}\*.*~$/);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download document' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^846_\d{9}\.x12$/);
  const sent = await readDownload(download);
  // The file as sent (not the on-screen layout): the same segments, same order.
  expect(sent.replace(/\r?\n/g, '')).toBe(lines.join(''));
});
