import type { Page } from '@playwright/test';
import { expect, test, beginEachTest, openScreen, openSignedIn } from './support';

beginEachTest(openSignedIn);

/**
 * An X12 interchange from Big Box Retail (demo connection 1: BIGBOXRETAIL → ACMELOGISTICS) with
 * ISA13 `control` around `sets` (each starting with its ST01), or with no group when `sets` is
 * null.
 */
function interchange(control: number, sets: string[][] | null): string {
  const isa13 = String(control).padStart(9, '0');
  const isa = [
    'ISA',
    '00',
    ''.padEnd(10),
    '00',
    ''.padEnd(10),
    'ZZ',
    'BIGBOXRETAIL'.padEnd(15),
    'ZZ',
    'ACMELOGISTICS'.padEnd(15),
    '261120',
    '0930',
    'U',
    '00401',
    isa13,
    '0',
    'T',
    '>',
  ].join('*');
  const lines = [isa];
  if (sets) {
    lines.push(`GS*PO*BIGBOXRETAIL*ACMELOGISTICS*20261120*0930*${control}*X*004010`);
    sets.forEach((set, i) => {
      const st = String(i + 1).padStart(4, '0');
      lines.push(`ST*850*${st}`, ...set, `SE*${set.length + 2}*${st}`);
    });
    lines.push(`GE*${sets.length}*${control}`);
  }
  lines.push(`IEA*${sets ? 1 : 0}*${isa13}`);
  return lines.map((line) => `${line}~\n`).join('');
}

/** One PO for Reno DC (N1*SF RNO1) of two Alpine sleeping bags. */
const purchaseOrder = (po: string) => [
  `BEG*00*SA*${po}**20261120`,
  'DTM*002*20261201',
  'N1*ST*JANE RIVERA*92*0',
  'N3*12 ELM STREET',
  'N4*SPRINGFIELD*IL*62704*US',
  'N1*SF*SUMMIT OUTDOOR*ZZ*RNO1',
  'PO1*1*2*EA*19.99**UP*0810001000029*VN*SUM-BAG-20F',
  'CTT*1*2',
];

/** Drops a text file onto the import drop zone, as a drag from the desktop does. */
async function dropFile(page: Page, name: string, text: string) {
  const dataTransfer = await page.evaluateHandle(
    (file) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([file.text], file.name, { type: 'text/plain' }));
      return transfer;
    },
    { name, text },
  );
  await page.getByTestId('edi-drop-zone').dispatchEvent('drop', { dataTransfer });
}

