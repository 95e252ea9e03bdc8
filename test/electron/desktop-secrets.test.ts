import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DESKTOP_KEY_FILE,
  loadOrCreateDesktopKey,
  type KeychainCipher,
} from '../../src/main/desktop-secrets';
import { tempDirsPerTest } from '../helpers/temp-dirs';

/** A stand-in for Electron's safeStorage: "encrypts" by tagging with the keychain's name. */
function keychain(name: string, backend = 'gnome_libsecret'): KeychainCipher {
  return {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend,
    encryptString: (text) => Buffer.from(`${name}|${text}`),
    decryptString: (data) => {
      const [owner, text] = data.toString().split('|');
      if (owner !== name) throw new Error('Error while decrypting the ciphertext provided');
      return text!;
    },
  };
}

const dataDir = tempDirsPerTest('desktop-secrets');

describe('the desktop key for secrets at rest', () => {
  it('is made once, kept only encrypted by the keychain, in a 0600 file, and read back the same', () => {
    const dir = dataDir();
    const first = loadOrCreateDesktopKey(dir, keychain('alice'));
    expect(first.notice).toBeNull();
    expect(first.key).toHaveLength(32);
    const file = join(dir, DESKTOP_KEY_FILE);
    expect(readFileSync(file, 'utf8')).toBe(`alice|${first.key!.toString('base64')}`);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    const again = loadOrCreateDesktopKey(dir, keychain('alice'));
    expect(again.key!.equals(first.key!)).toBe(true);
  });

  it('without a real keychain there is no key (headless rules: 0600 files), and it says so', () => {
    const none = { ...keychain('x'), isEncryptionAvailable: () => false };
    for (const cipher of [none, keychain('x', 'basic_text')]) {
      const dir = dataDir();
      const result = loadOrCreateDesktopKey(dir, cipher);
      expect(result.key).toBeNull();
      expect(result.notice).toMatch(/No OS keychain.*0600/);
      expect(() => statSync(join(dir, DESKTOP_KEY_FILE))).toThrow();
    }
  });

  it('another keychain cannot read the key: none is used and the file is kept for the right one', () => {
    const dir = dataDir();
    loadOrCreateDesktopKey(dir, keychain('alice'));
    const before = readFileSync(join(dir, DESKTOP_KEY_FILE));
    const mallory = loadOrCreateDesktopKey(dir, keychain('mallory'));
    expect(mallory.key).toBeNull();
    expect(mallory.notice).toMatch(/cannot be read with this keychain/);
    expect(readFileSync(join(dir, DESKTOP_KEY_FILE)).equals(before)).toBe(true);
    writeFileSync(join(dir, DESKTOP_KEY_FILE), 'alice|c2hvcnQ=');
    expect(loadOrCreateDesktopKey(dir, keychain('alice')).key).toBeNull();
  });
});
