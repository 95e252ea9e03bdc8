import { expect, test, type Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { beginEachTest, openSignedIn } from './support';

beginEachTest(openSignedIn);

/** The demo's Open FREIGHT order PS-SUM-2611001 (Summit Outdoor, 16 + 72 + 32 units). */
const ORDER_ID = '0d000000-0000-4000-8000-000000000001';
const PICKSHEET = 'PS-SUM-2611001';

/** Types a code into the scan box and presses Enter, as a barcode scanner does. */
async function scan(page: Page, code: string) {
  const box = page.getByRole('textbox', { name: 'Scan' });
  await expect(box).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/** The Packed cell of a SKU's line (columns: Line, SKU, Description, Ordered, Packed, Left). */
const packedCell = (page: Page, sku: string) =>
  page
    .getByRole('table', { name: 'Ordered and packed, per line' })
    .getByRole('row', { name: new RegExp(sku) })
    .getByRole('cell')
    .nth(4);

/** The signed-in page's token (the session the app keeps in sessionStorage). */
async function pageToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const stored = sessionStorage.getItem('fulfillment.session');
    return stored ? (JSON.parse(stored) as { token: string }).token : '';
  });
}

async function pdfBase64(): Promise<string> {
  const document = await PDFDocument.create();
  document.addPage([612, 792]).drawText('Bill of lading');
  return Buffer.from(await document.save()).toString('base64');
}

