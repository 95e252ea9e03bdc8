import type { Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { makeXlsx } from './fixtures/make-xlsx';
import { expect, test, beginEachTest, openInventory, openSignedIn } from './support';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const CLEAN_CSV = `${FIXTURES}inventory.csv`;
const BAD_CSV = `${FIXTURES}inventory-bad.csv`;
const EMPTY_TEXT =
  'Drop a CSV or XLSX file with columns sku and available_quantity, or paste rows, to start.';

beginEachTest(async (page) => {
  await openSignedIn(page);
  await openInventory(page);
});

async function chooseRenoSummit(page: Page) {
  await page.getByLabel('Facility', { exact: true }).selectOption({ label: 'Reno DC' });
  await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Summit Outdoor' });
  await expect(page.getByRole('button', { name: 'Send to 2 retailers' })).toBeVisible();
}

const rowsTable = (page: Page) => page.getByRole('table', { name: /^Rows from / });

/** Send; when the guard asks (SKUs vanish, or the same rows again), say yes. */
async function sendConfirmingIfAsked(page: Page) {
  await page.getByRole('button', { name: /^Send to / }).click();
  const question = page.getByRole('dialog', { name: 'Check before sending' });
  const results = page.getByRole('region', { name: 'Send results' });
  await expect(question.or(results)).toBeVisible();
  if (await question.isVisible())
    await question.getByRole('button', { name: /^Send anyway/ }).click();
}
const rowCount = (page: Page) => page.locator('.rows-count');

test('the empty screen says what to do, and Send says why it cannot run yet', async ({ page }) => {
  await expect(page.getByText(EMPTY_TEXT)).toBeVisible();
  const send = page.getByRole('button', { name: /^Send/ });
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await expect(send).toHaveAccessibleDescription('Choose a facility and a brand first.');
  await expect(page.getByLabel('Brand', { exact: true })).toBeDisabled();

  await chooseRenoSummit(page);
  await expect(
    page.getByRole('button', { name: 'Send to 2 retailers' }),
  ).toHaveAccessibleDescription('Add rows first: drop or choose a file, or paste rows.');
  await expect(page.getByRole('heading', { name: 'Recent snapshots' })).toBeVisible();
});

test('upload, fix, preview, send and view the document sent', async ({ page }) => {
  await chooseRenoSummit(page);
  const fileInput = page.getByLabel('Inventory file');

  // A file with problems: each shows in its cell, in a clerk's words, with the spreadsheet row.
  await fileInput.setInputFiles(BAD_CSV);
  await expect(rowCount(page)).toHaveText('4 rows, 3 with problems');
  const table = rowsTable(page);
  await expect(table).toHaveAccessibleName('Rows from inventory-bad.csv');
  const fraction = table.getByRole('textbox', { name: 'Qty in row 3' });
  await expect(fraction).toHaveValue('5.5');
  await expect(fraction).toHaveAttribute('aria-invalid', 'true');
  await expect(fraction).toHaveAccessibleDescription(
    /^Qty in row 3 must be a whole number such as 7 or 1,200; “5\.5” has a decimal point, and quantities are never rounded\./,
  );
  await expect(table.getByRole('textbox', { name: 'Qty in row 4' })).toHaveAccessibleDescription(
    /^Qty in row 4 must be a whole number such as 7 or 1,200; “abc” is not\./,
  );
  await expect(table.getByRole('textbox', { name: 'Status in row 5' })).toHaveAccessibleDescription(
    /^Status in row 5 must be empty: the quantity is above 0, so the item is in stock\./,
  );
  await expect(table.getByRole('textbox', { name: 'Status in row 5' })).toHaveValue('discontinued');
  const send = page.getByRole('button', { name: 'Send to 2 retailers' });
  await expect(send).toHaveAttribute('aria-disabled', 'true');
  await expect(send).toHaveAccessibleDescription('Fix the 3 rows with problems first.');

  // Only the rows with problems, on request.
  await page.getByLabel('Show only rows with problems').check();
  await expect(table.locator('tbody tr')).toHaveCount(3);
  await page.getByLabel('Show only rows with problems').uncheck();

  // The fixed file replaces the rows.
  await fileInput.setInputFiles(CLEAN_CSV);
  await expect(rowCount(page)).toHaveText('5 rows, 0 with problems');
  await expect(table).toHaveAccessibleName('Rows from inventory.csv');
  await expect(table.locator('tbody tr')).toHaveCount(5);
  await expect(table.locator('tbody tr').first().getByRole('cell')).toHaveText([
    '2',
    'SUM-TENT-2P',
    '120',
    '',
    '',
  ]);
  await expect(table.locator('td[aria-invalid]')).toHaveCount(0);

  // Preview: one card per connection, with its document.
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview).toContainText('5 SKUs would go to 2 connections');
  const bigBox = preview
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Big Box Retail/ }) });
  const peak = preview
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Peak Sports/ }) });
  await expect(bigBox.getByRole('heading')).toHaveText('Big Box Retail EDI 846');
  await expect(peak.getByRole('heading')).toHaveText('Peak Sports Direct feed');
  await bigBox.getByText(/Show document for Big Box Retail/).click();
  await expect(bigBox.getByLabel('Document for Big Box Retail')).toContainText(/^ISA\*/);
  await expect(bigBox.getByLabel('Document for Big Box Retail')).toContainText(/~\nGS\*/);

  // Send: progress while it runs, then one result per connection.
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/inventory/brand/*/facility/*', async (route) => {
    await gate;
    await route.continue();
  });
  // The first send for this scope: the automatic preview finds nothing to confirm.
  await send.click();
  await expect(page.getByText('Sending…')).toBeVisible();
  await expect(page.getByRole('progressbar', { name: 'Sending' })).toBeVisible();
  release();

  const results = page.getByRole('region', { name: 'Send results' });
  await expect(results.getByRole('status')).toContainText('Inventory advice sent successfully');
  await expect(results.getByRole('status')).toContainText('2 of 2 delivered');
  const resultRows = results.locator('tbody tr');
  await expect(resultRows).toHaveCount(2);
  for (const retailer of ['Big Box Retail', 'Peak Sports']) {
    const row = resultRows.filter({ has: page.getByRole('rowheader', { name: retailer }) });
    await expect(row.getByRole('cell').nth(0)).toHaveText('Acme Logistics');
    await expect(row.getByRole('cell').nth(1)).toHaveText('✓ Sent');
  }
  await expect(page.getByText('Sending…')).toHaveCount(0);
  await page.unroute('**/api/v1/inventory/brand/*/facility/*');

  // The recent snapshots list picks up the send.
  const snapshots = page.getByRole('region', { name: 'Recent snapshots' });
  await expect(snapshots).toContainText('5 SKUs, 2 of 2 delivered');
  await page.screenshot({ path: '/tmp/inventory.png', fullPage: true });

  // The exact document sent, in a dialog that takes and gives back focus.
  const view = results.getByRole('button', { name: 'View document for Big Box Retail' });
  await view.click();
  const dialog = page.getByRole('dialog', { name: 'Document sent to Big Box Retail' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await expect(dialog.getByLabel('Document text')).toHaveText(/^ISA\*/);
  await expect(dialog.getByLabel('Document text')).toContainText('SUM-TENT-2P');
  // One segment per line.
  await expect(dialog.getByLabel('Document text')).toContainText(/~\nGS\*[^\n]*~\nST\*846\*/);
  await page.screenshot({ path: '/tmp/inventory-document.png' });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(view).toBeFocused();

  // Escape closes it too; the direct feed is JSON.
  await results.getByRole('button', { name: 'View document for Peak Sports' }).click();
  const feed = page.getByRole('dialog', { name: 'Document sent to Peak Sports' });
  await expect(feed.getByLabel('Document text')).toContainText('SUM-TENT-2P');
  await page.keyboard.press('Escape');
  await expect(feed).toHaveCount(0);
});

