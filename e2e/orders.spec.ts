import type { APIRequestContext, Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { expect, test, DEMO, beginEachTest, openScreen, openSignedIn, signIn } from './support';

beginEachTest(openSignedIn);

/** A small real PDF (the service opens it with pdf-lib). */
async function pdfBytes(): Promise<number[]> {
  const document = await PDFDocument.create();
  document.addPage([612, 792]).drawText('Bill of lading');
  return [...(await document.save())];
}

/** Drops a file onto the order page's BOL drop zone, as a drag from the desktop does. */
async function dropFile(page: Page, name: string, type: string, bytes: number[]) {
  const dataTransfer = await page.evaluateHandle(
    (file) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(file.bytes)], file.name, { type: file.type }));
      return transfer;
    },
    { name, type, bytes },
  );
  await page.getByTestId('bol-drop-zone').dispatchEvent('drop', { dataTransfer });
}

/** Chooses an option once it has loaded (brands and retailers load after the choice above). */
async function choose(page: Page, label: string, option: string | { index: number }) {
  const select = page.getByLabel(label, { exact: true });
  if (typeof option === 'string') {
    await expect(select.locator('option', { hasText: option })).toBeAttached();
    await select.selectOption({ label: option });
  } else {
    await expect(select.locator('option')).not.toHaveCount(1);
    await select.selectOption(option);
  }
}

