import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { SyncConflict } from '../src/shared/sync';
import { expect, openScreen, signIn, startSignedIn, test, watchPageProblems } from './support';
import { OFFLINE_WORKSTATION } from './fixtures/sync-status';

/**
 * An axe-core scan of every screen and of the states a clerk meets on them (field errors, an
 * open reader or drawer, an empty list), against WCAG 2.0/2.1 A and AA. A `serious` or
 * `critical` finding fails; `moderate` and `minor` ones are attached to the test's report.
 * The screens are many and each needs only a signed-in page: `startSignedIn` hands each test's
 * page the demo clerk's token, so the tests sign in through the form once (the sign-in page's own
 * test) and the rest start on their screen.
 */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const FAILING_IMPACTS = new Set(['serious', 'critical']);

const BAD_CSV = fileURLToPath(new URL('./fixtures/inventory-bad.csv', import.meta.url));
const CLEAN_CSV = fileURLToPath(new URL('./fixtures/inventory.csv', import.meta.url));

const order = (n: number) => `0d000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
/** The demo's open FREIGHT order PS-SUM-2611001: every panel an open order has. */
const OPEN_ORDER = order(1);
/** The demo's shipped order PS-SUM-2611011: its 855, 856 and 810 on the document timeline. */
const SHIPPED_ORDER = order(11);

/** One rule's result as axe gives it (axe-core's own types, through the builder we depend on). */
type Result = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

function findingOf(result: Result): Finding {
  return {
    id: result.id,
    impact: result.impact ?? 'unknown',
    help: result.help,
    targets: result.nodes.map((node) => node.target.map(String).join(' ')),
  };
}

/** One finding per line: impact, rule, what it asks, and the nodes (CSS selectors) it found. */
function describeFindings(findings: Finding[]): string {
  return findings
    .map(
      (f) =>
        `[${f.impact}] ${f.id}: ${f.help}\n${f.targets.map((target) => `    ${target}`).join('\n')}`,
    )
    .join('\n');
}

/**
 * Scans the page as it is now under the name `screen`. Serious and critical findings fail the
 * test (softly: the other screens of the test are still scanned and reported); the others are
 * attached to the report for a look.
 */
async function scan(page: Page, screen: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  // Axe ran: a page it could not read passes no rule either.
  expect(results.passes.length, `rules passed on ${screen}`).toBeGreaterThan(0);
  const findings = results.violations.map(findingOf);
  const failing = findings.filter((f) => FAILING_IMPACTS.has(f.impact));
  const other = findings.filter((f) => !FAILING_IMPACTS.has(f.impact));
  if (other.length > 0) {
    await test.info().attach(`${screen}: moderate and minor findings`, {
      body: describeFindings(other),
      contentType: 'text/plain',
    });
  }
  // What axe could not decide (a colour over an image, an attribute a browser may ignore): for
  // a person to look at, never a failure.
  if (results.incomplete.length > 0) {
    await test.info().attach(`${screen}: for a person to check`, {
      body: describeFindings(results.incomplete.map(findingOf)),
      contentType: 'text/plain',
    });
  }
  expect.soft(describeFindings(failing), `serious or critical findings on ${screen}`).toBe('');
}

/** Opens `hash` and waits for its level-1 heading (`heading`, a name or a pattern). */
async function visit(page: Page, hash: string, heading: string | RegExp) {
  await page.goto(`/#${hash}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** Nothing on the page still says it is loading. */
async function settled(page: Page) {
  await expect(page.getByText(/^Loading\b/)).toHaveCount(0);
}

let problems: string[] = [];
test.beforeEach(({ page }) => {
  problems = watchPageProblems(page);
});
test.afterEach(() => {
  expect(problems).toEqual([]);
});

test('the sign-in page, and its field errors after an empty submit', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await scan(page, 'sign-in');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await scan(page, 'sign-in with field errors');
  // The form still signs in (the other tests start signed in; the screens are theirs to scan).
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeVisible();
});