test('pasted rows: the service’s row problems land on their cells', async ({ page }) => {
  // Were the connections unknown to the screen, only the service could say that Peak Sports (a
  // direct feed) needs a status at 0: its answer lands on the cell, in a clerk's words.
  await page.route('**/api/v1/inventory/connections?*', (route) =>
    route.fulfill({ status: 503, json: { message: 'Unavailable', error: { code: 'X' } } }),
  );
  await chooseRenoSummit(page);
  await page.getByLabel('Paste rows').fill('Item Number\tAvailable\nPASTE-1\t7\nPASTE-2\t0\n');
  await page.getByRole('button', { name: 'Use pasted rows' }).click();
  await expect(rowCount(page)).toHaveText('2 rows, 0 with problems');
  await expect(rowsTable(page)).toHaveAccessibleName('Rows from the pasted text');

  await page.getByRole('button', { name: 'Preview' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'The service found problems' });
  await expect(alert).toContainText('they are marked in the table below');
  // The service's own words are one click away.
  await alert.getByText('Details').click();
  await expect(alert).toContainText('Inventory advice validation failed');
  const status = rowsTable(page).getByRole('textbox', { name: 'Status in row 3' });
  await expect(status).toHaveAttribute('aria-invalid', 'true');
  await expect(status).toHaveAccessibleDescription(
    /^Status in row 3 is needed: the quantity is 0 and a retailer gets a direct feed, which must say why\./,
  );
  await expect(rowCount(page)).toHaveText('2 rows, 1 with problems');
  await expect(page.getByRole('region', { name: 'Preview' })).toHaveCount(0);

  // Fixing the rows clears the service's answer.
  await page
    .getByLabel('Paste rows')
    .fill('Item Number\tAvailable\tStatus\nPASTE-1\t7\t\nPASTE-2\t0\tDiscontinued\n');
  await page.getByRole('button', { name: 'Use pasted rows' }).click();
  await expect(rowCount(page)).toHaveText('2 rows, 0 with problems');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('region', { name: 'Preview' })).toContainText(
    '2 SKUs would go to 2 connections',
  );
  await sendConfirmingIfAsked(page);
  await expect(page.getByRole('region', { name: 'Send results' })).toContainText(
    'Inventory advice sent successfully',
  );

  // The next preview compares with what was just sent.
  await page.getByLabel('Paste rows').fill('sku,qty\nPASTE-1,100\nPASTE-3,5\n');
  await page.getByRole('button', { name: 'Use pasted rows' }).click();
  await expect(rowCount(page)).toHaveText('2 rows, 0 with problems');
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByRole('region', { name: 'Preview' });
  const peak = preview
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /Peak Sports/ }) });
  await expect(peak).toContainText(
    'Warning: 1 SKU missing from this file will vanish at Peak Sports: PASTE-2',
  );
  await expect(peak).toContainText('1 big swing: PASTE-1 7 → 100');
  await expect(peak).toContainText('1 SKU added: PASTE-3');
  await page.screenshot({ path: '/tmp/inventory-preview.png', fullPage: true });
});