test('create an order, edit it, attach its BOL and move it to another facility', async ({
  page,
}) => {
  const picksheet = `PS-E2E-${Date.now()}`;
  await openScreen(page, 'Orders');
  await page.getByRole('link', { name: 'New order' }).click();
  await expect(page.getByRole('heading', { name: 'New order', level: 1 })).toBeFocused();

  // The shared schema answers before anything is sent, next to each field.
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.locator('#order-picksheet_code-error')).toHaveText('This field is required');
  await expect(page.locator('#order-items-0-sku-error')).toHaveText('This field is required');
  await expect(page.locator('#order-items-0-quantity-error')).toHaveText('Enter a quantity');
  await expect(page.locator('#order-facility_id-error')).toHaveText('Choose a facility.');
  // The first field in error takes the focus.
  await expect(page.getByLabel('Facility', { exact: true })).toBeFocused();

  await choose(page, 'Facility', 'Reno DC');
  await choose(page, 'Brand', 'Summit Outdoor');
  await choose(page, 'Retailer', { index: 1 });
  await page.getByLabel('Picksheet code (required)').fill(picksheet);
  await page.getByLabel('PO number').fill('PO-1001');
  await page.getByLabel('SKU, item 1').fill('SUM-TENT-2P');
  await page.getByLabel('Quantity, item 1').fill('12');

  // Rows by keyboard: Enter adds a row after the last and moves to it; Remove drops it again.
  await page.getByLabel('Quantity, item 1').press('Enter');
  await expect(page.getByLabel('SKU, item 2')).toBeFocused();
  await page.keyboard.type('SUM-LAMP');
  await page.getByLabel('Quantity, item 2').fill('4');
  await page.getByRole('button', { name: 'Remove item 2' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('SKU, item 2')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add item' })).toBeFocused();

  await page.getByLabel('Cancel by').fill('2026-12-20');
  await page.getByLabel('Bill to: E-mail').fill('not-an-email');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.locator('#order-address_data-bill_to_contact-email-error')).toHaveText(
    'Must be an e-mail address',
  );
  await page.getByLabel('Bill to: E-mail').fill('ap@bigbox.example');
  await page.getByLabel('Ship to: Name').fill('Big Box DC 14');
  await page.getByRole('button', { name: 'Create order' }).click();

  await expect(page.getByRole('heading', { name: `Order ${picksheet}`, level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/#\/orders\/[0-9a-f-]{36}$/);
  const orderUrl = page.url();
  const items = page.getByRole('region', { name: 'Items' });
  await expect(items.getByRole('cell', { name: 'SUM-TENT-2P' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Status: Open' })).toBeVisible();
  await expect(page.getByText('Big Box DC 14')).toBeVisible();

  // Edit: a change asks before it is thrown away; then it is saved.
  await page.getByRole('link', { name: 'Edit order' }).click();
  await expect(page.getByRole('heading', { name: `Edit order ${picksheet}` })).toBeFocused();
  await page.getByLabel('PO number').fill('PO-1002');
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe('This order has unsaved changes. Leave and discard them?');
    void dialog.dismiss();
  });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Orders' })
    .click();
  await expect(page.getByRole('heading', { name: `Edit order ${picksheet}` })).toBeVisible();
  await page.getByLabel('Quantity, item 1').fill('15');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `Order ${picksheet}`, level: 1 })).toBeVisible();
  const identifiers = page.getByRole('region', { name: 'Identifiers' });
  await expect(identifiers.getByText('PO-1002')).toBeVisible();
  await expect(items.getByRole('cell', { name: '15', exact: true })).toBeVisible();

  // BOL: a file that is not a PDF is refused before upload; a PDF dropped on the page is stored.
  const bol = page.getByRole('region', { name: 'Bill of lading' });
  await expect(bol.getByText('No bill of lading yet.')).toBeVisible();
  await dropFile(page, 'notes.txt', 'text/plain', [...Buffer.from('not a pdf')]);
  await expect(bol.getByRole('alert')).toHaveText(
    'notes.txt is not a PDF. Choose the bill of lading as a PDF file.',
  );
  await dropFile(page, 'bol-1001.pdf', 'application/pdf', await pdfBytes());
  await expect(bol.getByText(/Ready to upload: bol-1001\.pdf/)).toBeVisible();
  await bol.getByLabel('BOL number').fill('BOL-77001');
  await bol.getByLabel('PRO number').fill('PRO-5521');
  await bol.getByLabel('Carrier', { exact: true }).fill('Old Dominion');
  await bol.getByLabel('Scheduled delivery').fill('2026-12-01T09:30:00');
  await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
  await expect(bol.getByRole('status')).toHaveText('BOL uploaded successfully: bol-1001.pdf.');
  const versions = bol.getByRole('list', { name: 'Bill of lading versions, newest first' });
  await expect(versions.getByRole('listitem')).toHaveCount(1);
  await expect(versions).toContainText('Version 1');
  await expect(versions).toContainText('bol-1001.pdf');
  await expect(identifiers.getByText('BOL-77001')).toBeVisible();

  // A re-upload adds a version; the older one stays listed.
  await dropFile(page, 'bol-1001-signed.pdf', 'application/pdf', await pdfBytes());
  await bol.getByLabel('BOL number').fill('BOL-77002');
  await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
  await expect(bol.getByRole('status')).toHaveText(
    'BOL uploaded successfully: bol-1001-signed.pdf.',
  );
  await expect(versions.getByRole('listitem')).toHaveCount(2);
  await expect(versions.getByRole('listitem').first()).toContainText(
    'Version 2current: bol-1001-signed.pdf',
  );
  await expect(versions.getByRole('listitem').last()).toContainText('Version 1: bol-1001.pdf');
  await expect(identifiers.getByText('BOL-77002')).toBeVisible();

  // Opening the stored PDF hands over the same file.
  const download = page.waitForEvent('download');
  await versions.getByRole('button', { name: 'Open version 1, bol-1001.pdf' }).click();
  expect((await download).suggestedFilename()).toBe('bol-1001.pdf');

  // Move: the picker lists the brand's other facilities.
  const move = page.getByRole('region', { name: 'Facility' });
  await choose(page, 'Move to facility', 'Columbus DC (CMH1)');
  await move.getByRole('button', { name: 'Move order' }).click();
  await expect(move.getByRole('status')).toHaveText('Moved to Columbus DC.');
  await expect(move.getByText('Ships from Columbus DC')).toBeVisible();

  // The list finds it by its picksheet code; the search is in the URL.
  await openScreen(page, 'Orders');
  await page.getByLabel('PO number or picksheet code').fill(picksheet);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${picksheet}`));
  const row = page.getByRole('row', { name: new RegExp(picksheet) });
  await expect(row).toContainText('Columbus DC');
  await row.getByRole('link', { name: picksheet }).click();
  // The page's heading keeps the focus the shell gives it, also after the order has loaded.
  await expect(page.getByRole('heading', { name: `Order ${picksheet}`, level: 1 })).toBeFocused();
  expect(page.url()).toBe(orderUrl);
});

test('a picksheet code taken at the facility is shown on its field', async ({ page }) => {
  const picksheet = `PS-DUP-${Date.now()}`;
  for (const attempt of [1, 2]) {
    await page.goto('/#/orders/new');
    await choose(page, 'Facility', 'Reno DC');
    await choose(page, 'Brand', 'Summit Outdoor');
    await choose(page, 'Retailer', { index: 1 });
    await page.getByLabel('Picksheet code (required)').fill(picksheet);
    await page.getByLabel('SKU, item 1').fill('SUM-TENT-2P');
    await page.getByLabel('Quantity, item 1').fill('1');
    await page.getByRole('button', { name: 'Create order' }).click();
    if (attempt === 1) {
      await expect(page.getByRole('heading', { name: `Order ${picksheet}` })).toBeVisible();
    }
  }
  await expect(page.locator('#order-picksheet_code-error')).toHaveText(
    `${picksheet} is taken at this facility`,
  );
  await expect(page.getByLabel('Picksheet code (required)')).toBeFocused();
});

test('the list keeps its filters in the URL and says what to do when nothing matches', async ({
  page,
}) => {
  await page.goto('/#/orders?q=%22no-such-order-anywhere%22&status=Cancelled');
  await expect(page.getByLabel('Status')).toHaveValue('Cancelled');
  await expect(page.getByLabel('PO number or picksheet code')).toHaveValue(
    'no-such-order-anywhere',
  );
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/status=/);
  await expect(page.getByLabel('Status')).toHaveValue('');
});

const IDS = {
  reno: '0f000000-0000-4000-8000-000000000001',
  summit: '0b000000-0000-4000-8000-000000000001',
  bramble: '0b000000-0000-4000-8000-000000000002',
  bigBox: '0e000000-0000-4000-8000-000000000001',
  northwind: '0e000000-0000-4000-8000-000000000002',
  savannah: '0f000000-0000-4000-8000-000000000003',
  harbor: '0e000000-0000-4000-8000-000000000003',
};

/** The demo clerk's API token (one sign-in per test: sign-ins are throttled). */
const tokens = new WeakMap<APIRequestContext, Promise<string>>();
function demoToken(request: APIRequestContext): Promise<string> {
  let token = tokens.get(request);
  if (!token) {
    token = request
      .post('/api/auth/token', { data: DEMO })
      .then(async (answer) => ((await answer.json()) as { data: { access_token: string } }).data)
      .then((data) => data.access_token);
    tokens.set(request, token);
  }
  return token;
}

/** Creates an order through the API as the demo clerk; resolves with its id. */
async function createOrderByApi(
  request: APIRequestContext,
  order: {
    picksheet: string;
    brandId: string;
    retailerId: string;
    facilityId?: string;
    dates?: Record<string, string>;
  },
): Promise<string> {
  const token = await demoToken(request);
  const created = await request.post('/api/v1/orders/create', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      picksheet_code: order.picksheet,
      brand_id: order.brandId,
      retailer_id: order.retailerId,
      facility_id: order.facilityId ?? IDS.reno,
      items: [{ sku: 'SKU-1', quantity: 2 }],
      dates: order.dates,
    },
  });
  expect(created.ok()).toBe(true);
  return ((await created.json()) as { data: { order_id: string } }).data.order_id;
}

test('the move picker lists only facilities where the brand works and the retailer is connected', async ({
  page,
  request,
}) => {
  const summitOrder = await createOrderByApi(request, {
    picksheet: `PS-SUM-${Date.now()}`,
    brandId: IDS.summit,
    retailerId: IDS.bigBox,
  });
  await page.goto(`/#/orders/${summitOrder}`);
  const picker = page.getByLabel('Move to facility');
  // Summit works at Columbus and Savannah too, but Big Box is connected to it only in the
  // organisation of Reno and Columbus: Savannah would be refused.
  await expect(picker.locator('option')).toHaveText(['Choose a facility', 'Columbus DC (CMH1)']);

  // A Harbor Goods order at Savannah: Summit works at Reno and Columbus, Harbor Goods is not
  // connected there.
  const harborOrder = await createOrderByApi(request, {
    picksheet: `PS-HRB-${Date.now()}`,
    brandId: IDS.summit,
    retailerId: IDS.harbor,
    facilityId: IDS.savannah,
  });
  await page.goto(`/#/orders/${harborOrder}`);
  await expect(
    page.getByText(
      'Harbor Goods is not connected to Summit Outdoor at any other facility you can see, so the order cannot move.',
    ),
  ).toBeVisible();

  // Bramble & Co works only at Reno DC.
  const brambleOrder = await createOrderByApi(request, {
    picksheet: `PS-BRA-${Date.now()}`,
    brandId: IDS.bramble,
    retailerId: IDS.northwind,
  });
  await page.goto(`/#/orders/${brambleOrder}`);
  await expect(
    page.getByText(
      'Bramble & Co works at no other facility you can see, so the order cannot move.',
    ),
  ).toBeVisible();
  await expect(page.getByLabel('Move to facility')).toHaveCount(0);
});

test('another brand’s order looks like an unknown one to a brand user', async ({
  page,
  request,
}) => {
  const picksheet = `PS-OTHER-${Date.now()}`;
  const brambleOrder = await createOrderByApi(request, {
    picksheet,
    brandId: IDS.bramble,
    retailerId: IDS.northwind,
  });
  await page.getByRole('button', { name: 'Sign out' }).click();
  await signIn(page, 'summit@example.com', DEMO.password);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  for (const orderId of [brambleOrder, '0d000000-0000-4000-8000-00000000dead', 'not-an-id']) {
    await page.goto(`/#/orders/${orderId}`);
    await expect(page.getByRole('heading', { name: 'Order not found', level: 1 })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(
      'There is no such order among the ones you can see. Find it in the orders list.',
    );
  }
  await page.goto(`/#/orders?q=%22${picksheet}%22`);
  await expect(page.getByText('No orders match these filters.')).toBeVisible();
});

test('a PDF over 10 MB is refused before upload, with its size', async ({ page, request }) => {
  const orderId = await createOrderByApi(request, {
    picksheet: `PS-BIG-${Date.now()}`,
    brandId: IDS.summit,
    retailerId: IDS.bigBox,
  });
  await page.goto(`/#/orders/${orderId}`);
  const bol = page.getByRole('region', { name: 'Bill of lading' });
  await expect(bol.getByText('No bill of lading yet.')).toBeVisible();
  let uploads = 0;
  page.on('request', (sent) => {
    if (sent.url().includes('/api/documents/bol/')) uploads += 1;
  });
  // Built in the page: 11 MB that starts like a PDF.
  const dataTransfer = await page.evaluateHandle(() => {
    const bytes = new Uint8Array(11 * 1024 * 1024);
    bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], 'huge.pdf', { type: 'application/pdf' }));
    return transfer;
  });
  await page.getByTestId('bol-drop-zone').dispatchEvent('drop', { dataTransfer });
  await expect(bol.getByRole('alert')).toHaveText(
    'huge.pdf is 11.0 MB; a bill of lading may be at most 10 MB.',
  );
  await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
  await expect(bol.locator('#bol-file-error')).toHaveText('Choose the bill of lading PDF first.');
  expect(uploads).toBe(0);
});

