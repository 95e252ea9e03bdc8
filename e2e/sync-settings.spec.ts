import type { Page } from '@playwright/test';
import { SYNC_NOT_ON_POSTGRES, type SyncSettingsView } from '../src/shared/sync-settings';
import { expect, test, beginEachTest, openSignedIn } from './support';

const DEVICE_ID = 'd1000000-0000-4000-8000-000000000001';

beginEachTest(async (page) => {
  await openSignedIn(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Settings' })
    .click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});

const section = (page: Page) => page.getByRole('region', { name: 'Sync with a central service' });

test('sync settings: invalid values are named at their fields; saved; then stopped', async ({
  page,
}) => {
  const sync = section(page);
  await expect(sync.getByText('This app works on its own (no sync).')).toBeVisible();
  await expect(sync.getByRole('button', { name: 'Stop syncing' })).toHaveCount(0);

  // Checked in the form with the shared schema.
  await sync.getByLabel('Central service URL').fill('http://central.example.com');
  await sync.getByLabel('Device ID').fill('dock-2');
  await sync.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('#settings-sync-url-error')).toHaveText(
    'Must be an https:// URL (http:// only on this machine: localhost, 127.0.0.1)',
  );
  await expect(page.locator('#settings-sync-device-error')).toHaveText(
    'Must be the device ID the central service gave this workstation, written like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  );
  await expect(sync.getByLabel('Central service URL')).toHaveAttribute('aria-invalid', 'true');

  // Checked by the service: no secret stored yet, so an empty one is refused at its field.
  await sync.getByLabel('Central service URL').fill('https://central.example.com');
  await sync.getByLabel('Device ID').fill(DEVICE_ID);
  await sync.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('#settings-sync-secret-error')).toHaveText('This field is required');

  await sync.getByLabel('Device secret').fill('w1-secret-w1-secret');
  await sync.getByRole('button', { name: 'Save' }).click();
  await expect(sync.getByRole('status')).toHaveText(
    'Sync settings saved; restart the app to apply them.',
  );
  await expect(
    sync.getByText(
      'This app works on its own (no sync). The saved settings apply when the app restarts.',
    ),
  ).toBeVisible();
  await expect(page.locator('#settings-sync-url-error')).toHaveCount(0);

  // Kept: shown again after a reload, the secret never.
  await page.reload();
  await expect(section(page).getByLabel('Central service URL')).toHaveValue(
    'https://central.example.com',
  );
  await expect(section(page).getByLabel('Device ID')).toHaveValue(DEVICE_ID);
  await expect(section(page).getByLabel('Device secret')).toHaveValue('');
  await expect(section(page).getByLabel('Device secret')).toHaveAttribute(
    'placeholder',
    'Leave empty to keep the saved secret',
  );

  // Another central URL: the device secret must be typed again (checked in the form).
  await section(page).getByLabel('Central service URL').fill('https://central2.example.com/');
  await section(page).getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('#settings-sync-secret-error')).toHaveText(
    'This field is required for a new central URL',
  );
  await expect(section(page).getByLabel('Device secret')).toBeFocused();
  await section(page).getByLabel('Device secret').fill('w1-secret-again');
  await section(page).getByRole('button', { name: 'Save' }).click();
  await expect(section(page).getByRole('status')).toHaveText(
    'Sync settings saved; restart the app to apply them.',
  );
  await expect(section(page).getByLabel('Central service URL')).toHaveValue(
    'https://central2.example.com',
  );
  // The same URL again: an empty secret keeps the saved one.
  await section(page).getByLabel('Device secret').fill('');
  await section(page).getByRole('button', { name: 'Save' }).click();
  await expect(section(page).getByRole('status')).toHaveText(
    'Sync settings saved; restart the app to apply them.',
  );
  await expect(page.locator('#settings-sync-secret-error')).toHaveCount(0);

  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(
      'Stop syncing with the central service? The app works on its own after the next restart.',
    );
    void dialog.accept();
  });
  await section(page).getByRole('button', { name: 'Stop syncing' }).click();
  await expect(section(page).getByRole('status')).toHaveText(
    'Sync settings removed; restart the app to apply them.',
  );
  await expect(section(page).getByRole('button', { name: 'Stop syncing' })).toHaveCount(0);
  await expect(section(page).getByLabel('Central service URL')).toHaveValue('');
});

