import type { APIRequestContext } from '@playwright/test';
import { DEMO, expect, test, beginEachTest, openSignedIn } from './support';

beginEachTest(openSignedIn);

/**
 * The order page's Invoice and Acknowledge actions as a clerk meets them (issue 16, items 4, 6
 * and 9): Invoice is offered on a shipped order only where an 810 would go now, a refusal names
 * the lines without a price beside the button, and what it says after sending is the stored
 * status; a wrong quantity in the Acknowledge panel is shown at its line.
 */

const order = (n: number) => `0d000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;

async function demoToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/auth/token', { data: DEMO });
  return ((await answer.json()) as { data: { access_token: string } }).data.access_token;
}

/** A Big Box Retail 850 (ISA13 `control`) for Reno DC; `prices` per line, '' for none. */
function purchaseOrder(control: number, po: string, prices: [string, string]): string {
  const isa13 = String(control).padStart(9, '0');
  return [
    `ISA*00*          *00*          *ZZ*BIGBOXRETAIL   *ZZ*ACMELOGISTICS  *261126*0300*U*00401*${isa13}*0*T*>`,
    `GS*PO*BIGBOXRETAIL*ACMELOGISTICS*20261126*0300*${control}*X*004010`,
    'ST*850*0001',
    `BEG*00*SA*${po}**20261126`,
    'N1*ST*BIG BOX DC 12*92*0012',
    'N3*1 DISTRIBUTION WAY',
    'N4*RENO*NV*89502*US',
    'N1*SF*SUMMIT OUTDOOR*ZZ*RNO1',
    `PO1*1*2*EA*${prices[0]}**UP*0810001000029*VN*SUM-BAG-20F`,
    `PO1*2*1*EA*${prices[1]}**UP*0810001000036*VN*SUM-JKT-RAIN-M`,
    'CTT*2*3',
    'SE*10*0001',
    `GE*1*${control}`,
    `IEA*1*${isa13}`,
  ]
    .map((segment) => `${segment}~\n`)
    .join('');
}

/** The order an 850 makes, packed in one parcel carton and shipped (its ASN goes out). */
async function shippedOrder(
  request: APIRequestContext,
  token: string,
  control: number,
  po: string,
  prices: [string, string],
): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  const posted = await request.post('/api/v1/edi/inbound', {
    headers: { ...headers, 'content-type': 'application/edi-x12' },
    data: purchaseOrder(control, po, prices),
  });
  expect(posted.status(), await posted.text()).toBe(200);
  const orderId = ((await posted.json()) as { data: { transaction_sets: { order_id: string }[] } })
    .data.transaction_sets[0]!.order_id;
  const call = async (method: 'POST' | 'PUT', url: string, data: unknown) => {
    const answer = await request.fetch(url, { method, headers, data });
    expect(answer.ok(), `${url}: ${await answer.text()}`).toBe(true);
  };
  // Parcel: no pallets, no bill of lading.
  await call('PUT', '/api/v1/orders', { picksheet_code: po, transportation_method: 'PARCEL' });
  const at = (step: string) => `/api/v1/orders/${orderId}/${step}`;
  await call('POST', at('start-picking'), {});
  await call('POST', at('cartons'), {
    skus: [
      { sku: 'SUM-BAG-20F', quantity: 2 },
      { sku: 'SUM-JKT-RAIN-M', quantity: 1 },
    ],
  });
  for (const step of ['complete-packing', 'stage', 'load', 'ship'])
    await call('POST', at(step), {});
  return orderId;
}

test('Invoice: offered only where an 810 would go, a refusal names the unpriced lines, the outcome is the stored status', async ({
  page,
  request,
}) => {
  test.slow();
  const token = await demoToken(request);
  const stamp = Date.now() % 100_000;
  const unpriced = await shippedOrder(request, token, 8_100_000 + stamp, `INV-U${stamp}`, [
    '30.00',
    '',
  ]);
  const priced = await shippedOrder(request, token, 8_200_000 + stamp, `INV-P${stamp}`, [
    '30.00',
    '55.00',
  ]);

  // A line without a price: the refusal says which, beside the button.
  await page.goto(`/#/orders/${unpriced}`);
  const panel = page.getByRole('region', { name: 'Invoice' });
  await panel.getByRole('button', { name: 'Send invoice' }).click();
  await expect(panel.getByRole('alert')).toHaveText(
    'Cannot invoice: no unit price for line 2 (SUM-JKT-RAIN-M)',
  );
  await expect(panel.getByRole('button', { name: 'Send invoice' })).toHaveAccessibleDescription(
    /no unit price for line 2/,
  );

  // Priced: by keyboard; the answer is the 810's stored status, and Invoice is no longer offered.
  await page.goto(`/#/orders/${priced}`);
  await panel.getByRole('button', { name: 'Send invoice' }).press('Enter');
  const outcome = panel.getByRole('status');
  await expect(outcome).toHaveText(
    /^The invoice (was sent to|waits to be sent to) Big Box Retail\. Big Box Retail: (sent|queued, not sent yet)\.$/,
  );
  await expect(outcome).toBeFocused();
  await expect(panel.getByRole('button', { name: 'Send invoice' })).toHaveCount(0);
  const timeline = page.getByRole('list', { name: 'Document timeline' });
  await expect(timeline.getByRole('listitem').filter({ hasText: 'Invoice (810)' })).toContainText(
    /Invoice \(810\) to the retailer (sent|queued, not sent yet)/,
  );
  await page.reload();
  await expect(panel).toContainText('This order is already invoiced');

  // The demo's failed invoice: no second invoice, Retry is where it is offered.
  await page.goto(`/#/orders/${order(12)}`);
  await expect(panel).toContainText(
    'Its invoice failed to send: send it again with Retry in the documents above',
  );
  await expect(panel.getByRole('button')).toHaveCount(0);
  await expect(
    timeline.getByRole('button', { name: 'Retry Invoice (810)', exact: true }),
  ).toBeVisible();
  // Not shipped: no Invoice panel at all.
  await page.goto(`/#/orders/${order(1)}`);
  await expect(page.getByRole('region', { name: 'Acknowledge the purchase order' })).toBeVisible();
  await expect(panel).toHaveCount(0);
});