test('a shipped order shows its whole timeline, pallets, cartons and SKUs; a cancelled one takes no changes', async ({
  page,
}) => {
  await page.goto('/#/orders?status=Shipped');
  await page.locator('.orders-table tbody a').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Shipped');
  const timeline = page.getByRole('region', { name: 'Status: Shipped' });
  await expect(timeline.getByRole('listitem')).toHaveCount(6);
  await expect(timeline.getByText('not yet')).toHaveCount(0);
  const pallets = page.getByRole('region', { name: 'Pallets and cartons' });
  await expect(pallets.getByRole('heading', { name: /^Pallet 1/ })).toBeVisible();
  await expect(pallets.getByText(/^Carton .+: \d+ × \S+/).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Edit order' })).toHaveCount(0);
  await expect(page.getByText('A shipped order stays where it is')).toBeVisible();

  await page.goto('/#/orders?status=Cancelled');
  await page.locator('.orders-table tbody a').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Cancelled');
  await expect(page.getByText('A cancelled order can no longer be changed.')).toBeVisible();
  await expect(page.getByText('A cancelled order takes no new bill of lading.')).toBeVisible();
  await expect(page.getByTestId('bol-drop-zone')).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Status: Cancelled' }).getByRole('listitem').last(),
  ).toContainText('Cancelled');
});