test.describe('signed in', () => {
  test.beforeEach(async ({ page, request, baseURL }) => {
    await startSignedIn(page, request, baseURL!);
  });

  test('the screens of the main navigation', async ({ page }) => {
    test.slow();
    await visit(page, '/facilities', 'Facilities');
    await settled(page);
    await scan(page, 'facilities');

    await openScreen(page, 'Inventory');
    await settled(page);
    await scan(page, 'inventory');

    await openScreen(page, 'Orders');
    await expect(page.locator('.orders-table tbody a').first()).toBeVisible();
    await scan(page, 'orders');

    await openScreen(page, 'Transactions', 'Transaction log');
    await expect(page.getByRole('table').getByRole('row').nth(1)).toBeVisible();
    await scan(page, 'transactions');
    await page
      .getByRole('table')
      .getByRole('button', { name: /^Details of / })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: 'Transaction details' })).toBeVisible();
    await scan(page, 'transactions with a row’s details open');
    await page.keyboard.press('Escape');

    await openScreen(page, 'Analytics');
    await settled(page);
    await scan(page, 'analytics');

    await openScreen(page, 'Billing');
    await settled(page);
    await scan(page, 'billing');
    await page.getByRole('link', { name: 'Prices' }).first().click();
    await settled(page);
    await scan(page, 'billing prices');

    await openScreen(page, 'Chargebacks');
    await expect(page.getByRole('table', { name: /chargebacks?$/ })).toBeVisible();
    await scan(page, 'chargebacks');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    await expect(page.getByRole('form', { name: 'Import chargebacks from CSV' })).toBeVisible();
    await scan(page, 'chargebacks with the CSV import open (claims)');

    await openScreen(page, 'POS', 'POS reports');
    await expect(page.getByRole('table', { name: /POS rows?$/ })).toBeVisible();
    await scan(page, 'POS');

    await openScreen(page, 'Sync');
    await settled(page);
    await scan(page, 'sync');

    await openScreen(page, 'Settings');
    await settled(page);
    await scan(page, 'settings (label printer, GS1 prefix, sync)');
  });

  test('orders: an open and a shipped order, their panels, the reader, packing and the form', async ({
    page,
  }) => {
    test.slow();
    await visit(page, `/orders/${OPEN_ORDER}`, /PS-SUM-2611001/);
    await expect(page.getByRole('region', { name: 'Retailer documents' })).toBeVisible();
    await settled(page);
    await scan(page, 'an open order (timeline, documents, BOL, acknowledge panels)');

    await visit(page, `/orders/${OPEN_ORDER}/pack`, /PS-SUM-2611001/);
    await settled(page);
    await scan(page, 'packing');

    await visit(page, `/orders/${SHIPPED_ORDER}`, /PS-SUM-2611011/);
    const documents = page.getByRole('region', { name: 'Retailer documents' });
    const timeline = documents.getByRole('list', { name: 'Document timeline' });
    await expect(timeline.getByRole('listitem').first()).toBeVisible();
    await settled(page);
    await scan(page, 'a shipped order');
    const read = timeline.getByRole('button', { name: /^Read / }).first();
    await read.click();
    await expect(timeline.getByLabel(/^Content of the /)).toBeVisible();
    await scan(page, 'a shipped order with a document’s segments open');

    await page.goto('/#/orders/new');
    await page.getByRole('button', { name: /^Create order|^Save/ }).click();
    await expect(page.getByRole('alert').first()).toBeVisible();
    await scan(page, 'the order form with its field errors');

    await visit(page, `/orders/${OPEN_ORDER}/edit`, /PS-SUM-2611001/);
    await settled(page);
    await scan(page, 'the order edit form');

    await visit(page, '/orders?q=%22no-such-order-anywhere%22', 'Orders');
    await expect(page.getByText(/No orders match/)).toBeVisible();
    await scan(page, 'orders, a search that matches nothing');
  });

  test('EDI: the inbox with an interchange open, the retailer documents and their overdue view', async ({
    page,
  }) => {
    await visit(page, '/edi/inbox', 'EDI inbox');
    const open = page.getByRole('button', { name: /^Open interchange / }).first();
    await expect(open).toBeVisible();
    await scan(page, 'EDI inbox');
    await open.click();
    await expect(page.getByRole('heading', { name: 'Interchange', exact: true })).toBeFocused();
    await scan(page, 'EDI inbox with an interchange open');

    await visit(page, '/edi/documents', 'Retailer documents');
    await expect(page.getByRole('table', { name: /documents?$/ })).toBeVisible();
    await scan(page, 'retailer documents');

    await visit(page, '/edi/documents?status=overdue', 'Retailer documents');
    await settled(page);
    await scan(page, 'retailer documents, overdue');

    await visit(page, '/edi/documents?status=rejected&type=%22810%22', 'Retailer documents');
    await expect(page.getByText(/^No documents match these filters/)).toBeVisible();
    await scan(page, 'retailer documents, a filter that matches nothing');
  });

  test('states within screens: rows with problems, a question, items opened, an import refused', async ({
    page,
  }) => {
    test.slow();
    await visit(page, '/inventory', 'Inventory');
    await page.getByLabel('Facility', { exact: true }).selectOption({ label: 'Reno DC' });
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Summit Outdoor' });
    await page.getByLabel('Inventory file').setInputFiles(BAD_CSV);
    await expect(page.locator('.rows-count')).toHaveText(/with problems/);
    await scan(page, 'inventory, rows with problems in their cells');
    await page.getByLabel('Inventory file').setInputFiles(CLEAN_CSV);
    await expect(page.locator('.rows-count')).toHaveText(/, 0 with problems/);
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText(/^Show document for Big Box Retail/).click();
    await expect(preview.getByLabel('Document for Big Box Retail')).toBeVisible();
    await scan(page, 'inventory, the preview with a document open');
    await page.getByRole('button', { name: /^Send to / }).click();
    const results = page.getByRole('region', { name: 'Send results' });
    await results.getByRole('button', { name: 'View document for Big Box Retail' }).click();
    const sent = page.getByRole('dialog', { name: 'Document sent to Big Box Retail' });
    await expect(sent.getByLabel('Document text')).toBeVisible();
    await scan(page, 'inventory, the results of a send and the document sent');
    await page.keyboard.press('Escape');

    await visit(page, `/orders/${OPEN_ORDER}/pack`, /PS-SUM-2611001/);
    await page.getByRole('button', { name: 'Cancel order…' }).click();
    const question = page.getByRole('dialog', { name: /^Cancel order / });
    await expect(question.getByRole('button', { name: 'Go back' })).toBeFocused();
    await scan(page, 'packing, the cancel question open');
    await question.getByRole('button', { name: 'Go back' }).click();
    // A code on no line is refused next to the scan box (and packs nothing).
    const scanBox = page.getByRole('textbox', { name: 'Scan' });
    await scanBox.fill('NO-SUCH-CODE');
    await scanBox.press('Enter');
    await expect(page.getByRole('alert').filter({ hasText: 'NO-SUCH-CODE' })).toBeVisible();
    await scan(page, 'packing, a scan refused');

    await visit(page, '/analytics', 'Analytics');
    const items = page.getByRole('button', { name: /^Items of / }).first();
    await items.click();
    await expect(items).toHaveAttribute('aria-expanded', 'true');
    await scan(page, 'analytics, an order’s items open');

    await visit(page, '/edi/inbox', 'EDI inbox');
    await page.getByLabel('X12 files to import').setInputFiles([
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Order 12 ships Friday') },
      { name: 'scan.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
    ]);
    const imported = page.getByRole('list', { name: 'Imported files' });
    await expect(imported.getByRole('listitem')).toContainText('notes.txt: Refused');
    await scan(page, 'EDI inbox, an import refused');
  });

  test('field errors on the other forms: acknowledgment, BOL, settings, search, dates, a CSV', async ({
    page,
  }) => {
    test.slow();
    await visit(page, `/orders/${OPEN_ORDER}`, /PS-SUM-2611001/);
    const acknowledge = page.getByRole('region', { name: 'Acknowledge the purchase order' });
    await acknowledge
      .getByLabel('Acknowledgment for line 2 (SUM-JKT-RAIN-M)')
      .selectOption('quantity_changed');
    const quantity = acknowledge.getByLabel('Quantity for line 2 (SUM-JKT-RAIN-M)');
    await quantity.fill('2.5');
    await acknowledge.getByRole('button', { name: 'Send acknowledgment' }).click();
    await expect(quantity).toHaveAttribute('aria-invalid', 'true');
    await scan(page, 'an order, a wrong quantity in the acknowledgment');
    const bol = page.getByRole('region', { name: 'Bill of lading' });
    await bol.getByRole('button', { name: 'Upload bill of lading' }).click();
    await expect(bol.locator('#bol-file-error')).toBeVisible();
    await scan(page, 'an order, a BOL upload with no file');

    await visit(page, '/settings', 'Settings');
    const printer = page.getByRole('region', { name: 'Label printer' });
    await printer.getByLabel('Printer host').fill('127.0.0.1');
    await printer.getByLabel('Port').fill('80');
    await printer.getByRole('button', { name: 'Save printer' }).click();
    await expect(printer.getByLabel('Port')).toHaveAttribute('aria-invalid', 'true');
    await scan(page, 'settings, label printer with field errors');
    const sync = page.getByRole('region', { name: 'Sync with a central service' });
    await sync.getByLabel('Central service URL').fill('http://central.example.com');
    await sync.getByLabel('Device ID').fill('dock-2');
    await sync.getByRole('button', { name: 'Save' }).click();
    await expect(sync.getByLabel('Central service URL')).toHaveAttribute('aria-invalid', 'true');
    await scan(page, 'settings, sync settings with field errors');

    await visit(page, '/transactions', 'Transaction log');
    await page.getByLabel('Search', { exact: true }).fill('ab');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page.locator('#transactions-q-error')).toBeVisible();
    await scan(page, 'transactions, a search too short');

    await visit(page, '/billing', 'Billing');
    await page.getByLabel('Packed from').fill('2026-11-02');
    await page.getByLabel('Packed to').fill('2026-11-01');
    await expect(page.locator('#billing-packed-to-error')).toBeVisible();
    await scan(page, 'billing, dates the wrong way round');

    await visit(page, '/pos', 'POS reports');
    await page.getByLabel('Periods starting from').fill('2026-11-08');
    await page.getByLabel('Periods ending by').fill('2026-11-01');
    await expect(page.locator('#pos-range-error')).toBeVisible();
    await scan(page, 'POS, dates the wrong way round');

    await visit(page, '/chargebacks', 'Chargebacks');
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const csv = page.getByRole('form', { name: 'Import chargebacks from CSV' });
    await csv.getByLabel('CSV file').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Chargeback #,PO,Amount,Issue Date\nA11Y-1,BB4500527,lots,2026-11-20\n'),
    });
    for (const [label, option] of [
      ['Brand', 'Summit Outdoor'],
      ['Retailer', 'Big Box Retail'],
    ] as const) {
      const select = csv.getByLabel(label, { exact: true });
      await expect(select.locator('option', { hasText: option })).toBeAttached();
      await select.selectOption({ label: option });
    }
    await csv.getByRole('button', { name: 'Upload CSV' }).click();
    await expect(csv.getByRole('table', { name: /Rejected rows/ })).toBeVisible();
    await scan(page, 'chargebacks, a CSV refused with its rows');
  });

  test('sync: offline, with a conflict to resolve and a refusal beside it', async ({ page }) => {
    // The demo workspace runs no sync: a workstation that is offline with one conflict is
    // answered here, as e2e/sync-ui.spec.ts does.
    const status = OFFLINE_WORKSTATION;
    const conflict: SyncConflict = {
      id: 'b7d3c1a0-1111-4222-8333-444455556666',
      created_at: '2026-11-24T08:55:00Z',
      device_id: 'dock-2',
      seq: 14,
      mutation: 'ORDER_UPDATE',
      order_id: OPEN_ORDER,
      brand_id: null,
      picksheet_code: 'PS-SUM-2611001',
      reason: 'The order shipped on the central service before this change arrived.',
      fields: [{ table: 'orders', field: 'po_number', yours: 'PO-77', central: null }],
      status: 'open',
      resolution: null,
      resolved_at: null,
      offers: ['keep_central', 'apply_mine'],
    };
    await page.route('**/api/sync/v1/**', async (route) => {
      const { pathname } = new URL(route.request().url());
      if (pathname === '/api/sync/v1/status') return route.fulfill({ json: status });
      if (pathname === '/api/sync/v1/conflicts' && route.request().method() === 'GET') {
        return route.fulfill({
          json: {
            message: 'Conflicts retrieved successfully',
            data: { items: [conflict], total_count: 1, page: 1, page_size: 50 },
          },
        });
      }
      return route.fulfill({
        status: 409,
        json: { message: 'Conflict already resolved', error: { code: 'CONFLICT' } },
      });
    });
    await visit(page, '/sync', 'Sync');
    const row = page.getByRole('table', { name: '1 open conflict' }).getByRole('row', {
      name: /PS-SUM-2611001/,
    });
    await expect(page.getByRole('banner').getByRole('link', { name: /waiting/ })).toBeVisible();
    await row.getByRole('button', { name: "Keep central's for PS-SUM-2611001" }).click();
    await expect(row.getByRole('alert')).toHaveText('Conflict already resolved');
    await scan(page, 'sync, offline with a conflict refused');
  });
});
