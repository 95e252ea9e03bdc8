import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './service';

/** Specs take `test` and `expect` from here: `test` gives each spec file its own demo service. */
export { expect, test };

/** The demo clerk the seed creates. */
export const DEMO = { email: 'demo@example.com', password: 'demo-password' };

/** Uncaught exceptions and CSP violations on `page`, collected so the test that caused them fails. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      problems.push(`CSP: ${message.text()}`);
    }
  });
  return problems;
}

/**
 * Every test in the calling file begins with `start` and fails on the page problems it caused.
 * Call at the top of a spec file (or a describe block), where hooks are registered.
 */
export function beginEachTest(start: (page: Page) => Promise<void>): void {
  let problems: string[] = [];
  test.beforeEach(async ({ page }) => {
    problems = watchPageProblems(page);
    await start(page);
  });
  test.afterEach(() => {
    expect(problems).toEqual([]);
  });
}

/** Fills in and submits the sign-in form the page shows. */
export async function signIn(page: Page, email = DEMO.email, password = DEMO.password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the app and signs in as the demo clerk. */
export async function openSignedIn(page: Page) {
  await page.goto('/');
  await signIn(page);
}

/**
 * Moves to a screen by the main navigation's `link`; its level-1 heading (`heading`, the link's
 * name when the two agree) takes the focus.
 */
export async function openScreen(page: Page, link: string, heading = link) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeFocused();
}

/** Moves to the Inventory screen by the main navigation; its heading takes the focus. */
export const openInventory = (page: Page) => openScreen(page, 'Inventory');

/** The demo clerk's token response, fetched once per worker (per service URL). */
const tokens = new Map<string, Promise<{ access_token: string; expires_in: number }>>();

async function demoToken(request: APIRequestContext, baseURL: string) {
  let token = tokens.get(baseURL);
  if (!token) {
    token = request.post('/api/auth/token', { data: DEMO }).then(async (answer) => {
      expect(answer.status()).toBe(200);
      return ((await answer.json()) as { data: { access_token: string; expires_in: number } }).data;
    });
    tokens.set(baseURL, token);
  }
  return token;
}

/**
 * The page starts signed in as the demo clerk: the session the sign-in form keeps in this tab's
 * sessionStorage (src/renderer/src/auth/session.ts) is put there before the app loads.
 */
export async function startSignedIn(page: Page, request: APIRequestContext, baseURL: string) {
  const token = await demoToken(request, baseURL);
  await page.addInitScript(
    (session) => {
      if (!sessionStorage.getItem('fulfillment.session'))
        sessionStorage.setItem('fulfillment.session', JSON.stringify(session));
    },
    {
      token: token.access_token,
      email: DEMO.email,
      expiresAt: Date.now() + token.expires_in * 1000,
    },
  );
}