test('a packed order keeps its items but its other details can be edited', async ({ page }) => {
  await page.goto('/#/orders?status=Packed');
  await page.locator('.orders-table tbody a').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Packed');
  const lines = await page.getByRole('region', { name: 'Items' }).getByRole('row').count();
  await page.getByRole('link', { name: 'Edit order' }).click();
  await expect(
    page.getByText('Items can change only before packing; this order is packed.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add item' })).toHaveCount(0);
  const department = `D-${Date.now() % 100000}`;
  await page.getByLabel('Department number').fill(department);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Packed');
  await expect(
    page.getByRole('region', { name: 'Identifiers' }).getByText(department),
  ).toBeVisible();
  await expect(page.getByRole('region', { name: 'Items' }).getByRole('row')).toHaveCount(lines);
});

test('the list sorts by a column and pages through the service, both kept in the URL', async ({
  page,
  request,
}) => {
  const prefix = `PS-PAGE-${Date.now()}`;
  for (let index = 1; index <= 27; index += 1) {
    await createOrderByApi(request, {
      picksheet: `${prefix}-${String(index).padStart(2, '0')}`,
      brandId: IDS.summit,
      retailerId: IDS.bigBox,
    });
  }
  await page.goto(`/#/orders?q=%22${prefix}%22`);
  const table = page.getByRole('table', { name: '27 orders' });
  await table.getByRole('button', { name: /^Picksheet/ }).click();
  await expect(page).toHaveURL(/sort=picksheet_code&dir=asc/);
  await expect(table.getByRole('columnheader', { name: /^Picksheet/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  const firstCells = table.locator('tbody tr td:first-child');
  await expect(firstCells).toHaveCount(25);
  await expect(firstCells.first()).toHaveText(`${prefix}-01`);
  await expect(page.getByText('Orders 1–25 of 27 (page 1 of 2).')).toBeVisible();

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(firstCells).toHaveText([`${prefix}-26`, `${prefix}-27`]);
  await expect(page.getByRole('button', { name: 'Next page' })).toBeDisabled();

  // A reload keeps the search, the sort and the page.
  await page.reload();
  await expect(firstCells).toHaveText([`${prefix}-26`, `${prefix}-27`]);

  // The other direction, from the first page again.
  await table.getByRole('button', { name: /^Picksheet/ }).click();
  await expect(page).not.toHaveURL(/page=/);
  await expect(firstCells.first()).toHaveText(`${prefix}-27`);

  // An order opened from the list (not loaded before) keeps the focus on its heading once loaded.
  await table.getByRole('link', { name: `${prefix}-27` }).click();
  await expect(page.getByRole('heading', { name: `Order ${prefix}-27`, level: 1 })).toBeFocused();
});

test('an upload in flight can be cancelled, and nothing is stored', async ({ page, request }) => {
  const orderId = await createOrderByApi(request, {
    picksheet: `PS-CANCEL-${Date.now()}`,
    brandId: IDS.summit,
    retailerId: IDS.bigBox,
  });
  await page.goto(`/#/orders/${orderId}`);
  const bol = page.getByRole('region', { name: 'Bill of lading' });
  await expect(bol.getByText('No bill of lading yet.')).toBeVisible();
  // The upload is held on its way to the service until it is cancelled.
  let held = false;
  await page.route('**/api/documents/bol/**', () => {
    held = true;
  });
  await dropFile(page, 'bol.pdf', 'application/pdf', await pdfBytes());
  await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
  await expect(bol.getByRole('button', { name: 'Uploading…' })).toBeDisabled();
  await expect.poll(() => held).toBe(true);
  await bol.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(bol.getByRole('alert')).toHaveText(
    'Could not upload bol.pdf: The upload was cancelled.',
  );
  await expect(bol.getByRole('button', { name: 'Upload bill of lading' })).toBeEnabled();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(bol.getByText('No bill of lading yet.')).toBeVisible();
});

test('an edit that leaves more tracked than ordered says so at the quantity', async ({
  page,
  request,
}) => {
  const picksheet = `PS-TRACK-${Date.now()}`;
  await createOrderByApi(request, { picksheet, brandId: IDS.summit, retailerId: IDS.bigBox });
  const tracked = await request.put('/api/v1/orders', {
    headers: { authorization: `Bearer ${await demoToken(request)}` },
    data: {
      picksheet_code: picksheet,
      items: [
        {
          sku: 'SKU-1',
          quantity: 2,
          trackers: [{ quantity: 2, lot_number: 'LOT-7', exp_date: '2027-06-30' }],
          pass_through: { line_id: '1' },
        },
      ],
    },
  });
  expect(tracked.ok()).toBe(true);
  await page.goto(`/#/orders?q=%22${picksheet}%22`);
  await page.getByRole('link', { name: picksheet }).click();
  await page.getByRole('link', { name: 'Edit order' }).click();
  await page.getByLabel('Quantity, item 1').fill('1');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.locator('#order-items-0-quantity-error')).toHaveText(
    'Tracker quantities add up to 2, more than the item quantity 1',
  );
  await expect(page.getByLabel('Quantity, item 1')).toBeFocused();

  // Within the tracked amount the lines keep their trackers.
  await page.getByLabel('Quantity, item 1').fill('3');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `Order ${picksheet}`, level: 1 })).toBeVisible();
  // The edit form's heading names the order too: wait until the order page's own address.
  await expect(page).toHaveURL(/#\/orders\/[0-9a-f-]{36}$/);
  const details = await request.get(`/api/v1/orders/${page.url().split('/').pop() ?? ''}`, {
    headers: { authorization: `Bearer ${await demoToken(request)}` },
  });
  const body = (await details.json()) as {
    data: { items: { quantity: number; trackers: { lot_number: string }[] | null }[] };
  };
  expect(body.data.items).toMatchObject([{ quantity: 3, trackers: [{ lot_number: 'LOT-7' }] }]);
});

