import type { Page, Response } from '@playwright/test';
import { expect, test, beginEachTest, DEMO, signIn } from './support';

const EXPIRED_NOTICE = 'Your session has expired. Please sign in again.';
const FACILITIES_API = '**/api/user-facilities/v1/facilities';
const TOKEN_API = '**/api/auth/token';

interface Facility {
  id: string;
  name: string;
  external_facility_code: string;
}
interface Brand {
  brand_id: string;
  name: string;
}
interface Retailer {
  retailer_id: string;
  name: string;
}

function facilitiesTable(page: Page) {
  return page.getByRole('table', { name: /facilit(y|ies) you can access/ });
}

function waitForToken(page: Page): Promise<Response> {
  return page.waitForResponse((r) => r.url().endsWith('/api/auth/token') && r.status() === 200);
}

const NONE = '—';
const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });

async function apiData<T>(page: Page, token: string, path: string, empty: T): Promise<T> {
  const response = await page.request.get(path, { headers: { Authorization: `Bearer ${token}` } });
  if (response.status() === 404) return empty;
  expect(response.ok(), `${path} answered ${response.status()}`).toBe(true);
  return ((await response.json()) as { data: T }).data;
}

/** The facilities table as the API describes it: names sorted and comma-joined, "—" for none. */
async function expectedRows(page: Page, token: string) {
  const facilities = await apiData<Facility[]>(
    page,
    token,
    '/api/user-facilities/v1/facilities',
    [],
  );
  const rows = [];
  for (const facility of facilities) {
    const brands = await apiData<Brand[]>(page, token, `/api/brand/v1/facility/${facility.id}`, []);
    const retailers = new Map<string, string>();
    for (const brand of brands) {
      const list = await apiData<Retailer[]>(
        page,
        token,
        `/api/retailer/v1/facility/${facility.id}?brand_id=${brand.brand_id}`,
        [],
      );
      for (const retailer of list) retailers.set(retailer.retailer_id, retailer.name);
    }
    rows.push({
      name: facility.name,
      code: facility.external_facility_code,
      brands:
        brands
          .map((b) => b.name)
          .sort(byName)
          .join(', ') || NONE,
      retailers: [...retailers.values()].sort(byName).join(', ') || NONE,
    });
  }
  return rows;
}

async function signInAndReadToken(page: Page): Promise<string> {
  const tokenResponse = waitForToken(page);
  await signIn(page);
  const body = (await (await tokenResponse).json()) as { data: { access_token: string } };
  return body.data.access_token;
}

