import { fileURLToPath } from 'node:url';
import type { FileChooser, Locator, Page } from '@playwright/test';
import { PDFDocument } from 'pdf-lib';
import { DEMO, expect, startSignedIn, test, watchPageProblems } from './support';

/**
 * The clerk's main flows with the keyboard alone: Tab, Shift+Tab, Enter, Space, Escape and
 * typing into whatever has the focus. Nothing here clicks or fills an element found by a
 * locator; locators only say where the focus must be (docs/decisions, "The keyboard spec").
 * Like the accessibility spec, the tests after the sign-in one start signed in (the demo
 * clerk's token is handed to each page) and open their screen by its address.
 */

const CLEAN_CSV = fileURLToPath(new URL('./fixtures/inventory.csv', import.meta.url));

const order = (n: number) => `0d000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
/** The demo's open FREIGHT order PS-SUM-2611001. */
const OPEN_ORDER = order(1);
const OPEN_PICKSHEET = 'PS-SUM-2611001';
/** The demo's shipped order PS-SUM-2611011: its 855, 856 and 810 on the document timeline. */
const SHIPPED_ORDER = order(11);

/** The most Tab presses a test allows itself to reach a control (a screen's worth). */
const MAX_TABS = 120;

/** Whether `target` has the focus now (not while it is missing: the press loop goes on). */
const hasFocus = (target: Locator) =>
  target
    .evaluate((element) => element === document.activeElement, undefined, { timeout: 1_000 })
    .catch(() => false);

/**
 * Presses Tab (Shift+Tab when `back`) until `target` has the focus; fails when it never does
 * within `max` presses, so a control only a mouse reaches fails here.
 */
async function tabTo(page: Page, target: Locator, { back = false, max = MAX_TABS } = {}) {
  await expect(target).toBeAttached();
  for (let presses = 0; presses < max && !(await hasFocus(target)); presses += 1) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
}

/** Opens `hash` and waits for its level-1 heading to take the focus, as the shell gives it. */
async function visit(page: Page, hash: string, heading: string | RegExp) {
  await page.goto(`/#${hash}`);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
}

/** Whether the focused element lies inside `container`. */
const focusWithin = (container: Locator) =>
  container.evaluate((element) => element.contains(document.activeElement));

/** A small real PDF (the service opens it with pdf-lib). */
async function pdfBuffer(): Promise<Buffer> {
  const document = await PDFDocument.create();
  document.addPage([612, 792]).drawText('Bill of lading');
  return Buffer.from(await document.save());
}

/** Presses `key` on the focused file control and hands the file chooser it opens `files`. */
async function chooseFile(
  page: Page,
  key: 'Enter' | 'Space',
  files: Parameters<FileChooser['setFiles']>[0],
) {
  const chooser = page.waitForEvent('filechooser');
  await page.keyboard.press(key);
  await (await chooser).setFiles(files);
}

interface FocusLook {
  what: string;
  visible: boolean;
}

/**
 * The focused element and whether it shows a focus indicator: an outline that is drawn (style
 * not `none`, width above zero) or a box-shadow.
 */
const focusLook = (page: Page) =>
  page.evaluate((): FocusLook | null => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body) return null;
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none' && style.boxShadow !== '';
    const name =
      element.getAttribute('aria-label') ??
      element.textContent?.trim().slice(0, 40) ??
      element.getAttribute('id') ??
      '';
    return {
      what: `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${name}"`,
      visible: outline || shadow,
    };
  });

let problems: string[] = [];
test.beforeEach(({ page }) => {
  problems = watchPageProblems(page);
});
test.afterEach(() => {
  expect(problems).toEqual([]);
});