test('with no orders at all, the list says how to make one', async ({ page }) => {
  // A workspace without orders (the demo has some): the list answers empty.
  await page.route(/\/api\/v1\/orders\?/, (route) =>
    route.fulfill({
      json: {
        message: 'Orders retrieved successfully',
        data: { page: 1, page_size: 25, total_count: 0, orders: [] },
      },
    }),
  );
  await page.goto('/#/orders');
  await expect(page.getByText('No orders yet.')).toContainText(
    'Choose New order to enter one, or import a seed bundle that holds orders.',
  );
  await expect(page.getByRole('table')).toHaveCount(0);
  await page.getByRole('link', { name: 'New order' }).click();
  await expect(page.getByRole('heading', { name: 'New order', level: 1 })).toBeFocused();
});

/** A calendar day `days` from today on this workstation, `YYYY-MM-DD`. */
function localDayFromToday(days: number): string {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

test('late and due-today orders: the Due view, the ship-by range, and the marks on list and page', async ({
  page,
  request,
}) => {
  const prefix = `PS-DUE-${Date.now()}`;
  const yesterday = localDayFromToday(-1);
  const today = localDayFromToday(0);
  const ids = { brandId: IDS.summit, retailerId: IDS.bigBox };
  // Late by its latest ship date (the requested one, later, does not count).
  const lateId = await createOrderByApi(request, {
    ...ids,
    picksheet: `${prefix}-LATE`,
    dates: { latest_ship_date: yesterday, requested_ship_date: localDayFromToday(5) },
  });
  // Due today by its requested ship date alone; and one due next week.
  await createOrderByApi(request, {
    ...ids,
    picksheet: `${prefix}-TODAY`,
    dates: { requested_ship_date: today },
  });
  await createOrderByApi(request, {
    ...ids,
    picksheet: `${prefix}-LATER`,
    dates: { latest_ship_date: localDayFromToday(7) },
  });

  await openScreen(page, 'Orders');
  await page.getByLabel('PO number or picksheet code').fill(prefix);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table', { name: '3 orders' })).toBeVisible();
  await expect(
    page.getByText(/Ship by is the latest ship date, or the requested ship date/),
  ).toBeVisible();

  await page.getByLabel('Due', { exact: true }).selectOption({ label: 'Due today or late' });
  await expect(page).toHaveURL(/due=today_or_late/);
  const table = page.getByRole('table', { name: '2 orders' });
  await expect(table).toBeVisible();
  // Oldest ship-by day first; each row says in words how it stands.
  const late = table.getByRole('row', { name: new RegExp(`${prefix}-LATE`) });
  const dueToday = table.getByRole('row', { name: new RegExp(`${prefix}-TODAY`) });
  await expect(late).toContainText(`${yesterday}Late`);
  await expect(dueToday).toContainText(`${today}Due today`);
  await expect(table.getByRole('row').nth(1)).toContainText(`${prefix}-LATE`);

  await page.getByLabel('Due', { exact: true }).selectOption({ label: 'Late' });
  await expect(page.getByRole('table', { name: '1 order' })).toContainText(`${prefix}-LATE`);

  // The ship-by range: inclusive; backwards, it says so instead of showing nothing.
  await page.getByLabel('Due', { exact: true }).selectOption({ label: 'Any ship-by date' });
  await page.getByLabel('Ship by from').fill(today);
  await expect(page.getByRole('table', { name: '2 orders' })).toBeVisible();
  await page.getByLabel('Ship by to').fill(yesterday);
  await expect(page.locator('#orders-ship-range-error')).toHaveText('From is after To.');
  await expect(page.getByLabel('Ship by to')).toHaveAttribute('aria-invalid', 'true');
  // Either end may be the wrong one, so both are marked.
  await expect(page.getByLabel('Ship by from')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('table', { name: '3 orders' })).toBeVisible();
  await page.getByLabel('Ship by to').fill(today);
  await expect(page.getByLabel('Ship by from')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('table', { name: '1 order' })).toContainText(`${prefix}-TODAY`);

  // The order page names the ship-by day, where it comes from, and that it is late.
  await page.goto(`/#/orders/${lateId}`);
  const dates = page.getByRole('region', { name: 'Dates' });
  await expect(dates).toContainText(`Ship by${yesterday}Late (the latest ship date)`);
});

test('the order form: transportation is a choice, a blank quantity asks for one, inputs stop at the service’s lengths, the page shows the case barcode', async ({
  page,
}) => {
  const picksheet = `PS-FORM-${Date.now()}`;
  await page.goto('/#/orders/new');
  await expect(page.getByRole('heading', { name: 'New order', level: 1 })).toBeFocused();
  const method = page.getByLabel('Transportation method');
  await expect(method.locator('option')).toHaveText([
    'Not given (ships on pallets)',
    'Freight (on pallets)',
    'Parcel (loose cartons)',
  ]);
  // The lengths come from the shared schema the service checks with.
  await expect(page.getByLabel('PO number')).toHaveAttribute('maxlength', '100');
  await expect(page.getByLabel('Description, item 1')).toHaveAttribute('maxlength', '1000');
  await expect(page.getByLabel('Ship to: Name')).toHaveAttribute('maxlength', '255');
  // A pasted 200,000 characters stop at the limit instead of failing on save.
  await page.getByLabel('Description, item 1').fill('x'.repeat(200_000));
  await expect(page.getByLabel('Description, item 1')).toHaveValue('x'.repeat(1000));

  await choose(page, 'Facility', 'Reno DC');
  await choose(page, 'Brand', 'Summit Outdoor');
  await choose(page, 'Retailer', { index: 1 });
  await page.getByLabel('Picksheet code (required)').fill(picksheet);
  await method.selectOption({ label: 'Parcel (loose cartons)' });
  await page.getByLabel('SKU, item 1').fill('SUM-TENT-2P');
  await page.getByLabel('Case barcode, item 1').fill('10012345678902');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.locator('#order-items-0-quantity-error')).toHaveText('Enter a quantity');
  await expect(page.getByLabel('Quantity, item 1')).toBeFocused();
  await page.getByLabel('Quantity, item 1').fill('3');
  await page.getByRole('button', { name: 'Create order' }).click();

  await expect(page.getByRole('heading', { name: `Order ${picksheet}`, level: 1 })).toBeVisible();
  const identifiers = page.getByRole('region', { name: 'Identifiers' });
  await expect(identifiers.getByText('PARCEL', { exact: true })).toBeVisible();
  const items = page.getByRole('region', { name: 'Items' });
  await expect(items.getByRole('columnheader', { name: 'Case barcode' })).toBeVisible();
  await expect(items.getByRole('cell', { name: '10012345678902' })).toBeVisible();

  // Editing keeps the stored choice.
  await page.getByRole('link', { name: 'Edit order' }).click();
  await expect(page.getByLabel('Transportation method')).toHaveValue('PARCEL');
});

