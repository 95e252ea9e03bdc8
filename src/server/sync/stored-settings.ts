import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { storedSyncSettingsSchema, type StoredSyncSettings } from '../../shared/sync-settings';
import { hasSecretsKey, isSealed, seal, SecretLockedError, unseal } from '../core/secret-box';

/** The file in the data dir that holds the sync settings saved in the Settings screen. */
export const SYNC_SETTINGS_FILE = 'sync-settings.json';

export function syncSettingsPath(dataDir: string): string {
  return join(dataDir, SYNC_SETTINGS_FILE);
}

/**
 * The stored settings, or null when there are none. A file that cannot be read or does not hold
 * valid settings is ignored with one line on stderr: a hand-edited file must not stop the service.
 */
export function readStoredSyncSettings(
  dataDir: string,
  log: (line: string) => void = (line) => console.error(line),
): StoredSyncSettings | null {
  if (dataDir === ':memory:') return null;
  const file = syncSettingsPath(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      log(`ignoring ${file}: ${(error as Error).message}`);
    }
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    log(`ignoring ${file}: not JSON`);
    return null;
  }
  const parsed = storedSyncSettingsSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'file'} ${issue.message}`)
      .join('; ');
    log(`ignoring ${file}: ${problems}`);
    return null;
  }
  try {
    return { ...parsed.data, device_secret: unseal(parsed.data.device_secret) };
  } catch (error) {
    if (!(error instanceof SecretLockedError)) throw error;
    log(`ignoring ${file}: the device secret is encrypted with another keychain; enter it again`);
    return null;
  }
}

/**
 * Writes the settings atomically (a private temp file renamed over the old one), so a crash or a
 * second save never leaves half a file. Mode 0600: the file holds the device secret, sealed with
 * the desktop's keychain key where there is one (domain/secret-box.ts).
 */
export function writeStoredSyncSettings(dataDir: string, settings: StoredSyncSettings): void {
  mkdirSync(dataDir, { recursive: true });
  const file = syncSettingsPath(dataDir);
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const value = {
    central_url: settings.central_url,
    device_id: settings.device_id,
    device_secret: seal(settings.device_secret),
  };
  try {
    // `wx`: never write through a file (or link) someone else put at the temp name.
    writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    chmodSync(temp, 0o600); // the umask may have taken bits away; never added
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Removes the stored settings (none stored is fine). */
export function clearStoredSyncSettings(dataDir: string): void {
  rmSync(syncSettingsPath(dataDir), { force: true });
}

/**
 * Seals a device secret saved before the desktop had a keychain key (an upgrade): read at start,
 * written back sealed. Nothing to do headless or when it is sealed already.
 */
export function sealStoredSyncSecret(dataDir: string): void {
  if (dataDir === ':memory:' || !hasSecretsKey()) return;
  let raw: { device_secret?: unknown };
  try {
    raw = JSON.parse(readFileSync(syncSettingsPath(dataDir), 'utf8')) as typeof raw;
  } catch {
    return; // none, or unreadable: readStoredSyncSettings says why when it is used
  }
  if (typeof raw.device_secret !== 'string' || isSealed(raw.device_secret)) return;
  const stored = readStoredSyncSettings(dataDir, () => undefined);
  if (stored && hasSecretsKey()) writeStoredSyncSettings(dataDir, stored);
}