test('import purchase orders by the file input, open the order, reprocess a refused file', async ({
  page,
}) => {
  const stamp = Date.now() % 1_000_000;
  const po = `E2E${stamp}`;
  const good = 400_000_000 + stamp;
  const refused = 500_000_000 + stamp;
  await openScreen(page, 'EDI inbox');

  await page.getByLabel('X12 files to import').setInputFiles([
    {
      name: 'po.edi',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(interchange(good, [purchaseOrder(po)])),
    },
    {
      name: 'empty-box.x12',
      mimeType: 'text/plain',
      buffer: Buffer.from(interchange(refused, null)),
    },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Order 12 ships Friday') },
    { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
  ]);
  // Another extension is refused next to the field, before any upload.
  await expect(page.getByRole('alert')).toContainText(
    'scan.pdf was not imported: only .edi, .x12 and .txt files hold purchase orders.',
  );
  const results = page.getByRole('list', { name: 'Imported files' });
  await expect(results.getByRole('listitem').filter({ hasText: 'po.edi' })).toHaveText(
    'po.edi: 1 order created.',
  );
  // In the inbox's clerk words.
  await expect(results.getByRole('listitem').filter({ hasText: 'empty-box.x12' })).toHaveText(
    'empty-box.x12: Refused: The file holds no documents: there is no functional group (GS) in it.',
  );
  // A file the service kept no record of (no connection known): the answer in clerk words too.
  await expect(results.getByRole('listitem').filter({ hasText: 'notes.txt' })).toHaveText(
    'notes.txt: Refused: This file is not an X12 interchange (it must begin with an ISA segment). Check that it is the purchase order file the retailer sent.',
  );
  // The batch's progress ends in what it came to (the .pdf never went).
  const importPanel = page.getByRole('region', { name: 'Import purchase orders' });
  await expect(importPanel.getByRole('status')).toHaveText(
    'Done: 3 files, 2 refused. Each file’s line below says what it did.',
  );
  await expect(importPanel.getByRole('progressbar')).toHaveCount(0);

  // A file dragged from the desktop goes the same way.
  await dropFile(page, 'dragged.txt', interchange(good + 1, [purchaseOrder(`${po}D`)]));
  await expect(results.getByRole('listitem').filter({ hasText: 'dragged.txt' })).toHaveText(
    'dragged.txt: 1 order created.',
  );
  await expect(importPanel.getByRole('status')).toHaveText('Imported 1 file.');

  // The refused file is in the inbox with its reason; Reprocess runs it again and says so.
  await page.getByLabel('Outcome').selectOption({ label: 'Refused' });
  const refusedId = String(refused).padStart(9, '0');
  const openRefused = page.getByRole('button', { name: `Open interchange ${refusedId}` });
  await openRefused.click();
  const detail = page.getByRole('region', { name: 'Interchange', exact: true });
  await expect(detail.getByRole('heading', { name: 'Interchange', exact: true })).toBeFocused();
  await expect(detail.getByRole('note', { name: 'Reason' })).toHaveText(
    'The file holds no documents: there is no functional group (GS) in it',
  );
  await expect(detail.getByLabel('Interchange text')).toContainText(`IEA*0*${refusedId}~`);
  await detail.getByRole('button', { name: 'Reprocess' }).click();
  await expect(detail.getByRole('status')).toHaveText(
    'Reprocessed: still refused. The file holds no documents: there is no functional group (GS) in it',
  );
  await expect(detail.getByText(/reprocessed /)).toBeVisible();
  // Escape closes it and gives the focus back to the Open that showed it.
  await page.keyboard.press('Escape');
  await expect(detail).toHaveCount(0);
  await expect(openRefused).toBeFocused();

  // The accepted one links its order.
  await page.getByLabel('Outcome').selectOption({ label: 'Accepted' });
  // By keyboard: Enter on Open.
  await page
    .getByRole('button', { name: `Open interchange ${String(good).padStart(9, '0')}` })
    .press('Enter');
  await expect(detail.getByRole('cell', { name: po, exact: true })).toBeVisible();
  await detail.getByRole('link', { name: new RegExp(`^Order ${po}`) }).click();
  await expect(page).toHaveURL(/#\/orders\/[0-9a-f-]{36}$/);
  await expect(page.getByText(po).first()).toBeVisible();
});

test('a long import shows its progress, and files added meanwhile are turned away with the reason', async ({
  page,
}) => {
  await openScreen(page, 'EDI inbox');
  // The service's answer waits until the second batch has been tried.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/v1/edi/inbound', async (route) => {
    await held;
    await route.continue();
  });
  const stamp = 600_000_000 + (Date.now() % 1_000_000);
  const input = page.getByLabel('X12 files to import');
  await input.setInputFiles({
    name: 'slow.edi',
    mimeType: 'text/plain',
    buffer: Buffer.from(interchange(stamp, null)),
  });
  const importPanel = page.getByRole('region', { name: 'Import purchase orders' });
  await expect(importPanel.getByRole('status')).toHaveText('Importing file 1 of 1…');
  await expect(importPanel.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await expect(input).toBeEnabled();

  await dropFile(page, 'meanwhile.edi', interchange(stamp + 1, null));
  await expect(importPanel.getByRole('alert')).toHaveText(
    '1 file not imported: wait until the files being imported are done, then add it again.',
  );
  const results = page.getByRole('list', { name: 'Imported files' });
  await expect(results.getByRole('listitem').filter({ hasText: 'meanwhile.edi' })).toHaveCount(0);

  release();
  await expect(importPanel.getByRole('status')).toHaveText(
    'Done: 1 file, 1 refused. Each file’s line below says what it did.',
  );
  await expect(importPanel.getByRole('progressbar')).toHaveCount(0);
});

test('a polled file too large to read is listed refused with its size, with nothing to read, download or reprocess', async ({
  page,
}) => {
  await openScreen(page, 'EDI inbox');
  await page.getByLabel('Outcome').selectOption({ label: 'Refused' });
  const open = page.getByRole('button', { name: 'Open interchange orders-week-47.x12' });
  await expect(open).toHaveCount(1);
  await open.click();
  const detail = page.getByRole('region', { name: 'Interchange', exact: true });
  await expect(detail.getByText('Folder: orders-week-47.x12', { exact: false })).toBeVisible();
  await expect(detail.getByRole('note', { name: 'Reason' })).toHaveText(
    'The file is 41.3 MB, larger than the 16 MB a file may be; it goes to error/ unread. Ask the retailer to send it in smaller files.',
  );
  await expect(
    detail.getByText(
      'Nothing of this file was kept: it was too large to read, so there is no text to show or download.',
    ),
  ).toBeVisible();
  await expect(detail.getByLabel('Interchange text')).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Download' })).toHaveCount(0);
  await expect(detail.getByRole('button', { name: 'Reprocess' })).toHaveCount(0);
});
