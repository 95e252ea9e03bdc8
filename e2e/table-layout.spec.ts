import type { Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { expect, test, beginEachTest, openSignedIn } from './support';

// Issue 19 item 11: at 1280x800 and 1024x768 no table content is clipped without a visible way
// to reach it. The page itself never scrolls sideways; a table wider than its place scrolls inside
// a container that fits the viewport (so its scrollbar is on screen, not below the last row), and
// its first column stays in view while it scrolls.

const CLEAN_CSV = fileURLToPath(new URL('./fixtures/inventory.csv', import.meta.url));
const RENO = '0f000000-0000-4000-8000-000000000001';

beginEachTest(async (page) => {
  await openSignedIn(page);
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

/** Each screen: its address, and what to do before its table shows. */
const SCREENS: {
  name: string;
  path: string;
  ready?: (page: Page) => Promise<void>;
  /** Tables that must show every column without scrolling (money: amounts never hidden). */
  whole?: string;
}[] = [
  { name: 'orders', path: '/orders' },
  { name: 'transactions', path: '/transactions' },
  { name: 'analytics', path: `/analytics?facility=${RENO}` },
  { name: 'billing', path: '/billing', whole: 'table.billing-lines' },
  { name: 'chargebacks', path: '/chargebacks' },
  { name: 'POS', path: '/pos' },
  { name: 'facilities', path: '/facilities' },
  {
    name: 'inventory',
    path: '/inventory',
    ready: async (page) => {
      await page.getByLabel('Facility', { exact: true }).selectOption({ label: 'Reno DC' });
      await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Summit Outdoor' });
      await page.getByLabel('Inventory file').setInputFiles(CLEAN_CSV);
    },
  },
];

interface TableFit {
  table: string;
  /** The table is wider than its place, and nothing scrolls it. */
  clipped: boolean;
  /** It scrolls sideways inside a container. */
  scrolls: boolean;
  /** The container's bottom edge (its scrollbar), with its top at the viewport's top. */
  bottom: number;
  viewport: number;
  /** After scrolling fully right, the first header cell is still inside the container. */
  firstColumnShown: boolean;
}

/** How each table fits its screen (measured in the page). */
function tableFits(page: Page): Promise<TableFit[]> {
  return page.evaluate(() => {
    const scroller = (element: Element) => {
      for (let node = element.parentElement; node; node = node.parentElement) {
        const { overflowX } = getComputedStyle(node);
        if (overflowX === 'auto' || overflowX === 'scroll') return node;
        if (overflowX === 'hidden' || overflowX === 'clip') return null;
      }
      return null;
    };
    return [...document.querySelectorAll('table')]
      .filter((table) => table.getBoundingClientRect().width > 0)
      .map((table) => {
        const name = table.caption?.textContent?.trim() || table.className;
        const box = scroller(table);
        const parentWidth = table.parentElement?.clientWidth ?? 0;
        if (!box) {
          return {
            table: name,
            clipped: table.scrollWidth > parentWidth + 1,
            scrolls: false,
            bottom: 0,
            viewport: window.innerHeight,
            firstColumnShown: true,
          };
        }
        const scrolls = box.scrollWidth > box.clientWidth + 1;
        box.scrollIntoView({ block: 'start', inline: 'nearest' });
        const rect = box.getBoundingClientRect();
        box.scrollLeft = box.scrollWidth;
        const first = table.querySelector('thead th');
        const firstRect = first?.getBoundingClientRect();
        const firstColumnShown =
          !firstRect || (firstRect.left >= rect.left - 1 && firstRect.right <= rect.right + 1);
        box.scrollLeft = 0;
        return {
          table: name,
          clipped: false,
          scrolls,
          bottom: Math.round(rect.bottom),
          viewport: window.innerHeight,
          firstColumnShown,
        };
      });
  });
}

for (const size of [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
]) {
  test.describe(`at ${size.width}x${size.height}`, () => {
    test.use({ viewport: size });

    for (const screen of SCREENS) {
      test(`${screen.name}: no table content is out of reach`, async ({ page }) => {
        await page.goto(`/#${screen.path}`);
        await screen.ready?.(page);
        await expect(page.locator('main table').first()).toBeVisible();
        // The page never scrolls sideways.
        const page_ = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }));
        expect(page_.scroll, 'the page scrolls sideways').toBeLessThanOrEqual(page_.client);
        for (const fit of await tableFits(page)) {
          expect(fit.clipped, `${fit.table}: clipped with no scrollbar`).toBe(false);
          if (!fit.scrolls) continue;
          expect(
            fit.bottom,
            `${fit.table}: its scrollbar is below the viewport`,
          ).toBeLessThanOrEqual(fit.viewport);
          expect(fit.firstColumnShown, `${fit.table}: the first column scrolls away`).toBe(true);
        }
        if (screen.whole) {
          const tables = page.locator(screen.whole);
          await expect(tables.first()).toBeVisible();
          for (const table of await tables.all()) {
            const widths = await table.evaluate((element) => ({
              table: element.scrollWidth,
              place: element.parentElement!.clientWidth,
            }));
            expect(widths.table, 'a brand card hides columns').toBeLessThanOrEqual(widths.place);
          }
        }
      });
    }

    test('the new-order form has no horizontal page scroll', async ({ page }) => {
      await page.goto('/#/orders/new');
      await expect(page.getByRole('heading', { name: 'New order', level: 1 })).toBeVisible();
      await expect(page.getByLabel('SKU, item 1')).toBeVisible();
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      // Every input of the item line is on screen without scrolling the table.
      const table = page.locator('table.item-rows');
      const box = await table.evaluate((element) => {
        const scroller = element.parentElement!;
        return { scroll: scroller.scrollWidth, client: scroller.clientWidth };
      });
      expect(box.scroll).toBeLessThanOrEqual(box.client + 1);
    });
  });
}