test('sync settings set by start-up flags are shown read-only', async ({ page }) => {
  const fromFlags: SyncSettingsView = {
    central_url: 'https://central.example.com',
    device_id: DEVICE_ID,
    has_secret: true,
    source: 'flags',
    active_role: 'workstation',
    problem: null,
    can_change: true,
    central_changed: false,
  };
  await page.route('**/api/sync/v1/settings', (route) =>
    route.fulfill({ json: { message: 'Sync settings retrieved successfully', data: fromFlags } }),
  );
  await page.reload();
  const sync = section(page);
  await expect(
    sync.getByText(
      'This app syncs with a central service as a workstation. Set by start-up flags; change them where the app is started.',
    ),
  ).toBeVisible();
  await expect(sync.getByLabel('Central service URL')).toHaveValue('https://central.example.com');
  await expect(sync.getByLabel('Central service URL')).toBeDisabled();
  await expect(sync.getByLabel('Device secret')).toBeDisabled();
  await expect(sync.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('a user without an admin grant is told so', async ({ page }) => {
  await page.route('**/api/sync/v1/settings', (route) =>
    route.fulfill({
      status: 403,
      json: { message: 'Unauthorized', error: { code: 'UNAUTHORIZED' } },
    }),
  );
  await page.reload();
  const sync = section(page);
  await expect(
    sync.getByText(
      'Only users with an admin grant can see or change the sync settings. Ask an admin.',
    ),
  ).toBeVisible();
  await expect(sync.getByLabel('Central service URL')).toHaveCount(0);
});

const VIEW: SyncSettingsView = {
  central_url: 'https://central.example.com',
  device_id: DEVICE_ID,
  has_secret: true,
  source: 'stored',
  active_role: 'workstation',
  problem: null,
  can_change: true,
  central_changed: false,
};

test('an admin of only some facilities sees the sync settings read-only', async ({ page }) => {
  await page.route('**/api/sync/v1/settings', (route) =>
    route.fulfill({
      json: {
        message: 'Sync settings retrieved successfully',
        data: { ...VIEW, can_change: false },
      },
    }),
  );
  await page.reload();
  const sync = section(page);
  await expect(
    sync.getByText(
      'Only an admin of every facility on this workstation can change the sync settings.',
    ),
  ).toBeVisible();
  await expect(sync.getByLabel('Central service URL')).toHaveValue('https://central.example.com');
  await expect(sync.getByLabel('Central service URL')).toBeDisabled();
  await expect(sync.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('on PostgreSQL the sync settings say why they cannot be changed, not that the user lacks a grant', async ({
  page,
}) => {
  await page.route('**/api/sync/v1/settings', (route) =>
    route.fulfill({
      json: {
        message: 'Sync settings retrieved successfully',
        data: {
          ...VIEW,
          central_url: null,
          device_id: null,
          has_secret: false,
          source: 'none',
          active_role: 'standalone',
          can_change: false,
          problem: SYNC_NOT_ON_POSTGRES,
        },
      },
    }),
  );
  await page.reload();
  const sync = section(page);
  await expect(sync.getByText(`Not syncing: ${SYNC_NOT_ON_POSTGRES}`)).toBeVisible();
  await expect(sync.getByText(/Only an admin of every facility/)).toHaveCount(0);
  await expect(sync.getByRole('button', { name: 'Save' })).toBeDisabled();
});

test('a changed central is named, and an install admin trusts it after a confirmation', async ({
  page,
}) => {
  let accepted = false;
  await page.route('**/api/sync/v1/settings', (route) =>
    route.fulfill({
      json: {
        message: 'Sync settings retrieved successfully',
        data: { ...VIEW, central_changed: !accepted },
      },
    }),
  );
  await page.route('**/api/sync/v1/settings/accept-central', (route) => {
    accepted = true;
    return route.fulfill({
      json: {
        message: 'The new central service is accepted; syncing starts over with it',
        data: VIEW,
      },
    });
  });
  await page.reload();
  const sync = section(page);
  await expect(sync.getByRole('alert')).toContainText(
    'Not syncing: the central service is not the one this workstation synced with',
  );
  page.once('dialog', (dialog) => {
    expect(dialog.message()).toBe(
      "Trust the new central service? This workstation's unsent changes go to it, and then its data replaces the data here.",
    );
    void dialog.accept();
  });
  await sync.getByRole('button', { name: 'Trust the new central service' }).click();
  await expect(sync.getByRole('status')).toHaveText(
    'The new central service is accepted; syncing starts over with it.',
  );
  await expect(sync.getByRole('button', { name: 'Trust the new central service' })).toHaveCount(0);
  expect(accepted).toBe(true);
});
