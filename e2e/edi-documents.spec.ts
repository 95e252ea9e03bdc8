import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { DATA_ROOT } from './service';
import { DEMO, expect, test, beginEachTest, openSignedIn } from './support';

beginEachTest(openSignedIn);

/**
 * Retailer documents (issue 16, item 9) end to end: an 850 posted through the API makes an
 * order; its page shows the 850 in the document timeline; the Acknowledge panel sends an 855 with
 * a rejected line; a failed send shows in the header's count and is retried from the Retailer
 * documents screen; the 855 opens one segment per line and downloads.
 */

/** A purchase order from Big Box Retail (demo connection 1) to us, ISA13 = `control`. */
function purchaseOrder(control: number, poNumber: string): string {
  const isa13 = String(control).padStart(9, '0');
  return [
    `ISA*00*          *00*          *ZZ*BIGBOXRETAIL   *ZZ*ACMELOGISTICS  *261126*0300*U*00401*${isa13}*0*T*>`,
    `GS*PO*BIGBOXRETAIL*ACMELOGISTICS*20261126*0300*${control}*X*004010`,
    'ST*850*0001',
    `BEG*00*SA*${poNumber}**20261126`,
    'DTM*010*20261203',
    'N1*ST*BIG BOX DC 12*92*0012',
    'N3*1 DISTRIBUTION WAY',
    'N4*RENO*NV*89502*US',
    'PO1*1*8*EA*30.00*PE*UP*0810001000029*VN*SUM-BAG-20F',
    'PO1*2*6*EA*55.00*PE*UP*0810001000036*VN*SUM-JKT-RAIN-M',
    'CTT*2*14',
    'SE*10*0001',
    `GE*1*${control}`,
    `IEA*1*${isa13}`,
  ]
    .map((segment) => `${segment}~\n`)
    .join('');
}

/** A token of the demo clerk, for the API calls the spec makes itself. */
async function demoToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/auth/token', { data: DEMO });
  return ((await answer.json()) as { data: { access_token: string } }).data.access_token;
}

/** What needs a clerk now (the demo's own documents include an overdue and a failed one). */
async function attention(
  request: APIRequestContext,
  token: string,
): Promise<{ overdue: number; failed: number }> {
  const answer = await request.get('/api/v1/edi/documents/summary', {
    headers: { authorization: `Bearer ${token}` },
  });
  return ((await answer.json()) as { data: { counts: { overdue: number; failed: number } } }).data
    .counts;
}