test('pack a freight order by scans, palletise, stage, load, ship and get its report', async ({
  page,
  request,
}) => {
  // About 40 requests from scan to ship: more than the default 30 s on a busy machine.
  test.slow();
  await page.goto(`/#/orders/${ORDER_ID}`);
  await page.getByRole('link', { name: 'Pack', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Pack ${PICKSHEET}`, level: 1 })).toBeVisible();
  const scanBox = page.getByRole('textbox', { name: 'Scan' });
  await expect(scanBox).toBeFocused();
  await expect(page.getByText('Nothing packed yet. Scan an item to start a carton.')).toBeVisible();
  const steps = page.getByRole('region', { name: 'Steps' });
  await expect(steps.getByRole('button', { name: 'Complete packing' })).toBeDisabled();
  await expect(steps.getByText('nothing is packed yet: scan an item')).toBeVisible();

  // The first scan opens a carton and starts picking; counts go up per scan.
  await scan(page, 'SUM-BAG-20F');
  await expect(packedCell(page, 'SUM-BAG-20F')).toHaveText('1');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Picking');
  await expect(
    page.getByRole('status').filter({ hasText: 'Packed 1 × SUM-BAG-20F' }),
  ).toBeVisible();
  // A case barcode packs a case (4), the UPC one unit.
  await scan(page, '10810001000025');
  await expect(packedCell(page, 'SUM-BAG-20F')).toHaveText('5');
  await scan(page, '0810001000029');
  await expect(packedCell(page, 'SUM-BAG-20F')).toHaveText('6');
  for (let i = 0; i < 2; i += 1) await scan(page, '10810001000025');
  await expect(packedCell(page, 'SUM-BAG-20F')).toHaveText('14');
  await scan(page, 'SUM-BAG-20F');
  await scan(page, 'SUM-BAG-20F');
  await expect(packedCell(page, 'SUM-BAG-20F')).toHaveText('16');

  // Over-pack is refused, big and next to the scan box; the count stays.
  await scan(page, 'SUM-BAG-20F');
  await expect(page.getByRole('alert').filter({ hasText: 'Over-pack refused' })).toHaveText(
    'Over-pack refused: SUM-BAG-20F would be 17 of 16 ordered.',
  );
  await expect(packedCell(page, 'SUM-BAG-20F')).toHaveText('16');
  await expect(scanBox).toBeFocused();

  // The other lines by their case barcodes, scanned fast one after the other.
  for (let i = 0; i < 6; i += 1) await scan(page, '10810001000032');
  for (let i = 0; i < 8; i += 1) await scan(page, '10810001000049');
  await expect(packedCell(page, 'SUM-JKT-RAIN-M')).toHaveText('72');
  await expect(packedCell(page, 'SUM-PACK-45L')).toHaveText('32');
  await expect(page.getByRole('heading', { name: 'Lines: 120 of 120 units packed' })).toBeVisible();
  await expect(steps.getByText('1 carton still open')).toBeVisible();

  // F2 closes the carton; F4 prints its label (a PDF: no label printer is set).
  await page.keyboard.press('F2');
  await expect(page.getByRole('status').filter({ hasText: 'Carton 1 closed.' })).toBeVisible();
  const labelDownload = page.waitForEvent('download');
  await page.keyboard.press('F4');
  expect((await labelDownload).suggestedFilename()).toMatch(/^label-00614141\d{10}\.pdf$/);

  // Complete packing.
  await steps.getByRole('button', { name: 'Complete packing' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Packed');
  await expect(steps.getByText('1 carton not on a pallet')).toBeVisible();
  await expect(steps.getByRole('button', { name: 'Stage' })).toBeDisabled();

  // F3 makes a pallet with the loose carton; taking it off and putting it back by its select.
  await page.keyboard.press('F3');
  const palletSelect = page.getByLabel('Pallet for carton 1');
  await expect(palletSelect.locator('option:checked')).toHaveText('Pallet 1');
  await palletSelect.selectOption({ label: 'Not on a pallet' });
  await expect(steps.getByText('1 carton not on a pallet')).toBeVisible();
  await expect(steps.getByText('1 pallet without cartons')).toBeVisible();
  await palletSelect.selectOption({ label: 'Pallet 1' });
  await expect(steps.getByRole('button', { name: 'Stage' })).toBeEnabled();

  await steps.getByRole('button', { name: 'Stage' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Staged');
  await steps.getByRole('button', { name: 'Load' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Loaded');

  // Shipping a freight order needs its bill of lading.
  await expect(steps.getByRole('button', { name: 'Ship' })).toBeDisabled();
  await expect(steps.getByText('no bill of lading (upload it on the order page)')).toBeVisible();
  const uploaded = await request.post(`/api/documents/bol/${ORDER_ID}`, {
    headers: { authorization: `Bearer ${await pageToken(page)}` },
    data: {
      file_name: 'bol-2611001.pdf',
      file_content: await pdfBase64(),
      bill_of_lading_number: 'BOL-2611001',
    },
  });
  expect(uploaded.ok()).toBe(true);
  await page.reload();
  await expect(steps.getByRole('button', { name: 'Ship' })).toBeEnabled();
  await steps.getByRole('button', { name: 'Ship' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Shipped');
  await expect(
    page.getByRole('status').filter({ hasText: 'Order shipped; the ASN was sent.' }),
  ).toBeVisible();

  // The compliance report is saved under its own name.
  const reportDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Compliance report (PDF)' }).click();
  const report = await reportDownload;
  expect(report.suggestedFilename()).toBe(`compliance_report_${PICKSHEET}.pdf`);
  const reportPath = await report.path();
  expect(reportPath).toBeTruthy();
});

test('cancel asks first, and a shipped order offers no Pack', async ({ page }) => {
  // The demo's Open parcel order.
  await page.goto('/#/orders');
  await page.getByLabel('PO number or picksheet code').fill('PS-SUM-2611002');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: 'PS-SUM-2611002' }).click();
  await page.getByRole('link', { name: 'Pack', exact: true }).click();
  await expect(page.getByRole('heading', { name: /Pack PS-SUM-2611002/, level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel order…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel order PS-SUM-2611002?' });
  await expect(dialog.getByRole('button', { name: 'Go back' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Go back' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Open');
  await page.getByRole('button', { name: 'Cancel order…' }).click();
  await page.getByRole('button', { name: 'Cancel the order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Cancelled');
  await page.getByRole('link', { name: 'Order PS-SUM-2611002' }).click();
  await expect(page.getByRole('heading', { name: /Order PS-SUM-2611002/, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pack', exact: true })).toHaveCount(0);
});

test('settings: the label printer is checked, saved and kept; a GS1 prefix is saved', async ({
  page,
}) => {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  const printer = page.getByRole('region', { name: 'Label printer' });
  await printer.getByLabel('Printer host').fill('not a host!');
  await printer.getByLabel('Port').fill('70000');
  await printer.getByRole('button', { name: 'Save printer' }).click();
  await expect(page.locator('#settings-printer-host-error')).toHaveText(
    'Must be a host name or an IP address',
  );
  await expect(page.locator('#settings-printer-port-error')).toHaveText(
    'Must be between 1 and 65535',
  );
  await printer.getByLabel('Printer host').fill('zebra-dock-1.lan');
  await printer.getByLabel('Port').fill('9100');
  await printer.getByRole('button', { name: 'Save printer' }).click();
  await expect(printer.getByRole('status')).toHaveText(
    'Label printer saved: zebra-dock-1.lan:9100.',
  );

  await page.reload();
  await expect(page.getByLabel('Printer host')).toHaveValue('zebra-dock-1.lan');
  await expect(page.getByLabel('Port')).toHaveValue('9100');

  const gs1 = page.getByRole('region', { name: 'GS1 company prefix' });
  await expect(gs1.getByLabel('Brand').locator('option', { hasText: 'Lumen Home' })).toBeAttached();
  await gs1.getByLabel('Brand').selectOption({ label: 'Lumen Home' });
  await gs1.getByLabel('GS1 company prefix').fill('123');
  await gs1.getByRole('button', { name: 'Save prefix' }).click();
  await expect(page.locator('#settings-gs1-prefix-error')).toHaveText('Must be 7 to 10 digits');
  await gs1.getByLabel('GS1 company prefix').fill('0614143');

  // The demo clerk is an admin everywhere: a user without the grant gets the service's 403.
  await page.route(
    '**/api/v1/brands/*/gs1-prefix',
    (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } }),
      }),
    { times: 1 },
  );
  await gs1.getByRole('button', { name: 'Save prefix' }).click();
  await expect(gs1.getByRole('alert')).toHaveText(
    'Not saved: you have no admin grant for Lumen Home. Ask an admin of the brand.',
  );

  await gs1.getByRole('button', { name: 'Save prefix' }).click();
  await expect(gs1.getByRole('status')).toHaveText(
    'GS1 company prefix of Lumen Home saved: 0614143.',
  );
});
