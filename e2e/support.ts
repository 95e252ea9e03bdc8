import type { Page } from '@playwright/test';
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
