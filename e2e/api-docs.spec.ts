import { expect, test, watchPageProblems } from './support';

// The API reference runs requests against the service it is served by, on whatever port.

test('/api/docs lists the live origin first, and "Try it out" runs a request', async ({
  page,
  baseURL,
}) => {
  const problems = watchPageProblems(page);
  await page.goto('/api/docs/');

  const servers = page.locator('.servers select');
  await expect(servers).toBeVisible();
  await expect(servers.locator('option').first()).toHaveText(new RegExp(`^${baseURL}`));
  await expect(servers).toHaveValue(baseURL!);

  const health = page.locator('.opblock', { hasText: '/api/health' }).first();
  await health.locator('.opblock-summary-control').click();
  await health.getByRole('button', { name: 'Try it out' }).click();
  const answered = page.waitForResponse(
    (response) => response.url() === `${baseURL}/api/health` && response.status() === 200,
  );
  await health.getByRole('button', { name: 'Execute' }).click();
  await answered;

  // Swagger UI shows the live answer: the request URL on this port and status 200.
  await expect(health.locator('.request-url')).toContainText(`${baseURL}/api/health`);
  await expect(
    health.locator('.live-responses-table tbody .response-col_status').first(),
  ).toHaveText('200');
  expect(problems).toEqual([]);
});
