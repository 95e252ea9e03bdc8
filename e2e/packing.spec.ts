import type { APIRequestContext, Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { expect, test, beginEachTest, openSignedIn } from './support';

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
  // Labels printed while packing said "CARTON 1" without a total: the screen says how to reprint.
  await expect(
    page.getByRole('status').filter({ hasText: 'All labels (F8) prints them with it' }),
  ).toBeVisible();
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
  await page
    .getByRole('dialog', { name: `Ship order ${PICKSHEET}?` })
    .getByRole('button', { name: 'Ship the order' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Shipped');
  await expect(
    page
      .getByRole('status')
      // The demo's Big Box connection takes ASNs; its file transport writes into the data dir.
      .filter({ hasText: 'Order shipped; the ASN was sent to Big Box Retail' }),
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

/** Summit Outdoor's SKU of the demo (case barcode: a case of 4). */
const BAG = {
  sku: 'SUM-BAG-20F',
  upc: '0810001000029',
  case_pack_quantity: 4,
  case_barcode: '10810001000025',
};
const DEMO_IDS = {
  reno: '0f000000-0000-4000-8000-000000000001',
  summit: '0b000000-0000-4000-8000-000000000001',
  bigBox: '0e000000-0000-4000-8000-000000000001',
};

/** Calls the API as the signed-in page's user. */
async function apiAs(page: Page, request: APIRequestContext) {
  // The sign-in of beforeEach is done once the app offers to sign out.
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  const authorization = `Bearer ${await pageToken(page)}`;
  return async (method: 'POST' | 'GET', url: string, data?: unknown) => {
    const answer = await request.fetch(url, { method, headers: { authorization }, data });
    expect(answer.ok(), `${method} ${url}: ${await answer.text()}`).toBe(true);
    return ((await answer.json()) as { data: Record<string, unknown> }).data;
  };
}

/**
 * A new Summit order of `units` sleeping bags at Reno for Big Box (its own picksheet, so the
 * demo's orders stay as other tests expect them); resolves with its id and picksheet code.
 */
async function newOrder(
  call: Awaited<ReturnType<typeof apiAs>>,
  name: string,
  units: number,
  method: 'FREIGHT' | 'PARCEL',
) {
  const picksheet = `PS-${name}-${Date.now()}`;
  const data = await call('POST', '/api/v1/orders/create', {
    picksheet_code: picksheet,
    brand_id: DEMO_IDS.summit,
    retailer_id: DEMO_IDS.bigBox,
    facility_id: DEMO_IDS.reno,
    transportation_method: method,
    address_data: {
      ship_to_contact: {
        name: 'Big Box Retail DC 4471',
        address_line1: '4200 Distribution Pkwy',
        city: 'Joliet',
        province: 'IL',
        country: 'US',
        zip: '60436',
      },
    },
    items: [{ ...BAG, quantity: units }],
  });
  return { id: data['order_id'] as string, picksheet };
}

async function openPacking(page: Page, order: { id: string; picksheet: string }) {
  await page.goto(`/#/orders/${order.id}/pack`);
  await expect(
    page.getByRole('heading', { name: new RegExp(`Pack ${order.picksheet}`), level: 1 }),
  ).toBeVisible();
}

test('F3 keeps the new pallet as the target: F2, F3, scan, F2 puts both cartons on pallet 1', async ({
  page,
  request,
}) => {
  const call = await apiAs(page, request);
  const order = await newOrder(call, 'F3', 2, 'FREIGHT');
  await openPacking(page, order);

  await scan(page, BAG.sku);
  await expect(packedCell(page, BAG.sku)).toHaveText('1');
  await page.keyboard.press('F2');
  await expect(page.getByRole('status').filter({ hasText: 'Carton 1 closed.' })).toBeVisible();
  await page.keyboard.press('F3');
  await expect(
    page.getByRole('status').filter({ hasText: 'Pallet 1 made with 1 carton' }),
  ).toBeVisible();
  await scan(page, BAG.sku);
  await expect(packedCell(page, BAG.sku)).toHaveText('2');
  await page.keyboard.press('F2');
  await expect(
    page.getByRole('status').filter({ hasText: 'Carton 2 closed and put on pallet 1.' }),
  ).toBeVisible();
  await expect(page.getByLabel('Pallet for carton 1').locator('option:checked')).toHaveText(
    'Pallet 1',
  );
  await expect(page.getByLabel('Pallet for carton 2').locator('option:checked')).toHaveText(
    'Pallet 1',
  );
  const pallets = page.getByRole('region', { name: 'Pallets' }).getByRole('listitem');
  await expect(pallets).toHaveCount(1);
  await expect(pallets.first()).toContainText('2 cartons');
});

test('a scan after "Complete short" is refused, and packs only once packing is reopened', async ({
  page,
  request,
}) => {
  const call = await apiAs(page, request);
  const order = await newOrder(call, 'SHORT', 3, 'PARCEL');
  await openPacking(page, order);
  const steps = page.getByRole('region', { name: 'Steps' });

  await scan(page, BAG.sku);
  await page.keyboard.press('F2');
  await expect(page.getByRole('status').filter({ hasText: 'Carton 1 closed.' })).toBeVisible();
  await steps.getByRole('button', { name: 'Complete short…' }).click();
  await page.getByRole('button', { name: 'Complete short', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Packed');

  // A stray scan: refused, nothing packed, and the screen asks before reopening.
  await scan(page, BAG.sku);
  await expect(page.getByRole('alert').filter({ hasText: 'Packing is complete' })).toHaveText(
    'Packing is complete for this order',
  );
  const ask = page.getByRole('dialog', { name: 'Reopen packing?' });
  await expect(ask.getByRole('button', { name: 'Go back' })).toBeFocused();
  await ask.getByRole('button', { name: 'Go back' }).click();
  await expect(ask).toHaveCount(0);
  await expect(packedCell(page, BAG.sku)).toHaveText('1');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Packed');
  await expect(page.getByText('Carton 2')).toHaveCount(0);
  // The service's own wording stays behind "Details".
  const details = page.getByRole('region', { name: 'Packing station' }).locator('details');
  await details.getByText('Details').click();
  await expect(details.locator('code')).toHaveText(
    'Reopen packing (POST …/reopen-packing) to pack more',
  );
  await page.getByRole('textbox', { name: 'Scan' }).focus();

  // Asked again on the next scan; reopening packs it.
  await scan(page, BAG.sku);
  await page
    .getByRole('dialog', { name: 'Reopen packing?' })
    .getByRole('button', { name: 'Reopen and pack' })
    .click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Packing reopened. Packed 1 × SUM-BAG-20F.' }),
  ).toBeVisible();
  await expect(packedCell(page, BAG.sku)).toHaveText('2');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Picking');
});

test('Ship asks first and names what goes out; Go back ships nothing', async ({
  page,
  request,
}) => {
  const call = await apiAs(page, request);
  const order = await newOrder(call, 'SHIP', 4, 'PARCEL');
  const at = `/api/v1/orders/${order.id}`;
  await call('POST', `${at}/scan`, { code: BAG.case_barcode });
  const open = await call('GET', `${at}/fulfilment`);
  const carton = (open['open_carton'] as { id: string }).id;
  await call('POST', `${at}/cartons/${carton}/close`, {});
  for (const step of ['complete-packing', 'stage', 'load']) await call('POST', `${at}/${step}`, {});
  await openPacking(page, order);
  const steps = page.getByRole('region', { name: 'Steps' });

  await steps.getByRole('button', { name: 'Ship…' }).click();
  const dialog = page.getByRole('dialog', { name: `Ship order ${order.picksheet}?` });
  await expect(dialog).toContainText('Going out: 1 carton with 4 units.');
  await expect(dialog).toContainText('Shipping cannot be undone');
  await expect(dialog.getByRole('button', { name: 'Go back' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Loaded');

  await steps.getByRole('button', { name: 'Ship…' }).click();
  await dialog.getByRole('button', { name: 'Ship the order' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Shipped');
});

test('F6, F7 and F8 save the packing slip, the compliance report and all labels', async ({
  page,
  request,
}) => {
  const call = await apiAs(page, request);
  const order = await newOrder(call, 'KEYS', 1, 'PARCEL');
  await openPacking(page, order);
  const documents = page.getByRole('region', { name: 'Labels and documents' });
  await expect(documents.getByRole('button', { name: 'Packing slip (PDF) F6' })).toHaveAttribute(
    'aria-keyshortcuts',
    'F6',
  );
  await expect(documents.getByRole('button', { name: 'Compliance report (PDF) F7' })).toBeVisible();
  await expect(documents.getByRole('button', { name: 'All labels (PDF) F8' })).toBeVisible();

  // Before anything is packed the keys say why nothing came.
  await page.keyboard.press('F8');
  await expect(page.getByRole('alert')).toHaveText('Labels come once a carton is packed.');
  await page.keyboard.press('F7');
  await expect(page.getByRole('alert')).toHaveText(
    'The compliance report is there once packing is complete.',
  );

  await scan(page, BAG.sku);
  await page.keyboard.press('F2');
  await expect(page.getByRole('status').filter({ hasText: 'Carton 1 closed.' })).toBeVisible();
  await page
    .getByRole('region', { name: 'Steps' })
    .getByRole('button', { name: 'Complete packing' })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Packed');
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();

  // F6 is pressed where F5 would reload: the page stays (no reload), and each key downloads.
  const slip = page.waitForEvent('download');
  await page.keyboard.press('F6');
  expect((await slip).suggestedFilename()).toBe(`packing-slip-${order.picksheet}.pdf`);
  const report = page.waitForEvent('download');
  await page.keyboard.press('F7');
  expect((await report).suggestedFilename()).toMatch(/\.pdf$/);
  const labels = page.waitForEvent('download');
  await page.keyboard.press('F8');
  expect((await labels).suggestedFilename()).toBe(`labels-${order.picksheet}-gs1.pdf`);
  await expect(page.getByRole('textbox', { name: 'Scan' })).toBeFocused();
});

test('a printer that fails offers "Save as PDF instead" for that label', async ({
  page,
  request,
}) => {
  const call = await apiAs(page, request);
  const order = await newOrder(call, 'DEAD', 1, 'PARCEL');
  // A printer is set (mocked, so this test does not depend on which hosts Settings accepts), and
  // it refuses: the service answers 502 as it does when nothing listens on the printer's port.
  await page.route('**/api/v1/settings/label-printer', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'Label printer',
        data: { host: 'zebra-dead.lan', port: 9100, updated_at: null },
      }),
    }),
  );
  await page.route('**/labels/print', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'The label printer at zebra-dead.lan:9100 refused the connection',
        error: { code: 'INTERNAL_SERVER_ERROR', reason: 'refused' },
      }),
    }),
  );
  await openPacking(page, order);
  await scan(page, BAG.sku);
  await page.keyboard.press('F2');
  await expect(page.getByRole('status').filter({ hasText: 'Carton 1 closed.' })).toBeVisible();
  await page.keyboard.press('F4');
  await expect(page.getByRole('alert')).toContainText('refused the connection');
  const instead = page.getByRole('button', { name: 'Save as PDF instead' });
  await expect(instead).toBeVisible();
  await expect(page.getByText('Downloads the label of carton 1 as a PDF')).toBeVisible();
  const download = page.waitForEvent('download');
  await instead.click();
  expect((await download).suggestedFilename()).toMatch(/^label-00614141\d{10}\.pdf$/);
  await expect(
    page.getByRole('status').filter({ hasText: 'Label of carton 1 saved as' }),
  ).toBeVisible();
  await expect(instead).toHaveCount(0);
});