test('an XLSX file with loose headers is read', async ({ page }) => {
  await chooseRenoSummit(page);
  const buffer = makeXlsx([
    ['Item Number', 'Quantity', 'Stock Status', 'ETA', 'Description'],
    ['XL-1', 40, null, null, 'Tent'],
    [12345, 7.5, null, null, 'Numeric SKU, fractional number rounds down'],
    ['XL-3', 0, 'discontinued', null, null],
    ['XL-4', '2.5', null, null, 'Text with a fraction is rejected'],
  ]);
  await page.getByLabel('Inventory file').setInputFiles({
    name: 'stock.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  const table = rowsTable(page);
  await expect(table).toHaveAccessibleName('Rows from stock.xlsx');
  // A fraction is refused whether the cell is a number or text: never rounded down and sent.
  await expect(rowCount(page)).toHaveText('4 rows, 2 with problems');
  await expect(table.getByRole('textbox', { name: 'Quantity in row 3' })).toHaveValue('7.5');
  await expect(
    table.getByRole('textbox', { name: 'Quantity in row 3' }),
  ).toHaveAccessibleDescription(
    /^Quantity in row 3 must be a whole number; 7\.5 has a fraction, and quantities are never rounded\./,
  );
  await expect(table.getByRole('textbox', { name: 'Quantity in row 5' })).toHaveValue('2.5');
  // The numeric SKU is its text; the status word was read.
  await expect(table.getByRole('textbox', { name: 'Item Number in row 3' })).toHaveValue('12345');
  await expect(table.locator('tbody tr').nth(2).getByRole('cell')).toHaveText([
    '4',
    'XL-3',
    '0',
    'discontinuedread as Discontinued',
    '',
  ]);
});

test('a file without sku or quantity columns gets a clear error', async ({ page }) => {
  await page.getByLabel('Inventory file').setInputFiles({
    name: 'products.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Product,Colour\nTent,green\n'),
  });
  await expect(page.getByRole('alert')).toContainText(
    'Could not use products.csv: No sku and available_quantity column found (columns: Product, Colour).',
  );
  await expect(rowsTable(page)).toHaveCount(0);
});

test('1000 rows parse and validate without freezing the page', async ({ page }) => {
  await chooseRenoSummit(page);
  const lines = Array.from(
    { length: 1000 },
    (_, i) => `BULK-${String(i).padStart(4, '0')},${i % 50},${i % 50 === 0 ? 'Discontinued' : ''}`,
  );
  const csv = `sku,available_quantity,status\n${lines.join('\n')}\n`;
  const started = Date.now();
  await page.getByLabel('Inventory file').setInputFiles({
    name: 'bulk.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(rowCount(page)).toHaveText('1000 rows, 0 with problems');
  const table = rowsTable(page);
  await expect(table.locator('tbody tr')).toHaveCount(100);
  await expect(page.getByText('Page 1 of 10')).toBeVisible();

  // Still responsive: the next page comes at once.
  await page.getByRole('button', { name: 'Next page' }).click({ timeout: 2_000 });
  await expect(page.getByText('Page 2 of 10')).toBeVisible({ timeout: 2_000 });
  await expect(table.locator('tbody tr').first().getByRole('cell').first()).toHaveText('102');
  expect(Date.now() - started).toBeLessThan(10_000);

  await expect(page.getByRole('button', { name: 'Send to 2 retailers' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
});

test('every connection failing (502) still lists each result with its error', async ({ page }) => {
  await chooseRenoSummit(page);
  await page.getByLabel('Inventory file').setInputFiles(CLEAN_CSV);
  await expect(rowCount(page)).toHaveText('5 rows, 0 with problems');
  const result = (retailer: string, deliveryId: string) => ({
    organization_id: '0a000000-0000-4000-8000-000000000001',
    retailer_id: '0e000000-0000-4000-8000-000000000001',
    retailer_name: retailer,
    brand_name: 'Summit Outdoor',
    organization_name: 'Acme Logistics',
    success: false,
    error: '503: Service Unavailable',
    failed_skus: null,
    delivery_id: deliveryId,
  });
  await page.route('**/api/v1/inventory/brand/*/facility/*', (route) =>
    route.fulfill({
      status: 502,
      json: {
        message: 'Inventory advice failed for all connections',
        data: {
          snapshot_id: '5a000000-0000-4000-8000-000000000001',
          results: [
            result('Big Box Retail', '5d000000-0000-4000-8000-000000000001'),
            result('Peak Sports', '5d000000-0000-4000-8000-000000000002'),
          ],
          summary: { total: 2, succeeded: 0, failed: 2 },
        },
        error: { code: 'DELIVERY_FAILED' },
      },
    }),
  );
  await sendConfirmingIfAsked(page);
  const results = page.getByRole('region', { name: 'Send results' });
  await expect(results.getByRole('alert')).toContainText(
    'Inventory advice failed for all connections (0 of 2 delivered)',
  );
  const rows = results.locator('tbody tr');
  await expect(rows).toHaveCount(2);
  // The error in a clerk's words; the service's own words behind Details.
  await expect(rows.first().getByRole('cell')).toHaveText([
    'Acme Logistics',
    '✗ Failed',
    /^The retailer’s system is busy or down \(HTTP 503\)\.\s*Details/,
    // The actions: the document, and Retry (Send results offer it too).
    /^View document\s*Retry$/,
  ]);
  const detail = rows.first().getByText('503: Service Unavailable', { exact: true });
  await expect(detail).toBeHidden();
  await rows.first().getByText('Details', { exact: true }).click();
  await expect(detail).toBeVisible();
});

test('a failed delivery in the recent snapshots can be retried', async ({ page }) => {
  const deliveryId = '5d000000-0000-4000-8000-0000000000aa';
  const delivery = (fields: Record<string, unknown>) => ({
    connection_id: null,
    organization_id: '0a000000-0000-4000-8000-000000000001',
    retailer_id: null,
    retailer_name: null,
    kind: null,
    attempts: 1,
    next_attempt_at: null,
    given_up: false,
    file_name: null,
    content_type: null,
    interchange_control_number: null,
    updated_at: '2026-11-20T10:00:01.000Z',
    ...fields,
  });
  let failed = true;
  await page.route('**/api/v1/inventory/snapshots?*', (route) =>
    route.fulfill({
      json: {
        message: 'Snapshots retrieved successfully',
        data: {
          items: [
            {
              snapshot_id: '5a000000-0000-4000-8000-0000000000aa',
              brand_id: '0b000000-0000-4000-8000-000000000001',
              facility_id: '0f000000-0000-4000-8000-000000000001',
              created_at: '2026-11-20T10:00:00.000Z',
              item_count: 3,
              summary: { total: 2, succeeded: failed ? 0 : 1, failed: failed ? 2 : 1, pending: 0 },
              deliveries: [
                delivery({
                  delivery_id: deliveryId,
                  connection_id: '0c000000-0000-4000-8000-000000000001',
                  retailer_name: 'Big Box Retail',
                  kind: 'EDI_846',
                  status: failed ? 'FAILURE' : 'SUCCESS',
                  error: failed ? '503: Service Unavailable' : null,
                  file_name: '846_000000007.x12',
                }),
                // No connection was enabled for this one: no document, nothing to view or resend.
                delivery({
                  delivery_id: '5d000000-0000-4000-8000-0000000000bb',
                  status: 'FAILURE',
                  error: 'No inventory advice connection is enabled for this brand',
                }),
              ],
            },
          ],
          total_count: 1,
          page: 1,
          page_size: 5,
        },
      },
    }),
  );
  let retriedWithBody: string | null = null;
  await page.route(`**/api/v1/inventory/deliveries/${deliveryId}/retry`, (route) => {
    retriedWithBody = route.request().postData();
    failed = false;
    return route.fulfill({
      json: {
        message: 'Delivery sent successfully',
        data: { delivery_id: deliveryId, success: true, error: null },
      },
    });
  });
  await chooseRenoSummit(page);
  const snapshots = page.getByRole('region', { name: 'Recent snapshots' });
  await expect(snapshots).toContainText('The retailer’s system is busy or down (HTTP 503).');
  const detail = snapshots.getByText('503: Service Unavailable', { exact: true });
  await expect(detail).toBeHidden();
  await snapshots.getByText('Details', { exact: true }).click();
  await expect(detail).toBeVisible();
  // A message already in plain words has nothing behind a toggle.
  await expect(snapshots).toContainText(
    /No retailer \(no connection\): failure\s*No inventory advice connection is enabled/,
  );
  await expect(snapshots.getByText('Details', { exact: true })).toHaveCount(1);
  await expect(snapshots.getByRole('button', { name: /^View document/ })).toHaveCount(1);
  await expect(snapshots.getByRole('button', { name: /^Retry/ })).toHaveCount(1);
  await snapshots.getByRole('button', { name: /^Retry delivery to Big Box Retail/ }).click();
  await expect(snapshots.getByRole('status').first()).toContainText('sent');
  await expect(snapshots).toContainText('1 of 2 delivered');
  await expect(snapshots.getByRole('button', { name: /^Retry/ })).toHaveCount(0);
  expect(retriedWithBody).toBe('{}');
});