test('Acknowledge: a wrong quantity is shown at its line and takes the focus', async ({ page }) => {
  await page.goto(`/#/orders/${order(1)}`);
  const panel = page.getByRole('region', { name: 'Acknowledge the purchase order' });
  await panel
    .getByLabel('Acknowledgment for line 2 (SUM-JKT-RAIN-M)')
    .selectOption('quantity_changed');
  const quantity = panel.getByLabel('Quantity for line 2 (SUM-JKT-RAIN-M)');
  await quantity.fill('2.5');
  await panel.getByRole('button', { name: 'Send acknowledgment' }).click();
  await expect(quantity).toBeFocused();
  await expect(quantity).toHaveAttribute('aria-invalid', 'true');
  await expect(quantity).toHaveAccessibleDescription(
    'Enter the quantity you will ship (a whole number)',
  );
});

test('Acknowledge: a refusal is said beside Send, never "sent"', async ({ page }) => {
  await page.route('**/acknowledge', (route) =>
    route.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'This order is cancelled: it cannot be acknowledged',
        error: { code: 'INVALID_REQUEST' },
      }),
    }),
  );
  await page.goto(`/#/orders/${order(1)}`);
  const panel = page.getByRole('region', { name: 'Acknowledge the purchase order' });
  const send = panel.getByRole('button', { name: 'Send acknowledgment' });
  await send.click();
  const alert = panel.getByRole('alert');
  await expect(alert).toHaveText('Not sent: This order is cancelled: it cannot be acknowledged');
  await expect(panel.getByRole('status')).toHaveCount(0);
  // Right above the button pressed, not at the top of a long list of lines.
  const [alertBox, sendBox] = [await alert.boundingBox(), await send.boundingBox()];
  expect(sendBox!.y - (alertBox!.y + alertBox!.height)).toBeLessThan(40);
  expect(sendBox!.y).toBeGreaterThan(alertBox!.y);
});

test('an order with no documents says what to do', async ({ page }) => {
  // The demo's direct-API order: its retailer takes no 855s, and it is not shipped.
  await page.goto(`/#/orders/${order(2)}`);
  const documents = page.getByRole('region', { name: 'Retailer documents' });
  await expect(documents).toContainText(
    'No documents with the retailer yet. No connection of this retailer takes purchase order acknowledgments (855). The ASN (or shipment confirmation) is made when the order ships, for each connection that takes one.',
  );
});

test('a timeline that could not load says why and offers Retry', async ({ page }) => {
  let failures = 1;
  await page.route('**/document-timeline', async (route) => {
    if (failures-- > 0) {
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({
          message: 'Document timeline retrieval failed',
          error: { code: 'INTERNAL_ERROR' },
        }),
      });
    } else {
      await route.continue();
    }
  });
  await page.goto(`/#/orders/${order(1)}`);
  const documents = page.getByRole('region', { name: 'Retailer documents' });
  await expect(documents.getByRole('alert')).toContainText(
    'Could not load the documents: Document timeline retrieval failed',
  );
  await documents.getByRole('button', { name: 'Retry' }).click();
  await expect(documents.getByRole('list', { name: 'Document timeline' })).toBeVisible();
});

test('the header’s overdue count is asked again with the overdue list, so the two agree', async ({
  page,
}) => {
  // The header's last answer is out of date (as after documents turned overdue with time).
  await page.route('**/api/v1/edi/documents/summary', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({
        message: 'Document summary retrieved successfully',
        data: {
          counts: {
            queued: 0,
            sent: 0,
            failed: 0,
            accepted: 0,
            accepted_with_errors: 0,
            rejected: 0,
            overdue: 9,
          },
          needs_attention: 9,
        },
      }),
    }),
  );
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Orders' })
    .click();
  await page.goto('/#/edi/documents');
  const header = page.getByRole('banner');
  await expect(header.getByRole('link', { name: '9 overdue acknowledgments' })).toBeVisible();
  await page.unroute('**/api/v1/edi/documents/summary');

  await page.getByRole('link', { name: 'Overdue acknowledgments', exact: true }).click();
  const list = page.getByRole('table', { name: /overdue$/ });
  await expect(list).toBeVisible();
  const listed = (await list.getByRole('row').count()) - 1;
  await expect(header.getByRole('link', { name: /overdue acknowledgments?$/ })).toHaveText(
    `${listed} overdue`,
  );
});