beginEachTest(async (page) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test.describe('sign-in form', () => {
  test('a wrong password shows "Invalid credentials" on the password field, which gets focus back', async ({
    page,
  }) => {
    await signIn(page, DEMO.email, 'not-the-password');
    const form = page.getByRole('form', { name: 'Sign in' });
    await expect(form.getByRole('alert')).toHaveText('Invalid credentials');
    await expect(page.getByLabel('Email')).toHaveValue(DEMO.email);
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    // The click disabled the button while signing in; focus comes back to the field to fix.
    const password = page.getByLabel('Password');
    await expect(password).toBeFocused();
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAccessibleDescription('Invalid credentials');
    // The wrong password is selected: typing replaces it and clears the mark.
    await page.keyboard.type(DEMO.password);
    await expect(password).not.toHaveAttribute('aria-invalid', 'true');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Facilities' })).toBeVisible();
  });

  test('an empty submit shows field errors tied to their fields', async ({ page }) => {
    await page.getByRole('button', { name: 'Sign in' }).click();
    const email = page.getByLabel('Email');
    const password = page.getByLabel('Password');
    await expect(email).toHaveAccessibleDescription('Email is required');
    await expect(password).toHaveAccessibleDescription('Password is required');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert').filter({ hasText: 'Email is required' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'Password is required' })).toBeVisible();
    await expect(email).toBeFocused();

    // Errors clear as the user fixes the fields.
    await email.fill(DEMO.email);
    await expect(email).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Email is required')).toHaveCount(0);
  });

  test('the button says "Signing in…" and is disabled while the request is pending', async ({
    page,
  }) => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(TOKEN_API, async (route) => {
      await gate;
      await route.continue();
    });
    await signIn(page);
    await expect(page.getByRole('button', { name: 'Signing in…' })).toBeDisabled();
    release();
    await expect(page.getByRole('heading', { name: 'Facilities' })).toBeVisible();
  });

  test('keyboard only: Tab, type and Enter sign in', async ({ page }) => {
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(DEMO.email);
    await page.keyboard.press('Tab');
    await expect(page.getByLabel('Password')).toBeFocused();
    await page.keyboard.type(DEMO.password);
    await page.keyboard.press('Enter');

    const heading = page.getByRole('heading', { name: 'Facilities' });
    await expect(heading).toBeFocused();
    await expect(facilitiesTable(page)).toBeVisible();

    // From the heading, Tab reaches the screen's controls, then the sort buttons.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Facility' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('columnheader', { name: 'Facility' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });
});

test.describe('signed in', () => {
  test('the demo account sees its facilities with their brands and retailers', async ({ page }) => {
    const token = await signInAndReadToken(page);
    await expect(page.getByRole('heading', { name: 'Facilities' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('Fulfillment Integration');
    await expect(page.getByRole('banner')).toContainText(DEMO.email);

    const table = facilitiesTable(page);
    await expect(table).toBeVisible();
    const columnHeaders = table.getByRole('columnheader');
    await expect(columnHeaders).toHaveCount(5);
    for (const [index, name] of ['Facility', 'Code', 'Brands', 'Retailers', 'Open'].entries()) {
      await expect(columnHeaders.nth(index)).toHaveAccessibleName(name);
    }

    // Each row shows what the API says about that facility.
    const expected = await expectedRows(page, token);
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect(expected.filter((row) => row.brands !== NONE).length).toBeGreaterThanOrEqual(1);
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(expected.length);
    for (const row of expected) {
      const cells = rows
        .filter({ has: page.getByRole('cell', { name: row.name, exact: true }) })
        .getByRole('cell');
      // The last cell leads to the facility's orders and stock (issue 19).
      await expect(cells).toHaveText([
        row.name,
        row.code,
        row.brands,
        row.retailers,
        'OrdersStock',
      ]);
    }
  });

  test('sign out returns to the sign-in screen', async ({ page }) => {
    await signIn(page);
    await expect(facilitiesTable(page)).toBeVisible();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);
    await expect(page.getByText(EXPIRED_NOTICE)).toHaveCount(0);
  });

  test('the session survives a reload, kept in this tab only', async ({ page, context }) => {
    const token = await signInAndReadToken(page);
    expect(token.length).toBeGreaterThan(10);
    await expect(facilitiesTable(page)).toBeVisible();

    // In sessionStorage (this tab, gone with the window); never in localStorage or a cookie.
    const stored = await page.evaluate(() => ({
      local: { ...window.localStorage },
      session: { ...window.sessionStorage },
      cookie: document.cookie,
    }));
    expect(JSON.stringify(stored.local)).not.toContain(token);
    expect(stored.cookie).not.toContain(token);
    expect(JSON.stringify(await context.cookies())).not.toContain(token);
    expect(JSON.stringify(stored.session)).toContain(token);

    // F5 keeps the clerk signed in.
    await page.reload();
    await expect(facilitiesTable(page)).toBeVisible();
    await expect(page.getByRole('banner')).toContainText(DEMO.email);

    // Another tab does not share it.
    const other = await context.newPage();
    await other.goto('/');
    await expect(other.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await other.close();

    // Signing out forgets it: a reload then asks to sign in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }))).not.toContain(
      token,
    );
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });

  test('an expired kept session asks to sign in after a reload', async ({ page }) => {
    await signIn(page);
    await expect(facilitiesTable(page)).toBeVisible();
    await page.evaluate(() => {
      const key = Object.keys(window.sessionStorage).find((k) => k.includes('session'));
      if (!key) throw new Error('no kept session');
      const kept = JSON.parse(window.sessionStorage.getItem(key)!) as { expiresAt: number };
      window.sessionStorage.setItem(key, JSON.stringify({ ...kept, expiresAt: Date.now() - 1 }));
    });
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });

  test('the navigation switches screens with the hash', async ({ page }) => {
    await signIn(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Facilities' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await nav.getByRole('link', { name: 'Inventory' }).click();
    await expect(page).toHaveURL(/#\/inventory$/);
    await expect(page.getByRole('heading', { name: 'Inventory' })).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Inventory' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Facilities' })).toBeVisible();

    await page.evaluate(() => (window.location.hash = '#/nowhere'));
    await expect(page).toHaveURL(/#\/facilities$/);
  });

  test('sortable headers are buttons that reorder the rows', async ({ page }) => {
    await signIn(page);
    const table = facilitiesTable(page);
    const names = table.locator('tbody tr td:first-child');
    await expect(names.first()).toBeVisible();
    const ascending = await names.allTextContents();
    expect(ascending).toEqual([...ascending].sort(byName));

    const header = table.getByRole('columnheader', { name: 'Facility' });
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect(names).toHaveText([...ascending].reverse());
  });
});

test.describe('facilities screen states', () => {
  test('an error offers Retry, which loads the table', async ({ page }) => {
    let calls = 0;
    await page.route(FACILITIES_API, async (route) => {
      calls += 1;
      if (calls > 1) return route.continue();
      return route.fulfill({
        status: 500,
        json: { message: 'Error fetching facilities', error: { code: 'INTERNAL_SERVER_ERROR' } },
      });
    });
    await signIn(page);
    const alert = page.getByRole('alert').filter({ hasText: 'Could not load facilities' });
    await expect(alert).toContainText('Error fetching facilities');
    await alert.getByRole('button', { name: 'Retry' }).click();
    await expect(facilitiesTable(page)).toBeVisible();
  });

  test('no facilities says what to do', async ({ page }) => {
    await page.route(FACILITIES_API, (route) =>
      route.fulfill({ status: 200, json: { data: [], message: 'Facilities fetched' } }),
    );
    await signIn(page);
    await expect(
      page.getByText(
        'No facilities yet. Ask an administrator to give your account access to a facility, or import a seed bundle.',
      ),
    ).toBeVisible();
  });

  test('shows "Loading facilities…" while loading', async ({ page }) => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route(FACILITIES_API, async (route) => {
      await gate;
      await route.continue();
    });
    await signIn(page);
    await expect(page.getByText('Loading facilities…')).toBeVisible();
    release();
    await expect(facilitiesTable(page)).toBeVisible();
  });
});

test.describe('session expiry', () => {
  test('a 401 from the API signs out with a notice', async ({ page }) => {
    await page.route(FACILITIES_API, (route) =>
      route.fulfill({
        status: 401,
        json: { message: 'Authentication failed', error: { code: 'UNAUTHORIZED' } },
      }),
    );
    await signIn(page);
    await expect(page.getByText(EXPIRED_NOTICE)).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toHaveCount(0);

    // Signing in again clears the notice.
    await page.unroute(FACILITIES_API);
    await signIn(page);
    await expect(facilitiesTable(page)).toBeVisible();
    await expect(page.getByText(EXPIRED_NOTICE)).toHaveCount(0);
  });

  test('the session ends when the token expires', async ({ page }) => {
    await page.route(TOKEN_API, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: { expires_in: number } };
      body.data.expires_in = 2;
      await route.fulfill({ response, json: body });
    });
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Facilities' })).toBeVisible();
    await expect(page.getByText(EXPIRED_NOTICE)).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });
});