test('sign in from the sign-in page', async ({ page }) => {
  await page.goto('/');
  const email = page.getByLabel('Email');
  await expect(email).toBeFocused();
  await page.keyboard.type(DEMO.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(DEMO.password);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Facilities', level: 1 })).toBeFocused();
});

test.describe('signed in', () => {
  test.beforeEach(async ({ page, request, baseURL }) => {
    await startSignedIn(page, request, baseURL!);
  });

  test('orders: from the navigation to an open order, its form changed and saved', async ({
    page,
  }) => {
    await visit(page, '/facilities', 'Facilities');
    // The navigation comes before the screen: back from the heading.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await tabTo(page, nav.getByRole('link', { name: 'Orders' }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeFocused();

    await tabTo(page, page.getByLabel('PO number or picksheet code'));
    await page.keyboard.type(OPEN_PICKSHEET);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`q=${OPEN_PICKSHEET}`));
    // The row's action (the order itself) is its picksheet link.
    const row = page.getByRole('row', { name: new RegExp(OPEN_PICKSHEET) });
    await tabTo(page, row.getByRole('link', { name: OPEN_PICKSHEET }));
    await page.keyboard.press('Enter');
    const orderHeading = page.getByRole('heading', { name: `Order ${OPEN_PICKSHEET}`, level: 1 });
    await expect(orderHeading).toBeFocused();

    await tabTo(page, page.getByRole('link', { name: 'Edit order' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: `Edit order ${OPEN_PICKSHEET}` })).toBeFocused();
    const po = `KBD-${Date.now()}`;
    await tabTo(page, page.getByLabel('PO number'));
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(po);
    await tabTo(page, page.getByRole('button', { name: 'Save changes' }));
    await page.keyboard.press('Enter');

    await expect(orderHeading).toBeFocused();
    // Said by the live region, and shown on the order for whoever looks at it.
    await expect(page.getByRole('status').filter({ hasText: 'Order saved.' })).toBeAttached();
    await expect(page.getByRole('main').getByText('Order saved.', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Identifiers' }).getByText(po)).toBeVisible();
  });

  test('the bill of lading: its drop zone has a file control the keyboard reaches', async ({
    page,
  }) => {
    await visit(page, `/orders/${OPEN_ORDER}`, new RegExp(OPEN_PICKSHEET));
    const bol = page.getByRole('region', { name: 'Bill of lading' });
    await tabTo(page, bol.getByLabel('Bill of lading PDF'));
    await chooseFile(page, 'Space', {
      name: 'bol-keyboard.pdf',
      mimeType: 'application/pdf',
      buffer: await pdfBuffer(),
    });
    await expect(bol.getByText(/Ready to upload: bol-keyboard\.pdf/)).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(bol.getByLabel('BOL number')).toBeFocused();
    await page.keyboard.type('BOL-KBD-1');
    await tabTo(page, bol.getByRole('button', { name: 'Upload bill of lading' }));
    await page.keyboard.press('Enter');
    await expect(bol.getByRole('status')).toHaveText(
      'BOL uploaded successfully: bol-keyboard.pdf.',
    );
  });

  test('inventory: scope, file, Preview and Send by keyboard', async ({ page }) => {
    await visit(page, '/inventory', 'Inventory');
    const facility = page.getByLabel('Facility', { exact: true });
    await tabTo(page, facility);
    // Typing on a closed select picks the option it starts.
    await page.keyboard.type('Reno');
    await expect(facility.locator('option:checked')).toHaveText(/Reno DC/);
    const brand = page.getByLabel('Brand', { exact: true });
    await expect(brand.locator('option', { hasText: 'Summit Outdoor' })).toBeAttached();
    await tabTo(page, brand);
    await page.keyboard.type('Summit');
    await expect(brand.locator('option:checked')).toHaveText(/Summit Outdoor/);

    await tabTo(page, page.getByLabel('Inventory file'));
    await chooseFile(page, 'Enter', CLEAN_CSV);
    await expect(page.locator('.rows-count')).toHaveText(/, 0 with problems/);
    await tabTo(page, page.getByRole('button', { name: 'Preview' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Preview' })).toBeVisible();
    await tabTo(page, page.getByRole('button', { name: /^Send to / }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('region', { name: 'Send results' })).toBeVisible();
  });

  test('the transaction details drawer: focus moves in, stays while modal, and comes back', async ({
    page,
  }) => {
    await visit(page, '/transactions', 'Transaction log');
    const opener = page.getByRole('button', { name: /^Details of / }).first();
    await tabTo(page, opener);
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Transaction details' });
    await expect(drawer).toBeVisible();
    expect(await focusWithin(drawer)).toBe(true);
    for (let presses = 0; presses < 8; presses += 1) {
      await page.keyboard.press(presses % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await focusWithin(drawer), `focus inside the drawer after ${presses + 1}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test('the packing question: focus on the safe choice, kept inside, the scan box after Escape', async ({
    page,
  }) => {
    // A packing station's focus rests on the scan box, where the scanner types.
    await page.goto(`/#/orders/${OPEN_ORDER}/pack`);
    const scanBox = page.getByRole('textbox', { name: 'Scan' });
    await expect(scanBox).toBeFocused();
    const opener = page.getByRole('button', { name: 'Cancel order…' });
    await tabTo(page, opener);
    await page.keyboard.press('Enter');
    const question = page.getByRole('dialog', { name: /^Cancel order / });
    await expect(question.getByRole('button', { name: 'Go back' })).toBeFocused();
    for (let presses = 0; presses < 5; presses += 1) {
      await page.keyboard.press(presses % 2 === 1 ? 'Shift+Tab' : 'Tab');
      expect(await focusWithin(question), `focus inside after ${presses + 1}`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(question).toHaveCount(0);
    // Not the opener: a scan's closing Enter on "Cancel order…" would ask again (the decision).
    await expect(scanBox).toBeFocused();
  });

  test('a document’s segments: the reader opens in place, Escape closes it onto its button', async ({
    page,
  }) => {
    await visit(page, `/orders/${SHIPPED_ORDER}`, /PS-SUM-2611011/);
    const timeline = page
      .getByRole('region', { name: 'Retailer documents' })
      .getByRole('list', { name: 'Document timeline' });
    // Its name turns from Read to Close while open.
    const read = timeline.getByRole('button', { name: /^(Read|Close) / }).first();
    await tabTo(page, read);
    await page.keyboard.press('Enter');
    await expect(read).toHaveAttribute('aria-expanded', 'true');
    // The segments scroll: the keyboard reaches them to scroll them.
    const segments = timeline.getByLabel(/^Content of the /);
    await tabTo(page, segments, { max: 6 });
    await page.keyboard.press('Escape');
    await expect(segments).toHaveCount(0);
    await expect(read).toBeFocused();
    await expect(read).toHaveAttribute('aria-expanded', 'false');
  });

  test('the EDI inbox: a row opens its interchange by keyboard', async ({ page }) => {
    await visit(page, '/edi/inbox', 'EDI inbox');
    const open = page.getByRole('button', { name: /^Open interchange / }).first();
    await tabTo(page, open);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Interchange', exact: true })).toBeFocused();
  });

  test('every control the keyboard lands on shows where the focus is', async ({ page }) => {
    const unseen: string[] = [];
    const look = async (screen: string) => {
      const found = await focusLook(page);
      if (found && !found.visible) unseen.push(`${screen}: ${found.what}`);
    };
    const screens: [string, string | RegExp][] = [
      ['/orders', 'Orders'],
      [`/orders/${OPEN_ORDER}`, new RegExp(OPEN_PICKSHEET)],
      ['/inventory', 'Inventory'],
      ['/transactions', 'Transaction log'],
      ['/edi/inbox', 'EDI inbox'],
      ['/edi/documents', 'Retailer documents'],
      ['/analytics', 'Analytics'],
      ['/billing', 'Billing'],
      ['/chargebacks', 'Chargebacks'],
      ['/pos', 'POS reports'],
      ['/sync', 'Sync'],
      ['/settings', 'Settings'],
      ['/facilities', 'Facilities'],
    ];
    // The header and the navigation are the same on every screen: back from one heading.
    await visit(page, '/facilities', 'Facilities');
    for (let presses = 0; presses < 18; presses += 1) {
      await page.keyboard.press('Shift+Tab');
      await look('header and navigation');
    }
    for (const [hash, heading] of screens) {
      await visit(page, hash, heading);
      for (let presses = 0; presses < 14; presses += 1) {
        await page.keyboard.press('Tab');
        await look(hash);
      }
    }
    expect(unseen, 'focused controls without a visible focus indicator').toEqual([]);
  });
});

test('the sign-in form shows where the focus is', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByLabel('Email')).toBeFocused();
  const unseen: string[] = [];
  for (let presses = 0; presses < 3; presses += 1) {
    const found = await focusLook(page);
    if (found && !found.visible) unseen.push(found.what);
    await page.keyboard.press('Tab');
  }
  expect(unseen).toEqual([]);
});