/** This spec's demo data dir (the newest `edi-documents-*` under the e2e data root). */
function specDataDir(): string {
  const dirs = readdirSync(DATA_ROOT)
    .filter((name) => name.startsWith('edi-documents-'))
    .map((name) => join(DATA_ROOT, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  return dirs[0]!;
}

test('an 850 in, an 855 with a rejected line out, a failed send counted and retried, read and downloaded', async ({
  page,
  request,
}) => {
  test.slow();
  const token = await demoToken(request);
  const before = await attention(request, token);
  const posted = await request.post('/api/v1/edi/inbound', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/edi-x12' },
    data: purchaseOrder(7301, 'E2E-PO-7301'),
  });
  expect(posted.status(), await posted.text()).toBe(200);
  const orderId = ((await posted.json()) as { data: { transaction_sets: { order_id: string }[] } })
    .data.transaction_sets[0]!.order_id;

  // The retailer's outbox folder becomes a file: the 855's send fails, as a full disk would.
  // First the 997 answering the 850 lands there, so no send races the swap.
  const outbox = join(specDataDir(), 'outbox', 'big-box-retail');
  await expect
    .poll(() =>
      existsSync(outbox) ? readdirSync(outbox).some((f) => /^997_\d+\.x12$/.test(f)) : false,
    )
    .toBe(true);
  // The service may still be writing there (the demo's own documents): retry the swap.
  await expect
    .poll(() => {
      try {
        rmSync(outbox, { recursive: true, force: true, maxRetries: 5 });
        writeFileSync(outbox, 'not a folder');
        return true;
      } catch {
        return false;
      }
    })
    .toBe(true);

  await page.goto(`/#/orders/${orderId}`);
  const documents = page.getByRole('region', { name: 'Retailer documents' });
  const timeline = documents.getByRole('list', { name: 'Document timeline' });
  await expect(timeline.getByRole('listitem').first()).toContainText(
    'Purchase order (850) from the retailer',
  );
  // The 850 opens too: the file it came in, one segment per line.
  const po = timeline.getByRole('listitem').first();
  await po.getByRole('button', { name: 'Read Purchase order (850)' }).click();
  const poText = po.getByLabel('Content of the Purchase order (850)');
  await expect(poText).toContainText('BEG*00*SA*E2E-PO-7301**20261126~');
  expect(((await poText.textContent()) ?? '').split('\n')[0]).toMatch(/^ISA\*/);
  await po.getByRole('button', { name: 'Close Purchase order (850)' }).click();
  await expect(poText).toHaveCount(0);

  // Acknowledge: line 2 rejected, the rest accepted.
  const panel = page.getByRole('region', { name: 'Acknowledge the purchase order' });
  await panel.getByLabel('Acknowledgment for line 2 (SUM-JKT-RAIN-M)').selectOption('rejected');
  await panel
    .getByLabel('Acknowledgment for line 1 (SUM-BAG-20F)')
    .selectOption('quantity_changed');
  await expect(panel.getByLabel('Quantity for line 1 (SUM-BAG-20F)')).toHaveValue('8');
  await panel.getByLabel('Acknowledgment for line 1 (SUM-BAG-20F)').selectOption('accepted');
  await expect(panel.getByLabel('Quantity for line 1 (SUM-BAG-20F)')).toHaveCount(0);
  await panel.getByRole('button', { name: 'Send acknowledgment' }).click();
  // The send failed: the panel says so, never "sent".
  const outcome = panel.getByRole('status');
  await expect(outcome).toContainText('failed');
  await expect(outcome).not.toContainText(/\bwas sent\b/);
  // Our 997 answering the 850 is on the timeline too; the 855 follows it.
  const ack = timeline.getByRole('listitem').filter({ hasText: 'PO acknowledgment (855)' });
  await expect(ack).toContainText('PO acknowledgment (855) to the retailer failed');
  // Why, in a clerk's words; the transport's own reason behind Details.
  await expect(ack).toContainText('could not be written into the connection’s folder');
  await expect(ack.locator('details')).toContainText(/^Details(ENOTDIR|EEXIST): /);

  // The header counts it with what the demo already had (the demo's queued document may fail
  // against the same folder meanwhile): one count per list, each what the service counts and
  // what its list shows.
  const now = await attention(request, token);
  expect(now.failed).toBeGreaterThan(before.failed);
  const header = page.getByRole('banner');
  const failedBadge = header.getByRole('link', {
    name: new RegExp(`^${now.failed} failed retailer documents?$`),
  });
  await expect(failedBadge).toHaveText(`${now.failed} failed`);
  const overdueBadge = header.getByRole('link', { name: /overdue acknowledgments?$/ });
  if (now.overdue === 0) {
    await expect(overdueBadge).toHaveCount(0);
    await page.goto('/#/edi/documents?status=overdue');
  } else {
    await expect(overdueBadge).toHaveText(`${now.overdue} overdue`);
    await overdueBadge.click();
  }
  await expect(page.getByRole('heading', { name: 'Retailer documents', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'Overdue acknowledgments', exact: true }),
  ).toHaveAttribute('aria-current', 'page');
  if (now.overdue === 0) {
    await expect(page.getByText('No overdue acknowledgments')).toBeVisible();
  } else {
    // The header's overdue count is the overdue list; the failed 855 is not in it (never sent).
    await expect(page.getByRole('table', { name: /overdue$/ }).getByRole('row')).toHaveCount(
      now.overdue + 1,
    );
    await expect(page.getByRole('row', { name: /PO acknowledgment \(855\)/ })).toHaveCount(0);
  }
  // The failed count opens the failed list, as long as its count.
  await failedBadge.click();
  await expect(page.getByLabel('Status')).toHaveValue('failed');
  await expect(page.getByRole('table', { name: /documents?$/ }).getByRole('row')).toHaveCount(
    now.failed + 1,
  );

  // The failed one under Status: failed; the folder is back, Retry sends it.
  const row = page
    .getByRole('row', { name: /PO acknowledgment \(855\)/ })
    .filter({ hasText: 'PO E2E-PO-7301' });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row', { name: /accepted/ })).toHaveCount(0);
  rmSync(outbox, { force: true });
  await row.getByRole('button', { name: /^Retry/ }).click();
  // The answer names the document (its row left the failed list) and takes the focus.
  const answer = page.getByRole('status').filter({ hasText: 'Document sent' });
  await expect(answer).toContainText('PO acknowledgment (855) for PO E2E-PO-7301: ');
  await expect(answer).toBeFocused();
  // Sent: the header no longer counts it.
  const after = await attention(request, token);
  expect(after.failed + after.overdue).toBe(now.overdue + now.failed - 1);
  if (after.failed === 0) await expect(failedBadge).toHaveCount(0);
  else
    await expect(header.getByRole('link', { name: /failed retailer/ })).toHaveText(
      `${after.failed} failed`,
    );

  // Back on the order: the 855 is sent; it reads one segment per line and downloads.
  await page.getByLabel('Status').selectOption('');
  await page.getByRole('link', { name: 'PO E2E-PO-7301' }).first().click();
  await expect(ack).toContainText('PO acknowledgment (855) to the retailer sent');
  await ack.getByRole('button', { name: /^Read/ }).click();
  const content = ack.getByLabel('Content of the PO acknowledgment (855)');
  await expect(content).toContainText('BAK*00*AC*E2E-PO-7301');
  const text = (await content.textContent()) ?? '';
  expect(text.split('\n')[0]).toMatch(/^ISA\*/);
  expect(text.split('\n')).toContain('ACK*IR*6*EA~');
  const download = page.waitForEvent('download');
  await ack.getByRole('button', { name: /^Download/ }).click();
  expect((await download).suggestedFilename()).toMatch(/855/);

  // Escape closes the reader from inside it and gives the focus back to what opened it.
  await content.focus();
  await page.keyboard.press('Escape');
  await expect(content).toHaveCount(0);
  const read = ack.getByRole('button', { name: 'Read PO acknowledgment (855)' });
  await expect(read).toBeFocused();
  await expect(read).toHaveAttribute('aria-expanded', 'false');
  // Enter opens it again from the keyboard.
  await page.keyboard.press('Enter');
  await expect(content).toBeVisible();
});