test('after a BOL upload the form is empty for the next document; a corrected BOL gets its own numbers', async ({
  page,
  request,
}) => {
  const picksheet = `PS-BOL-${Date.now()}`;
  const orderId = await createOrderByApi(request, {
    picksheet,
    brandId: IDS.summit,
    retailerId: IDS.bigBox,
  });
  await page.goto(`/#/orders/${orderId}`);
  const bol = page.getByRole('region', { name: 'Bill of lading' });
  await dropFile(page, 'bol-a.pdf', 'application/pdf', await pdfBytes());
  await bol.getByLabel('BOL number').fill('BOL-A1');
  await bol.getByLabel('PRO number').fill('PRO-A1');
  await bol.getByLabel('Carrier', { exact: true }).fill('Old Dominion');
  await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
  await expect(bol.getByRole('status')).toHaveText('BOL uploaded successfully: bol-a.pdf.');

  // The numbers belong to that document: cleared, with the order's current ones named.
  await expect(bol.getByLabel('BOL number')).toHaveValue('');
  await expect(bol.getByLabel('PRO number')).toHaveValue('');
  await expect(bol.getByText('On the order now: BOL-A1. Left empty, it stays.')).toBeVisible();
  await expect(bol.getByLabel('Carrier', { exact: true })).toHaveValue('Old Dominion');

  await dropFile(page, 'bol-b.pdf', 'application/pdf', await pdfBytes());
  await bol.getByLabel('BOL number').fill('BOL-B2');
  await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
  await expect(bol.getByRole('status')).toHaveText('BOL uploaded successfully: bol-b.pdf.');
  const versions = bol.getByRole('list', { name: 'Bill of lading versions, newest first' });
  await expect(versions.getByRole('listitem')).toHaveCount(2);
  const newest = versions.getByRole('listitem').first();
  await expect(newest).toContainText('bol-b.pdf');
  await expect(newest).toContainText('BOL BOL-B2');
  // Version 2 was not recorded with version 1's PRO number.
  await expect(newest).not.toContainText('PRO-A1');
  const identifiers = page.getByRole('region', { name: 'Identifiers' });
  await expect(identifiers.getByText('BOL-B2')).toBeVisible();
});
