import type { Page } from '@playwright/test';
import { expect, test, beginEachTest, openSignedIn } from './support';

// Issue 19 item 9: the GS1 company prefix field shows the brand's current prefix, and a change
// is confirmed first ("New SSCCs will use …"), since every new SSCC changes with it.

beginEachTest(openSignedIn);

async function openPrefix(page: Page, brand: string) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  const section = page.getByRole('region', { name: 'GS1 company prefix' });
  await section.getByLabel('Brand', { exact: true }).selectOption({ label: brand });
  return section;
}

test('the field shows the brand’s current prefix; a change asks first, and Cancel keeps it', async ({
  page,
}) => {
  const section = await openPrefix(page, 'Lumen Home');
  const field = section.getByLabel('GS1 company prefix');
  await expect(field).toHaveValue('0614143');
  await expect(section.getByText('Current prefix: 0614143.')).toBeVisible();
  // Another brand shows its own.
  await section.getByLabel('Brand', { exact: true }).selectOption({ label: 'Bramble & Co' });
  await expect(field).toHaveValue('0614142');
  await section.getByLabel('Brand', { exact: true }).selectOption({ label: 'Lumen Home' });
  await expect(field).toHaveValue('0614143');

  // Saving the same prefix asks nothing.
  await section.getByRole('button', { name: 'Save prefix' }).click();
  await expect(section.getByRole('status').filter({ hasText: 'saved' })).toHaveText(
    'GS1 company prefix of Lumen Home saved: 0614143.',
  );

  // A change: the question names the new prefix; dismissed, nothing is saved.
  await field.fill('0614199');
  let question = '';
  page.once('dialog', (dialog) => {
    question = dialog.message();
    void dialog.dismiss();
  });
  await section.getByRole('button', { name: 'Save prefix' }).click();
  await expect.poll(() => question).toContain('New SSCCs will use 0614199');
  expect(question).toBe(
    'New SSCCs will use 0614199 instead of 0614143 for Lumen Home. Labels already printed keep 0614143. Change the prefix?',
  );
  await page.reload();
  const again = await openPrefix(page, 'Lumen Home');
  await expect(again.getByLabel('GS1 company prefix')).toHaveValue('0614143');

  // Confirmed, it is saved, and the field shows it from then on; then it is put back.
  for (const [next, before] of [
    ['0614199', '0614143'],
    ['0614143', '0614199'],
  ] as const) {
    await again.getByLabel('GS1 company prefix').fill(next);
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toContain(`New SSCCs will use ${next} instead of ${before}`);
      void dialog.accept();
    });
    await again.getByRole('button', { name: 'Save prefix' }).click();
    await expect(again.getByText(`GS1 company prefix of Lumen Home saved: ${next}.`)).toBeVisible();
    await expect(again.getByText(`Current prefix: ${next}.`)).toBeVisible();
  }
});
