/**
 * The desktop's key for secrets at rest (domain/secret-box.ts): 32 random bytes, kept in the data
 * dir encrypted with Electron's safeStorage (the OS keychain: Keychain, DPAPI, libsecret/kwallet).
 * The main process reads it and posts it to the service's utility process at start; it is never
 * on a command line, in the environment or on disk in the clear. Nothing here imports Electron,
 * so it is tested in plain Node with a stand-in for safeStorage (test/electron/desktop-secrets.test.ts).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The part of Electron's `safeStorage` this needs. */
export interface KeychainCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: `basic_text` means a fixed key, no keychain at all. */
  getSelectedStorageBackend?(): string;
}

export const DESKTOP_KEY_FILE = 'secrets-key.enc';
const KEY_BYTES = 32;

export interface DesktopKey {
  /** null: secrets stay as they are headless, in files of mode 0600. */
  key: Buffer | null;
  /** Why there is no key, for the log. */
  notice: string | null;
}

export function loadOrCreateDesktopKey(dataDir: string, cipher: KeychainCipher): DesktopKey {
  if (!cipher.isEncryptionAvailable() || cipher.getSelectedStorageBackend?.() === 'basic_text') {
    return {
      key: null,
      notice:
        'No OS keychain: the device secret and connection credentials stay in files only this user can read (mode 0600)',
    };
  }
  const file = join(dataDir, DESKTOP_KEY_FILE);
  if (existsSync(file)) {
    try {
      const key = Buffer.from(cipher.decryptString(readFileSync(file)), 'base64');
      if (key.length !== KEY_BYTES) throw new Error('wrong length');
      return { key, notice: null };
    } catch {
      // Another user's or machine's keychain: keep the file (the right keychain may come back)
      // and run without; sealed secrets must be entered again (secret-box.ts says so).
      return {
        key: null,
        notice: `${file} cannot be read with this keychain; secrets it sealed must be entered again`,
      };
    }
  }
  const key = randomBytes(KEY_BYTES);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, cipher.encryptString(key.toString('base64')), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { key, notice: null };
}
