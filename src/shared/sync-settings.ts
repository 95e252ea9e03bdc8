import { z } from 'zod';
import { syncRoleSchema } from './sync';
import { UUID_TEXT } from './ids';

/**
 * Loopback host names of a URL (localhost, 127.x, ::1, 127.x mapped into IPv6): the same rule as
 * `isLoopbackHost` in src/server/http/host-guard.ts, restated here so the UI form can use it.
 */
function isLoopbackUrlHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return name === 'localhost' || v4 === '::1' || /^127(?:\.\d{1,3}){3}$/.test(v4);
}

/**
 * The central service's URL, with the `--central` flag's rules: a URL, https:// (password hashes
 * travel from the central; only loopback may go without TLS). Stored without trailing slashes.
 */
export const centralUrlSchema = z
  .string({ error: 'is required' })
  .trim()
  // abort: an empty value gets one message, not also the URL's.
  .min(1, { message: 'is required', abort: true })
  .superRefine((text, issues) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      issues.addIssue({
        code: 'custom',
        message: 'must be a URL, like https://central.example.com',
      });
      return;
    }
    const loopback = isLoopbackUrlHost(url.hostname);
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      issues.addIssue({
        code: 'custom',
        message: 'must be an https:// URL (http:// only on this machine: localhost, 127.0.0.1)',
      });
    }
  })
  .transform((text) => new URL(text).toString().replace(/\/+$/, ''));

/** The device id the central knows this workstation by (`--device-id`): any UUID, kept lower case. */
export const deviceIdSchema = z
  .string({ error: 'is required' })
  .trim()
  .min(1, { message: 'is required', abort: true })
  .regex(
    UUID_TEXT,
    'must be the device ID the central service gave this workstation, written like 6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b',
  )
  .transform((value) => value.toLowerCase());

/**
 * `PUT /api/sync/v1/settings` and the Settings screen's form. An empty `device_secret` keeps the
 * stored secret, but only for the same device id (the service answers 400 otherwise).
 */
export const syncSettingsBodySchema = z.object({
  central_url: centralUrlSchema,
  device_id: deviceIdSchema,
  device_secret: z.string({ error: 'must be text' }).optional().default(''),
});
export type SyncSettingsBody = z.output<typeof syncSettingsBodySchema>;
export type SyncSettingsInput = z.input<typeof syncSettingsBodySchema>;

/** `PUT /api/sync/v1/settings` with `{clear: true}`: stop syncing after the next restart. */
export const clearSyncSettingsBodySchema = z.object({ clear: z.literal(true) });

/** `<data-dir>/sync-settings.json`: what a workstation starts with when no sync flags are given. */
export const storedSyncSettingsSchema = z.object({
  central_url: centralUrlSchema,
  device_id: deviceIdSchema,
  device_secret: z.string({ error: 'is required' }).min(1, 'is required'),
});
export type StoredSyncSettings = z.output<typeof storedSyncSettingsSchema>;

/** Where the sync settings in force come from: start-up flags, the stored file, or nowhere. */
const syncSettingsSourceSchema = z.enum(['flags', 'stored', 'none']);
export type SyncSettingsSource = z.infer<typeof syncSettingsSourceSchema>;

/** `GET /api/sync/v1/settings` (never the secret). */
export const syncSettingsViewSchema = z.object({
  central_url: z.string().nullable(),
  device_id: z.string().nullable(),
  has_secret: z.boolean(),
  source: syncSettingsSourceSchema,
  /** The role this service runs as now (saved settings apply at the next start). */
  active_role: syncRoleSchema,
  /** Why the stored settings were not applied at the last start; null when they were or none. */
  problem: z.string().nullable(),
  /** Whether this user may change them: an install admin (admin of every facility here). */
  can_change: z.boolean(),
  /** The central's identity changed since the first pull; sync waits for an admin to accept it. */
  central_changed: z.boolean(),
});
export type SyncSettingsView = z.infer<typeof syncSettingsViewSchema>;

/**
 * The settings form makes a workstation, which keeps its data in SQLite: settings saved on a
 * PostgreSQL service would stop its next start. (A central on PostgreSQL is started by flags.)
 */
export const SYNC_NOT_ON_POSTGRES =
  'This service keeps its data in PostgreSQL, so it cannot be a workstation; on PostgreSQL only the central syncs (--role central)';
