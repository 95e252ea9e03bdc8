import { expect, test, beginEachTest, DEMO, openSignedIn } from './support';

beginEachTest(async (page) => {
  await openSignedIn(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});

async function bearer(request: import('@playwright/test').APIRequestContext) {
  const token = await request.post('/api/auth/token', { data: DEMO });
  const { data } = (await token.json()) as { data: { access_token: string } };
  return { authorization: `Bearer ${data.access_token}` };
}

test('label printer: printer ports only, never this machine; set, then removed', async ({
  page,
  request,
}) => {
  const printer = page.getByRole('region', { name: 'Label printer' });
  await expect(printer.getByText('No printer is set yet.', { exact: false })).toBeVisible();
  await expect(printer.getByRole('button', { name: 'Remove printer' })).toHaveCount(0);

  await printer.getByLabel('Printer host').fill('127.0.0.1');
  await printer.getByLabel('Port').fill('80');
  await printer.getByRole('button', { name: 'Save printer' }).click();
  await expect(page.locator('#settings-printer-host-error')).toHaveText(
    'Must be a printer on the network, not this machine or a link-local address',
  );
  await expect(page.locator('#settings-printer-port-error')).toHaveText(
    'Must be a printer port: 9100, 9101, 9102, 6101, 515',
  );

  await printer.getByLabel('Printer host').fill('192.0.2.10');
  await printer.getByLabel('Port').fill('6101');
  await printer.getByRole('button', { name: 'Save printer' }).click();
  await expect(printer.getByRole('status')).toHaveText('Label printer saved: 192.0.2.10:6101.');

  // An empty host no longer traps the admin: the printer is removed with its own action.
  await printer.getByRole('button', { name: 'Remove printer' }).click();
  await expect(printer.getByRole('status')).toHaveText(
    'Label printer removed; labels are saved as PDFs.',
  );
  await expect(printer.getByLabel('Printer host')).toHaveValue('');
  await expect(printer.getByRole('button', { name: 'Remove printer' })).toHaveCount(0);
  await expect(page.locator('#settings-printer-host-error')).toHaveCount(0);
  await page.reload();
  await expect(
    page
      .getByRole('region', { name: 'Label printer' })
      .getByText('No printer is set yet.', { exact: false }),
  ).toBeVisible();

  // Without a printer, printing answers 409 and the packing screen saves labels as PDFs.
  const setting = await request.get('/api/v1/settings/label-printer', {
    headers: await bearer(request),
  });
  expect(((await setting.json()) as { data: { host: string | null } }).data.host).toBeNull();
});
